#include "model/config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define REMEDY "fix config.json or use a supported model (docs/models.md)"

static mx_status_t get_int(json_t *root, const char *key, int def, bool required, const char *path, int *out) {
  json_t *v = json_object_get(root, key);
  if (!v || json_is_null(v)) {
    if (required) return mx_status_make(MX_STAGE_IO, REMEDY, "%s: missing '%s'", path, key);
    *out = def;
    return NULL;
  }
  if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > (1 << 30))
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: '%s' must be a non-negative integer", path, key);
  *out = (int)json_integer_value(v);
  return NULL;
}

static mx_status_t get_num(json_t *root, const char *key, float def, const char *path, float *out) {
  json_t *v = json_object_get(root, key);
  if (!v || json_is_null(v)) {
    *out = def;
    return NULL;
  }
  if (!json_is_number(v)) return mx_status_make(MX_STAGE_IO, REMEDY, "%s: '%s' must be a number", path, key);
  *out = (float)json_number_value(v);
  return NULL;
}

static void add_eos(mx_model_config_t *c, json_int_t id) {
  if (id < 0 || id > (1 << 30)) return;
  for (int i = 0; i < c->n_eos; i++)
    if (c->eos_ids[i] == (int)id) return;
  if (c->n_eos < MX_MAX_EOS) c->eos_ids[c->n_eos++] = (int)id;
}

static void read_eos(mx_model_config_t *c, json_t *v) {
  if (json_is_integer(v)) add_eos(c, json_integer_value(v));
  size_t i;
  json_t *e;
  if (json_is_array(v)) json_array_foreach(v, i, e) if (json_is_integer(e)) add_eos(c, json_integer_value(e));
}

/* rope_scaling (transformers 4.x) or rope_parameters (5.x): both carry the same fields. */
static mx_status_t read_rope(json_t *root, const char *path, mx_model_config_t *c) {
  json_t *rp = json_object_get(root, "rope_parameters");
  json_t *rs = json_object_get(root, "rope_scaling");
  MX_RETURN_IF_ERROR(get_num(root, "rope_theta", 10000.0f, path, &c->rope_theta));
  if (json_is_object(rp)) MX_RETURN_IF_ERROR(get_num(rp, "rope_theta", c->rope_theta, path, &c->rope_theta));
  json_t *s = json_is_object(rs) ? rs : (json_is_object(rp) ? rp : NULL);
  if (!s) return NULL;
  const char *type = json_string_value(json_object_get(s, "rope_type"));
  if (!type) type = json_string_value(json_object_get(s, "type"));
  if (!type || !strcmp(type, "default")) return NULL;
  if (strcmp(type, "llama3") != 0)
    return mx_status_make(MX_STAGE_IO, "use a model with default or llama3 RoPE", "%s: rope scaling '%s' is not supported",
                          path, type);
  c->rope_kind = MX_ROPE_LLAMA3;
  MX_RETURN_IF_ERROR(get_num(s, "factor", 8.0f, path, &c->rope_factor));
  MX_RETURN_IF_ERROR(get_num(s, "low_freq_factor", 1.0f, path, &c->rope_low_freq_factor));
  MX_RETURN_IF_ERROR(get_num(s, "high_freq_factor", 4.0f, path, &c->rope_high_freq_factor));
  return get_int(s, "original_max_position_embeddings", 8192, false, path, &c->rope_original_max_position);
}

/* The families by HF model_type, with the switches each sets (config.h). */
static const struct {
  const char *model_type;
  mx_family_t family;
  bool qkv_bias, qk_norm;
} families[] = {
    {"llama", MX_FAMILY_LLAMA, false, false},
    {"qwen2", MX_FAMILY_QWEN2, true, false},
    {"qwen3", MX_FAMILY_QWEN3, false, true},
    {"mistral", MX_FAMILY_MISTRAL, false, false},
    {"gemma2", MX_FAMILY_GEMMA2, false, false},
    {"gemma3_text", MX_FAMILY_GEMMA3, false, true},
    {"gemma3", MX_FAMILY_GEMMA3, false, true}, /* the GGUF architecture; in config.json the multimodal wrapper */
    {"phi3", MX_FAMILY_PHI3, false, false},
};

