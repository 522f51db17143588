#include "model/model.h"

#include <dirent.h>
#include <math.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "format/mapped_file.h"
#include "format/safetensors.h"

#define MAX_FILES 256
#define MAX_CONFIG_BYTES (4u << 20)

struct mx_model {
  char *path;
  mx_model_format_t format;
  mx_model_config_t config;
  int n_files;
  mx_mapped_file_t files[MAX_FILES];
  mx_gguf_t *gguf;
  mx_weight_t *weights; /* every tensor of every file */
  int n_weights;
  const mx_weight_t *globals[MX_T_GLOBAL_COUNT];
  const mx_weight_t **layers; /* n_layers * MX_T_LAYER_COUNT */
};

void mx_model_close(mx_model_t *m) {
  if (!m) return;
  for (int i = 0; i < m->n_files; i++) mx_mapped_file_close(&m->files[i]);
  mx_gguf_free(m->gguf);
  free(m->weights);
  free(m->layers);
  free(m->path);
  free(m);
}

static mx_status_t add_weights(mx_model_t *m, mx_weight_t *ws, int n) {
  mx_weight_t *all = realloc(m->weights, sizeof *all * (size_t)(m->n_weights + n + 1));
  if (!all) return mx_status_oom();
  memcpy(all + m->n_weights, ws, sizeof *ws * (size_t)n);
  m->weights = all;
  m->n_weights += n;
  return NULL;
}

static mx_status_t map_file(mx_model_t *m, const char *path, int *index) {
  if (m->n_files >= MAX_FILES)
    return mx_status_make(MX_STAGE_IO, "merge the weights into fewer shards", "more than %d weight files", MAX_FILES);
  MX_RETURN_IF_ERROR(mx_mapped_file_open(path, &m->files[m->n_files]));
  *index = m->n_files++;
  return NULL;
}

static mx_status_t load_safetensors(mx_model_t *m, const char *path) {
  int idx = 0;
  MX_RETURN_IF_ERROR(map_file(m, path, &idx));
  mx_weight_t *ws;
  int n;
  MX_RETURN_IF_ERROR(mx_safetensors_parse(m->files[idx].data, m->files[idx].size, path, idx, &ws, &n));
  mx_status_t st = add_weights(m, ws, n);
  free(ws);
  return st;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The shard files named by model.safetensors.index.json, each once, in sorted order. */
static mx_status_t load_sharded(mx_model_t *m, const char *dir, const char *index_path) {
  char *text;
  MX_RETURN_IF_ERROR(mx_read_file(index_path, MAX_CONFIG_BYTES, &text, NULL));
  json_error_t jerr;
  json_t *root = json_loads(text, 0, &jerr);
  free(text);
  json_t *map = json_object_get(root, "weight_map");
  if (!json_is_object(map)) {
    json_decref(root);
    return mx_status_make(MX_STAGE_IO, "regenerate the index", "%s: no weight_map object", index_path);
  }
  size_t n = 0;
  const char **names = calloc(json_object_size(map) + 1, sizeof *names);
  const char *key;
  json_t *v;
  mx_status_t st = names ? NULL : mx_status_oom();
  json_object_foreach(map, key, v) {
    const char *f = json_string_value(v);
    if (st) break;
    if (!f || strchr(f, '/') || !strcmp(f, "..")) /* shards live beside the index */
      st = mx_status_make(MX_STAGE_IO, "regenerate the index", "%s: bad shard name for '%s'", index_path, key);
    else names[n++] = f;
  }
  if (!st) {
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n && !st; i++) {
      if (i > 0 && !strcmp(names[i], names[i - 1])) continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      st = load_safetensors(m, path);
    }
  }
  free(names);
  json_decref(root);
  return st;
}

/* Every *.safetensors file in the directory, sorted (an unsharded or index-less checkpoint). */
static mx_status_t load_dir_safetensors(mx_model_t *m, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return mx_status_make(MX_STAGE_IO, "check the path", "cannot list %s", dir);
  char *names[MAX_FILES];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < MAX_FILES) {
    size_t len = strlen(e->d_name);
    if (len > 12 && !strcmp(e->d_name + len - 12, ".safetensors")) names[n++] = strdup(e->d_name);
  }
  closedir(d);
  mx_status_t st = n ? NULL
                     : mx_status_make(MX_STAGE_IO, "an HF model directory needs model.safetensors (or shards and their index)",
                                      "%s: no *.safetensors weights", dir);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  for (int i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (!st) st = load_safetensors(m, path);
    free(names[i]);
  }
  return st;
}

