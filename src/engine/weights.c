#include "engine/weights.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cachefile.h"
#include "base/clock.h"
#include "base/interrupt.h"
#include "base/log.h"
#include "base/file.h"
#include "base/half.h"
#include "base/sha256.h"
#include "format/st_writer.h"

static mx_dtype_t as_dtype(mx_wtype_t w) { return w == MX_W_F32 ? MX_F32 : w == MX_W_F16 ? MX_F16 : MX_BF16; }
static mx_wtype_t as_wtype(mx_dtype_t d) { return d == MX_F32 ? MX_W_F32 : d == MX_F16 ? MX_W_F16 : MX_W_BF16; }

typedef struct {
  const mx_weight_t *w;
  char name[128];
  bool unpermute; /* GGUF Q/K rows */
  int plan_index; /* mx_pack_index_global / _layer */
  int layer;      /* -1: a global */
  int role;       /* mx_layer_role_t of a layer's tensor */
} role_t;

/* Every role tensor with its HF name (the runtime's parameter key), in the order the prepared file
 * stores them: the globals, then each layer's roles. */
static int list_roles(const mx_model_t *m, role_t *out) {
  const mx_model_config_t *c = mx_model_config(m);
  int n = 0;
  for (int r = 0; r < MX_T_GLOBAL_COUNT; r++) {
    const mx_weight_t *w = mx_model_global(m, (mx_global_role_t)r);
    if (!w) continue;
    out[n] = (role_t){.w = w, .plan_index = mx_pack_index_global((mx_global_role_t)r), .layer = -1};
    mx_arch_name(mx_arch_global((mx_global_role_t)r), 0, false, out[n].name, sizeof out[n].name);
    n++;
  }
  for (int l = 0; l < c->n_layers; l++)
    for (int r = 0; r < MX_T_LAYER_COUNT; r++) {
      const mx_tensor_spec_t *t = mx_arch_layer((mx_layer_role_t)r);
      if (!mx_arch_layer_present((mx_layer_role_t)r, c)) continue;
      out[n] = (role_t){.w = mx_model_layer(m, l, (mx_layer_role_t)r), .unpermute = t->rope_rows && mx_model_qk_interleaved(m),
                        .plan_index = mx_pack_index_layer(l, (mx_layer_role_t)r), .layer = l, .role = r};
      mx_arch_name(t, l, false, out[n].name, sizeof out[n].name);
      n++;
    }
  return n;
}

/* GGUF row order within a head is (i, j) for i < D/2, j < 2; HF's is (j, i). */
static int64_t hf_row_source(int64_t hf_row, int64_t head_dim) {
  int64_t head = hf_row / head_dim, r = hf_row % head_dim, half = head_dim / 2;
  int64_t j = r / half, i = r % half;
  return head * head_dim + i * 2 + j;
}

/* After a layer's entries, a view over each stack (Q/K/V, gate/up; model/arch.h) whose parts are float
 * and consecutive in the file: the graph's stacked products bind it by name, with no copy at load
 * (hlo/llama.c linears). roles: the layer's roles; role_entry: the index of each one's first entry. */
static int add_stack_views(const role_t *roles, const int *role_entry, int n_roles, const mx_pack_t *plan, mx_st_entry_t *e,
                           int k) {
  for (int s = 0; s < MX_ARCH_STACKS; s++) {
    const mx_fused_spec_t *f = mx_arch_fused(s);
    int idx[3] = {0}, parts = 0;
    for (int p = 0; p < f->n_parts; p++)
      for (int i = 0; i < n_roles; i++)
        if (parts < 3 && roles[i].role == (int)f->parts[p] && !(plan && plan[roles[i].plan_index].kind)) idx[parts++] = i;
    bool ok = parts == f->n_parts && roles[idx[0]].w->rank == 2;
    int64_t rows = 0;
    for (int p = 0; ok && p < parts; p++) {
      ok = role_entry[idx[p]] == role_entry[idx[0]] + p && roles[idx[p]].w->shape[1] == roles[idx[0]].w->shape[1];
      rows += roles[idx[p]].w->shape[0];
    }
    if (!ok) continue;
    e[k] = (mx_st_entry_t){.dtype = e[role_entry[idx[0]]].dtype, .rank = 2, .shape = {rows, roles[idx[0]].w->shape[1]},
                           .view_parts = parts, .view_first = role_entry[idx[0]]};
    snprintf(e[k].name, sizeof e[k].name, f->hf, roles[idx[0]].layer);
    k++;
  }
  return k;
}

