/* The Llama forward pass as StableHLO.
 *
 * One module holds every function, so they share the weights (IREE parameters, bound by their HF
 * names in scope "model") and the KV cache (mutable globals [slots * kv_heads, capacity, head_dim],
 * updated in place). A slot holds one sequence; a single-sequence module has one slot.
 *   prefill_<N>(tokens: N x i32, length: i32, slot: i32) -> next token (i32)      each bucket N
 *   prefill_<N>_logits(tokens, length, slot)        -> logits at length-1 (vocab x f32)
 *   decode_<W>(tokens: slots x i32, pos: slots x i32) -> next token per slot (slots x i32)  each window W
 *   decode_<W>_logits(tokens, pos)                  -> logits per slot (slots x vocab x f32)
 *   decode_<W>_steps(tokens, pos, temperature, key) -> K steps per slot (K x slots x i32), when K > 1: the argmax at
 *                                                      temperature 0, else a seeded draw (base/gumbel.h)
 *   extend_<W>(tokens: P x i32, start: i32, length: i32, slot: i32) -> next token (i32)  each window W > P
 *   extend_<W>_logits(tokens, start, length, slot)   -> logits at start+length-1 (vocab x f32)
 *   extend_<W>_t<T>[_logits](tokens: T x i32, ...)    the same for a last chunk of T < P tokens, each
 *                                                     smaller prefill bucket T (the tail costs its T rows)
 *   score_<S>(tokens: S x i32)                       -> logits at every position (S x vocab), slot 0
 * A prompt longer than the largest prefill bucket P (the chunk) is prefilled in chunks of P: the first
 * by prefill_<P>, each next one by extend_<W> (the last by extend_<W>_t<T> when a smaller bucket T
 * holds it), which writes the slot's rows [start, start+P) and
 * attends to its rows [0, pos] among the first W (W the smallest window that holds start+length), so
 * the attention's transient buffers grow with P x W, not with the prompt's square. The cache holds
 * kv_rows >= capacity rows (the capacity rounded up to P) so that a last, padded chunk fits.
 * Prefill writes the slot's KV rows [0, N) and attends to its own tokens; decode writes row pos[b]
 * of every slot b (one scatter per layer) and each slot attends to its rows [0, pos[b]] among the
 * first W, so a step costs what the longest sequence uses, not the capacity; the caller picks the
 * smallest W above every position (plus K - 1 for the multi-step form). Rows past a sequence's
 * position (prefill padding, an earlier request's leftovers, an idle slot's writes, the steps after
 * a sequence ended inside a multi-step call) are never attended to before they are overwritten, so
 * idle slots may be decoded with any token and position.
 *
 * Precision: the residual stream, norms, RoPE, softmax, rsqrt and exp are f32; the weight matmuls'
 * inputs are converted to `matmul` (f32, f16 or bf16) with f32 accumulation; the KV cache and the
 * attention matmuls use `kv`. */
#ifndef MX_HLO_LLAMA_H
#define MX_HLO_LLAMA_H

#include <stdbool.h>

#include "base/dtype.h"
#include "base/status.h"
#include "model/arch.h"
#include "model/config.h"
#include "model/packing.h"

#define MX_LLAMA_MAX_BUCKETS 8
#define MX_LLAMA_MAX_SLOTS 8
#define MX_LLAMA_MAX_WHOLE_PRODUCTS 4 /* whole_decode_products */
#define MX_LLAMA_MAX_DECODE_STEPS 16