static mx_status_t open_hf_dir(mx_model_t *m, const char *dir) {
  char path[4096], gpath[4096];
  snprintf(path, sizeof path, "%s/config.json", dir);
  if (!mx_file_exists(path))
    return mx_status_make(MX_STAGE_IO, "an HF model directory needs config.json, *.safetensors and tokenizer.json",
                          "%s has no config.json", dir);
  char *config = NULL, *gen = NULL;
  MX_RETURN_IF_ERROR(mx_read_file(path, MAX_CONFIG_BYTES, &config, NULL));
  snprintf(gpath, sizeof gpath, "%s/generation_config.json", dir);
  /* generation_config.json only adds EOS ids to those config.json has: one that cannot be read
   * is left out, as if absent, rather than refusing a usable model. */
  if (mx_file_exists(gpath)) mx_status_ignore(mx_read_file(gpath, MAX_CONFIG_BYTES, &gen, NULL));
  mx_status_t st = mx_config_from_hf_json(config, gen, path, &m->config);
  free(config);
  free(gen);
  if (st) return st;
  snprintf(path, sizeof path, "%s/model.safetensors.index.json", dir);
  return mx_file_exists(path) ? load_sharded(m, dir, path) : load_dir_safetensors(m, dir);
}

/* Llama 3.1+ GGUFs carry their llama3 RoPE scaling as rope_freqs.weight (config.h). */
static mx_status_t read_rope_freqs(const mx_gguf_t *g, const char *path, mx_model_config_t *c) {
  const mx_weight_t *w = NULL;
  for (int i = 0; i < g->n_tensors; i++)
    if (!strcmp(g->tensors[i].name, "rope_freqs.weight")) w = &g->tensors[i];
  if (!w) return NULL;
  int half = c->head_dim / 2;
  if (w->type != MX_W_F32 || w->rank != 1 || w->shape[0] != half || w->nbytes != (uint64_t)half * 4)
    return mx_status_make(MX_STAGE_IO, "the GGUF is corrupt or from an unknown converter",
                          "%s: rope_freqs.weight must be %d f32 values (head_dim / 2)", path, half);
  if (c->family != MX_FAMILY_LLAMA)
    return mx_status_make(MX_STAGE_IO, "use the model's HF directory", "%s: rope_freqs.weight on a %s model is not supported", path,
                          c->arch);
  for (int i = 0; i < half; i++) {
    float f;
    memcpy(&f, w->data + 4 * (size_t)i, 4);
    if (!(f > 0) || !isfinite(f))
      return mx_status_make(MX_STAGE_IO, "the GGUF is corrupt", "%s: rope_freqs.weight[%d] is %g, not a positive factor", path, i, f);
    c->rope_freq_factors[i] = f;
  }
  c->has_rope_freq_factors = true;
  return NULL;
}

