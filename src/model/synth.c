#include "model/synth.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/clock.h"
#include "base/file.h"
#include "base/log.h"
#include "model/arch.h"
#include "model/config.h"
#include "format/st_writer.h"

#define CHUNK_ELEMS (1u << 22)

typedef struct {
  char name[96];
  int rank;
  int64_t shape[2];
  int is_norm;
} synth_tensor_t;

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static uint64_t stream_seed(uint64_t seed, const char *name) {
  uint64_t h = 1469598103934665603ULL;
  for (const char *p = name; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ULL;
  uint64_t s = seed ^ h;
  uint64_t r = splitmix64(&s);
  return r ? r : 1;
}

static void spec_tensor(synth_tensor_t *t, const mx_tensor_spec_t *spec, int layer, const mx_model_config_t *c) {
  mx_arch_name(spec, layer, false, t->name, sizeof t->name);
  t->rank = mx_arch_shape(spec, c, t->shape);
  t->is_norm = spec->is_norm;
}

/* A fused tensor (arch.h) whole, as HF stores it: its parts' rows stacked. */
static void fused_tensor(synth_tensor_t *t, const mx_fused_spec_t *fs, int layer, const mx_model_config_t *c) {
  spec_tensor(t, mx_arch_layer(fs->parts[0]), layer, c);
  snprintf(t->name, sizeof t->name, fs->hf, layer);
  for (int p = 1; p < fs->n_parts; p++) {
    int64_t d[2];
    mx_arch_shape(mx_arch_layer(fs->parts[p]), c, d);
    t->shape[0] += d[0];
  }
}

/* The checkpoint's tensors (arch.h), in HF's order: the embedding, each layer (a fused tensor where its
 * first part would be), the final norm, the LM head when it is not tied. */
static int list_tensors(const mx_model_config_t *c, synth_tensor_t **out) {
  int n = MX_T_GLOBAL_COUNT + MX_T_LAYER_COUNT * c->n_layers, k = 0;
  synth_tensor_t *t = calloc((size_t)n, sizeof *t);
  if (!t) return -1;
  spec_tensor(&t[k++], mx_arch_global(MX_T_EMBED), 0, c);
  for (int l = 0; l < c->n_layers; l++)
    for (int r = 0; r < MX_T_LAYER_COUNT; r++)
      if (mx_arch_layer_present((mx_layer_role_t)r, c)) {
        const mx_fused_spec_t *fs = mx_arch_fused_of((mx_layer_role_t)r, c);
        if (!fs) spec_tensor(&t[k++], mx_arch_layer((mx_layer_role_t)r), l, c);
        else if (fs->parts[0] == (mx_layer_role_t)r) fused_tensor(&t[k++], fs, l, c);
      }
  spec_tensor(&t[k++], mx_arch_global(MX_T_FINAL_NORM), 0, c);
  if (mx_arch_global_present(MX_T_LM_HEAD, c)) spec_tensor(&t[k++], mx_arch_global(MX_T_LM_HEAD), 0, c);
  *out = t;
  return k;
}

static uint64_t tensor_elems(const synth_tensor_t *t) {
  return (uint64_t)t->shape[0] * (uint64_t)(t->rank == 2 ? t->shape[1] : 1);
}

/* Moves each group of G values onto its 4-bit grid (synth.h): m = lo rounded down to a multiple of
 * 2^-20, d = (hi - lo) / 15 rounded up to one, so the lowest value lands on q = 0 and the highest on
 * q = 15, and the host quantizer (model/packing.c) finds d and m again exactly. */
static void onto_q4_grid(float *v, uint32_t n, int G) {
  const double u = 1.0 / 1048576.0;
  for (uint32_t g0 = 0; g0 + (uint32_t)G <= n; g0 += (uint32_t)G) {
    float lo = v[g0], hi = v[g0];
    for (uint32_t i = g0; i < g0 + (uint32_t)G; i++) lo = fminf(lo, v[i]), hi = fmaxf(hi, v[i]);
    double m = floor(lo / u) * u, d = ceil((hi - lo) / 15.0 / u) * u;
    for (uint32_t i = g0; i < g0 + (uint32_t)G; i++) {
      double q = d > 0 ? nearbyint((v[i] - m) / d) : 0;
      v[i] = (float)((q < 0 ? 0 : q > 15 ? 15 : q) * d + m);
    }
  }
}

static mx_status_t write_tensor(FILE *f, const synth_tensor_t *t, uint64_t seed, mx_wtype_t dtype, int q4_grid, void *buf) {
  uint64_t s = stream_seed(seed, t->name), left = tensor_elems(t);
  const double a = t->is_norm ? 0.1 : 0.02 * sqrt(3.0), center = t->is_norm ? 1.0 : 0.0;
  while (left > 0) {
    uint32_t n = left < CHUNK_ELEMS ? (uint32_t)left : CHUNK_ELEMS;
    for (uint32_t i = 0; i < n; i++) {
      s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
      uint64_t r = s * 0x2545F4914F6CDD1DULL;
      float v = (float)(center + a * ((double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0));
      if (dtype == MX_W_F32) ((float *)buf)[i] = v;
      else if (dtype == MX_W_F16) ((uint16_t *)buf)[i] = mx_f32_to_f16(v);
      else ((uint16_t *)buf)[i] = mx_f32_to_bf16(v);
    }
    if (q4_grid && !t->is_norm && t->rank == 2) onto_q4_grid(buf, n, q4_grid); /* dtype f32: checked */
    size_t bytes = (size_t)n * (dtype == MX_W_F32 ? 4 : 2);
    if (fwrite(buf, 1, bytes, f) != bytes) return mx_status_make(MX_STAGE_IO, "check free disk space", "short write of %s", t->name);
    left -= n;
  }
  return NULL;
}

static mx_status_t copy_file(const char *from, const char *to) {
  char *text;
  size_t len;
  MX_RETURN_IF_ERROR(mx_read_file(from, 256u << 20, &text, &len));
  FILE *f = fopen(to, "wb");
  bool ok = f && fwrite(text, 1, len, f) == len;
  if (f) ok = (fclose(f) == 0) && ok;
  free(text);
  return ok ? NULL : mx_status_make(MX_STAGE_IO, "check the output directory", "cannot write %s", to);
}

/* config.json as given, with the dtype fields set to what was written. */
static mx_status_t write_config(const char *config_text, mx_wtype_t dtype, const char *path) {
  json_t *root = json_loads(config_text, 0, NULL);
  if (!root) return mx_status_make(MX_STAGE_IO, "pass a --config that is valid JSON", "config.json does not parse");
  const char *name = dtype == MX_W_F32 ? "float32" : dtype == MX_W_F16 ? "float16" : "bfloat16";
  json_object_set_new(root, "torch_dtype", json_string(name));
  int rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(root);
  return rc == 0 ? NULL : mx_status_make(MX_STAGE_IO, "check the output directory", "cannot write %s", path);
}

/* Each family's shape: the released model named, cut to 2 layers, with the Llama 3 vocabulary and its
 * BOS/EOS ids. Mistral's is Mistral-7B's layer at a quarter of its width, and its sliding window is 32
 * positions so that a 64-step oracle run crosses it (the 7B's is 4096); Gemma 3's window likewise (512). */
#define LLAMA3_VOCAB "\"vocab_size\": 128256, \"bos_token_id\": 128000, \"eos_token_id\": [128001, 128008, 128009], "
static const struct {
  const char *name, *config;
} synth_families[] = {
    {"llama", /* Llama-3.2-1B */
     "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 2048, \"intermediate_size\": 8192, "
     "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"head_dim\": 64, \"rms_norm_eps\": 1e-05, "
     "\"rope_theta\": 500000.0, \"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 32.0, \"low_freq_factor\": 1.0, "
     "\"high_freq_factor\": 4.0, \"original_max_position_embeddings\": 8192}, \"max_position_embeddings\": 131072, "
     "\"hidden_act\": \"silu\", \"tie_word_embeddings\": true, " LLAMA3_VOCAB "\"architectures\": [\"LlamaForCausalLM\"]}"},
    {"qwen2", /* Qwen2.5-0.5B */
     "{\"model_type\": \"qwen2\", \"num_hidden_layers\": 2, \"hidden_size\": 896, \"intermediate_size\": 4864, "
     "\"num_attention_heads\": 14, \"num_key_value_heads\": 2, \"rms_norm_eps\": 1e-06, \"rope_theta\": 1000000.0, "
     "\"max_position_embeddings\": 32768, \"use_sliding_window\": false, \"hidden_act\": \"silu\", "
     "\"tie_word_embeddings\": true, " LLAMA3_VOCAB "\"architectures\": [\"Qwen2ForCausalLM\"]}"},
    {"qwen3", /* Qwen3-0.6B */
     "{\"model_type\": \"qwen3\", \"num_hidden_layers\": 2, \"hidden_size\": 1024, \"intermediate_size\": 3072, "
     "\"num_attention_heads\": 16, \"num_key_value_heads\": 8, \"head_dim\": 128, \"rms_norm_eps\": 1e-06, "
     "\"rope_theta\": 1000000.0, \"max_position_embeddings\": 40960, \"use_sliding_window\": false, "
     "\"attention_bias\": false, \"hidden_act\": \"silu\", \"tie_word_embeddings\": true, " LLAMA3_VOCAB
     "\"architectures\": [\"Qwen3ForCausalLM\"]}"},
    {"mistral", /* Mistral-7B-v0.1 at a quarter width, window 32 */
     "{\"model_type\": \"mistral\", \"num_hidden_layers\": 2, \"hidden_size\": 1024, \"intermediate_size\": 3584, "
     "\"num_attention_heads\": 8, \"num_key_value_heads\": 2, \"head_dim\": 128, \"rms_norm_eps\": 1e-05, "
     "\"rope_theta\": 10000.0, \"max_position_embeddings\": 32768, \"sliding_window\": 32, \"hidden_act\": \"silu\", "
     "\"tie_word_embeddings\": false, " LLAMA3_VOCAB "\"architectures\": [\"MistralForCausalLM\"]}"},
    /* Gemma 2 2B's heads at half its width (hidden 1152, ffn 4608), one local layer and one global, window 32; the
     * attention soft-capping at 5, not 50, so that it bites on synthetic weights, whose raw scores reach about 7 (std 1.8);
     * the logits' at 30 as released (they reach about 9; greedy ids cannot see it, the logprobs gate does) */
    {"gemma2",
     "{\"model_type\": \"gemma2\", \"num_hidden_layers\": 2, \"hidden_size\": 1152, \"intermediate_size\": 4608, "
     "\"num_attention_heads\": 8, \"num_key_value_heads\": 4, \"head_dim\": 256, \"query_pre_attn_scalar\": 256, "
     "\"rms_norm_eps\": 1e-06, \"rope_theta\": 10000.0, \"sliding_window\": 32, \"attn_logit_softcapping\": 5.0, "
     "\"final_logit_softcapping\": 30.0, \"max_position_embeddings\": 8192, \"hidden_activation\": \"gelu_pytorch_tanh\", "
     "\"tie_word_embeddings\": true, " LLAMA3_VOCAB "\"architectures\": [\"Gemma2ForCausalLM\"]}"},
    {"gemma3", /* Gemma 3 270M: one local layer and one global, the local window 32 */
     "{\"model_type\": \"gemma3_text\", \"num_hidden_layers\": 2, \"hidden_size\": 640, \"intermediate_size\": 2048, "
     "\"num_attention_heads\": 4, \"num_key_value_heads\": 1, \"head_dim\": 256, \"query_pre_attn_scalar\": 256, "
     "\"rms_norm_eps\": 1e-06, \"sliding_window\": 32, \"layer_types\": [\"sliding_attention\", \"full_attention\"], "
     "\"rope_parameters\": {\"full_attention\": {\"rope_type\": \"default\", \"rope_theta\": 1000000.0}, "
     "\"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 10000.0}}, \"max_position_embeddings\": 32768, "
     "\"hidden_activation\": \"gelu_pytorch_tanh\", \"tie_word_embeddings\": true, " LLAMA3_VOCAB
     "\"architectures\": [\"Gemma3ForCausalLM\"]}"},
    {"phi3", /* Phi-3-mini-4k at a quarter width (hidden 768, 8 heads of 96, ffn 2048), window 32 */
     "{\"model_type\": \"phi3\", \"num_hidden_layers\": 2, \"hidden_size\": 768, \"intermediate_size\": 2048, "
     "\"num_attention_heads\": 8, \"num_key_value_heads\": 8, \"rms_norm_eps\": 1e-05, \"rope_theta\": 10000.0, "
     "\"rope_scaling\": null, \"max_position_embeddings\": 4096, \"original_max_position_embeddings\": 4096, "
     "\"sliding_window\": 32, \"hidden_act\": \"silu\", \"tie_word_embeddings\": false, " LLAMA3_VOCAB
     "\"architectures\": [\"Phi3ForCausalLM\"]}"},
};
const char *const mx_synth_family_names = "llama, qwen2, qwen3, mistral, gemma2, gemma3, phi3";

const char *mx_synth_family_config(const char *family) {
  for (size_t i = 0; family && i < sizeof synth_families / sizeof synth_families[0]; i++)
    if (!strcmp(family, synth_families[i].name)) return synth_families[i].config;
  return NULL;
}

static mx_status_t config_source(const mx_synth_options_t *o, char **text) {
  if (!o->family == !o->config_path)
    return mx_status_make(MX_STAGE_USAGE, "pass --config CONFIG.json or --family NAME", "a synthetic checkpoint needs exactly one of --config and --family");
  if (o->config_path) return mx_read_file(o->config_path, 4u << 20, text, NULL);
  const char *builtin = mx_synth_family_config(o->family);
  if (!builtin)
    return mx_status_make(MX_STAGE_USAGE, "pass --family with one of the names listed", "unknown family '%s' (known: %s)", o->family,
                          mx_synth_family_names);
  *text = strdup(builtin);
  return *text ? NULL : mx_status_oom();
}

mx_status_t mx_synth_write(const mx_synth_options_t *o, uint64_t *params_out, uint64_t *bytes_out) {
  char *config_text;
  MX_RETURN_IF_ERROR(config_source(o, &config_text));
  const char *config_name = o->config_path ? o->config_path : o->family;
  mx_model_config_t c;
  mx_status_t st = mx_config_from_hf_json(config_text, NULL, config_name, &c);
  if (!st && o->q4_grid && (o->dtype != MX_W_F32 || (o->q4_grid != 32 && o->q4_grid != 64 && o->q4_grid != 128)))
    st = mx_status_make(MX_STAGE_USAGE, "use --q4-grid 32, 64 or 128 with --dtype f32",
                        "a 4-bit grid of groups of %d in %s: the grid needs 32, 64 or 128 and f32 to stay exact", o->q4_grid,
                        mx_wtype_name(o->dtype));
  char tok_src[4096], path[4096];
  snprintf(tok_src, sizeof tok_src, "%s/tokenizer.json", o->tokenizer_dir ? o->tokenizer_dir : "");
  if (!st && (!o->tokenizer_dir || !mx_file_exists(tok_src)))
    st = mx_status_make(MX_STAGE_USAGE, "pass --tokenizer DIR with a tokenizer.json (e.g. ../shared/data/llama3-tokenizer)",
                        "no tokenizer.json in '%s'", o->tokenizer_dir ? o->tokenizer_dir : "(none given)");
  if (!st && mkdir(o->out_dir, 0755) != 0 && errno != EEXIST)
    st = mx_status_make(MX_STAGE_IO, "pass a writable path", "cannot create %s: %s", o->out_dir, strerror(errno));
  snprintf(path, sizeof path, "%s/model.safetensors", o->out_dir);
  if (!st && mx_file_exists(path))
    st = mx_status_make(MX_STAGE_USAGE, "choose an empty directory or delete it", "%s already holds a model", o->out_dir);
  synth_tensor_t *t = NULL;
  int n = st ? 0 : list_tensors(&c, &t);
  if (!st && n < 0) st = mx_status_oom();
  mx_st_entry_t *entries = st ? NULL : calloc((size_t)n + 1, sizeof *entries);
  void *buf = st ? NULL : malloc((size_t)CHUNK_ELEMS * 4);
  if (!st && (!entries || !buf)) st = mx_status_oom();
  for (int i = 0; !st && i < n; i++) {
    snprintf(entries[i].name, sizeof entries[i].name, "%s", t[i].name);
    entries[i].dtype = o->dtype;
    entries[i].rank = t[i].rank;
    memcpy(entries[i].shape, t[i].shape, sizeof t[i].shape);
  }
  FILE *f = NULL;
  uint64_t params = 0;
  for (int i = 0; i < n; i++) params += tensor_elems(&t[i]);
  if (!st) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.partial", path);
    f = fopen(tmp, "wb");
    if (!f) st = mx_status_make(MX_STAGE_IO, "check the output directory", "cannot create %s", tmp);
    if (!st) st = mx_st_write_header(f, entries, n, tmp);
    double t0 = mx_now_ms(), next_report = t0 + 2000;
    uint64_t done = 0;
    for (int i = 0; i < n && !st; i++) {
      st = write_tensor(f, &t[i], o->seed, o->dtype, o->q4_grid, buf);
      done += tensor_elems(&t[i]);
      if (!o->quiet && mx_now_ms() > next_report) {
        mx_log(MX_LOG_INFO, "mlxcel synth: %3.0f%% (%.2f of %.2f G parameters)", 100.0 * (double)done / (double)params,
               (double)done / 1e9, (double)params / 1e9);
        next_report = mx_now_ms() + 2000;
      }
    }
    if (f && fclose(f) != 0 && !st) st = mx_status_make(MX_STAGE_IO, "check free disk space", "cannot finish %s", tmp);
    if (!st && rename(tmp, path) != 0)
      st = mx_status_make(MX_STAGE_IO, "check the output directory", "cannot rename %s: %s", tmp, strerror(errno));
    if (st) remove(tmp);
  }
  if (!st) {
    snprintf(path, sizeof path, "%s/config.json", o->out_dir);
    st = write_config(config_text, o->dtype, path);
  }
  if (!st) {
    snprintf(path, sizeof path, "%s/tokenizer.json", o->out_dir);
    st = copy_file(tok_src, path);
  }
  snprintf(tok_src, sizeof tok_src, "%s/tokenizer_config.json", o->tokenizer_dir ? o->tokenizer_dir : "");
  if (!st && mx_file_exists(tok_src)) {
    snprintf(path, sizeof path, "%s/tokenizer_config.json", o->out_dir);
    st = copy_file(tok_src, path);
  }
  if (params_out) *params_out = params;
  if (bytes_out) *bytes_out = params * (o->dtype == MX_W_F32 ? 4 : 2);
  free(buf);
  free(entries);
  free(t);
  free(config_text);
  return st;
}