/* The entries of the prepared file: a plain role is one tensor of the precision's type; a packed one
 * is its values, its scales and, affine, its offsets (model/packing.h); each layer's stack views follow
 * its roles. At most 3 entries per role and MX_ARCH_STACKS per layer. */
static int list_entries(const role_t *roles, int n, mx_dtype_t dt, const mx_pack_t *plan, mx_st_entry_t *e) {
  int k = 0, *role_entry = calloc((size_t)n, sizeof *role_entry);
  if (!role_entry) return -1;
  for (int i = 0; i < n; i++) {
    const mx_weight_t *w = roles[i].w;
    mx_pack_t p = plan ? plan[roles[i].plan_index] : (mx_pack_t){0};
    role_entry[i] = k;
    e[k] = (mx_st_entry_t){.dtype = as_wtype(dt), .rank = w->rank};
    snprintf(e[k].name, sizeof e[k].name, "%s", roles[i].name);
    memcpy(e[k].shape, w->shape, sizeof e[k].shape);
    if (p.kind == MX_PACK_NONE) {
      k++;
    } else {
      if (mx_pack_bits(p.kind) == 4) {
        e[k].dtype = MX_W_U8;
        e[k].shape[1] /= 2;
      } else {
        e[k].dtype = MX_W_I8;
      }
      k++;
      for (int part = 0; part < (mx_pack_affine(p.kind) ? 2 : 1); part++, k++) {
        e[k] = (mx_st_entry_t){.dtype = as_wtype(dt), .rank = 2, .shape = {w->shape[0], w->shape[1] / p.group}};
        snprintf(e[k].name, sizeof e[k].name, "%s%s", roles[i].name, part ? MX_PACK_OFFSET_SUFFIX : MX_PACK_SCALE_SUFFIX);
      }
    }
    int first = i; /* the layer's first role */
    while (first > 0 && roles[first - 1].layer == roles[i].layer) first--;
    if (roles[i].layer >= 0 && (i + 1 == n || roles[i + 1].layer != roles[i].layer))
      k = add_stack_views(roles + first, role_entry + first, i + 1 - first, plan, e, k);
  }
  free(role_entry);
  return k;
}

static mx_status_t put(FILE *f, const void *data, size_t bytes, const char *tmp) {
  return fwrite(data, 1, bytes, f) == bytes ? NULL : mx_status_make(MX_STAGE_IO, "check free disk space", "short write to %s", tmp);
}

/* `count` floats in the precision's type. */
static mx_status_t put_floats(FILE *f, const float *v, int64_t count, mx_dtype_t dt, void *buf, const char *tmp) {
  if (dt == MX_F32) return put(f, v, sizeof(float) * (size_t)count, tmp);
  uint16_t *o = buf;
  for (int64_t k = 0; k < count; k++) o[k] = dt == MX_F16 ? mx_f32_to_f16(v[k]) : mx_f32_to_bf16(v[k]);
  return put(f, buf, 2 * (size_t)count, tmp);
}

typedef struct {
  double err2, ref2; /* host quantization: squared error and squared values */
  int tensors;
} host_error_t;

/* One role's bytes: rows dequantized or widened to the precision's type, or packed: the values row by
 * row, then the scales and offsets of every row. */
