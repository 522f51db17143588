#include "engine/sampler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mx_sampler {
  mx_sampling_t p;
  int vocab;
  uint64_t rng;
  int32_t *order;
  uint8_t *seen;
  int32_t *count; /* zero between picks: presence and frequency count the output here */
};

mx_status_t mx_sampling_validate(const mx_sampling_t *s) {
  if (!(s->temperature >= 0 && s->temperature <= 100))
    return mx_status_make(MX_STAGE_USAGE, "use 0 (greedy) to 100", "temperature %g is out of range", s->temperature);
  if (s->top_k < 0) return mx_status_make(MX_STAGE_USAGE, "use 0 (off) or a positive count", "top-k %d is out of range", s->top_k);
  if (!(s->top_p > 0 && s->top_p <= 1)) return mx_status_make(MX_STAGE_USAGE, "use a value in (0, 1]", "top-p %g is out of range", s->top_p);
  if (!(s->min_p >= 0 && s->min_p < 1)) return mx_status_make(MX_STAGE_USAGE, "use a value in [0, 1)", "min-p %g is out of range", s->min_p);
  /* Refused rather than clamped: a caller who asks for 1e-6 gets an error naming the bound, not
   * a different penalty than it asked for without being told. */
  if (!(s->repeat_penalty >= MX_SAMPLING_MIN_REPEAT_PENALTY && s->repeat_penalty <= 10))
    return mx_status_make(MX_STAGE_USAGE, "use a value in [0.01, 10], 1 = off", "repetition penalty %g is out of range",
                          s->repeat_penalty);
  const float P = MX_SAMPLING_MAX_PENALTY, B = MX_SAMPLING_MAX_BIAS;
  if (!(s->presence_penalty >= -P && s->presence_penalty <= P))
    return mx_status_make(MX_STAGE_USAGE, "use a value in [-2, 2], 0 = off", "presence penalty %g is out of range", s->presence_penalty);
  if (!(s->frequency_penalty >= -P && s->frequency_penalty <= P))
    return mx_status_make(MX_STAGE_USAGE, "use a value in [-2, 2], 0 = off", "frequency penalty %g is out of range",
                          s->frequency_penalty);
  if (s->n_bias < 0 || s->n_bias > MX_SAMPLING_MAX_BIASED)
    return mx_status_make(MX_STAGE_USAGE, "bias at most 300 tokens", "logit bias has %d entries", s->n_bias);
  for (int i = 0; i < s->n_bias; i++) {
    if (s->bias[i].id < 0)
      return mx_status_make(MX_STAGE_USAGE, "use token ids of the model's vocabulary", "logit bias token id %d is negative",
                            (int)s->bias[i].id);
    if (!(s->bias[i].bias >= -B && s->bias[i].bias <= B))
      return mx_status_make(MX_STAGE_USAGE, "use a bias in [-100, 100]", "logit bias %g of token %d is out of range",
                            s->bias[i].bias, (int)s->bias[i].id);
  }
  return NULL;
}

mx_status_t mx_sampling_check_vocab(const mx_sampling_t *s, int vocab) {
  for (int i = 0; i < s->n_bias; i++)
    if (s->bias[i].id >= vocab)
      return mx_status_make(MX_STAGE_USAGE, "use token ids of the model's vocabulary (`mlxcel tokenize` shows them)",
                            "logit bias token id %d is outside the vocabulary of %d tokens", (int)s->bias[i].id, vocab);
  return NULL;
}

static bool greedy_temperature(float t) { return t < MX_SAMPLING_GREEDY_TEMPERATURE; }

/* Anything that changes a logit needs the logits on the host, even at temperature 0. */
bool mx_sampling_is_greedy(const mx_sampling_t *s) {
  return greedy_temperature(s->temperature) && s->repeat_penalty == 1 && s->presence_penalty == 0 && s->frequency_penalty == 0 &&
         s->n_bias == 0;
}

mx_sampler_t *mx_sampler_create(const mx_sampling_t *p, int vocab) {
  mx_sampler_t *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->p = *p;
  s->vocab = vocab;
  s->rng = p->seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
  if (!s->rng) s->rng = 1;
  s->order = malloc(sizeof *s->order * (size_t)vocab);
  s->seen = calloc((size_t)vocab, 1);
  s->count = calloc((size_t)vocab, sizeof *s->count);
  if (!s->order || !s->seen || !s->count) {
    mx_sampler_destroy(s);
    return NULL;
  }
  return s;
}

void mx_sampler_destroy(mx_sampler_t *s) {
  if (!s) return;
  free(s->order);
  free(s->seen);
  free(s->count);
  free(s);
}

