/* Host-side sampling from logits: logit bias, repetition penalty, presence and frequency penalties,
 * temperature, top-k, top-p, min-p, then the seeded Gumbel-max draw of base/gumbel.h among the
 * candidates: the argmax of logit + T * g(seed, position, id), which keeps no state between tokens, so
 * a seed reproduces a run and the device's multi-step decode (decode_<W>_steps, hlo/pick.h) makes the
 * same draw: a seed picks the same tokens whichever path a step takes (plain temperatures since
 * 2026-12-06, cuts since 2026-12-07). The candidates are found without sorting the vocabulary.
 * Temperature 0 (or anything below MX_SAMPLING_GREEDY_TEMPERATURE) means greedy: the argmax of the
 * logits after the bias and the penalties. */
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
/* OpenAI's ranges: presence_penalty and frequency_penalty in [-2, 2], logit_bias values in [-100, 100]. */
#define MX_SAMPLING_MAX_PENALTY 2.0f
#define MX_SAMPLING_MAX_BIAS 100.0f
/* The most logit_bias entries one request carries (this engine's bound: the biases live inline in
 * every copy of mx_sampling_t, 2.4 KB at 300). */
#define MX_SAMPLING_MAX_BIASED 300

typedef struct {
  int32_t id; /* a token id of the model's vocabulary */
  float bias; /* added to that token's logit */
} mx_logit_bias_t;

typedef struct {
  float temperature;    /* below MX_SAMPLING_GREEDY_TEMPERATURE (0 included): greedy */
  int top_k;            /* 0: off */
  float top_p;          /* 1: off */
  float min_p;          /* 0: off */
  float repeat_penalty; /* 1: off (HF convention: positive logits divided, negative multiplied) */
  /* OpenAI's (and vLLM's) penalties over the tokens generated so far, the prompt not counted: a
   * token generated c > 0 times loses c * frequency_penalty + presence_penalty from its logit. 0: off. */
  float presence_penalty, frequency_penalty;
  int n_bias; /* logit_bias: bias[i].bias is added to logit bias[i].id before anything else */
  mx_logit_bias_t bias[MX_SAMPLING_MAX_BIASED];
  uint64_t seed;
} mx_sampling_t;

/* Checks ranges; a usage error names the parameter. */
MX_MUST_USE mx_status_t mx_sampling_validate(const mx_sampling_t *s);
/* The biased ids against the model's vocabulary (mx_sampling_validate cannot know it). */
MX_MUST_USE mx_status_t mx_sampling_check_vocab(const mx_sampling_t *s, int vocab);
/* True when the device's argmax can be used instead of transferring logits. */
bool mx_sampling_is_greedy(const mx_sampling_t *s);
/* True when only the temperature and the cuts (top-k, top-p, min-p) shape the draw: no penalty or
 * bias, not greedy. A module with device cuts draws these (hlo/pick.h). */
bool mx_sampling_is_cut_only(const mx_sampling_t *s);
/* True when only the temperature shapes the draw (no cut, penalty or bias; top-k of the whole
 * vocabulary counts as none): every multi-step module draws it (base/gumbel.h). */
bool mx_sampling_is_plain(const mx_sampling_t *s, int vocab);

typedef struct mx_sampler mx_sampler_t;
mx_sampler_t *mx_sampler_create(const mx_sampling_t *s, int vocab);
void mx_sampler_destroy(mx_sampler_t *s);
/* The lowest index of the largest of n logits: the device's argmax (and torch.argmax) on the host.
 * NaN entries are skipped (0 when every entry is NaN). */
int32_t mx_logits_argmax(const float *logits, int n);
/* Picks the next token; modifies logits. history: the ids seen so far, the n_prompt prompt ids and
 * then the output (the repetition penalty reads all of them, presence and frequency the output; a
 * plain temperature's draw reads only n_history: the token fed last sits at position n_history - 1). A
 * row that holds NaN or +inf, as given or after the bias, the penalties and the temperature, is not
 * sampled from: the pick is the argmax of the given row's finite entries (0 when none is finite). */
int32_t mx_sampler_pick(mx_sampler_t *s, float *logits, const int32_t *history, int n_history, int n_prompt);
/* What a pick from this row (no history) would draw from: the first `max` candidates of nonzero
 * probability, in order (probability descending, ties by the lower id), with their probabilities over
 * the kept set; returns how many were written. A row that is not sampled (greedy, NaN, +inf) gives its one pick with 1. For
 * the tests and the oracle against HF's warpers; modifies logits as mx_sampler_pick does. */
int mx_sampler_candidates(mx_sampler_t *s, float *logits, int32_t *ids, double *probs, int max);

#endif
