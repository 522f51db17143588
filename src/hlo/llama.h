/* The Llama forward pass as StableHLO.
 *
 * One module holds every function, so they share the weights (IREE parameters, bound by their HF
 * names in scope "model") and the KV cache (mutable globals updated in place):
 *   prefill_<N>(tokens: N x i32, length: i32) -> next token (i32)        for each bucket N
 *   prefill_<N>_logits(tokens, length)        -> logits at length-1 (vocab x f32)
 *   decode(token: i32, pos: i32)              -> next token (i32)
 *   decode_logits(token, pos)                 -> logits (vocab x f32)
 *   score_<S>(tokens: S x i32)                -> logits at every position (S x vocab x f32)
 * Prefill writes KV rows [0, N); decode writes row pos and attends to rows [0, pos]. Padding rows a
 * prefill writes past `length` are never attended to before a decode overwrites them.
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

typedef struct {
  const mx_model_config_t *config;
  mx_dtype_t matmul;       /* compute type of the weight matmuls' inputs */
  mx_dtype_t kv;           /* type of the KV cache and of the attention matmuls' inputs */
  mx_dtype_t weight_dtype; /* storage type of every weight in the parameter file */
  int capacity;            /* KV positions */
  int n_buckets;
  int buckets[MX_LLAMA_MAX_BUCKETS]; /* prefill lengths, ascending, each <= capacity */
  int score_len;           /* 0: no score function */
} mx_llama_graph_t;

/* RoPE inverse frequencies (head_dim / 2 of them), as transformers computes them in float32,
 * including llama3 frequency scaling. */
void mx_llama_inv_freq(const mx_model_config_t *c, float *out);

/* The prefill buckets for g->capacity: 32, then x4, up to the capacity (always the last bucket). */
void mx_llama_default_buckets(mx_llama_graph_t *g);

mx_status_t mx_llama_emit(const mx_llama_graph_t *g, char **text_out);

#endif
