/* The divergence rule for a low precision against our own f32 (docs/engine.md): exact, or else at the
 * first divergent step the f32 top-1/top-2 margin is below 0.1 and, teacher-forced along the f32
 * trajectory, the low precision agrees on top-1 at >= 98% of steps with a perplexity within 1%.
 * Both sessions must have been started with a score function long enough for prompt + trajectory. */
#ifndef MX_ENGINE_DIVERGENCE_H
#define MX_ENGINE_DIVERGENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "engine/session.h"

typedef struct {
  int div;          /* first divergent step, -1 if exact */
  double margin;    /* f32 top-1/top-2 margin there */
  double agreement; /* teacher-forced top-1 agreement of the low precision with the f32 trajectory */
  double ppl_ratio; /* perplexity of the f32 trajectory under low precision / under f32 */
} mx_divergence_t;

/* Scores prompt + ref on both sessions and compares: `ref` is the f32 trajectory, `low` the
 * low-precision one, `steps` tokens each. */
MX_MUST_USE mx_status_t mx_divergence_measure(mx_session_t *ref_s, mx_session_t *low_s, const int32_t *prompt, int n_prompt,
                                  const int32_t *ref, const int32_t *low, int steps, mx_divergence_t *r);
bool mx_divergence_passes(const mx_divergence_t *r);

#endif
