/* Continuous batching: many requests share the slots of one batched session.
 *
 * A scheduler owns a started session compiled with n_slots > 1 (or 1) and one engine thread. The
 * thread loops: admit waiting requests into free slots (one prefill each, as many per step as fit in
 * MX_SCHED_ADMIT_TOKENS prompt tokens, at least one, so requests that arrive together start together
 * and running streams wait a bounded time), run one batched decode step for every active slot, hand each request
 * its new text, retire the finished ones (EOS, stop string, max_tokens, cancellation) and so free
 * their slots. Each request keeps its own sampling parameters and seed; a greedy request's tokens
 * are the ones a single-sequence run gives (`mlxcel batch-bench` checks this).
 *
 * Failures: a device call that fails while the worker stays up fails the requests in that call (a
 * token outside the vocabulary only its own request); a lost device (the worker died or hung, in a
 * call or in the idle liveness probe) fails the running requests, keeps the waiting ones, and has
 * its worker restarted with back-off before it is given up (mx_device_state_t). The engine logs
 * the cause once.
 *
 * Thread model: submit, wait, cancel and release may be called from any thread. A request is
 * reference-counted between the caller and the engine; the caller ends its interest with
 * mx_request_release (which also cancels a request that is still running). */
#ifndef MX_ENGINE_SCHEDULER_H
#define MX_ENGINE_SCHEDULER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "base/strbuf.h"
#include "engine/sampler.h"
#include "engine/sequence.h"
#include "engine/session.h"

#define MX_MAX_STOPS 8

/* Prompt tokens admitted together before a decode call (one prefill chunk's worth; a longer prompt
 * is admitted alone). */
#define MX_SCHED_ADMIT_TOKENS 512

typedef struct mx_sched mx_sched_t;
typedef struct mx_request mx_request_t;


typedef struct {
  const int32_t *prompt; /* copied by submit */
  int n_prompt;          /* 1 .. the session's largest prefill */
  int max_tokens;        /* >= 1; prompt + max_tokens beyond the capacity finishes with "length" */
  mx_sampling_t sampling;
  const char *stops[MX_MAX_STOPS]; /* copied; the stop text is not part of the output */
  int n_stops;
  bool ignore_eos;
  bool logprobs;    /* record each generated token's log-probabilities (mx_request_info's logprobs) */
  int top_logprobs; /* 0..MX_MAX_TOP_LOGPROBS alternatives per token, with logprobs */
  /* With logprobs: also record the entries of prompt tokens 1..n_prompt-1 (mx_request_prompt_logprobs;
   * the first token has none). The prompt is then fed one token per decode step after a one-token
   * prefill (teacher forcing), so that every position's logits come back: it costs a decode step per
   * prompt token instead of one prefill. */
  bool prompt_logprobs;
  bool json_object; /* the text is one JSON object (constrained decoding, engine/json_constraint.h) */
  const char *json_schema; /* or a document valid against this schema (JSON text, copied; engine/json_schema.h) */
  /* An embedding instead of text (a session with embeddings): the prompt is prefilled in a slot and
   * the request finishes with mx_request_embedding; nothing is generated (max_tokens is ignored). */
  bool embed;
  /* The n choices of one prompt: the first is submitted with share_count = n - 1, the others with
   * prompt_of = the first (submitted before them, held by the caller until they finish). While the
   * first runs, each other choice gets a copy of its prompt's KV rows and of its first logits instead
   * of a prefill of its own; when it no longer runs, a choice prefills as usual. */
  int share_count;
  mx_request_t *prompt_of;
} mx_request_params_t;

typedef struct {
  int n_slots;   /* must equal the session's slots */
  int queue_max; /* requests that may wait for a slot; beyond it submit fails (back-pressure) */
  /* Liveness: while idle, ping the worker every probe_interval_ms (0: never) and count it hung when
   * it takes longer than probe_timeout_ms (0: 5000). */
  int probe_interval_ms, probe_timeout_ms;
  /* A lost device (its worker died or hung) is restarted up to max_restarts times in a row, with
   * back-off, before it is given up (0: given up at once). */
  int max_restarts;
  const char *label; /* names the device in the log, e.g. "local-task (backend 0)"; copied */
  /* Prefix reuse: a request whose prompt starts with whole prefill chunks a free slot still holds
   * (from an earlier prompt) goes to that slot and prefills from the first chunk that differs. */
  bool prefix_reuse;
} mx_sched_options_t;