typedef struct {
  const mx_model_config_t *config;
  mx_dtype_t matmul;       /* compute type of the weight matmuls' inputs */
  mx_dtype_t kv;           /* type of the KV cache and of the attention matmuls' inputs */
  mx_dtype_t weight_dtype; /* storage type of every weight in the parameter file */
  int slots;               /* sequences decoded together (1..MX_LLAMA_MAX_SLOTS) */
  int capacity;            /* KV positions per slot */
  int kv_rows;             /* KV cache rows per slot: the capacity, rounded up to the chunk when it is larger */
  int n_buckets;
  int buckets[MX_LLAMA_MAX_BUCKETS]; /* prefill lengths, ascending, each <= capacity; the last is the chunk */
  int score_len;           /* 0: no score function */
  int n_windows;
  int windows[MX_LLAMA_MAX_BUCKETS]; /* decode attention windows, ascending, the last = capacity */
  int window_ratio;        /* each window this many times the one before: 2 or 4 (mx_llama_default_buckets makes
                            * anything else 4) */
  int decode_steps;        /* > 1: also decode_<W>_steps, that many steps per call, picked on the device */
  bool device_cuts;        /* with decode_steps > 1: also decode_<W>_cut_steps, which takes each slot's top-k,
                            * top-p and min-p too and draws among their candidates (hlo/pick.h) */
  bool expand_kv_groups;   /* decode attention repeats each KV head for its query heads (see attend_decode) */
  int head_attention_slots; /* > 0: from this many slots on, decode attention takes one product per query head
                             * of the group instead (attend_decode) */
  int head_attention_window; /* > 0: and at windows of at least this many rows, whatever the slots */
  int grouped_attention_slots; /* > 0: at this many slots, decode attention takes the grouped form over one
                                * (slot, KV head) batch dimension instead (attend_decode_grouped_rows), the form
                                * the target's tuning library configures; before the per-head form */
  bool values_transposed;  /* the V cache is [slots * KV, head_dim, rows]: set by mx_llama_graph_make where
                            * every decode step takes the per-head or grouped-rows form (slots >= their
                            * slot count), whose P.V product then reduces along a row (docs/performance.md,
                            * "V stored transposed") */
  int product_rows;        /* > 0: a batched decode step's weight products take at most this many rows each */
  bool split_reduction;    /* a prefill's weight products with few output tiles split their reduction (linear) */
  bool split_decode_reduction; /* a batched decode step (more slots than product_rows > 0, as
                                * mx_llama_graph_make sets it) takes each float weight product as one
                                * product with its reduction split (linear) */
  int n_whole_decode_products; /* with split_decode_reduction: the products of these (N, K) shapes are whole */
  int whole_decode_products[MX_LLAMA_MAX_WHOLE_PRODUCTS][2];
  bool fuse_products;      /* Q/K/V and gate/up each as one product over their float weights stacked (linears) */
  bool stacked_params;     /* with fuse_products: the stacks are parameters of their own, the files' views over
                            * their parts (engine/weights.h), not concatenated in the graph */
  bool pooled;             /* also prefill_<N>_pooled / extend_<W>_pooled: the prompt's hidden states summed */
  const mx_pack_t *pack;   /* NULL, or the packing of every role tensor (model/packing.h), owned by the caller */
  const char *signature;   /* NULL, or what the module was built for (MX_LLAMA_SIGNATURE_FN returns it) */
} mx_llama_graph_t;

/* What the session and `mlxcel compile` choose; mx_llama_graph_make turns it into the graph, so a
 * module from `mlxcel compile` fits `--vmfb` whenever the two were given the same options. */
typedef struct {
  mx_dtype_t precision;    /* the weight matmuls' input type: f32, f16, bf16 */
  mx_dtype_t kv;           /* the KV cache's type: f32 (0), or f16 / bf16 when precision is one of those */
  mx_dtype_t weight_dtype; /* storage type of the weights in the parameter file (engine/weights.h) */
  int slots;               /* 0 or 1: a single sequence; up to MX_LLAMA_MAX_SLOTS */
  int capacity;            /* KV positions per slot; 0: mx_llama_default_capacity */
  int score_len;           /* 0: no score function; MX_LLAMA_SCORE_CAPACITY: one over the whole capacity */
  int decode_steps;        /* decode steps per call: 0 or 1 = one; up to MX_LLAMA_MAX_DECODE_STEPS */
  int device_cuts_asked;   /* --device-cuts: 1 on, -1 off, 0 the target's choice */
  bool device_cuts;        /* the choice made (mx_graph_target_choices); used only with decode steps */
  bool expand_kv_groups;   /* the target's choice, mx_target_expand_kv_groups */
  int head_attention_slots; /* the target's choice, mx_target_head_attention_slots */
  int head_attention_window; /* the target's choice, mx_target_head_attention_window */
  int grouped_attention_slots; /* the target's choice for the model's heads and the KV type,
                                * mx_target_grouped_attention_slots */
  int product_rows;        /* the target's choice, mx_target_product_rows */
  bool split_reduction;    /* the target's choice, mx_target_split_reduction */
  bool split_decode_reduction; /* the target's choice for the precision, mx_target_split_decode_reduction */
  int n_whole_decode_products; /* the target's choice, mx_target_whole_decode_products */
  int whole_decode_products[MX_LLAMA_MAX_WHOLE_PRODUCTS][2];
  bool fuse_products;      /* the target's choice, mx_target_fuse_products */
  bool stacked_params;     /* the parameter files have the stack views (mx_weights_stacked) */
  int window_ratio;        /* the target's choice, mx_target_window_ratio (0: 4) */
  bool pooled;             /* the pooled prefill functions (embeddings) too */
  const mx_pack_t *pack;   /* NULL, or --quant packed's plan (engine/weights.h mx_weights_pack_plan) */
} mx_llama_graph_options_t;