static mx_status_t gguf_config(const mx_gguf_t *g, const char *path, mx_model_config_t *c) {
  memset(c, 0, sizeof *c);
  const char *arch;
  size_t alen;
  if (!mx_gguf_get_str(g, "general.architecture", &arch, &alen))
    return mx_status_make(MX_STAGE_IO, "a GGUF names its architecture", "%s: no general.architecture", path);
  /* GGUF's architectures are HF's model_types for these families (Mistral GGUFs say "llama"). */
  if ((alen == 7 && !memcmp(arch, "mistral", 7)) || (alen == 11 && !memcmp(arch, "gemma3_text", 11)) ||
      !mx_config_set_family(arch, alen, c))
    return mx_status_make(MX_STAGE_IO, "mlxcel runs the GGUF architectures llama, qwen2, qwen3, gemma2, gemma3 and phi3 (docs/models.md)",
                          "%s: architecture '%.*s' is not supported", path, (int)(alen > 40 ? 40 : alen), arch);
  uint32_t v;
  char key[96];
#define ARCH_KEY(suffix) (snprintf(key, sizeof key, "%s." suffix, c->arch), key)
  struct {
    const char *suffix;
    int *dst;
  } ints[] = {{"block_count", &c->n_layers},
              {"embedding_length", &c->dim},
              {"attention.head_count", &c->n_heads},
              {"feed_forward_length", &c->ffn_dim},
              {"context_length", &c->max_position}};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    snprintf(key, sizeof key, "%s.%s", c->arch, ints[i].suffix);
    if (!mx_gguf_get_u32(g, key, &v) || v > (1u << 30))
      return mx_status_make(MX_STAGE_IO, "the GGUF lacks its architecture's metadata", "%s: missing or invalid %s", path, key);
    *ints[i].dst = (int)v;
  }
  c->n_kv_heads = mx_gguf_get_u32(g, ARCH_KEY("attention.head_count_kv"), &v) ? (int)v : c->n_heads;
  c->head_dim = c->n_heads ? c->dim / c->n_heads : 0;
  if (mx_gguf_get_u32(g, ARCH_KEY("attention.key_length"), &v)) c->head_dim = (int)v;
  else if (mx_gguf_get_u32(g, ARCH_KEY("rope.dimension_count"), &v)) c->head_dim = (int)v;
  if (!mx_gguf_get_f32(g, ARCH_KEY("rope.freq_base"), &c->rope_theta)) c->rope_theta = 10000.0f;
  if (!mx_gguf_get_f32(g, ARCH_KEY("attention.layer_norm_rms_epsilon"), &c->norm_eps)) c->norm_eps = 1e-5f;
  if (mx_config_is_gemma(c)) {
    /* llama.cpp's converter stores Gemma's norms as 1 + w (transformers subtracts the 1 again on load), keeps the
     * local layers' RoPE theta (10000) and the layer pattern (Gemma 3: every 6th global; Gemma 2: every 2nd) in code,
     * not in the file; and query_pre_attn_scalar too: head_dim, but hidden / heads for Gemma 2 27B (46 layers). */
    c->norm_offset = 0.0f;
    c->embed_scale = sqrtf((float)c->dim);
    bool g2_27b = c->family == MX_FAMILY_GEMMA2 && c->n_layers == 46 && c->n_heads > 0;
    c->attn_scale = 1.0f / sqrtf(g2_27b ? (float)c->dim / (float)c->n_heads : (float)c->head_dim);
    mx_gguf_get_f32(g, ARCH_KEY("attn_logit_softcapping"), &c->attn_softcap);
    mx_gguf_get_f32(g, ARCH_KEY("final_logit_softcapping"), &c->final_softcap);
  }
  if (mx_config_is_gemma(c) || c->family == MX_FAMILY_PHI3)
    if (mx_gguf_get_u32(g, ARCH_KEY("attention.sliding_window"), &v)) c->sliding_window = (int)v;
  const mx_gguf_kv_t *tokens = mx_gguf_find(g, "tokenizer.ggml.tokens");
  if (mx_gguf_get_u32(g, ARCH_KEY("vocab_size"), &v)) c->vocab = (int)v;
  else if (tokens && tokens->type == MX_GGUF_ARRAY) c->vocab = (int)tokens->arr_n;
  c->bos_id = mx_gguf_get_u32(g, "tokenizer.ggml.bos_token_id", &v) ? (int)v : -1;
  if (mx_gguf_get_u32(g, "tokenizer.ggml.eos_token_id", &v)) c->eos_ids[c->n_eos++] = (int)v;
  if (mx_gguf_get_u32(g, "tokenizer.ggml.eot_token_id", &v) && (c->n_eos == 0 || c->eos_ids[0] != (int)v))
    c->eos_ids[c->n_eos++] = (int)v;
  if (c->family == MX_FAMILY_GEMMA3 && tokens && tokens->type == MX_GGUF_ARRAY && c->n_eos < MX_MAX_EOS) {
    /* Gemma's chat turns end with <end_of_turn> (its generation_config.json lists it with <eos>; the GGUF
     * does not), so a chat answer stops there. */
    const char **toks = NULL;
    size_t *lens = NULL;
    uint64_t n = 0;
    if (mx_gguf_get_str_array(g, "tokenizer.ggml.tokens", &toks, &lens, &n))
      for (uint64_t i = 0; i < n; i++)
        if (lens[i] == 13 && !memcmp(toks[i], "<end_of_turn>", 13) && (c->n_eos == 0 || c->eos_ids[0] != (int)i)) {
          c->eos_ids[c->n_eos++] = (int)i;
          break;
        }
    free(toks);
    free(lens);
  }
#undef ARCH_KEY
  MX_RETURN_IF_ERROR(mx_config_validate(c, path));
  for (int i = 0; i < g->n_tensors; i++) /* Phi-3 128k's LongRoPE */
    if (!strncmp(g->tensors[i].name, "rope_factors_", 13))
      return mx_status_make(MX_STAGE_IO, "use a model with default or llama3 RoPE (Phi-3 4k, not 128k)",
                            "%s: LongRoPE (tensor '%s') is not supported", path, g->tensors[i].name);
  return read_rope_freqs(g, path, c);
}

