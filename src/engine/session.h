/* A session: one model on one device. Opening reads the model and its tokenizer (cheap, so callers
 * can validate prompts before anything expensive); starting prepares the weights, emits and
 * compiles the graph (through the VMFB cache), starts the device worker and loads the module with
 * the weights as IREE parameters. Then prefill/decode/score run on the device, the KV cache staying
 * there between calls. */
#ifndef MX_ENGINE_SESSION_H
#define MX_ENGINE_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "base/dtype.h"
#include "base/status.h"
#include "compiler/target.h"
#include "device/worker.h"
#include "hlo/llama.h"
#include "model/model.h"
#include "tokenizer/tokenizer.h"

typedef struct {
  const char *model_path;
  const char *chat_template; /* a Jinja file to use instead of the model's chat template; NULL: the model's */
  const char *device;        /* URI, e.g. local-task */
  mx_target_options_t target;
  mx_dtype_t precision;      /* MX_F32, MX_F16, MX_BF16 */
  mx_dtype_t kv;             /* the KV cache's type: MX_F32 (0), or MX_F16 / MX_BF16 with a low precision */
  int capacity;              /* KV positions (context capacity); 0: the model's maximum, at most 8192 */
  int slots;                 /* sequences decoded together: 0 or 1 = single sequence; up to 8 (batching) */
  int score_len;             /* > 0: also compile score_<score_len>; MX_LLAMA_SCORE_CAPACITY: over the capacity */
  int decode_steps;          /* greedy decode steps per device call; 0: the target's default (mx_target_decode_steps) */
  int device_cuts;           /* the cuts drawn in the multi-step calls: 1 on, -1 off, 0 the target's choice */
  bool embeddings;           /* also compile the pooled prefill functions (mx_session_embed_slot) */
  mx_quant_options_t quant;  /* --quant packed and its host options (model/packing.h); off: weights expanded at load */
  const char *vmfb;          /* a module from `mlxcel compile` to use instead of compiling (hosts without
                                the compiler); it must match the model, precision and capacity */
} mx_session_options_t;

typedef struct {
  double open_ms;      /* model + tokenizer */
  double prepare_ms;   /* writing prepared weights (0 when cached or not needed) */
  double emit_ms;      /* graph text */
  double compile_ms;   /* 0 on a cache hit */
  bool compile_hit;
  double worker_ms;    /* worker start + device open */
  double load_ms;      /* module + parameters */
} mx_session_timings_t;

typedef struct mx_session mx_session_t;

MX_MUST_USE mx_status_t mx_session_open(const mx_session_options_t *o, mx_session_t **out);
MX_MUST_USE mx_status_t mx_session_start(mx_session_t *s);
/* Replaces the device worker (dead, hung or alive) with a new one and loads the module and the
 * weights again, from the caches: what a lost device needs. The KV cache starts empty. */
MX_MUST_USE mx_status_t mx_session_restart(mx_session_t *s);
/* The worker answers a ping within timeout_ms; a hung one is stopped (then it is not alive). */
MX_MUST_USE mx_status_t mx_session_ping(mx_session_t *s, int timeout_ms);
/* False once a call found the worker dead or hung: the device is lost until a restart. */
bool mx_session_worker_alive(const mx_session_t *s);
pid_t mx_session_worker_pid(const mx_session_t *s); /* -1 without a worker */
/* Prefill and decode hand back the device's tokens without checking them against the vocabulary;
 * the caller checks each row (the scheduler fails only the request whose row is bad, where the
 * check would fail the whole batched call). */
void mx_session_defer_token_checks(mx_session_t *s);
void mx_session_close(mx_session_t *s);

const mx_model_config_t *mx_session_config(const mx_session_t *s);
const mx_tokenizer_t *mx_session_tokenizer(const mx_session_t *s);
const mx_session_timings_t *mx_session_timings(const mx_session_t *s);
/* KV positions per sequence, and the longest prompt (prompts beyond the largest bucket go in chunks). */
int mx_session_capacity(const mx_session_t *s);

int mx_session_slots(const mx_session_t *s);

/* Runs the prompt from position 0 into `slot`'s KV cache, in one call or, beyond the largest prefill
 * bucket, in chunks of it (one call each). Greedy: *next is the argmax (logits NULL); sampling:
 * logits (vocab floats) receives the last position's logits. */
MX_MUST_USE mx_status_t mx_session_prefill_slot(mx_session_t *s, int slot, const int32_t *ids, int n, float *logits, int32_t *next);
/* The same from `start`, a multiple of the prefill chunk below n: the slot's KV rows before it are
 * kept (prefix reuse: they hold the prompt's first `start` tokens from an earlier prefill, written by
 * the same chunk calls this would make, so the rows and the answer are the ones a prefill from 0
 * gives). */
MX_MUST_USE mx_status_t mx_session_prefill_slot_from(mx_session_t *s, int slot, const int32_t *ids, int start, int n, float *logits,
                                                     int32_t *next);