static mx_status_t write_role(FILE *f, const mx_model_t *m, const role_t *role, mx_pack_t p, mx_dtype_t dt, const char *tmp,
                              host_error_t *herr) {
  const mx_weight_t *w = role->w;
  int64_t rows = w->rank == 2 ? w->shape[0] : 1, cols = w->rank == 2 ? w->shape[1] : w->shape[0];
  int64_t groups = p.kind ? cols / p.group : 0;
  uint64_t row_bytes = w->nbytes / (uint64_t)rows;
  bool from_blocks = p.kind && mx_wtype_block_elems(w->type) > 1;
  float *f32 = malloc(sizeof(float) * (size_t)cols);
  void *outrow = malloc(sizeof(float) * (size_t)cols);
  float *scales = p.kind ? malloc(sizeof(float) * (size_t)(rows * groups)) : NULL;
  float *offsets = mx_pack_affine(p.kind) ? malloc(sizeof(float) * (size_t)(rows * groups)) : NULL;
  mx_status_t st = !f32 || !outrow || (p.kind && !scales) || (mx_pack_affine(p.kind) && !offsets) ? mx_status_oom() : NULL;
  const mx_model_config_t *c = mx_model_config(m);
  if (!st && p.kind) herr->tensors += !from_blocks;
  for (int64_t r = 0; r < rows && !st; r++) {
    if ((st = mx_interrupt_status("preparing the weights", "stopped and removed the partial file"))) break;
    int64_t src = role->unpermute ? hf_row_source(r, c->head_dim) : r;
    const uint8_t *in = w->data + (uint64_t)src * row_bytes;
    float *sc = scales ? scales + r * groups : NULL, *of = offsets ? offsets + r * groups : NULL;
    if (from_blocks) {
      mx_pack_from_blocks(w->type, in, cols, outrow, sc, of);
    } else {
      mx_wtype_to_f32(w->type, in, (uint64_t)cols, f32);
      if (p.kind) {
        herr->err2 += mx_pack_quantize_row(p, dt, f32, cols, outrow, sc, of);
        for (int64_t k = 0; k < cols; k++) herr->ref2 += (double)f32[k] * f32[k];
      }
    }
    if (p.kind) st = put(f, outrow, (size_t)(mx_pack_bits(p.kind) == 8 ? cols : cols / 2), tmp);
    else st = put_floats(f, f32, cols, dt, outrow, tmp);
  }
  if (!st && scales) st = put_floats(f, scales, rows * groups, dt, scales, tmp); /* in place: f16/bf16 halves fit */
  if (!st && offsets) st = put_floats(f, offsets, rows * groups, dt, offsets, tmp);
  free(f32);
  free(outrow);
  free(scales);
  free(offsets);
  return st;
}

static mx_status_t write_prepared(const mx_model_t *m, role_t *roles, int n, mx_dtype_t dt, const mx_pack_t *plan,
                                  const char *path) {
  mx_st_entry_t *e = calloc((size_t)n * 3 + MX_ARCH_STACKS * (size_t)mx_model_config(m)->n_layers, sizeof *e);
  int n_entries = e ? list_entries(roles, n, dt, plan, e) : -1;
  if (n_entries < 0) {
    free(e);
    return mx_status_oom();
  }
  char tmp[MX_PATH_MAX + 32];
  mx_cache_tmp_path(path, tmp, sizeof tmp);
  FILE *f = fopen(tmp, "wb");
  mx_status_t st = f ? mx_st_write_header(f, e, n_entries, tmp)
                     : mx_status_make(MX_STAGE_IO, "check the cache directory", "cannot create %s", tmp);
  host_error_t herr = {0};
  for (int i = 0; i < n && !st; i++)
    st = write_role(f, m, &roles[i], plan ? plan[roles[i].plan_index] : (mx_pack_t){0}, dt, tmp, &herr);
  if (f && fclose(f) != 0 && !st) st = mx_status_make(MX_STAGE_IO, "check free disk space", "cannot finish %s", tmp);
  if (!st) st = mx_cache_file_seal(tmp, path); /* removes tmp when it fails */
  if (st) unlink(tmp);
  if (!st && herr.tensors)
    mx_log(MX_LOG_INFO, "mlxcel: quantized %d float tensors on the host: relative RMS error %.3g", herr.tensors,
           herr.ref2 > 0 ? sqrt(herr.err2 / herr.ref2) : 0.0);
  free(e);
  return st;
}

