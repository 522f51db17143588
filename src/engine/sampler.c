#include "engine/sampler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/gumbel.h"

struct mx_sampler {
  mx_sampling_t p;
  int vocab;
  bool plain;   /* temperature only: no candidates to find (mx_sampling_is_plain) */
  uint32_t key; /* the draw's key, from the seed (base/gumbel.h) */
  int32_t *order;  /* ids being selected (cut_at), or the candidates in order (mx_sampler_candidates) */
  double *weight;  /* exp(logit - max) by token id */
  uint32_t *rank;  /* rank_key of each processed logit, computed once per pick for every pass */
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

bool mx_sampling_is_cut_only(const mx_sampling_t *s) {
  return !greedy_temperature(s->temperature) && s->repeat_penalty == 1 && s->presence_penalty == 0 && s->frequency_penalty == 0 &&
         s->n_bias == 0;
}

bool mx_sampling_is_plain(const mx_sampling_t *s, int vocab) {
  return mx_sampling_is_cut_only(s) && (s->top_k == 0 || s->top_k >= vocab) && s->top_p == 1 && s->min_p == 0;
}

mx_sampler_t *mx_sampler_create(const mx_sampling_t *p, int vocab) {
  mx_sampler_t *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->p = *p;
  s->vocab = vocab;
  s->plain = mx_sampling_is_plain(p, vocab);
  s->key = mx_gumbel_key(p->seed);
  s->order = malloc(sizeof *s->order * (size_t)vocab);
  s->weight = malloc(sizeof *s->weight * (size_t)vocab);
  s->rank = malloc(sizeof *s->rank * (size_t)vocab);
  s->seen = calloc((size_t)vocab, 1);
  s->count = calloc((size_t)vocab, sizeof *s->count);
  if (!s->order || !s->weight || !s->rank || !s->seen || !s->count) {
    mx_sampler_destroy(s);
    return NULL;
  }
  return s;
}

void mx_sampler_destroy(mx_sampler_t *s) {
  if (!s) return;
  free(s->order);
  free(s->weight);
  free(s->rank);
  free(s->seen);
  free(s->count);
  free(s);
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

/* Choosing the candidates without sorting the vocabulary (issue 11: a qsort of Llama 3's 128256
 * logits cost 19-20 ms per token, ten times a GPU decode step). The candidates are always a prefix of
 * the drawing order (logit descending, ties by the lower id): top-k is its first k, top-p the shortest
 * with mass >= top_p, min-p those within a ratio of the largest. A prefix is found by a radix select
 * over the logits' float bits: a histogram of count and mass per bucket of the key's top 11 bits
 * finds the bucket where the prefix ends, then the next 11 bits within that bucket, then the last 10,
 * then the ties one by one in id order. Each level is one pass; no row, flat or peaked, costs a sort. */

/* Smaller for a larger logit; equal for equal logits (-0 is +0). */
static inline uint32_t rank_key(float l) {
  if (l == 0) l = 0;
  uint32_t u;
  memcpy(&u, &l, sizeof u);
  return (u & 0x80000000u) ? u : ~(u | 0x80000000u);
}

/* A prefix of the drawing order: every entry with a key below `key`, and the first `ties` entries
 * (in id order) whose key equals it; `count` entries of mass `mass` (the sum of their weights). */
typedef struct {
  uint32_t key;
  int ties, count;
  double mass;
} cut_t;

typedef enum { CUT_BY_COUNT, CUT_BY_MASS } cut_by_t;

static bool cut_reached(cut_by_t by, double want, int count, double mass) {
  return by == CUT_BY_COUNT ? count >= want : mass >= want;
}

/* The shortest prefix (by the keys in s->rank) whose count (or mass) reaches `want`; the whole row when
 * none does. */
static cut_t cut_at(mx_sampler_t *s, cut_by_t by, double want) {
  static const int shift[3] = {21, 10, 0}, bits[3] = {11, 11, 10};
  int V = s->vocab, n = V; /* level 0 reads every id; then the ids of the boundary bucket, in order */
  int32_t *ids = s->order;
  cut_t c = {0};
  uint32_t high = 0; /* the key's bits above the level's, fixed by the levels before */
  int count[2048];
  double mass[2048];
  for (int level = 0; level < 3; level++) {
    int nb = 1 << bits[level];
    memset(count, 0, sizeof *count * (size_t)nb);
    memset(mass, 0, sizeof *mass * (size_t)nb);
    for (int j = 0; j < n; j++) {
      int i = level ? ids[j] : j;
      uint32_t b = (s->rank[i] >> shift[level]) & (uint32_t)(nb - 1);
      count[b]++, mass[b] += s->weight[i];
    }
    int b = 0, last = -1; /* last: the last nonempty bucket passed, and `before` the prefix without it */
    cut_t before = c;
    for (; b < nb && !cut_reached(by, want, c.count + count[b], c.mass + mass[b]); b++)
      if (count[b]) before = c, last = b, c.count += count[b], c.mass += mass[b];
    if (b == nb) {
      if (level == 0) return (cut_t){.key = UINT32_MAX, .ties = V, .count = V, .mass = c.mass}; /* never reached */
      /* The bucket above reached it as a whole, but the sums of its parts, added in another order,
       * fell short by a rounding: the boundary is its last part (and in it, every tie). */
      b = last, c = before;
    }
    high |= (uint32_t)b << shift[level];
    int m = 0; /* gather the boundary bucket's ids, keeping id order */
    uint32_t mask = ~0u << shift[level];
    for (int j = 0; j < n; j++) {
      int i = level ? ids[j] : j;
      if ((s->rank[i] & mask) == high) ids[m++] = i;
    }
    n = m;
  }
  c.key = high;
  for (int j = 0; j < n; j++) { /* the ties: all of key `high`, in id order */
    c.ties++, c.count++, c.mass += s->weight[ids[j]];
    if (cut_reached(by, want, c.count, c.mass)) break;
  }
  return c;
}

/* Runs `body` for each id `i` of the prefix `c`, in id order. */
#define FOR_EACH_IN_CUT(c, rank, V, i, body)                    \
  do {                                                          \
    int ties_left_ = (c).ties;                                  \
    for (int i = 0; i < (V); i++) {                             \
      uint32_t key_ = (rank)[i];                                \
      if (key_ > (c).key || (key_ == (c).key && ties_left_-- <= 0)) \
        continue;                                               \
      body;                                                     \
    }                                                           \
  } while (0)

/* What a pick draws from: the prefix `cut`, each candidate i with probability weight[i] / sum / total,
 * `total` the kept mass (summed in id order). */
typedef struct {
  cut_t cut;
  double sum, total;
} kept_t;

/* A weight below exp(-cutoff) of the largest is taken as 0: over the whole vocabulary such weights
 * add up to less than 2^-60 of the sum, below what the f64 sum can hold, and skipping their exp
 * saves most of a pass over a peaked row. */
static double negligible_gap(int vocab) { return log((double)vocab) + 60 * 0.6931471805599453; }

/* The bias, the penalties, the temperature, then top-k, top-p and min-p. Returns the pick itself
 * (>= 0) when the row is not sampled from (greedy, or a row with NaN or +inf), else -1 and *k. */
static int32_t keep_candidates(mx_sampler_t *s, float *logits, const int32_t *history, int n_history, int n_prompt, kept_t *k) {
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
  const float T = greedy ? 1 : s->p.temperature;
  float top = -INFINITY;
  for (int i = 0; i < V; i++) {
    float z = logits[i] / T; /* the logits stay as they are: the draw adds T * g to them */
    if (isnan(z) || z == INFINITY) return fallback;
    if (z > top) top = z;
  }
  if (top == -INFINITY) return fallback;
  if (greedy) return mx_logits_argmax(logits, V);
  /* Weights exp(z - max) in f64, z = logit / T; the softmax is over the top-k (the whole row when
   * top-k is off). */
  double gap = negligible_gap(V), all = 0;
  for (int i = 0; i < V; i++) {
    float z = logits[i] / T;
    double d = (double)z - top;
    all += (s->weight[i] = d < -gap ? 0 : exp(d));
    s->rank[i] = rank_key(z);
  }
  bool top_k = s->p.top_k > 0 && s->p.top_k < V;
  cut_t kept = top_k ? cut_at(s, CUT_BY_COUNT, s->p.top_k) : (cut_t){.key = UINT32_MAX, .ties = V, .count = V, .mass = all};
  double sum = kept.mass;
  if (s->p.top_p < 1) {
    cut_t p = cut_at(s, CUT_BY_MASS, s->p.top_p * sum);
    if (p.count < kept.count) kept = p;
  }
  if (s->p.min_p > 0) { /* a prefix too: the weight falls with the logit, and equal logits share it */
    int n = 0;
    double floor = s->p.min_p * (1 / sum);
    for (int i = 0; i < V; i++) n += s->weight[i] / sum >= floor;
    if (n < kept.count) kept = cut_at(s, CUT_BY_COUNT, n);
  }
  double total = 0;
  FOR_EACH_IN_CUT(kept, s->rank, V, i, total += s->weight[i] / sum);
  *k = (kept_t){.cut = kept, .sum = sum, .total = total};
  return -1;
}

/* The seeded draw (base/gumbel.h): the argmax of logit + T * g(id), the draw decode_<W>_steps makes on
 * the device, over the ids of the cut `c` (every id when NULL; ties to the lower id). The logits are
 * the row the device has, or the host's after the bias and the penalties, before the temperature. An
 * id whose logit plus the largest noise (with a margin for the last bit of logf) stays below the best
 * score so far is skipped without computing its noise; the largest logit's own score starts the
 * search, so a peaked row computes few logs. */
static int32_t gumbel_argmax(const mx_sampler_t *s, const float *logits, int32_t pos, const cut_t *c) {
  int V = s->vocab;
  int32_t top = -1;
  if (c) FOR_EACH_IN_CUT(*c, s->rank, V, i, if (top < 0 || logits[i] > logits[top]) top = i);
  else
    for (int i = 0; i < V; i++)
      if (top < 0 || logits[i] > logits[top]) top = i;
  const float T = s->p.temperature, reach = T * (mx_gumbel_noise_max() + 1e-3f);
  uint32_t row = mx_gumbel_row(s->key, pos);
  float best = logits[top] + T * mx_gumbel_noise(row, top);
  int32_t pick = top;
#define GUMBEL_TRY(i)                                                 \
  do {                                                                \
    if ((i) == top || logits[i] + reach < best) break;                \
    float score_ = logits[i] + T * mx_gumbel_noise(row, (int32_t)(i)); \
    if (score_ > best || (score_ == best && (i) < pick)) best = score_, pick = (i); \
  } while (0)
  if (c) FOR_EACH_IN_CUT(*c, s->rank, V, i, GUMBEL_TRY(i));
  else
    for (int i = 0; i < V; i++) GUMBEL_TRY(i);
#undef GUMBEL_TRY
  return pick;
}

/* A plain-temperature pick: the draw over every id of the raw row. A row with NaN or +inf gets the
 * argmax of its finite entries, as keep_candidates gives it; a row of -inf gets 0. */
static int32_t plain_pick(const mx_sampler_t *s, const float *logits, int32_t pos) {
  int V = s->vocab;
  int32_t top = 0;
  for (int i = 0; i < V; i++) {
    if (isnan(logits[i]) || logits[i] == INFINITY) return finite_argmax(logits, V);
    if (logits[i] > logits[top]) top = i;
  }
  if (logits[top] == -INFINITY) return 0;
  return gumbel_argmax(s, logits, pos, NULL);
}

/* Every sampled pick is the seeded draw (since 2026-12-07: one draw whether the device or the host
 * makes it, cuts included): over every id for a plain temperature, else over the candidates. */
int32_t mx_sampler_pick(mx_sampler_t *s, float *logits, const int32_t *history, int n_history, int n_prompt) {
  if (s->plain) return plain_pick(s, logits, n_history - 1);
  kept_t k;
  int32_t pick = keep_candidates(s, logits, history, n_history, n_prompt, &k);
  if (pick >= 0) return pick;
  return gumbel_argmax(s, logits, n_history - 1, &k.cut);
}

/* Probability descending (z = logit / T descending), ties by the lower id, as argmax. */
static int cmp_desc(const void *a, const void *b, void *ctx) {
  const mx_sampler_t *s = ctx;
  int32_t i = *(const int32_t *)a, j = *(const int32_t *)b;
  if (s->rank[i] != s->rank[j]) return s->rank[i] < s->rank[j] ? -1 : 1;
  return i - j;
}

int mx_sampler_candidates(mx_sampler_t *s, float *logits, int32_t *ids, double *probs, int max) {
  kept_t k;
  int32_t pick = keep_candidates(s, logits, NULL, 0, 0, &k);
  if (pick >= 0) {
    if (max < 1) return 0;
    ids[0] = pick, probs[0] = 1;
    return 1;
  }
  int n = 0;
  FOR_EACH_IN_CUT(k.cut, s->rank, s->vocab, i, if (s->weight[i] > 0) s->order[n++] = i);
  qsort_r(s->order, (size_t)n, sizeof *s->order, cmp_desc, s);
  if (n > max) n = max;
  for (int i = 0; i < n; i++) ids[i] = s->order[i], probs[i] = s->weight[s->order[i]] / k.sum / k.total;
  return n;
}