/* An embedding (a session opened with `embeddings`): runs ids through `slot` as a prefill from 0 does
 * (writing its KV rows) and puts into out (dim floats) the mean of the final normed hidden states
 * of all n tokens, scaled to unit length (as OpenAI's embeddings are). */
MX_MUST_USE mx_status_t mx_session_embed_slot(mx_session_t *s, int slot, const int32_t *ids, int n, float *out);
bool mx_session_has_embeddings(const mx_session_t *s);
/* The longest prefill call; prompts beyond it go in chunks of this many tokens. */
int mx_session_prefill_chunk(const mx_session_t *s);
/* Slot 0. */
MX_MUST_USE mx_status_t mx_session_prefill(mx_session_t *s, const int32_t *ids, int n, float *logits, int32_t *next);
/* One decode step for every slot: tokens[b] at position pos[b] (the positions before it are in slot
 * b's cache). Greedy: next[b] is slot b's argmax; sampling: logits receives slots x vocab floats.
 * Idle slots may pass any token and an in-range position; their results are meaningless. An idle
 * slot's position given as -(p + 1) parks it at row p: its rows are written there (p + the steps
 * within the KV rows) and it does not count toward the attention window the call needs. */
MX_MUST_USE mx_status_t mx_session_decode_slots(mx_session_t *s, const int32_t *tokens, const int32_t *pos, float *logits,
                                    int32_t *next);
/* The KV rows of the first n positions of slot src, copied into slot dst (a module of several slots):
 * a prompt prefilled once serves several choices. */
MX_MUST_USE mx_status_t mx_session_copy_slot(mx_session_t *s, int src, int dst, int n);
/* Steps per multi-step call (1: the module has none). */
int mx_session_decode_steps(const mx_session_t *s);
/* How the device picks one slot's tokens in a multi-step call (base/gumbel.h, hlo/pick.h). */
typedef struct {
  float temperature; /* 0: the argmax */
  uint32_t key;      /* the draw's key (mx_gumbel_key of the request's seed) */
  int32_t top_k;     /* 0 (or the vocabulary): off */
  float top_p;       /* 1: off */
  float min_p;       /* 0: off */
} mx_device_draw_t;
/* Whether the module draws under the cuts (top-k, top-p, min-p) in its multi-step calls. */
bool mx_session_device_cuts(const mx_session_t *s);
/* mx_session_decode_steps(s) steps for every slot in one call, each token picked on the device: next
 * receives K x slots tokens, row k the tokens of step k (each fed to step k + 1 at the next position).
 * Slot b's token is drawn as draw[b] says (draw NULL: every slot greedy); a cut needs a module with
 * device cuts. pos[b] + K must fit the capacity. */
MX_MUST_USE mx_status_t mx_session_decode_slots_steps(mx_session_t *s, const int32_t *tokens, const int32_t *pos,
                                                      const mx_device_draw_t *draw, int32_t *next);
/* One token at position pos in a single-slot session. */
MX_MUST_USE mx_status_t mx_session_decode(mx_session_t *s, int32_t token, int pos, float *logits, int32_t *next);
/* Logits at every position of ids (n <= score_len): out holds n * vocab floats. */
/* Token ids going to or coming from the device must lie in [0, vocab): the graph's embedding gather
 * does not clamp, so an id outside reads out of bounds on the device (a CUDA illegal address), and an
 * id the device returns outside it means a wrong argmax (docs/spikes.md). `from_device` picks the
 * stage and wording of the error. */
MX_MUST_USE mx_status_t mx_check_token_ids(const char *fn, const int32_t *ids, int n, int vocab, bool from_device);
MX_MUST_USE mx_status_t mx_session_score(mx_session_t *s, const int32_t *ids, int n, float *out);
MX_MUST_USE mx_status_t mx_session_device_stats(mx_session_t *s, mx_alloc_stats_t *out);

/* What a module is built for — the graph's options and the target's flags — as the text its
 * mlxcel_signature function returns. The session and `mlxcel compile` both put it in the module;
 * a --vmfb whose signature differs is refused at load, naming both. */
void mx_graph_signature(const mx_llama_graph_t *g, const mx_target_t *t, char *out, size_t cap);
/* What the target chooses for the graph (compiler/target.h): the decode steps per call when go leaves
 * them 0, the decode attention's form, the rows per batched product, and whether the stacks are one
 * product each (by go->stacked_params, which the caller sets from the weights). The session and `mlxcel
 * compile` both take it from here, so their modules agree. */
void mx_graph_target_choices(const mx_target_t *t, const mx_model_config_t *c, mx_llama_graph_options_t *go);

/* Parses "f32" / "f16" / "bf16". */
MX_MUST_USE mx_status_t mx_parse_precision(const char *text, mx_dtype_t *out);

#endif
