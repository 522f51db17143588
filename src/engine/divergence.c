#include "engine/divergence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void top2(const float *l, int V, int *best, double *margin) {
  int b = 0, s = -1;
  for (int i = 1; i < V; i++)
    if (l[i] > l[b]) b = i;
  for (int i = 0; i < V; i++)
    if (i != b && (s < 0 || l[i] > l[s])) s = i;
  *best = b;
  *margin = (double)l[b] - (double)l[s];
}

static double nll(const float *l, int V, int target) {
  double mx = l[0], sum = 0;
  for (int i = 1; i < V; i++)
    if (l[i] > mx) mx = l[i];
  for (int i = 0; i < V; i++) sum += exp((double)l[i] - mx);
  return -((double)l[target] - mx - log(sum));
}

mx_status_t mx_divergence_measure(mx_session_t *ref_s, mx_session_t *low_s, const int32_t *prompt, int n_prompt,
                                  const int32_t *ref, const int32_t *low, int steps, mx_divergence_t *r) {
  int V = mx_session_config(ref_s)->vocab, n = n_prompt + steps - 1;
  int32_t *seq = malloc(sizeof *seq * (size_t)n);
  float *lr = malloc(sizeof(float) * (size_t)n * (size_t)V), *ll = malloc(sizeof(float) * (size_t)n * (size_t)V);
  mx_status_t st = (!seq || !lr || !ll) ? mx_status_oom() : NULL;
  if (!st) {
    memcpy(seq, prompt, sizeof *seq * (size_t)n_prompt);
    memcpy(seq + n_prompt, ref, sizeof *seq * (size_t)(steps - 1));
    st = mx_session_score(ref_s, seq, n, lr);
  }
  if (!st) st = mx_session_score(low_s, seq, n, ll);
  if (!st) {
    r->div = -1;
    for (int k = 0; k < steps && r->div < 0; k++)
      if (ref[k] != low[k]) r->div = k;
    int agree = 0;
    double nll_ref = 0, nll_low = 0;
    for (int k = 0; k < steps; k++) {
      size_t row = (size_t)(n_prompt - 1 + k) * (size_t)V;
      int b;
      double m;
      top2(ll + row, V, &b, &m);
      agree += b == ref[k];
      nll_ref += nll(lr + row, V, ref[k]);
      nll_low += nll(ll + row, V, ref[k]);
      if (k == r->div) top2(lr + row, V, &b, &r->margin);
    }
    r->agreement = (double)agree / steps;
    r->ppl_ratio = exp((nll_low - nll_ref) / steps);
  }
  free(seq);
  free(lr);
  free(ll);
  return st;
}

bool mx_divergence_passes(const mx_divergence_t *r) {
  return r->div < 0 || (r->margin < 0.1 && r->agreement >= 0.98 && fabs(r->ppl_ratio - 1) <= 0.01);
}