/* The prepared file when it verifies, else written now (base/cachefile.h). */
static mx_status_t reuse_or_write(const mx_model_t *m, role_t *roles, int n, mx_dtype_t precision, const mx_pack_t *plan,
                                  mx_param_files_t *out) {
  bool trusted;
  MX_RETURN_IF_ERROR(mx_cache_file_verify(out->files[0], &trusted));
  if (trusted) return NULL;
  double t0 = mx_now_ms();
  mx_log(MX_LOG_INFO, "mlxcel: preparing %s%s weights for the runtime (once per model and precision) ...", plan ? "packed " : "",
         mx_dtype_name(precision));
  mx_status_t st = write_prepared(m, roles, n, precision, plan, out->files[0]);
  out->prepare_ms = mx_now_ms() - t0;
  return st;
}

/* An HF directory whose role tensors share one float type is used as it is; not one whose roles are
 * views of fused tensors (Phi-3), since the runtime finds parameters by the roles' names in the files. */
static bool usable_as_is(const mx_model_t *m, const role_t *roles, int n) {
  bool uniform = mx_model_format(m) == MX_MODEL_HF_DIR && n > 0 && mx_arch_fused_count(mx_model_config(m)) == 0;
  for (int i = 1; i < n && uniform; i++) uniform = roles[i].w->type == roles[0].w->type;
  return uniform && mx_model_n_files(m) <= MX_MAX_PARAM_FILES;
}

static mx_status_t alloc_roles(const mx_model_t *m, role_t **roles, int *n) {
  *roles = calloc((size_t)(MX_T_GLOBAL_COUNT + MX_T_LAYER_COUNT * mx_model_config(m)->n_layers), sizeof **roles);
  if (!*roles) return mx_status_oom();
  *n = list_roles(m, *roles);
  return NULL;
}

/* Whether the weights will be prepared rather than used as they are, and if not, their type. Out of
 * memory counts as prepared: mx_weights_prepare will say so. */
static bool will_prepare(const mx_model_t *m, mx_wtype_t *as_is_type) {
  role_t *roles;
  int n = 0;
  mx_status_t st = alloc_roles(m, &roles, &n);
  if (st) {
    mx_status_free(st);
    return true;
  }
  bool prepare = !usable_as_is(m, roles, n);
  if (!prepare) *as_is_type = roles[0].w->type;
  free(roles);
  return prepare;
}

mx_dtype_t mx_weights_dtype(const mx_model_t *m, mx_dtype_t precision, const mx_pack_t *plan) {
  mx_wtype_t t;
  return plan || will_prepare(m, &t) ? precision : as_dtype(t); /* a plan is always prepared */
}

bool mx_weights_stacked(const mx_model_t *m, const mx_pack_t *plan) {
  mx_wtype_t t;
  return plan || will_prepare(m, &t);
}

/* Where prepared files go: MLXCEL_WEIGHTS_CACHE (empty: unset), or the cache root's weights/. */
static mx_status_t weights_dir(char *dir, size_t cap) {
  const char *env = getenv("MLXCEL_WEIGHTS_CACHE");
  if (env && env[0]) {
    if (strlen(env) + 1 > MX_PATH_MAX)
      return mx_status_make(MX_STAGE_USAGE, "name a shorter directory", "MLXCEL_WEIGHTS_CACHE is longer than %d bytes", MX_PATH_MAX - 1);
    snprintf(dir, cap, "%s", env);
    return NULL;
  }
  char root[MX_PATH_MAX];
  MX_RETURN_IF_ERROR(mx_cache_root(root, sizeof root));
  snprintf(dir, cap, "%s/weights", root);
  return NULL;
}