static mx_status_t open_gguf(mx_model_t *m, const char *path) {
  int idx = 0;
  MX_RETURN_IF_ERROR(map_file(m, path, &idx));
  MX_RETURN_IF_ERROR(mx_gguf_parse(m->files[idx].data, m->files[idx].size, path, idx, &m->gguf));
  MX_RETURN_IF_ERROR(gguf_config(m->gguf, path, &m->config));
  return add_weights(m, m->gguf->tensors, m->gguf->n_tensors);
}

static const mx_weight_t *find_weight(const mx_model_t *m, const char *name) {
  for (int i = 0; i < m->n_weights; i++)
    if (!strcmp(m->weights[i].name, name)) return &m->weights[i];
  return NULL;
}

/* Looks a role's tensor up and checks it has the shape the configuration implies. */
static mx_status_t bind(const mx_model_t *m, const char *name, int rank, int64_t d0, int64_t d1, const mx_weight_t **out) {
  const mx_weight_t *w = find_weight(m, name);
  *out = w;
  if (!w) {
    return mx_status_make(MX_STAGE_IO, "the checkpoint is incomplete or not a Llama model", "%s: tensor '%s' is missing",
                          m->path, name);
  }
  bool ok = w->rank == rank && w->shape[0] == d0 && (rank == 1 || w->shape[1] == d1);
  if (!ok) {
    char got[64] = "";
    for (int i = 0; i < w->rank; i++) snprintf(got + strlen(got), sizeof got - strlen(got), "%s%lld", i ? "x" : "", (long long)w->shape[i]);
    char want[64];
    if (rank == 2) snprintf(want, sizeof want, "%lldx%lld", (long long)d0, (long long)d1);
    else snprintf(want, sizeof want, "%lld", (long long)d0);
    return mx_status_make(MX_STAGE_IO, "the weights do not belong to this config.json", "%s: tensor '%s' is %s, the config implies %s",
                          m->path, name, got, want);
  }
  return NULL;
}

/* Binds the tensor of one role (arch.h names and shapes it) and checks its shape. */
static mx_status_t bind_spec(const mx_model_t *m, const mx_tensor_spec_t *t, int layer, const mx_weight_t **out) {
  char name[MX_WEIGHT_NAME_MAX];
  int64_t d[2];
  mx_arch_name(t, layer, m->format == MX_MODEL_GGUF, name, sizeof name);
  int rank = mx_arch_shape(t, &m->config, d);
  return bind(m, name, rank, d[0], d[1], out);
}

/* Splits one fused tensor of a layer (arch.h) into views of its parts' rows under the parts' own names,
 * and retires the fused tensor (unnamed), since its GGUF name can be a part's too (ffn_up). A view of
 * whole rows is a view of whole quantization blocks, so quantized files split as they are. */
static mx_status_t split_fused(mx_model_t *m, const mx_fused_spec_t *fs, int layer) {
  bool gguf = m->format == MX_MODEL_GGUF;
  char name[MX_WEIGHT_NAME_MAX];
  int64_t part_rows[3], rows = 0, d[2];
  for (int p = 0; p < fs->n_parts; p++) {
    mx_arch_shape(mx_arch_layer(fs->parts[p]), &m->config, d);
    rows += part_rows[p] = d[0];
  }
  snprintf(name, sizeof name, gguf ? fs->gguf : fs->hf, layer);
  const mx_weight_t *w;
  MX_RETURN_IF_ERROR(bind(m, name, 2, rows, d[1], &w));
  if (w->nbytes % (uint64_t)rows != 0)
    return mx_status_make(MX_STAGE_IO, "the checkpoint is corrupt", "%s: tensor '%s' is not whole rows", m->path, name);
  uint64_t row_bytes = w->nbytes / (uint64_t)rows, offset = 0;
  mx_weight_t parts[3];
  for (int p = 0; p < fs->n_parts; p++) {
    parts[p] = *w;
    mx_arch_name(mx_arch_layer(fs->parts[p]), layer, gguf, parts[p].name, sizeof parts[p].name);
    parts[p].shape[0] = part_rows[p];
    parts[p].data = w->data + offset;
    parts[p].file_offset = w->file_offset + offset;
    parts[p].nbytes = (uint64_t)part_rows[p] * row_bytes;
    offset += parts[p].nbytes;
  }
  m->weights[w - m->weights].name[0] = '\0'; /* bind found it among m->weights */
  return add_weights(m, parts, fs->n_parts);
}

