/* Log-probabilities of generated tokens, as OpenAI's `logprobs` report them: for each generated token,
 * its log-probability and those of the most likely alternatives at that position.
 *
 * The values are the log-softmax of the model's logits for the position (the row the sampler was
 * handed, before logit_bias, the penalties and the temperature: vLLM's default, "raw" logprobs), so
 * they describe the model, not the sampling recipe, and HF transformers' log_softmax of the same
 * logits is their oracle (tests/oracle/logprobs_parity.py). */
#ifndef MX_ENGINE_LOGPROBS_H
#define MX_ENGINE_LOGPROBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* OpenAI's largest top_logprobs (chat; completions' logprobs allows 5). */
#define MX_MAX_TOP_LOGPROBS 20

typedef struct {
  int32_t id;    /* the generated token */
  float logprob; /* its log-probability */
  int n_top;     /* the alternatives kept, most likely first (ties: the lower id first) */
  int32_t top_id[MX_MAX_TOP_LOGPROBS];
  float top_logprob[MX_MAX_TOP_LOGPROBS];
} mx_token_logprob_t;

/* One entry per generated token, in order. */
typedef struct {
  mx_token_logprob_t *v;
  size_t n, cap;
} mx_logprob_list_t;

/* The entry of token `chosen` from a row of `vocab` logits, keeping the n_top (0..MX_MAX_TOP_LOGPROBS)
 * most likely alternatives. NaN logits count as impossible (-inf); a row with no finite logit gives
 * -inf everywhere. */
void mx_logprob_compute(const float *logits, int vocab, int32_t chosen, int n_top, mx_token_logprob_t *out);

bool mx_logprob_list_push(mx_logprob_list_t *l, const mx_token_logprob_t *e);
void mx_logprob_list_free(mx_logprob_list_t *l);

#endif