bool mx_config_is_gemma(const mx_model_config_t *c) { return c->family == MX_FAMILY_GEMMA2 || c->family == MX_FAMILY_GEMMA3; }

bool mx_config_set_family(const char *name, size_t len, mx_model_config_t *c) {
  for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
    if (strlen(families[i].model_type) != len || memcmp(name, families[i].model_type, len) != 0) continue;
    snprintf(c->arch, sizeof c->arch, "%s", families[i].model_type);
    c->family = families[i].family;
    c->qkv_bias = families[i].qkv_bias;
    c->qk_norm = families[i].qk_norm;
    c->fused_projections = c->family == MX_FAMILY_PHI3;
    if (mx_config_is_gemma(c)) { /* transformers' Gemma2Config / Gemma3TextConfig defaults; the sources override them */
      bool g3 = c->family == MX_FAMILY_GEMMA3;
      c->sandwich_norms = true;
      c->act = MX_ACT_GELU_TANH;
      c->attn_scale = 1.0f / 16.0f; /* query_pre_attn_scalar 256 */
      c->rope_theta_local = g3 ? 10000.0f : 0.0f;
      c->attn_softcap = g3 ? 0.0f : 50.0f;
      c->final_softcap = g3 ? 0.0f : 30.0f;
      c->sliding_window = 4096;
      mx_config_set_layer_period(c, g3 ? 6 : 2); /* Gemma 2: local, global, local, ... */
    }
    return true;
  }
  return false;
}

void mx_config_set_layer_period(mx_model_config_t *c, int period) {
  memset(c->full_layers, 0, sizeof c->full_layers);
  c->layer_pattern = true;
  for (int l = period - 1; period > 0 && l < MX_MAX_LAYERS; l += period) c->full_layers[l / 8] |= (uint8_t)(1u << (l % 8));
}

static bool layer_is_full(const mx_model_config_t *c, int layer) {
  return c->layer_pattern && layer >= 0 && layer < MX_MAX_LAYERS && (c->full_layers[layer / 8] >> (layer % 8)) & 1u;
}

int mx_config_layer_window(const mx_model_config_t *c, int layer) { return layer_is_full(c, layer) ? 0 : c->sliding_window; }

float mx_config_layer_theta(const mx_model_config_t *c, int layer) {
  return c->layer_pattern && !layer_is_full(c, layer) && c->rope_theta_local > 0 ? c->rope_theta_local : c->rope_theta;
}

static mx_status_t family_of(json_t *root, const char *path, mx_model_config_t *c) {
  const char *mt = json_string_value(json_object_get(root, "model_type"));
  if (mt && !strcmp(mt, "gemma3"))
    return mx_status_make(MX_STAGE_IO, "use the text-only model (model_type gemma3_text, e.g. Gemma 3 270M or 1B)",
                          "%s: the multimodal Gemma 3 (model_type gemma3) is not supported", path);
  if (mt && mx_config_set_family(mt, strlen(mt), c)) return NULL;
  return mx_status_make(MX_STAGE_IO,
                        "mlxcel runs the model_types llama, qwen2, qwen3, mistral, gemma2, gemma3_text and phi3 (docs/models.md)",
                        "%s: model_type '%s' is not supported", path, mt ? mt : "(missing)");
}

/* Mistral's sliding window applies to every layer when set. Qwen2/3 configs carry a window too, used
 * only with use_sliding_window (on the layers from max_window_layers): that mixed pattern is refused. */
static mx_status_t read_sliding_window(json_t *root, const char *path, mx_model_config_t *c) {
  if (c->family == MX_FAMILY_QWEN2 || c->family == MX_FAMILY_QWEN3) {
    bool sliding = json_is_true(json_object_get(root, "use_sliding_window"));
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(root, "layer_types"), i, e) sliding |= !json_is_string(e) || strcmp(json_string_value(e), "full_attention") != 0;
    if (sliding)
      return mx_status_make(MX_STAGE_IO, "use a config with use_sliding_window false (as the released Qwen models have)",
                            "%s: Qwen sliding-window layers (use_sliding_window, layer_types) are not supported", path);
    return NULL;
  }
  if (c->family != MX_FAMILY_MISTRAL && c->family != MX_FAMILY_PHI3) return NULL;
  return get_int(root, "sliding_window", 0, false, path, &c->sliding_window);
}