static mx_status_t bind_roles(mx_model_t *m) {
  const mx_model_config_t *c = &m->config;
  bool gguf = m->format == MX_MODEL_GGUF;
  char name[MX_WEIGHT_NAME_MAX];
  /* GGUF says "tied" by leaving output.weight out; HF by tie_word_embeddings. */
  mx_arch_name(mx_arch_global(MX_T_LM_HEAD), 0, gguf, name, sizeof name);
  if (gguf) m->config.tied_embeddings = find_weight(m, name) == NULL;
  for (int l = 0; l < c->n_layers; l++)
    for (int f = 0; f < mx_arch_fused_count(c); f++) MX_RETURN_IF_ERROR(split_fused(m, mx_arch_fused(f), l));
  for (int r = 0; r < MX_T_GLOBAL_COUNT; r++)
    if (mx_arch_global_present((mx_global_role_t)r, c))
      MX_RETURN_IF_ERROR(bind_spec(m, mx_arch_global((mx_global_role_t)r), 0, &m->globals[r]));
  m->layers = calloc((size_t)c->n_layers * MX_T_LAYER_COUNT, sizeof *m->layers);
  if (!m->layers) return mx_status_oom();
  for (int l = 0; l < c->n_layers; l++)
    for (int r = 0; r < MX_T_LAYER_COUNT; r++)
      if (mx_arch_layer_present((mx_layer_role_t)r, c))
        MX_RETURN_IF_ERROR(bind_spec(m, mx_arch_layer((mx_layer_role_t)r), l, &m->layers[(size_t)l * MX_T_LAYER_COUNT + (size_t)r]));
  mx_arch_name(mx_arch_layer(MX_T_ATTN_NORM), c->n_layers, gguf, name, sizeof name); /* a layer beyond the count */
  if (find_weight(m, name))
    return mx_status_make(MX_STAGE_IO, "the weights do not belong to this config", "%s: has tensor '%s' beyond its %d layers",
                          m->path, name, c->n_layers);
  return NULL;
}

mx_status_t mx_model_open(const char *path, mx_model_t **out) {
  *out = NULL;
  mx_model_t *m = calloc(1, sizeof *m);
  if (!m || !(m->path = strdup(path))) {
    free(m);
    return mx_status_oom();
  }
  mx_status_t st;
  if (mx_is_dir(path)) {
    m->format = MX_MODEL_HF_DIR;
    st = open_hf_dir(m, path);
  } else if (mx_file_exists(path)) {
    m->format = MX_MODEL_GGUF;
    st = open_gguf(m, path);
  } else {
    st = mx_status_make(MX_STAGE_IO, "pass an HF model directory or a .gguf file (`make model` fetches the default)",
                        "model %s does not exist", path);
  }
  if (!st) st = bind_roles(m);
  if (st) {
    mx_model_close(m);
    return st;
  }
  *out = m;
  return NULL;
}

const mx_model_config_t *mx_model_config(const mx_model_t *m) { return &m->config; }
mx_model_format_t mx_model_format(const mx_model_t *m) { return m->format; }
const char *mx_model_path(const mx_model_t *m) { return m->path; }
const mx_weight_t *mx_model_global(const mx_model_t *m, mx_global_role_t role) { return m->globals[role]; }
const mx_weight_t *mx_model_layer(const mx_model_t *m, int layer, mx_layer_role_t role) {
  return m->layers[(size_t)layer * MX_T_LAYER_COUNT + (size_t)role];
}
/* llama.cpp's converter permutes Q/K rows for its Llama architecture only; Qwen's GGUFs keep HF's order. */
bool mx_model_qk_interleaved(const mx_model_t *m) { return m->format == MX_MODEL_GGUF && m->config.family == MX_FAMILY_LLAMA; }
int mx_model_n_files(const mx_model_t *m) { return m->n_files; }
const char *mx_model_file_path(const mx_model_t *m, int i) { return m->files[i].path; }
const mx_gguf_t *mx_model_gguf(const mx_model_t *m) { return m->gguf; }

uint64_t mx_model_weight_bytes(const mx_model_t *m) {
  uint64_t total = 0;
  for (int r = 0; r < MX_T_GLOBAL_COUNT; r++)
    if (m->globals[r]) total += m->globals[r]->nbytes;
  for (int i = 0; i < m->config.n_layers * MX_T_LAYER_COUNT; i++)
    if (m->layers[i]) total += m->layers[i]->nbytes;
  return total;
}