/* Where a scheduler's device stands. */
typedef enum {
  MX_DEVICE_READY,      /* serving */
  MX_DEVICE_RESTARTING, /* lost; its worker is being restarted, waiting requests stay queued */
  MX_DEVICE_FAILED,     /* given up (restarts failed or are off): every request fails */
} mx_device_state_t;

const char *mx_device_state_name(mx_device_state_t st);

/* Starts the engine thread over a started session (not owned). */
MX_MUST_USE mx_status_t mx_sched_create(mx_session_t *session, const mx_sched_options_t *o, mx_sched_t **out);
/* Stops admitting (submit fails), cancels waiting requests, lets running ones finish until
 * deadline_ms has passed, cancels the rest and joins the thread. Idempotent. */
void mx_sched_shutdown(mx_sched_t *s, int deadline_ms);
/* Shuts down (deadline 0) if needed and frees the scheduler; requests still held stay valid. */
void mx_sched_destroy(mx_sched_t *s);

/* Queues a request. Fails with MX_STAGE_USAGE for bad parameters (the message names the field) and
 * with MX_STAGE_BUSY when the wait queue is full or the scheduler is shutting down, and with
 * MX_STAGE_DEVICE once the device was given up. While the device restarts, requests queue. */
MX_MUST_USE mx_status_t mx_sched_submit(mx_sched_t *s, const mx_request_params_t *p, mx_request_t **out);

/* Waits up to timeout_ms (0: don't wait, <0: forever) for text not yet taken or for the end.
 * Appends the new text to `text` (may be NULL) and returns true once the request has finished and
 * all its text has been taken. */
bool mx_request_wait(mx_request_t *r, int timeout_ms, mx_strbuf_t *text);
/* Asks the engine to stop the request; it finishes with MX_FINISH_CANCELLED (unless it already ended). */
void mx_request_cancel(mx_request_t *r);
/* Cancels if still running and drops the caller's reference. */
void mx_request_release(mx_request_t *r);

typedef struct {
  mx_finish_t finish;
  int prompt_tokens;
  int cached_tokens;     /* prompt tokens whose KV rows a slot held already (prefix reuse): not prefilled */
  int copied_tokens;     /* prompt tokens whose KV rows were copied from another choice's slot: not prefilled */
  int completion_tokens; /* tokens generated (EOS and stop-string tokens included, as OpenAI counts) */
  double queue_ms;       /* submit -> admitted into a slot */
  double ttft_ms;        /* submit -> first token */
  double decode_ms;      /* first token -> finish */
  const int32_t *tokens; /* the generated ids (valid until release; complete once finished) */
  mx_status_t error;     /* MX_FINISH_ERROR: the cause (owned by the request) */
} mx_request_info_t;

/* A snapshot: the figures so far while the request runs, final once mx_request_wait returned true. */
void mx_request_info(mx_request_t *r, mx_request_info_t *out);
/* A request submitted with logprobs: appends the entries of its generated tokens from index `from` on
 * (as many as there are so far) to `out`; returns how many it appended. False when out of memory. */
bool mx_request_logprobs(mx_request_t *r, size_t from, mx_logprob_list_t *out, size_t *appended);
/* A request submitted with prompt_logprobs: once they are all known (by the first generated token),
 * appends the entries of prompt tokens 1..n_prompt-1 to `out` and sets *complete; before that appends
 * nothing. False when out of memory. */
bool mx_request_prompt_logprobs(mx_request_t *r, mx_logprob_list_t *out, bool *complete);

/* An embed request's unit vector (the model's dim floats), once it finished with MX_FINISH_STOP;
 * NULL before, or for other requests. Valid until release. */
const float *mx_request_embedding(mx_request_t *r);

typedef struct {
  int n_slots, active, queued;
  uint64_t admitted, finished, decode_steps, tokens_generated, prompt_tokens;
  uint64_t cached_tokens; /* prompt tokens not prefilled because a slot held them (prefix reuse) */
  uint64_t admitted_while_busy; /* admissions while other slots were mid-generation */
  mx_device_state_t state;
  bool healthy;           /* state == MX_DEVICE_READY */
  uint64_t restarts;      /* workers restarted after a loss */
  uint64_t request_errors; /* requests failed by a device call while the device stayed up */
  char last_failure[256]; /* why the device was last lost ("" if never) */
  /* The device's allocator figures as last read between device calls (never read on demand: a
   * hung device must not block whoever asks). */
  bool has_memory;
  uint64_t device_bytes, device_bytes_peak;
} mx_sched_stats_t;

/* Never waits on the device. */
void mx_sched_stats(mx_sched_t *s, mx_sched_stats_t *out);

#endif