/* The RoPE theta of one of Gemma 3's layer types in transformers 5's rope_parameters; only default RoPE. */
static mx_status_t gemma_rope(json_t *params, const char *type, const char *path, float *theta) {
  json_t *p = json_object_get(params, type);
  if (!json_is_object(p)) return NULL;
  const char *kind = json_string_value(json_object_get(p, "rope_type"));
  if (kind && strcmp(kind, "default") != 0)
    return mx_status_make(MX_STAGE_IO, "use a Gemma 3 model with default RoPE (270M, 1B)", "%s: %s RoPE '%s' is not supported", path,
                          type, kind);
  return get_num(p, "rope_theta", *theta, path, theta);
}

/* A soft-capping value: absent keeps the family's default, null turns it off (as in transformers). */
static mx_status_t get_softcap(json_t *root, const char *key, const char *path, float *cap) {
  json_t *v = json_object_get(root, key);
  if (!v) return NULL;
  if (json_is_null(v)) {
    *cap = 0;
    return NULL;
  }
  if (!json_is_number(v) || !(json_number_value(v) > 0) || !isfinite(json_number_value(v)))
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: '%s' must be a positive number or null", path, key);
  *cap = (float)json_number_value(v);
  return NULL;
}

/* Gemma 2's and 3's fields beyond Llama's (transformers' Gemma2Config / Gemma3TextConfig names and defaults). */
static mx_status_t read_gemma(json_t *root, const char *path, mx_model_config_t *c) {
  bool g3 = c->family == MX_FAMILY_GEMMA3;
  const char *act = json_string_value(json_object_get(root, "hidden_activation"));
  if (act && strcmp(act, "gelu_pytorch_tanh") != 0)
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: hidden_activation '%s' is not supported (gelu_pytorch_tanh is)", path, act);
  json_t *bidi = json_object_get(root, "use_bidirectional_attention");
  if (bidi && !json_is_null(bidi) && !json_is_false(bidi))
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: Gemma with use_bidirectional_attention is not supported", path);
  MX_RETURN_IF_ERROR(get_softcap(root, "attn_logit_softcapping", path, &c->attn_softcap));
  MX_RETURN_IF_ERROR(get_softcap(root, "final_logit_softcapping", path, &c->final_softcap));
  c->norm_offset = 1.0f; /* transformers' Gemma RMSNorm: x * (1 + w) */
  c->embed_scale = sqrtf((float)c->dim);
  float scalar = 256;
  MX_RETURN_IF_ERROR(get_num(root, "query_pre_attn_scalar", scalar, path, &scalar));
  if (!(scalar > 0)) return mx_status_make(MX_STAGE_IO, REMEDY, "%s: query_pre_attn_scalar must be positive", path);
  c->attn_scale = (float)(1.0 / sqrt((double)scalar));
  MX_RETURN_IF_ERROR(get_int(root, "sliding_window", 4096, false, path, &c->sliding_window));
  if (g3) { /* Gemma 2's one RoPE went through read_rope */
    if (json_is_object(json_object_get(root, "rope_scaling")))
      return mx_status_make(MX_STAGE_IO, "use a Gemma 3 model with default RoPE (270M, 1B)", "%s: Gemma 3 rope_scaling is not supported", path);
    c->rope_theta = 1000000.0f;
    MX_RETURN_IF_ERROR(get_num(root, "rope_theta", c->rope_theta, path, &c->rope_theta));
    MX_RETURN_IF_ERROR(get_num(root, "rope_local_base_freq", c->rope_theta_local, path, &c->rope_theta_local));
    json_t *params = json_object_get(root, "rope_parameters");
    MX_RETURN_IF_ERROR(gemma_rope(params, "full_attention", path, &c->rope_theta));
    MX_RETURN_IF_ERROR(gemma_rope(params, "sliding_attention", path, &c->rope_theta_local));
  }
  int period = g3 ? 6 : 2;
  MX_RETURN_IF_ERROR(get_int(root, "sliding_window_pattern", period, false, path, &period));
  mx_config_set_layer_period(c, period);
  json_t *types = json_object_get(root, "layer_types");
  if (json_is_array(types)) {
    memset(c->full_layers, 0, sizeof c->full_layers);
    size_t i;
    json_t *e;
    json_array_foreach(types, i, e) {
      const char *s = json_string_value(e);
      bool full = s && !strcmp(s, "full_attention");
      if (i >= MX_MAX_LAYERS || (!full && (!s || strcmp(s, "sliding_attention") != 0)))
        return mx_status_make(MX_STAGE_IO, REMEDY, "%s: layer_types[%zu] must be full_attention or sliding_attention", path, i);
      if (full) c->full_layers[i / 8] |= (uint8_t)(1u << (i % 8));
    }
  }
  json_t *tie = json_object_get(root, "tie_word_embeddings");
  c->tied_embeddings = !tie || json_is_true(tie);
  return NULL;
}

