/* The Llama architecture's weights as data: every role with its HF name, its GGUF name and its shape
 * in terms of the configuration. One table, read by everyone who names or shapes a weight: the loader
 * (model.c) binds and checks files by it, the weight preparation (engine/weights.c) names the
 * runtime's parameters by it, the synthetic generator (synth.c) writes checkpoints by it and the
 * emitter (hlo/llama.c) declares and loads its parameters by it. A new family's tensor is a row here,
 * not a string in four files. */
#ifndef MX_MODEL_ARCH_H
#define MX_MODEL_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/config.h"

typedef enum {
  MX_T_EMBED = 0,  /* [vocab, dim] */
  MX_T_FINAL_NORM, /* [dim] */
  MX_T_LM_HEAD,    /* [vocab, dim]; absent when tied to the embedding */
  MX_T_GLOBAL_COUNT,
} mx_global_role_t;

typedef enum {
  MX_T_ATTN_NORM = 0, /* [dim] */
  MX_T_Q,             /* [heads * head_dim, dim] */
  MX_T_K,             /* [kv_heads * head_dim, dim] */
  MX_T_V,             /* [kv_heads * head_dim, dim] */
  MX_T_O,             /* [dim, heads * head_dim] */
  MX_T_FFN_NORM,      /* [dim] */
  MX_T_GATE,          /* [ffn, dim] */
  MX_T_UP,            /* [ffn, dim] */
  MX_T_DOWN,          /* [dim, ffn] */
  MX_T_Q_BIAS,        /* [heads * head_dim]; only with qkv_bias (Qwen2) */
  MX_T_K_BIAS,        /* [kv_heads * head_dim]; only with qkv_bias */
  MX_T_V_BIAS,        /* [kv_heads * head_dim]; only with qkv_bias */
  MX_T_Q_NORM,        /* [head_dim]; only with qk_norm (Qwen3) */
  MX_T_K_NORM,        /* [head_dim]; only with qk_norm */
  MX_T_POST_ATTN_NORM, /* [dim]; only with sandwich_norms (Gemma 3): on the attention's output */
  MX_T_PRE_FFN_NORM,   /* [dim]; only with sandwich_norms: the MLP's input norm, in place of MX_T_FFN_NORM */
  MX_T_POST_FFN_NORM,  /* [dim]; only with sandwich_norms: on the MLP's output */
  MX_T_LAYER_COUNT,
} mx_layer_role_t;

/* A dimension of a weight, named by what in the configuration sets it. */
typedef enum { MX_DIM_VOCAB, MX_DIM_MODEL, MX_DIM_Q, MX_DIM_KV, MX_DIM_FFN, MX_DIM_HEAD } mx_dim_t;

typedef struct {
  const char *hf;   /* HF (safetensors) name; layer roles hold one %d for the layer */
  const char *gguf; /* GGUF (llama.cpp) name, same convention */
  int rank;         /* 1 or 2 */
  mx_dim_t dims[2]; /* PyTorch order: a Linear's weight is [out, in] */
  bool is_norm;     /* an RMSNorm scale (synthetic values are drawn around 1) */
  bool rope_rows;   /* Q/K: GGUF stores the rows permuted for interleaved-pair RoPE */
} mx_tensor_spec_t;

/* A checkpoint tensor that holds several roles' rows stacked, in order (Phi-3's qkv_proj and
 * gate_up_proj): the loader splits it into views of the roles (model.c), the synthetic generator writes
 * it whole (synth.c); everything after the loader sees the roles. */
typedef struct {
  const char *hf, *gguf; /* names as in mx_tensor_spec_t */
  int n_parts;
  mx_layer_role_t parts[3];
} mx_fused_spec_t;

/* The fused tensors of a configuration (none unless fused_projections), and the one that holds role. */
int mx_arch_fused_count(const mx_model_config_t *c);
const mx_fused_spec_t *mx_arch_fused(int i);
/* The stacks every configuration may use (i < MX_ARCH_STACKS: Q/K/V, gate/up), by the same table: the
 * graph's stacked products (hlo/llama.c linears) and the prepared files' views over their parts. */
#define MX_ARCH_STACKS 2
#define MX_STACK_QKV 0
#define MX_STACK_GATE_UP 1
const mx_fused_spec_t *mx_arch_fused_of(mx_layer_role_t role, const mx_model_config_t *c);

const mx_tensor_spec_t *mx_arch_global(mx_global_role_t role);
const mx_tensor_spec_t *mx_arch_layer(mx_layer_role_t role);
/* Whether a model of this configuration has the role (the family's switches say; the LM head is
 * absent when tied). Every loop over the roles asks this. */
bool mx_arch_global_present(mx_global_role_t role, const mx_model_config_t *c);
bool mx_arch_layer_present(mx_layer_role_t role, const mx_model_config_t *c);
/* The HF (gguf false) or GGUF name of a role; `layer` is ignored for globals. */
void mx_arch_name(const mx_tensor_spec_t *t, int layer, bool gguf, char *out, size_t cap);
/* The shape the configuration implies; returns the rank. */
int mx_arch_shape(const mx_tensor_spec_t *t, const mx_model_config_t *c, int64_t dims[2]);

#endif
