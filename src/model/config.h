/* The model's architecture, whatever file it came from (HF config.json or GGUF metadata). */
#ifndef MX_MODEL_CONFIG_H
#define MX_MODEL_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"

#define MX_MAX_EOS 8

typedef enum {
  MX_ROPE_PLAIN = 0, /* inv_freq = theta^(-2i/d) */
  MX_ROPE_LLAMA3,    /* Llama 3.1+ frequency scaling (factor, low/high freq factors, original context) */
} mx_rope_kind_t;

/* The decoder families one emitter runs, as switches (docs/models.md): each is Llama's layer with
 * what its config adds. */
typedef enum {
  MX_FAMILY_LLAMA = 0, /* Llama 2/3.x, SmolLM2 */
  MX_FAMILY_QWEN2,     /* + Q/K/V biases */
  MX_FAMILY_QWEN3,     /* + RMSNorm of each query and key head before RoPE */
  MX_FAMILY_MISTRAL,   /* + sliding-window attention when the config sets one */
  MX_FAMILY_GEMMA2,    /* + (1 + w) norms, sandwich norms, GELU, scaled embedding, alternating local/global layers,
                        logit soft-capping */
  MX_FAMILY_GEMMA3,    /* Gemma 2's layer without the soft-capping, + q/k norms, a local RoPE theta, 5 local : 1 global */
  MX_FAMILY_PHI3,      /* Llama's layer with fused qkv_proj / gate_up_proj weights (split at load), + sliding window */
} mx_family_t;

typedef enum {
  MX_ACT_SILU = 0,  /* SwiGLU: silu(gate) * up */
  MX_ACT_GELU_TANH, /* GeGLU: gelu_pytorch_tanh(gate) * up */
} mx_act_t;

#define MX_MAX_LAYERS 1024

typedef struct {
  char arch[32]; /* the family's name: "llama", "qwen2", "qwen3", "mistral", "gemma2", "gemma3_text", "phi3" */
  mx_family_t family;
  bool qkv_bias;      /* q/k/v projections carry a bias (Qwen2) */
  bool qk_norm;       /* per-head RMSNorm of queries and keys before RoPE (Qwen3) */
  int sliding_window; /* a query sees the keys less than this many positions back; 0: all (Mistral, Phi-3) */
  bool fused_projections; /* the checkpoint stores Q/K/V as one qkv_proj and gate/up as one gate_up_proj (Phi-3) */
  /* Gemma's switches (all zero elsewhere): */
  bool sandwich_norms;    /* norms after attention and after the MLP too (pre_feedforward_layernorm names the MLP's) */
  float norm_offset;      /* RMSNorm scales by (norm_offset + w): 1 for Gemma's HF weights, 0 for its GGUF (stored + 1) */
  float embed_scale;      /* embeddings times this (sqrt(dim) for Gemma); 0: not scaled */
  float attn_scale;       /* attention scores times this; 0: 1/sqrt(head_dim) */
  float rope_theta_local; /* RoPE theta of the sliding-window layers; 0: rope_theta */
  mx_act_t act;
  float attn_softcap;  /* attention scores become cap * tanh(scores / cap) after scaling; 0: none (Gemma 2) */
  float final_softcap; /* the same on the logits */
  uint8_t full_layers[MX_MAX_LAYERS / 8]; /* with a sliding window and a layer pattern: bit l set = layer l attends to all */
  bool layer_pattern;                     /* full_layers applies (else every layer has the window) */
  int n_layers, dim, n_heads, n_kv_heads, head_dim, ffn_dim, vocab, max_position;
  float rope_theta;
  mx_rope_kind_t rope_kind;
  float rope_factor, rope_low_freq_factor, rope_high_freq_factor;
  int rope_original_max_position;
  /* Llama 3.1+ GGUFs: llama.cpp's converter stores the llama3 scaling as one divisor per frequency
   * (rope_freqs.weight, [head_dim/2] f32): inv_freq[i] = theta^(-2i/d) / rope_freq_factors[i]. */
  bool has_rope_freq_factors;
  float rope_freq_factors[512];
  float norm_eps;
  bool tied_embeddings;
  int bos_id; /* -1 when unknown */
  int n_eos;
  int eos_ids[MX_MAX_EOS];
} mx_model_config_t;

/* Parses an HF config.json text (plus generation_config.json text, may be NULL, for extra EOS ids). */
MX_MUST_USE mx_status_t mx_config_from_hf_json(const char *config_text, const char *generation_text, const char *path,
                                               mx_model_config_t *out);
/* Sets the family and its switches from a model_type / GGUF architecture name (not NUL-terminated);
 * false for a family mlxcel does not run. */
bool mx_config_set_family(const char *name, size_t len, mx_model_config_t *c);
/* Gemma 2 or Gemma 3 (their shared switches). */
bool mx_config_is_gemma(const mx_model_config_t *c);
/* Range and consistency checks common to every source. */
MX_MUST_USE mx_status_t mx_config_validate(const mx_model_config_t *c, const char *path);
/* One-line summary for logs: "llama: 16 layers, dim 2048, 32/8 heads x 64, ffn 8192, vocab 128256". */
void mx_config_describe(const mx_model_config_t *c, char *out, size_t cap);
/* The sliding window layer l attends within (0: every position); its RoPE theta. */
int mx_config_layer_window(const mx_model_config_t *c, int layer);
float mx_config_layer_theta(const mx_model_config_t *c, int layer);
/* Gemma 3's layer pattern: every `period`-th layer (1-based) attends to all positions, the others slide. */
void mx_config_set_layer_period(mx_model_config_t *c, int period);
/* Whether id is one of the model's end-of-sequence tokens. */
bool mx_config_is_eos(const mx_model_config_t *c, int32_t id);

#endif
