#include "model/arch.h"

#include <stdio.h>

static const mx_tensor_spec_t globals[MX_T_GLOBAL_COUNT] = {
    [MX_T_EMBED] = {"model.embed_tokens.weight", "token_embd.weight", 2, {MX_DIM_VOCAB, MX_DIM_MODEL}},
    [MX_T_FINAL_NORM] = {"model.norm.weight", "output_norm.weight", 1, {MX_DIM_MODEL}, .is_norm = true},
    [MX_T_LM_HEAD] = {"lm_head.weight", "output.weight", 2, {MX_DIM_VOCAB, MX_DIM_MODEL}},
};

static const mx_tensor_spec_t layers[MX_T_LAYER_COUNT] = {
    [MX_T_ATTN_NORM] = {"model.layers.%d.input_layernorm.weight", "blk.%d.attn_norm.weight", 1, {MX_DIM_MODEL}, .is_norm = true},
    [MX_T_Q] = {"model.layers.%d.self_attn.q_proj.weight", "blk.%d.attn_q.weight", 2, {MX_DIM_Q, MX_DIM_MODEL}, .rope_rows = true},
    [MX_T_K] = {"model.layers.%d.self_attn.k_proj.weight", "blk.%d.attn_k.weight", 2, {MX_DIM_KV, MX_DIM_MODEL}, .rope_rows = true},
    [MX_T_V] = {"model.layers.%d.self_attn.v_proj.weight", "blk.%d.attn_v.weight", 2, {MX_DIM_KV, MX_DIM_MODEL}},
    [MX_T_O] = {"model.layers.%d.self_attn.o_proj.weight", "blk.%d.attn_output.weight", 2, {MX_DIM_MODEL, MX_DIM_Q}},
    [MX_T_FFN_NORM] = {"model.layers.%d.post_attention_layernorm.weight", "blk.%d.ffn_norm.weight", 1, {MX_DIM_MODEL},
                       .is_norm = true},
    [MX_T_GATE] = {"model.layers.%d.mlp.gate_proj.weight", "blk.%d.ffn_gate.weight", 2, {MX_DIM_FFN, MX_DIM_MODEL}},
    [MX_T_UP] = {"model.layers.%d.mlp.up_proj.weight", "blk.%d.ffn_up.weight", 2, {MX_DIM_FFN, MX_DIM_MODEL}},
    [MX_T_DOWN] = {"model.layers.%d.mlp.down_proj.weight", "blk.%d.ffn_down.weight", 2, {MX_DIM_MODEL, MX_DIM_FFN}},
    [MX_T_Q_BIAS] = {"model.layers.%d.self_attn.q_proj.bias", "blk.%d.attn_q.bias", 1, {MX_DIM_Q}},
    [MX_T_K_BIAS] = {"model.layers.%d.self_attn.k_proj.bias", "blk.%d.attn_k.bias", 1, {MX_DIM_KV}},
    [MX_T_V_BIAS] = {"model.layers.%d.self_attn.v_proj.bias", "blk.%d.attn_v.bias", 1, {MX_DIM_KV}},
    [MX_T_Q_NORM] = {"model.layers.%d.self_attn.q_norm.weight", "blk.%d.attn_q_norm.weight", 1, {MX_DIM_HEAD}, .is_norm = true},
    [MX_T_K_NORM] = {"model.layers.%d.self_attn.k_norm.weight", "blk.%d.attn_k_norm.weight", 1, {MX_DIM_HEAD}, .is_norm = true},
    /* Gemma's HF names: its post_attention_layernorm is on the attention's output, unlike Llama's (MX_T_FFN_NORM) */
    [MX_T_POST_ATTN_NORM] = {"model.layers.%d.post_attention_layernorm.weight", "blk.%d.post_attention_norm.weight", 1, {MX_DIM_MODEL},
                             .is_norm = true},
    [MX_T_PRE_FFN_NORM] = {"model.layers.%d.pre_feedforward_layernorm.weight", "blk.%d.ffn_norm.weight", 1, {MX_DIM_MODEL},
                           .is_norm = true},
    [MX_T_POST_FFN_NORM] = {"model.layers.%d.post_feedforward_layernorm.weight", "blk.%d.post_ffw_norm.weight", 1, {MX_DIM_MODEL},
                            .is_norm = true},
};

/* Phi-3: HF's fused names, and llama.cpp's (whose ffn_up holds gate then up, with no ffn_gate). */
static const mx_fused_spec_t fused[] = {
    {"model.layers.%d.self_attn.qkv_proj.weight", "blk.%d.attn_qkv.weight", 3, {MX_T_Q, MX_T_K, MX_T_V}},
    {"model.layers.%d.mlp.gate_up_proj.weight", "blk.%d.ffn_up.weight", 2, {MX_T_GATE, MX_T_UP}},
};

int mx_arch_fused_count(const mx_model_config_t *c) { return c->fused_projections ? (int)(sizeof fused / sizeof fused[0]) : 0; }
const mx_fused_spec_t *mx_arch_fused(int i) { return &fused[i]; }

const mx_fused_spec_t *mx_arch_fused_of(mx_layer_role_t role, const mx_model_config_t *c) {
  for (int i = 0; i < mx_arch_fused_count(c); i++)
    for (int p = 0; p < fused[i].n_parts; p++)
      if (fused[i].parts[p] == role) return &fused[i];
  return NULL;
}

const mx_tensor_spec_t *mx_arch_global(mx_global_role_t role) { return &globals[role]; }
const mx_tensor_spec_t *mx_arch_layer(mx_layer_role_t role) { return &layers[role]; }

bool mx_arch_global_present(mx_global_role_t role, const mx_model_config_t *c) {
  return role != MX_T_LM_HEAD || !c->tied_embeddings;
}

bool mx_arch_layer_present(mx_layer_role_t role, const mx_model_config_t *c) {
  switch (role) {
    case MX_T_Q_BIAS:
    case MX_T_K_BIAS:
    case MX_T_V_BIAS: return c->qkv_bias;
    case MX_T_Q_NORM:
    case MX_T_K_NORM: return c->qk_norm;
    case MX_T_FFN_NORM: return !c->sandwich_norms;
    case MX_T_POST_ATTN_NORM:
    case MX_T_PRE_FFN_NORM:
    case MX_T_POST_FFN_NORM: return c->sandwich_norms;
    default: return true;
  }
}

void mx_arch_name(const mx_tensor_spec_t *t, int layer, bool gguf, char *out, size_t cap) {
  const char *fmt = gguf ? t->gguf : t->hf;
  /* Global names hold no %d, so the extra argument is ignored there. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
  snprintf(out, cap, fmt, layer);
#pragma GCC diagnostic pop
}

static int64_t dim_of(mx_dim_t d, const mx_model_config_t *c) {
  switch (d) {
    case MX_DIM_VOCAB: return c->vocab;
    case MX_DIM_MODEL: return c->dim;
    case MX_DIM_Q: return (int64_t)c->n_heads * c->head_dim;
    case MX_DIM_KV: return (int64_t)c->n_kv_heads * c->head_dim;
    case MX_DIM_FFN: return c->ffn_dim;
    case MX_DIM_HEAD: return c->head_dim;
  }
  return 0;
}

int mx_arch_shape(const mx_tensor_spec_t *t, const mx_model_config_t *c, int64_t dims[2]) {
  dims[1] = 0;
  for (int i = 0; i < t->rank; i++) dims[i] = dim_of(t->dims[i], c);
  return t->rank;
}