/* Checks the options against the configuration and fills the graph (prefill buckets included). */
MX_MUST_USE mx_status_t mx_llama_graph_make(const mx_model_config_t *c, const mx_llama_graph_options_t *o, mx_llama_graph_t *out);

/* The function a module with a signature answers with it, one character per i32: the session compares
 * it with its own before the first call, so a --vmfb built for other options or flags is refused. */
#define MX_LLAMA_SIGNATURE_FN "mlxcel_signature"
#define MX_LLAMA_SIGNATURE_MAX 1024

/* The module's functions, by kind; their names are formatted only by mx_llama_fn_name. */
typedef enum {
  MX_FN_PREFILL,        /* n: the bucket */
  MX_FN_PREFILL_LOGITS, /* n: the bucket */
  MX_FN_DECODE,         /* n: the attention window */
  MX_FN_DECODE_LOGITS,  /* n: the attention window */
  MX_FN_DECODE_STEPS,   /* n: the attention window */
  MX_FN_DECODE_CUT_STEPS, /* n: the attention window; graphs with device_cuts */
  MX_FN_EXTEND,         /* n: the attention window (> the chunk) */
  MX_FN_EXTEND_LOGITS,  /* n: the attention window */
  MX_FN_SCORE, /* n: the score length */
  MX_FN_PREFILL_POOLED, /* n: the bucket */
  MX_FN_EXTEND_POOLED,  /* n: the attention window */
  MX_FN_COPY_SLOT,      /* n: the cache rows copied (a decode window); modules of several slots */
} mx_llama_fn_t;
void mx_llama_fn_name(mx_llama_fn_t fn, int n, char *out, size_t cap);
/* An extend kind's name for a chunk of `width` tokens attending to `window` rows: extend_<W>[...] when
 * width is the chunk, extend_<W>_t<width>[...] for a shorter last chunk (one of the smaller buckets). */
void mx_llama_extend_name(mx_llama_fn_t fn, int window, int width, int chunk, char *out, size_t cap);

/* RoPE inverse frequencies (head_dim / 2 of them), as transformers computes them in float32,
 * including llama3 frequency scaling. */
void mx_llama_inv_freq(const mx_model_config_t *c, float *out);
/* The same for a given base theta (Gemma 3's local layers use their own). */
void mx_llama_inv_freq_theta(const mx_model_config_t *c, float theta, float *out);

/* The context capacity when none is asked for (0): the model's maximum, at most this many positions. */
#define MX_LLAMA_DEFAULT_CONTEXT 8192

#define MX_LLAMA_SCORE_CAPACITY (-1)

/* The longest prefill call: prompts beyond it are prefilled in chunks of this many tokens. */
#define MX_LLAMA_PREFILL_CHUNK 512

/* The prefill buckets for g->capacity: 32, then x4, up to min(capacity, MX_LLAMA_PREFILL_CHUNK) (always
 * the last bucket); the decode windows likewise from 128 up to the capacity (always the last window);
 * kv_rows to match. */
void mx_llama_default_buckets(mx_llama_graph_t *g);

MX_MUST_USE mx_status_t mx_llama_emit(const mx_llama_graph_t *g, char **text_out);

/* Whether layer's stack (model/arch.h mx_arch_fused: Q/K/V, gate/up) is one product: fuse_products and
 * every part a float weight. Its weight is then the files' view over the parts (stacked_params) or a
 * global the module's initializer concatenates (hlo/llama.c emit_stacks). */
bool mx_llama_stack_fused(const mx_llama_graph_t *g, const mx_fused_spec_t *f, int layer);

/* Whether every decode step takes the grouped form over one batch dimension (grouped_attention_slots
 * equal to the graph's slots; hlo/llama.c attend_decode_grouped_rows). */
bool mx_llama_grouped_rows(const mx_llama_graph_t *g);

/* Whether decode window i also has extend_<W> (the next prompt chunk attending to W rows): every window
 * above the prefill chunk, except that on a x2 ladder only those of the x4 one (the first window times
 * 4^k) and the capacity have one; the others are decode only. An extend runs once per prompt chunk,
 * and each window's functions add to the cold compile (docs/performance.md, "Decode windows x2"). */
bool mx_llama_window_has_extend(const mx_llama_graph_t *g, int i);

/* Whether the graph has extends at all, and with them the short last chunks (extend_<W>_t<T>). */
bool mx_llama_has_extends(const mx_llama_graph_t *g);

/* The smallest decode window that holds position `last` (the highest row a call reads or writes), or
 * with `extend` the smallest of those that has extend_<W>; -1 if none does. */
int mx_llama_window_for(const mx_llama_graph_t *g, int last, bool extend);

#endif
