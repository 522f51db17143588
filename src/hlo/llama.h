/* The Llama forward pass as StableHLO.
 *
 * One module holds every function, so they share the weights (IREE parameters, bound by their HF
 * names in scope "model") and the KV cache (mutable globals [slots, capacity, kv_heads, head_dim],
 * updated in place). A slot holds one sequence; a single-sequence module has one slot.
 *   prefill_<N>(tokens: N x i32, length: i32, slot: i32) -> next token (i32)      each bucket N
 *   prefill_<N>_logits(tokens, length, slot)        -> logits at length-1 (vocab x f32)
 *   decode(tokens: slots x i32, pos: slots x i32)    -> next token per slot (slots x i32)
 *   decode_logits(tokens, pos)                       -> logits per slot (slots x vocab x f32)
 *   score_<S>(tokens: S x i32)                       -> logits at every position (S x vocab), slot 0
 * Prefill writes the slot's KV rows [0, N); decode writes row pos[b] of every slot b and each slot
 * attends to its rows [0, pos[b]]. Rows past a sequence's position (prefill padding, an earlier
 * request's leftovers, an idle slot's writes) are never attended to before they are overwritten, so
 * idle slots may be decoded with any token and position.
 *
 * Precision: the residual stream, norms, RoPE, softmax, rsqrt and exp are f32; the weight matmuls'
 * inputs are converted to `matmul` (f32, f16 or bf16) with f32 accumulation; the KV cache and the
 * attention matmuls use `kv`. */
#ifndef MX_HLO_LLAMA_H
#define MX_HLO_LLAMA_H

#include "base/dtype.h"
#include "base/status.h"
#include "model/config.h"

#define MX_LLAMA_MAX_BUCKETS 8
#define MX_LLAMA_MAX_SLOTS 8

typedef struct {
  const mx_model_config_t *config;
  mx_dtype_t matmul;       /* compute type of the weight matmuls' inputs */
  mx_dtype_t kv;           /* type of the KV cache and of the attention matmuls' inputs */
  mx_dtype_t weight_dtype; /* storage type of every weight in the parameter file */
  int slots;               /* sequences decoded together (1..MX_LLAMA_MAX_SLOTS) */
  int capacity;            /* KV positions per slot */
  int n_buckets;
  int buckets[MX_LLAMA_MAX_BUCKETS]; /* prefill lengths, ascending, each <= capacity */
  int score_len;           /* 0: no score function */
} mx_llama_graph_t;

/* RoPE inverse frequencies (head_dim / 2 of them), as transformers computes them in float32,
 * including llama3 frequency scaling. */
void mx_llama_inv_freq(const mx_model_config_t *c, float *out);

/* The prefill buckets for g->capacity: 32, then x4, up to the capacity (always the last bucket). */
void mx_llama_default_buckets(mx_llama_graph_t *g);

MX_MUST_USE mx_status_t mx_llama_emit(const mx_llama_graph_t *g, char **text_out);

#endif
