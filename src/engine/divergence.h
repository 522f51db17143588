/* The low-precision rule (docs/engine.md, "The low-precision rule"): a precision P is judged against our
 * own f32 by teacher forcing both along the f32 greedy trajectory and comparing their logits step by
 * step. The noise of P is measured on the same run: sigma is the RMS over the steps of the change P
 * makes to the f32 top-1 − top-2 gap. A top-1 flip counts only where the f32 margin exceeds 4 sigma
 * (a flip at a closer tie is what P's own rounding does, not a defect). A prompt passes with no
 * counted flip, a perplexity ratio within 1% and a mean KL(f32 || P) below MX_LOWPREC_KL_BOUND; the
 * precision passes when every prompt passes and the top-1 agreement pooled over every scored step of
 * every prompt is at least 98%. Both sessions must have a score function long enough for prompt +
 * trajectory. The pure part (mx_lowprec_compare) takes logits, so it is testable without a device. */
#ifndef MX_ENGINE_DIVERGENCE_H
#define MX_ENGINE_DIVERGENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "engine/session.h"

#define MX_LOWPREC_SIGMAS 4.0        /* a flip counts where the f32 margin exceeds this many sigma */
#define MX_LOWPREC_PPL_TOLERANCE 0.01 /* |perplexity ratio - 1| at most this */
#define MX_LOWPREC_AGREEMENT 0.98    /* pooled top-1 agreement at least this */
#define MX_LOWPREC_KL_BOUND 1e-3     /* mean KL(f32 || P) per step below this, in nats */

typedef struct {
  int steps;            /* teacher-forced steps scored */
  int free_div;         /* free-running greedy: first step where P's token differs from f32's, -1 if none */
  double free_margin;   /* the f32 top-1/top-2 margin at free_div */
  double sigma;         /* RMS change of the f32 top-1 − top-2 gap under P, in logits */
  int flips;            /* teacher-forced steps where P's top-1 differs from f32's */
  int counted_flips;    /* of those, where the f32 margin exceeds MX_LOWPREC_SIGMAS * sigma */
  double min_counted_margin; /* the smallest f32 margin among the counted flips (0 when none) */
  double agreement;     /* (steps - flips) / steps */
  double kl_mean;       /* mean over the steps of KL(f32 || P), nats */
  double ppl_ratio;     /* perplexity of the f32 trajectory under P / under f32 */
} mx_lowprec_t;

/* Compares the teacher-forced logits of `steps` positions (rows of V floats; ref from f32, low from P).
 * free_div/free_margin are left to the caller. */
void mx_lowprec_compare(const float *ref, const float *low, int V, int steps, mx_lowprec_t *r);
/* Scores prompt + the f32 trajectory `ref` on both sessions and compares (`low` is P's free-running
 * greedy trajectory, for free_div). */
MX_MUST_USE mx_status_t mx_lowprec_measure(mx_session_t *ref_s, mx_session_t *low_s, const int32_t *prompt, int n_prompt,
                                           const int32_t *ref, const int32_t *low, int steps, mx_lowprec_t *r);
/* One prompt's verdict: no counted flip, perplexity and KL within bounds. */
bool mx_lowprec_prompt_passes(const mx_lowprec_t *r);
/* The precision's verdict over n prompts: each passes and the pooled agreement reaches the bound. */
bool mx_lowprec_passes(const mx_lowprec_t *r, int n, double *pooled_agreement);

#endif
