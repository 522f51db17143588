#include "engine/weights.h"

#include <errno.h>
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
} role_t;

/* Every role tensor with its HF name (the runtime's parameter key), in the order the prepared file
 * stores them: the globals, then each layer's roles. */
static int list_roles(const mx_model_t *m, role_t *out) {
  const mx_model_config_t *c = mx_model_config(m);
  int n = 0;
  for (int r = 0; r < MX_T_GLOBAL_COUNT; r++) {
    const mx_weight_t *w = mx_model_global(m, (mx_global_role_t)r);
    if (!w) continue;
    out[n] = (role_t){.w = w};
    mx_arch_name(mx_arch_global((mx_global_role_t)r), 0, false, out[n].name, sizeof out[n].name);
    n++;
  }
  for (int l = 0; l < c->n_layers; l++)
    for (int r = 0; r < MX_T_LAYER_COUNT; r++) {
      const mx_tensor_spec_t *t = mx_arch_layer((mx_layer_role_t)r);
      out[n] = (role_t){.w = mx_model_layer(m, l, (mx_layer_role_t)r), .unpermute = t->rope_rows && mx_model_qk_interleaved(m)};
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

static mx_status_t write_prepared(const mx_model_t *m, role_t *roles, int n, mx_dtype_t dt, const char *path) {
  mx_st_entry_t *e = calloc((size_t)n, sizeof *e);
  if (!e) return mx_status_oom();
  for (int i = 0; i < n; i++) {
    snprintf(e[i].name, sizeof e[i].name, "%s", roles[i].name);
    e[i].dtype = as_wtype(dt);
    e[i].rank = roles[i].w->rank;
    memcpy(e[i].shape, roles[i].w->shape, sizeof e[i].shape);
  }
  char tmp[MX_PATH_MAX + 32];
  mx_cache_tmp_path(path, tmp, sizeof tmp);
  FILE *f = fopen(tmp, "wb");
  mx_status_t st = f ? mx_st_write_header(f, e, n, tmp) : mx_status_make(MX_STAGE_IO, "check the cache directory", "cannot create %s", tmp);
  const mx_model_config_t *c = mx_model_config(m);
  for (int i = 0; i < n && !st; i++) {
    const mx_weight_t *w = roles[i].w;
    int64_t rows = w->rank == 2 ? w->shape[0] : 1, cols = w->rank == 2 ? w->shape[1] : w->shape[0];
    uint64_t row_bytes = w->nbytes / (uint64_t)rows;
    float *f32 = malloc(sizeof(float) * (size_t)cols);
    void *outrow = malloc(sizeof(float) * (size_t)cols);
    if (!f32 || !outrow) st = mx_status_oom();
    for (int64_t r = 0; r < rows && !st; r++) {
      if ((st = mx_interrupt_status("preparing the weights", "stopped and removed the partial file"))) break;
      int64_t src = roles[i].unpermute ? hf_row_source(r, c->head_dim) : r;
      mx_wtype_to_f32(w->type, w->data + (uint64_t)src * row_bytes, (uint64_t)cols, f32);
      size_t bytes;
      if (dt == MX_F32) {
        memcpy(outrow, f32, sizeof(float) * (size_t)cols);
        bytes = sizeof(float) * (size_t)cols;
      } else {
        uint16_t *o = outrow;
        for (int64_t k = 0; k < cols; k++) o[k] = dt == MX_F16 ? mx_f32_to_f16(f32[k]) : mx_f32_to_bf16(f32[k]);
        bytes = 2 * (size_t)cols;
      }
      if (fwrite(outrow, 1, bytes, f) != bytes) st = mx_status_make(MX_STAGE_IO, "check free disk space", "short write to %s", tmp);
    }
    free(f32);
    free(outrow);
  }
  if (f && fclose(f) != 0 && !st) st = mx_status_make(MX_STAGE_IO, "check free disk space", "cannot finish %s", tmp);
  if (!st) st = mx_cache_file_seal(tmp, path); /* removes tmp when it fails */
  if (st) unlink(tmp);
  free(e);
  return st;
}

/* The prepared file when it verifies, else written now (base/cachefile.h). */
static mx_status_t reuse_or_write(const mx_model_t *m, role_t *roles, int n, mx_dtype_t precision, mx_param_files_t *out) {
  bool trusted;
  MX_RETURN_IF_ERROR(mx_cache_file_verify(out->files[0], &trusted));
  if (trusted) return NULL;
  double t0 = mx_now_ms();
  mx_log(MX_LOG_INFO, "mlxcel: preparing %s weights for the runtime (once per model and precision) ...", mx_dtype_name(precision));
  mx_status_t st = write_prepared(m, roles, n, precision, out->files[0]);
  out->prepare_ms = mx_now_ms() - t0;
  return st;
}

/* An HF directory whose role tensors share one float type is used as it is. */
static bool usable_as_is(const mx_model_t *m, const role_t *roles, int n) {
  bool uniform = mx_model_format(m) == MX_MODEL_HF_DIR && n > 0;
  for (int i = 1; i < n && uniform; i++) uniform = roles[i].w->type == roles[0].w->type;
  return uniform && mx_model_n_files(m) <= MX_MAX_PARAM_FILES;
}

static mx_status_t alloc_roles(const mx_model_t *m, role_t **roles, int *n) {
  *roles = calloc((size_t)(MX_T_GLOBAL_COUNT + MX_T_LAYER_COUNT * mx_model_config(m)->n_layers), sizeof **roles);
  if (!*roles) return mx_status_oom();
  *n = list_roles(m, *roles);
  return NULL;
}

mx_dtype_t mx_weights_dtype(const mx_model_t *m, mx_dtype_t precision) {
  role_t *roles;
  int n;
  mx_status_t st = alloc_roles(m, &roles, &n);
  if (st) { /* out of memory: prepare will say so */
    mx_status_free(st);
    return precision;
  }
  mx_dtype_t d = usable_as_is(m, roles, n) ? as_dtype(roles[0].w->type) : precision;
  free(roles);
  return d;
}

mx_status_t mx_weights_prepare(const mx_model_t *m, mx_dtype_t precision, mx_param_files_t *out) {
  memset(out, 0, sizeof *out);
  role_t *roles;
  int n;
  MX_RETURN_IF_ERROR(alloc_roles(m, &roles, &n));
  if (usable_as_is(m, roles, n)) {
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
  char root[MX_PATH_MAX], key[65], dir[MX_PATH_MAX + 16], id[MX_PATH_MAX + 96];
  mx_status_t st = mx_cache_root(root, sizeof root);
  if (!st) {
    snprintf(id, sizeof id, "mlxcel-weights-v1|%s|%lld|%lld|%s", src, (long long)sb.st_size, (long long)sb.st_mtime,
             mx_dtype_name(precision));
    mx_sha256_t s;
    mx_sha256_init(&s);
    mx_sha256_update(&s, id, strlen(id));
    mx_sha256_hex(&s, key);
    snprintf(dir, sizeof dir, "%s/weights", root);
    st = mx_mkdirs(dir);
    snprintf(out->files[0], sizeof out->files[0], "%s/%.24s-%s.safetensors", dir, key, mx_dtype_name(precision));
  }
  out->n_files = 1;
  out->weight_dtype = precision;
  out->prepared = true;
  if (!st) {
    mx_cache_sweep(dir); /* what killed preparations left behind */
    mx_interrupt_enter();
    st = reuse_or_write(m, roles, n, precision, out);
    mx_interrupt_leave();
  }
  if (!st) st = mx_interrupt_status("preparing the weights", "stopped before using them");
  free(roles);
  return st;
}
