/* Host-side sampling from logits: repetition penalty, temperature, top-k, top-p, min-p, then a draw
 * from a seeded generator (xorshift64*), so a seed reproduces a run. Temperature 0 (or anything below
 * MX_SAMPLING_GREEDY_TEMPERATURE) means greedy. */
#ifndef MX_ENGINE_SAMPLER_H
#define MX_ENGINE_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"

/* A temperature below this is greedy (vLLM's _SAMPLING_EPS): dividing logits by less overflows
 * float near 1e-38 and makes every probability NaN, and a distribution that sharp is the argmax
 * anyway. */
#define MX_SAMPLING_GREEDY_TEMPERATURE 1e-5f
/* The smallest repetition penalty accepted: below it a seen token's logit is divided by more than
 * 100, which no sampling recipe asks for, and near 1e-38 the division overflows to infinity. */
#define MX_SAMPLING_MIN_REPEAT_PENALTY 0.01f

typedef struct {
  float temperature;    /* below MX_SAMPLING_GREEDY_TEMPERATURE (0 included): greedy */
  int top_k;            /* 0: off */
  float top_p;          /* 1: off */
  float min_p;          /* 0: off */
  float repeat_penalty; /* 1: off (HF convention: positive logits divided, negative multiplied) */
  uint64_t seed;
} mx_sampling_t;

/* Checks ranges; a usage error names the parameter. */
MX_MUST_USE mx_status_t mx_sampling_validate(const mx_sampling_t *s);
/* True when the device's argmax can be used instead of transferring logits. */
bool mx_sampling_is_greedy(const mx_sampling_t *s);

typedef struct mx_sampler mx_sampler_t;
mx_sampler_t *mx_sampler_create(const mx_sampling_t *s, int vocab);
void mx_sampler_destroy(mx_sampler_t *s);
/* The lowest index of the largest of n logits: the device's argmax (and torch.argmax) on the host.
 * NaN entries are skipped (0 when every entry is NaN). */
int32_t mx_logits_argmax(const float *logits, int n);
/* Picks the next token; modifies logits. history: the ids seen so far (prompt and output). A row
 * that holds NaN or +inf, as given or after the penalty and the temperature, is not sampled from:
 * the pick is the argmax of the given row's finite entries (0 when none is finite). */
int32_t mx_sampler_pick(mx_sampler_t *s, float *logits, const int32_t *history, int n_history);

#endif
