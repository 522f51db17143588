#include "engine/divergence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void top2(const float *l, int V, int *best, int *second) {
  int b = 0, s = -1;
  for (int i = 1; i < V; i++)
    if (l[i] > l[b]) b = i;
  for (int i = 0; i < V; i++)
    if (i != b && (s < 0 || l[i] > l[s])) s = i;
  *best = b;
  *second = s;
}

/* log-sum-exp of a row, for log-softmax. */
static double lse(const float *l, int V) {
  double mx = l[0], sum = 0;
  for (int i = 1; i < V; i++)
    if (l[i] > mx) mx = l[i];
  for (int i = 0; i < V; i++) sum += exp((double)l[i] - mx);
  return mx + log(sum);
}

/* KL(p || q) of the softmaxes of two logit rows. */
static double kl(const float *p, const float *q, int V) {
  double lp = lse(p, V), lq = lse(q, V), k = 0;
  for (int i = 0; i < V; i++) {
    double a = (double)p[i] - lp;
    k += exp(a) * (a - ((double)q[i] - lq));
  }
  return k > 0 ? k : 0;
}

void mx_lowprec_compare(const float *ref, const float *low, int V, int steps, mx_lowprec_t *r) {
  double *margin = malloc(sizeof *margin * (size_t)(steps > 0 ? steps : 1));
  bool *flip = malloc(sizeof *flip * (size_t)(steps > 0 ? steps : 1));
  double gap2 = 0, kls = 0, nll_ref = 0, nll_low = 0;
  r->steps = steps;
  r->flips = r->counted_flips = 0;
  r->min_counted_margin = 0;
  for (int k = 0; k < steps && margin && flip; k++) {
    const float *lr = ref + (size_t)k * (size_t)V, *ll = low + (size_t)k * (size_t)V;
    int b, s, lb, ls;
    top2(lr, V, &b, &s);
    top2(ll, V, &lb, &ls);
    margin[k] = (double)lr[b] - (double)lr[s];
    double d = ((double)ll[b] - (double)ll[s]) - margin[k];
    gap2 += d * d;
    flip[k] = lb != b;
    r->flips += flip[k];
    kls += kl(lr, ll, V);
    nll_ref += lse(lr, V) - (double)lr[b];
    nll_low += lse(ll, V) - (double)ll[b];
  }
  r->sigma = steps > 0 ? sqrt(gap2 / steps) : 0;
  for (int k = 0; k < steps && margin && flip; k++)
    if (flip[k] && margin[k] > MX_LOWPREC_SIGMAS * r->sigma) {
      if (r->counted_flips++ == 0 || margin[k] < r->min_counted_margin) r->min_counted_margin = margin[k];
    }
  r->agreement = steps > 0 ? (double)(steps - r->flips) / steps : 0;
  r->kl_mean = steps > 0 ? kls / steps : 0;
  r->ppl_ratio = steps > 0 ? exp((nll_low - nll_ref) / steps) : 1;
  if (!margin || !flip) r->counted_flips = steps; /* out of memory: never a silent pass */
  free(margin);
  free(flip);
}

mx_status_t mx_lowprec_measure(mx_session_t *ref_s, mx_session_t *low_s, const int32_t *prompt, int n_prompt,
                               const int32_t *ref, const int32_t *low, int steps, mx_lowprec_t *r) {
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
    /* Row n_prompt - 1 + k predicts trajectory token k. */
    size_t first = (size_t)(n_prompt - 1) * (size_t)V;
    mx_lowprec_compare(lr + first, ll + first, V, steps, r);
    r->free_div = -1;
    r->free_margin = 0;
    for (int k = 0; k < steps && r->free_div < 0; k++)
      if (ref[k] != low[k]) r->free_div = k;
    if (r->free_div >= 0) {
      const float *row = lr + first + (size_t)r->free_div * (size_t)V;
      int b, s;
      top2(row, V, &b, &s);
      r->free_margin = (double)row[b] - (double)row[s];
    }
  }
  free(seq);
  free(lr);
  free(ll);
  return st;
}

bool mx_lowprec_prompt_passes(const mx_lowprec_t *r) {
  return r->steps > 0 && r->counted_flips == 0 && fabs(r->ppl_ratio - 1) <= MX_LOWPREC_PPL_TOLERANCE &&
         r->kl_mean < MX_LOWPREC_KL_BOUND;
}

bool mx_lowprec_passes(const mx_lowprec_t *r, int n, double *pooled_agreement) {
  long steps = 0, agree = 0;
  bool ok = n > 0;
  for (int i = 0; i < n; i++) {
    ok = ok && mx_lowprec_prompt_passes(&r[i]);
    steps += r[i].steps;
    agree += r[i].steps - r[i].flips;
  }
  double a = steps ? (double)agree / (double)steps : 0;
  if (pooled_agreement) *pooled_agreement = a;
  return ok && a >= MX_LOWPREC_AGREEMENT;
}