/* Phi-3's variants beyond the 4k-context models: partial rotary embeddings (Phi-4-mini) are refused by
 * name; LongRoPE (the 128k models) is refused by read_rope. */
static mx_status_t read_phi3(json_t *root, const char *path) {
  json_t *v = json_object_get(root, "partial_rotary_factor");
  if (v && !json_is_null(v) && !(json_is_number(v) && json_number_value(v) == 1.0))
    return mx_status_make(MX_STAGE_IO, "use a Phi-3 model with full rotary embeddings (Phi-3-mini/medium 4k)",
                          "%s: partial_rotary_factor %g is not supported", path, json_number_value(v));
  return NULL;
}

mx_status_t mx_config_from_hf_json(const char *config_text, const char *generation_text, const char *path,
                                   mx_model_config_t *c) {
  memset(c, 0, sizeof *c);
  json_error_t jerr;
  json_t *root = json_loads(config_text, 0, &jerr);
  if (!root || !json_is_object(root)) {
    json_decref(root);
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: not a JSON object (line %d: %s)", path, jerr.line, jerr.text);
  }
  mx_status_t st = family_of(root, path, c);
  if (!st) st = get_int(root, "num_hidden_layers", 0, true, path, &c->n_layers);
  if (!st) st = get_int(root, "hidden_size", 0, true, path, &c->dim);
  if (!st) st = get_int(root, "num_attention_heads", 0, true, path, &c->n_heads);
  if (!st) st = get_int(root, "num_key_value_heads", c->n_heads, false, path, &c->n_kv_heads);
  if (!st) st = get_int(root, "head_dim", c->n_heads ? c->dim / c->n_heads : 0, false, path, &c->head_dim);
  if (!st) st = get_int(root, "intermediate_size", 0, true, path, &c->ffn_dim);
  if (!st) st = get_int(root, "vocab_size", 0, true, path, &c->vocab);
  if (!st) st = get_int(root, "max_position_embeddings", 2048, false, path, &c->max_position);
  if (!st) st = get_num(root, "rms_norm_eps", 1e-6f, path, &c->norm_eps);
  if (!st && c->family != MX_FAMILY_GEMMA3) st = read_rope(root, path, c);
  if (!st && c->family == MX_FAMILY_PHI3) st = read_phi3(root, path);
  if (!st) st = get_int(root, "bos_token_id", -1, false, path, &c->bos_id);
  if (!st) {
    const char *act = json_string_value(json_object_get(root, "hidden_act"));
    if (act && strcmp(act, "silu") != 0 && !mx_config_is_gemma(c))
      st = mx_status_make(MX_STAGE_IO, REMEDY, "%s: hidden_act '%s' is not supported (silu is)", path, act);
    if (json_is_true(json_object_get(root, "attention_bias")) || json_is_true(json_object_get(root, "mlp_bias")))
      st = st ? st : mx_status_make(MX_STAGE_IO, REMEDY, "%s: attention or MLP biases are not supported", path);
  }
  if (!st) st = read_sliding_window(root, path, c);
  c->tied_embeddings = json_is_true(json_object_get(root, "tie_word_embeddings"));
  if (!st && mx_config_is_gemma(c)) st = read_gemma(root, path, c);
  read_eos(c, json_object_get(root, "eos_token_id"));
  json_decref(root);
  if (!st && generation_text) {
    json_t *gen = json_loads(generation_text, 0, &jerr);
    if (json_is_object(gen)) read_eos(c, json_object_get(gen, "eos_token_id"));
    json_decref(gen);
  }
  if (!st) st = mx_config_validate(c, path);
  return st;
}