mx_status_t mx_weights_prepare(const mx_model_t *m, mx_dtype_t precision, const mx_pack_t *plan, const mx_quant_options_t *q,
                               mx_param_files_t *out) {
  memset(out, 0, sizeof *out);
  role_t *roles;
  int n = 0;
  MX_RETURN_IF_ERROR(alloc_roles(m, &roles, &n));
  if (!plan && usable_as_is(m, roles, n)) {
    out->n_files = mx_model_n_files(m);
    for (int i = 0; i < out->n_files; i++) snprintf(out->files[i], sizeof out->files[i], "%s", mx_model_file_path(m, i));
    out->weight_dtype = as_dtype(roles[0].w->type);
    free(roles);
    return NULL;
  }
  /* Prepared file: keyed by the source file's identity and the target type. */
  struct stat sb;
  const char *src = mx_model_file_path(m, 0);
  if (stat(src, &sb) != 0) {
    free(roles);
    return mx_status_make(MX_STAGE_IO, "check that the model file exists and is readable", "cannot stat %s: %s", src, strerror(errno));
  }
  char key[65], dir[MX_PATH_MAX + 16], id[MX_PATH_MAX + 96];
  mx_status_t st = weights_dir(dir, sizeof dir);
  if (!st) {
    /* "views-v1": files with the stack views (add_stack_views); the files before them lack the views a
     * stacked graph binds, so they are prepared again once. */
    int k = snprintf(id, sizeof id, "mlxcel-weights-v1|%s|%lld|%lld|%s|views-v1", src, (long long)sb.st_size,
                     (long long)sb.st_mtime, mx_dtype_name(precision));
    if (plan && k > 0 && (size_t)k < sizeof id)
      snprintf(id + k, sizeof id - (size_t)k, "|packed-v1|%d|%d", q->host_bits, q->host_group);
    mx_sha256_t s;
    mx_sha256_init(&s);
    mx_sha256_update(&s, id, strlen(id));
    mx_sha256_hex(&s, key);
    st = mx_mkdirs(dir);
    snprintf(out->files[0], sizeof out->files[0], "%s/%.24s-%s%s.safetensors", dir, key, mx_dtype_name(precision),
             plan ? "-packed" : "");
  }
  out->n_files = 1;
  out->weight_dtype = precision;
  out->prepared = true;
  if (!st) {
    mx_cache_sweep(dir); /* what killed preparations left behind */
    mx_interrupt_enter();
    st = reuse_or_write(m, roles, n, precision, plan, out);
    mx_interrupt_leave();
  }
  if (!st) st = mx_interrupt_status("preparing the weights", "stopped before using them");
  free(roles);
  return st;
}

mx_status_t mx_weights_pack_plan(const mx_model_t *m, const mx_model_config_t *c, const mx_quant_options_t *q, mx_pack_t **out) {
  *out = NULL;
  if (!q->on) return NULL;
  int n = mx_pack_plan_size(c);
  mx_pack_t *plan = calloc((size_t)n, sizeof *plan);
  if (!plan) return mx_status_oom();
  mx_status_t st = NULL;
  for (int i = 0; i < n && !st; i++) {
    bool global = i < MX_T_GLOBAL_COUNT;
    int layer = global ? 0 : (i - MX_T_GLOBAL_COUNT) / MX_T_LAYER_COUNT, r = global ? i : (i - MX_T_GLOBAL_COUNT) % MX_T_LAYER_COUNT;
    const mx_tensor_spec_t *t = global ? mx_arch_global((mx_global_role_t)r) : mx_arch_layer((mx_layer_role_t)r);
    const mx_weight_t *w = !m ? NULL : global ? mx_model_global(m, (mx_global_role_t)r) : mx_model_layer(m, layer, (mx_layer_role_t)r);
    if (m && !w) continue; /* a role this model does not have */
    if (global ? !mx_arch_global_present((mx_global_role_t)r, c) : !mx_arch_layer_present((mx_layer_role_t)r, c)) continue;
    char name[160];
    int64_t dims[2] = {0, 0};
    mx_arch_name(t, layer, false, name, sizeof name);
    mx_arch_shape(t, c, dims);
    /* Without a model (compile --config), every weight is taken to be float, as a synthetic one is. */
    st = mx_pack_choose(t, name, w ? w->type : MX_W_F32, dims, q, &plan[i]);
  }
  if (st) free(plan);
  else *out = plan;
  return st;
}