static double next_uniform(mx_sampler_t *s) {
  s->rng ^= s->rng >> 12, s->rng ^= s->rng << 25, s->rng ^= s->rng >> 27;
  return (double)((s->rng * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

static int cmp_desc(const void *a, const void *b, void *ctx) {
  const float *l = ctx;
  float x = l[*(const int32_t *)a], y = l[*(const int32_t *)b];
  if (x != y) return x > y ? -1 : 1;
  return *(const int32_t *)a - *(const int32_t *)b; /* ties: lower id first, as argmax */
}

/* NaN never compares greater, so a NaN start would win over the whole row: start at the first
 * non-NaN entry instead. */
int32_t mx_logits_argmax(const float *logits, int n) {
  int32_t best = 0;
  while (best < n - 1 && isnan(logits[best])) best++;
  for (int i = best + 1; i < n; i++)
    if (logits[i] > logits[best]) best = i;
  return isnan(logits[best]) ? 0 : best;
}

/* The lowest index of the largest finite logit; 0 when none is finite. */
static int32_t finite_argmax(const float *logits, int n) {
  int32_t best = -1;
  for (int i = 0; i < n; i++)
    if (isfinite(logits[i]) && (best < 0 || logits[i] > logits[best])) best = i;
  return best < 0 ? 0 : best;
}

/* A row is sampled only when every processed logit is finite or -inf (a token made impossible) and
 * its largest is finite: NaN or +inf (a broken device result, or an overflow of the penalty or the
 * temperature) makes the sort's order arbitrary and every probability NaN, and the draw then fell
 * to the last candidate, the least likely. Such a row gets the argmax of its finite raw logits (the
 * row as it came, before the penalty and the temperature): a defined choice, the one greedy decoding
 * makes among the entries that are usable. */
static bool in_vocab(const mx_sampler_t *s, int32_t id) { return id >= 0 && id < s->vocab; }

/* OpenAI's presence and frequency penalties over the output `gen`: counted in one pass, applied in a
 * second, which also puts each count back to zero. */
static void penalize_output(mx_sampler_t *s, float *logits, const int32_t *gen, int n_gen) {
  if (s->p.presence_penalty == 0 && s->p.frequency_penalty == 0) return;
  for (int i = 0; i < n_gen; i++)
    if (in_vocab(s, gen[i])) s->count[gen[i]]++;
  for (int i = 0; i < n_gen; i++) {
    int32_t id = gen[i];
    if (!in_vocab(s, id) || !s->count[id]) continue;
    logits[id] -= (float)s->count[id] * s->p.frequency_penalty + s->p.presence_penalty;
    s->count[id] = 0;
  }
}

int32_t mx_sampler_pick(mx_sampler_t *s, float *logits, const int32_t *history, int n_history, int n_prompt) {
  int V = s->vocab;
  int32_t fallback = finite_argmax(logits, V);
  for (int i = 0; i < s->p.n_bias; i++)
    if (in_vocab(s, s->p.bias[i].id)) logits[s->p.bias[i].id] += s->p.bias[i].bias;
  if (s->p.repeat_penalty != 1) {
    memset(s->seen, 0, (size_t)V);
    for (int i = 0; i < n_history; i++)
      if (in_vocab(s, history[i]) && !s->seen[history[i]]) {
        s->seen[history[i]] = 1;
        float *l = &logits[history[i]];
        *l = *l > 0 ? *l / s->p.repeat_penalty : *l * s->p.repeat_penalty;
      }
  }
  if (n_prompt >= 0 && n_prompt < n_history) penalize_output(s, logits, history + n_prompt, n_history - n_prompt);
  bool greedy = greedy_temperature(s->p.temperature);
  float top = -INFINITY;
  for (int i = 0; i < V; i++) {
    s->order[i] = i;
    if (!greedy) logits[i] /= s->p.temperature;
    if (isnan(logits[i]) || logits[i] == INFINITY) return fallback;
    if (logits[i] > top) top = logits[i];
  }
  if (top == -INFINITY) return fallback;
  if (greedy) return mx_logits_argmax(logits, V);
  qsort_r(s->order, (size_t)V, sizeof *s->order, cmp_desc, logits);
  int n = s->p.top_k > 0 && s->p.top_k < V ? s->p.top_k : V;
  /* Softmax over the kept candidates, in f64 for the cumulative sums. */
  double maxl = logits[s->order[0]], sum = 0;
  double *prob = malloc(sizeof *prob * (size_t)n);
  if (!prob) return s->order[0];
  for (int i = 0; i < n; i++) sum += (prob[i] = exp((double)logits[s->order[i]] - maxl));
  for (int i = 0; i < n; i++) prob[i] /= sum;
  int keep = n;
  if (s->p.top_p < 1) {
    double cum = 0;
    for (int i = 0; i < n; i++) {
      cum += prob[i];
      if (cum >= s->p.top_p) {
        keep = i + 1;
        break;
      }
    }
  }
  if (s->p.min_p > 0) {
    int k = 1;
    while (k < keep && prob[k] >= s->p.min_p * prob[0]) k++;
    keep = k;
  }
  double total = 0;
  for (int i = 0; i < keep; i++) total += prob[i];
  double r = next_uniform(s) * total, acc = 0;
  int32_t pick = s->order[keep - 1];
  for (int i = 0; i < keep; i++) {
    acc += prob[i];
    if (r < acc) {
      pick = s->order[i];
      break;
    }
  }
  free(prob);
  return pick;
}