mx_status_t mx_config_validate(const mx_model_config_t *c, const char *path) {
  if (c->n_layers < 1 || c->n_layers > 1024 || c->dim < 1 || c->dim > 65536 || c->n_heads < 1 || c->n_heads > 1024 ||
      c->n_kv_heads < 1 || c->head_dim < 2 || c->head_dim > 1024 || (c->head_dim & 1) || c->ffn_dim < 1 ||
      c->ffn_dim > (1 << 20) || c->vocab < 1 || c->vocab > (1 << 22) || c->max_position < 1)
    return mx_status_make(MX_STAGE_IO, REMEDY,
                          "%s: implausible architecture (%d layers, dim %d, %d/%d heads of %d, ffn %d, vocab %d)", path,
                          c->n_layers, c->dim, c->n_heads, c->n_kv_heads, c->head_dim, c->ffn_dim, c->vocab);
  if (c->n_heads % c->n_kv_heads != 0)
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: %d attention heads are not a multiple of %d KV heads", path, c->n_heads,
                          c->n_kv_heads);
  if (!(c->norm_eps > 0 && c->norm_eps < 1) || !(c->rope_theta > 0) || !isfinite(c->rope_theta))
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: norm epsilon %g or RoPE theta %g out of range", path, c->norm_eps,
                          c->rope_theta);
  if (c->rope_kind == MX_ROPE_LLAMA3 &&
      !(c->rope_factor >= 1 && c->rope_low_freq_factor > 0 && c->rope_high_freq_factor > c->rope_low_freq_factor &&
        c->rope_original_max_position > 0))
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: llama3 RoPE scaling parameters out of range", path);
  if (!(c->attn_softcap >= 0 && c->final_softcap >= 0 && isfinite(c->attn_softcap) && isfinite(c->final_softcap)))
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: logit soft-capping %g / %g out of range", path, c->attn_softcap, c->final_softcap);
  for (int i = 0; i < c->n_eos; i++)
    if (c->eos_ids[i] >= c->vocab) return mx_status_make(MX_STAGE_IO, REMEDY, "%s: EOS id %d is outside the vocabulary", path, c->eos_ids[i]);
  if (c->bos_id >= c->vocab) return mx_status_make(MX_STAGE_IO, REMEDY, "%s: BOS id %d is outside the vocabulary", path, c->bos_id);
  return NULL;
}

void mx_config_describe(const mx_model_config_t *c, char *out, size_t cap) {
  char window[48] = "";
  if (c->sliding_window) snprintf(window, sizeof window, ", sliding window %d", c->sliding_window);
  snprintf(out, cap, "%s: %d layers, dim %d, %d/%d heads x %d, ffn %d, vocab %d, rope theta %g%s, eps %g%s%s%s%s", c->arch,
           c->n_layers, c->dim, c->n_heads, c->n_kv_heads, c->head_dim, c->ffn_dim, c->vocab, c->rope_theta,
           c->rope_kind == MX_ROPE_LLAMA3 ? " (llama3 scaling)" : c->has_rope_freq_factors ? " (GGUF frequency factors)" : "", c->norm_eps,
           c->tied_embeddings ? ", tied embeddings" : "", c->qkv_bias ? ", q/k/v biases" : "",
           c->qk_norm ? ", q/k norms" : "", window);
  size_t n = strlen(out);
  if (mx_config_is_gemma(c)) {
    int full = 0;
    for (int l = 0; l < c->n_layers; l++) full += mx_config_layer_window(c, l) == 0;
    snprintf(out + n, cap > n ? cap - n : 0, " (%d of %d layers global, local theta %g), GELU, sandwich norms, embedding x %.4g", full,
             c->n_layers, mx_config_layer_theta(c, 0), c->embed_scale);
    n = strlen(out);
  }
  if (c->attn_softcap > 0 || c->final_softcap > 0)
    snprintf(out + n, cap > n ? cap - n : 0, ", soft-capping %g (attention) %g (logits)", c->attn_softcap, c->final_softcap);
  n = strlen(out);
  if (c->fused_projections) snprintf(out + n, cap > n ? cap - n : 0, ", fused qkv/gate_up (split at load)");
}

bool mx_config_is_eos(const mx_model_config_t *c, int32_t id) {
  for (int i = 0; i < c->n_eos; i++)
    if (c->eos_ids[i] == id) return true;
  return false;
}
