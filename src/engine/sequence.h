/* One sequence's generation: the per-token decisions every front end shares.
 *
 * A sequence is a prompt and the tokens generated after it. It owns what decides each next token and
 * when to stop: the sampler (or the device's argmax for greedy requests), end-of-sequence tokens,
 * stop strings (through textout, which also releases the text as it becomes final), the token
 * budget and the context capacity. `mlxcel generate` and `mlxcel check` drive one sequence through
 * mx_seq_generate; the scheduler drives many, one slot each, feeding each batched decode step's
 * results through mx_seq_pick and mx_seq_accept. No front end decides any of this itself. */
#ifndef MX_ENGINE_SEQUENCE_H
#define MX_ENGINE_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "engine/json_constraint.h"
#include "engine/json_schema.h"
#include "engine/logprobs.h"
#include "engine/sampler.h"
#include "engine/session.h"
#include "engine/textout.h"

typedef enum {
  MX_FINISH_NONE = 0,  /* still running */
  MX_FINISH_STOP,      /* EOS or a stop string */
  MX_FINISH_LENGTH,    /* max_tokens, or the context capacity */
  MX_FINISH_CANCELLED, /* the owner cancelled it, or shutdown */
  MX_FINISH_ERROR,     /* the device failed */
} mx_finish_t;

const char *mx_finish_name(mx_finish_t f); /* "stop", "length", "cancelled", "error", "" */

typedef struct {
  int max_tokens;           /* >= 1; tokens generated at most (EOS and stop-string tokens count) */
  mx_sampling_t sampling;   /* greedy when mx_sampling_is_greedy */
  const char *const *stops; /* not copied: they must outlive the sequence; not part of the text */
  int n_stops;
  bool ignore_eos;
  bool logprobs;    /* compute each generated token's mx_token_logprob_t (the logits come to the host) */
  int top_logprobs; /* 0..MX_MAX_TOP_LOGPROBS alternatives per token, with logprobs */
  bool json_object; /* constrain the text to one JSON object, ending when it closes (json_constraint.h) */
  const char *json_schema; /* or to a document valid against this schema (JSON text; json_schema.h) */
} mx_seq_params_t;

typedef struct {
  const mx_model_config_t *config;
  int capacity;          /* the session's KV positions */
  mx_seq_params_t p;
  mx_sampler_t *sampler; /* NULL when greedy */
  float *logits;         /* vocab floats for a sampled sequence's own calls (mx_seq_prefill allocates them) */
  float *raw;            /* with logprobs: the row as the device gave it, before the sampler changes it */
  mx_token_logprob_t picked; /* with logprobs: the entry of the token mx_seq_pick returned last */
  mx_textout_t out;
  mx_strbuf_t ready;     /* text released by textout; the caller takes it from ready_taken on */
  size_t ready_taken;
  mx_ids_t history;      /* the prompt, then every generated id */
  const mx_tokenizer_t *tok;
  mx_json_state_t json;  /* with json_object: where the text stands in the object */
  mx_schema_t *schema;   /* with json_schema: the compiled schema, and where the text stands in it */
  mx_schema_state_t in_schema;
  int n_prompt;
  int32_t last;          /* the token the next decode feeds (the last generated) */
  bool eos;              /* finished by an end-of-sequence token */
  mx_finish_t finish;    /* MX_FINISH_NONE while running */
} mx_seq_t;

/* A sequence over `prompt` (copied) for a started or opened session's model. Fails (stage usage) for
 * a json_schema outside the supported subset. */
MX_MUST_USE mx_status_t mx_seq_init(mx_seq_t *q, const mx_session_t *s, const int32_t *prompt, int n_prompt, const mx_seq_params_t *p);
void mx_seq_free(mx_seq_t *q);

bool mx_seq_greedy(const mx_seq_t *q);
/* True when the device can pick this sequence's tokens in a multi-step call: greedy (temperature 0),
 * a plain-temperature draw (mx_sampling_is_plain), or with `cuts` (a module with device cuts) a draw
 * under top-k, top-p and min-p (mx_sampling_is_cut_only); never with logprobs or a JSON constraint.
 * Sets the slot's inputs of decode_<W>_steps. */
bool mx_seq_draw_on_device(const mx_seq_t *q, bool cuts, mx_device_draw_t *d);
int mx_seq_generated(const mx_seq_t *q);
/* Where the next decode writes: the position of `last`. */
int mx_seq_pos(const mx_seq_t *q);
const int32_t *mx_seq_tokens(const mx_seq_t *q); /* the generated ids */

/* The next token from one step's result: the device's argmax `device_next` when logits is NULL, else
 * a greedy sequence's host argmax or a sampled one's draw from `logits` (which it modifies; with
 * json_object, among the tokens that continue the object). With logprobs, q->picked becomes the
 * returned token's entry, from the row as given. */
int32_t mx_seq_pick(mx_seq_t *q, int32_t device_next, float *logits);
/* Takes the generated token `id`: records it, decides whether the sequence is finished (EOS, stop
 * string, budget, capacity) and sets *done and q->finish. Fails only when out of memory. */
MX_MUST_USE mx_status_t mx_seq_accept(mx_seq_t *q, int32_t id, bool *done);
/* Text that became final since the last call (may be empty; valid until the next accept or end). */
size_t mx_seq_take_text(mx_seq_t *q, const char **data);
/* The end of generation: releases what was held back (an incomplete character, a stop-string prefix). */
void mx_seq_end(mx_seq_t *q);

/* Runs the prompt into `slot` and takes the first token. */
MX_MUST_USE mx_status_t mx_seq_prefill(mx_session_t *s, int slot, mx_seq_t *q);

typedef struct {
  double prefill_ms;
  double decode_ms; /* from the first token to the end */
} mx_seq_timing_t;

/* One sequence on a single-slot session, from prefill until it finishes; on_text (may be NULL) gets
 * each piece of final text as soon as it is final. */
MX_MUST_USE mx_status_t mx_seq_generate(mx_session_t *s, mx_seq_t *q, void (*on_text)(void *ctx, const char *text, size_t n),
                            void *ctx, mx_seq_timing_t *timing);

#endif
