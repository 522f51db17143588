/* The sampler's documented semantics written the plain way, for the tests and the sampler bench to
 * hold engine/sampler against: temperature, then the whole row sorted (logit descending, ties by the
 * lower id), softmax over the top-k (all when off) in f64, top-p (the smallest prefix whose mass
 * reaches it), min-p (the prefix whose probability is at least min-p times the largest). This is what
 * the sampler did until 2026-12-06, when sorting 128256 entries per token cost 19-20 ms. */
#ifndef MX_TESTS_SAMPLER_REFERENCE_H
#define MX_TESTS_SAMPLER_REFERENCE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/sampler.h"

static inline int ref_cmp_desc(const void *a, const void *b, void *ctx) {
  const float *l = ctx;
  int32_t i = *(const int32_t *)a, j = *(const int32_t *)b;
  if (l[i] != l[j]) return l[i] > l[j] ? -1 : 1;
  return i - j;
}

/* Writes the kept candidates of nonzero probability in order with their probabilities over the kept
 * set; returns their count. raw: V finite or -inf logits, at least one finite; temperature above the greedy bound. */
static inline int ref_candidates(const mx_sampling_t *p, const float *raw, int V, int32_t *ids, double *probs) {
  float *l = malloc(sizeof *l * (size_t)V);
  int32_t *order = malloc(sizeof *order * (size_t)V);
  double *pr = malloc(sizeof *pr * (size_t)V);
  for (int i = 0; i < V; i++) l[i] = raw[i] / p->temperature, order[i] = i;
  qsort_r(order, (size_t)V, sizeof *order, ref_cmp_desc, l);
  int n = p->top_k > 0 && p->top_k < V ? p->top_k : V;
  double sum = 0;
  for (int i = 0; i < n; i++) sum += (pr[i] = exp((double)l[order[i]] - (double)l[order[0]]));
  for (int i = 0; i < n; i++) pr[i] /= sum;
  int keep = n;
  double cum = 0;
  for (int i = 0; p->top_p < 1 && i < n; i++)
    if ((cum += pr[i]) >= p->top_p) {
      keep = i + 1;
      break;
    }
  if (p->min_p > 0) {
    int k = 1;
    while (k < keep && pr[k] >= p->min_p * pr[0]) k++;
    keep = k;
  }
  double total = 0;
  for (int i = 0; i < keep; i++) total += pr[i];
  int m = 0; /* the candidates that can be drawn: -inf entries (probability 0) are not */
  for (int i = 0; i < keep; i++)
    if (pr[i] > 0) ids[m] = order[i], probs[m++] = pr[i] / total;
  free(l), free(order), free(pr);
  return m;
}

/* Rows for the comparisons: a deterministic generator (xorshift64*, Box-Muller) and the shapes that
 * matter for a sampler that avoids sorting: a model-like row (most mass on a few tokens), a flat one
 * (every token near the top: the prefix must grow to the whole vocabulary), ties, -inf entries. */
typedef struct {
  uint64_t x;
} ref_rng_t;

static inline double ref_uniform(ref_rng_t *r) {
  r->x ^= r->x >> 12, r->x ^= r->x << 25, r->x ^= r->x >> 27;
  return (double)((r->x * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

static inline double ref_normal(ref_rng_t *r) {
  double u = ref_uniform(r), v = ref_uniform(r);
  return sqrt(-2 * log(u + 1e-300)) * cos(6.283185307179586 * v);
}

enum { REF_MODEL_LIKE, REF_FLAT, REF_TIES, REF_NEG_INF, REF_SHAPES };
static const char *const ref_shape_names[REF_SHAPES] = {"model-like", "flat", "ties", "-inf"};

static inline void ref_row(int shape, float *l, int V, ref_rng_t *r) {
  for (int i = 0; i < V; i++) {
    switch (shape) {
      case REF_MODEL_LIKE: l[i] = (float)(2.5 * ref_normal(r)); break;
      case REF_FLAT: l[i] = (float)(1e-3 * ref_uniform(r)); break;
      case REF_TIES: l[i] = (float)(int)(8 * ref_uniform(r)); break;
      default: l[i] = ref_uniform(r) < 0.5 ? -INFINITY : (float)ref_normal(r); break;
    }
  }
  if (shape == REF_MODEL_LIKE) /* a few tokens well above the rest, as a trained model's row has */
    for (int j = 0; j < 6; j++) l[(int)(ref_uniform(r) * V)] = (float)(9 + 3 * ref_uniform(r));
}

#endif
