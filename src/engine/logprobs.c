#include "engine/logprobs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* NaN is no probability: it ranks below every number, -inf included. */
static bool ranks_above(float a, int32_t ia, float b, int32_t ib) {
  if (isnan(b)) return !isnan(a) || ia < ib;
  if (isnan(a)) return false;
  return a > b || (a == b && ia < ib);
}

void mx_logprob_compute(const float *logits, int vocab, int32_t chosen, int n_top, mx_token_logprob_t *out) {
  if (n_top < 0) n_top = 0;
  if (n_top > MX_MAX_TOP_LOGPROBS) n_top = MX_MAX_TOP_LOGPROBS;
  if (n_top > vocab) n_top = vocab;
  /* The log of the sum of exponentials, in double around the largest finite logit. */
  double max = -INFINITY;
  for (int i = 0; i < vocab; i++)
    if (isfinite(logits[i]) && logits[i] > max) max = logits[i];
  double sum = 0;
  if (isfinite(max))
    for (int i = 0; i < vocab; i++)
      if (!isnan(logits[i])) sum += exp((double)logits[i] - max);
  double lse = isfinite(max) ? max + log(sum) : INFINITY;
  /* The n_top largest by insertion into a short sorted list: one pass over the row. */
  int n = 0;
  for (int32_t i = 0; i < vocab && n_top > 0; i++) {
    float x = logits[i];
    if (n == n_top && !ranks_above(x, i, logits[out->top_id[n - 1]], out->top_id[n - 1])) continue;
    int k = n < n_top ? n++ : n - 1;
    while (k > 0 && ranks_above(x, i, logits[out->top_id[k - 1]], out->top_id[k - 1])) {
      out->top_id[k] = out->top_id[k - 1];
      k--;
    }
    out->top_id[k] = i;
  }
  out->n_top = n;
  for (int k = 0; k < n; k++) {
    float x = logits[out->top_id[k]];
    out->top_logprob[k] = isnan(x) ? -INFINITY : (float)((double)x - lse);
  }
  out->id = chosen;
  float c = chosen >= 0 && chosen < vocab ? logits[chosen] : NAN;
  out->logprob = isnan(c) ? -INFINITY : (float)((double)c - lse);
}

bool mx_logprob_list_push(mx_logprob_list_t *l, const mx_token_logprob_t *e) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 64;
    mx_token_logprob_t *v = realloc(l->v, cap * sizeof *v);
    if (!v) return false;
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = *e;
  return true;
}

void mx_logprob_list_free(mx_logprob_list_t *l) {
  free(l->v);
  memset(l, 0, sizeof *l);
}
