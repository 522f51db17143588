#include "format/gguf.h"

#include <stdlib.h>
#include <string.h>

#define REMEDY "the GGUF file is truncated or corrupt; re-download it"

typedef struct {
  const uint8_t *buf;
  size_t size, pos;
  bool bad;
} reader_t;

static const uint8_t *take(reader_t *r, uint64_t n) {
  if (r->bad || n > r->size - r->pos) {
    r->bad = true;
    return NULL;
  }
  const uint8_t *p = r->buf + r->pos;
  r->pos += (size_t)n;
  return p;
}

static uint64_t le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static uint32_t rd_u32(reader_t *r) {
  const uint8_t *p = take(r, 4);
  return p ? (uint32_t)le(p, 4) : 0;
}

static uint64_t rd_u64(reader_t *r) {
  const uint8_t *p = take(r, 8);
  return p ? le(p, 8) : 0;
}

static const uint8_t *rd_string(reader_t *r, uint64_t *len) {
  *len = rd_u64(r);
  return take(r, *len);
}

static const int scalar_size[MX_GGUF_TYPE_COUNT] = {
    [MX_GGUF_U8] = 1, [MX_GGUF_I8] = 1,  [MX_GGUF_U16] = 2, [MX_GGUF_I16] = 2, [MX_GGUF_U32] = 4,
    [MX_GGUF_I32] = 4, [MX_GGUF_F32] = 4, [MX_GGUF_BOOL] = 1, [MX_GGUF_U64] = 8, [MX_GGUF_I64] = 8,
    [MX_GGUF_F64] = 8};

/* Skips one value of `type`; arrays may nest (depth-limited). */
static void skip_value(reader_t *r, uint32_t type, int depth) {
  if (type >= MX_GGUF_TYPE_COUNT || depth > 3) {
    r->bad = true;
    return;
  }
  if (type == MX_GGUF_STRING) {
    uint64_t len;
    rd_string(r, &len);
  } else if (type == MX_GGUF_ARRAY) {
    uint32_t et = rd_u32(r);
    uint64_t n = rd_u64(r);
    if (et >= MX_GGUF_TYPE_COUNT || n > MX_GGUF_MAX_ARRAY) {
      r->bad = true;
      return;
    }
    if (scalar_size[et]) {
      take(r, n * (uint64_t)scalar_size[et]);
    } else {
      for (uint64_t i = 0; i < n && !r->bad; i++) skip_value(r, et, depth + 1);
    }
  } else {
    take(r, (uint64_t)scalar_size[type]);
  }
}

static int ggml_type(uint32_t t, mx_wtype_t *out) {
  switch (t) {
    case 0: *out = MX_W_F32; return 0;
    case 1: *out = MX_W_F16; return 0;
    case 2: *out = MX_W_Q4_0; return 0;
    case 3: *out = MX_W_Q4_1; return 0;
    case 6: *out = MX_W_Q5_0; return 0;
    case 7: *out = MX_W_Q5_1; return 0;
    case 8: *out = MX_W_Q8_0; return 0;
    case 10: *out = MX_W_Q2_K; return 0;
    case 11: *out = MX_W_Q3_K; return 0;
    case 12: *out = MX_W_Q4_K; return 0;
    case 13: *out = MX_W_Q5_K; return 0;
    case 14: *out = MX_W_Q6_K; return 0;
    case 20: *out = MX_W_IQ4_NL; return 0;
    case 23: *out = MX_W_IQ4_XS; return 0;
    case 30: *out = MX_W_BF16; return 0;
    default: return -1;
  }
}

static const char *ggml_type_name(uint32_t t) {
  static const char *const names[] = {"F32", "F16", "Q4_0", "Q4_1", "Q4_2", "Q4_3", "Q5_0", "Q5_1", "Q8_0", "Q8_1",
                                      "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q8_K", "IQ2_XXS", "IQ2_XS", "IQ3_XXS",
                                      "IQ1_S", "IQ4_NL", "IQ3_S", "IQ2_S", "IQ4_XS", "I8", "I16", "I32", "I64", "F64",
                                      "IQ1_M", "BF16"};
  return t < sizeof names / sizeof names[0] ? names[t] : "unknown";
}

static mx_status_t parse_kv(reader_t *r, const char *name, mx_gguf_t *g) {
  for (int i = 0; i < g->n_kv; i++) {
    uint64_t klen;
    const uint8_t *k = rd_string(r, &klen);
    if (r->bad || klen == 0 || klen > 65535)
      return mx_status_make(MX_STAGE_IO, REMEDY, "%s: metadata key %d is malformed or runs past the end", name, i);
    mx_gguf_kv_t *kv = &g->kv[i];
    kv->key = malloc(klen + 1);
    if (!kv->key) return mx_status_oom();
    memcpy(kv->key, k, klen);
    kv->key[klen] = '\0';
    kv->type = rd_u32(r);
    if (kv->type >= MX_GGUF_TYPE_COUNT)
      return mx_status_make(MX_STAGE_IO, REMEDY, "%s: metadata '%s' has unknown type %u", name, kv->key, kv->type);
    if (kv->type == MX_GGUF_ARRAY) {
      size_t at = r->pos;
      kv->arr_type = rd_u32(r);
      kv->arr_n = rd_u64(r);
      kv->value = r->buf + r->pos;
      r->pos = at;
    } else {
      kv->value = r->buf + r->pos;
    }
    skip_value(r, kv->type, 0);
    if (r->bad)
      return mx_status_make(MX_STAGE_IO, REMEDY, "%s: metadata '%s' is malformed or runs past the end of the file", name,
                            kv->key);
  }
  return NULL;
}

static mx_status_t parse_tensor_infos(reader_t *r, const char *name, int file_index, mx_gguf_t *g) {
  for (int i = 0; i < g->n_tensors; i++) {
    mx_weight_t *w = &g->tensors[i];
    uint64_t nlen;
    const uint8_t *nm = rd_string(r, &nlen);
    if (r->bad || nlen == 0 || nlen >= MX_WEIGHT_NAME_MAX)
      return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor info %d has a malformed name", name, i);
    memcpy(w->name, nm, nlen);
    w->name[nlen] = '\0';
    uint32_t nd = rd_u32(r);
    if (r->bad || nd == 0 || nd > MX_WEIGHT_MAX_RANK)
      return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' has %u dimensions (1 to 4 allowed)", name, w->name, nd);
    w->rank = (int)nd;
    uint64_t count = 1;
    for (uint32_t d = 0; d < nd; d++) { /* ggml order: innermost first; we store outermost first */
      uint64_t v = rd_u64(r);
      if (v == 0 || v > (1ull << 40) || count > (1ull << 46) / v)
        return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' has an absurd dimension", name, w->name);
      w->shape[nd - 1 - d] = (int64_t)v;
      count *= v;
    }
    uint32_t t = rd_u32(r);
    if (!r->bad && ggml_type(t, &w->type) != 0)
      return mx_status_make(MX_STAGE_IO, "use a GGUF with F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K..Q6_K, IQ4_NL or IQ4_XS tensors",
                            "%s: tensor '%s' has unsupported type %s (%u)", name, w->name, ggml_type_name(t), t);
    w->file_offset = rd_u64(r); /* relative to the data section for now */
    if (r->bad) return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor infos run past the end of the file", name);
    if (w->shape[w->rank - 1] % mx_wtype_block_elems(w->type) != 0 || !mx_wtype_nbytes(w->type, count, &w->nbytes))
      return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' rows are not whole %s blocks", name, w->name,
                            mx_wtype_name(w->type));
    w->file = file_index;
  }
  return NULL;
}

static mx_status_t place_tensors(const uint8_t *buf, size_t size, const char *name, mx_gguf_t *g) {
  if (g->data_offset > size)
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: the data section starts past the end of the file", name);
  uint64_t data_size = size - g->data_offset;
  mx_span_t *spans = calloc((size_t)g->n_tensors + 1, sizeof *spans);
  if (!spans) return mx_status_oom();
  mx_status_t st = NULL;
  for (int i = 0; i < g->n_tensors && !st; i++) {
    mx_weight_t *w = &g->tensors[i];
    uint64_t off = w->file_offset;
    if (off % g->alignment != 0)
      st = mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' offset %llu is not %llu-aligned", name, w->name,
                          (unsigned long long)off, (unsigned long long)g->alignment);
    else if (off > data_size || w->nbytes > data_size - off)
      st = mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' (%llu bytes at %llu) runs past the end of the file", name,
                          w->name, (unsigned long long)w->nbytes, (unsigned long long)off);
    else {
      w->file_offset = g->data_offset + off;
      w->data = buf + w->file_offset;
      spans[i] = (mx_span_t){off, off + w->nbytes, i};
    }
  }
  int ov = st ? -1 : mx_spans_first_overlap(spans, g->n_tensors);
  if (ov > 0)
    st = mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensors '%s' and '%s' overlap", name, g->tensors[spans[ov - 1].index].name,
                        g->tensors[spans[ov].index].name);
  free(spans);
  return st;
}

mx_status_t mx_gguf_parse(const uint8_t *buf, size_t size, const char *name, int file_index, mx_gguf_t **out) {
  *out = NULL;
  reader_t r = {buf, size, 0, false};
  const uint8_t *magic = take(&r, 4);
  if (!magic || memcmp(magic, "GGUF", 4) != 0)
    return mx_status_make(MX_STAGE_IO, "pass a .gguf model file", "%s is not a GGUF file (bad magic)", name);
  mx_gguf_t *g = calloc(1, sizeof *g);
  if (!g) return mx_status_oom();
  g->version = rd_u32(&r);
  uint64_t nt = rd_u64(&r), nkv = rd_u64(&r);
  mx_status_t st = NULL;
  if (r.bad)
    st = mx_status_make(MX_STAGE_IO, REMEDY, "%s: header is truncated", name);
  else if (g->version != 2 && g->version != 3)
    st = mx_status_make(MX_STAGE_IO, "convert it with a current llama.cpp (GGUF v3)", "%s: GGUF version %u is not supported (2 and 3 are)",
                        name, g->version);
  else if (nt > MX_GGUF_MAX_TENSORS || nkv > MX_GGUF_MAX_KV)
    st = mx_status_make(MX_STAGE_IO, REMEDY, "%s: absurd counts (%llu tensors, %llu metadata entries)", name,
                        (unsigned long long)nt, (unsigned long long)nkv);
  if (!st) {
    g->n_kv = (int)nkv;
    g->n_tensors = (int)nt;
    g->kv = calloc(nkv + 1, sizeof *g->kv);
    g->tensors = calloc(nt + 1, sizeof *g->tensors);
    if (!g->kv || !g->tensors) st = mx_status_oom();
  }
  if (!st) st = parse_kv(&r, name, g);
  if (!st) st = parse_tensor_infos(&r, name, file_index, g);
  if (!st) {
    uint32_t align = 32;
    const mx_gguf_kv_t *a = mx_gguf_find(g, "general.alignment");
    if (a && (!mx_gguf_get_u32(g, "general.alignment", &align) || align == 0 || (align & (align - 1)) || align > 65536))
      st = mx_status_make(MX_STAGE_IO, REMEDY, "%s: general.alignment must be a power of two up to 65536", name);
    g->alignment = align;
    g->data_offset = ((uint64_t)r.pos + align - 1) / align * align;
  }
  if (!st) st = place_tensors(buf, size, name, g);
  if (st) {
    mx_gguf_free(g);
    return st;
  }
  *out = g;
  return NULL;
}

void mx_gguf_free(mx_gguf_t *g) {
  if (!g) return;
  for (int i = 0; i < g->n_kv && g->kv; i++) free(g->kv[i].key);
  free(g->kv);
  free(g->tensors);
  free(g);
}

const mx_gguf_kv_t *mx_gguf_find(const mx_gguf_t *g, const char *key) {
  for (int i = 0; i < g->n_kv; i++)
    if (g->kv[i].key && strcmp(g->kv[i].key, key) == 0) return &g->kv[i];
  return NULL;
}

/* Integer value of any integer-typed scalar (true when it is one). */
static bool int_value(const mx_gguf_kv_t *kv, int64_t *out) {
  const uint8_t *p = kv->value;
  switch (kv->type) {
    case MX_GGUF_U8: *out = p[0]; return true;
    case MX_GGUF_I8: *out = (int8_t)p[0]; return true;
    case MX_GGUF_U16: *out = (uint16_t)le(p, 2); return true;
    case MX_GGUF_I16: *out = (int16_t)le(p, 2); return true;
    case MX_GGUF_U32: *out = (uint32_t)le(p, 4); return true;
    case MX_GGUF_I32: *out = (int32_t)le(p, 4); return true;
    case MX_GGUF_U64: *out = le(p, 8) > INT64_MAX ? -1 : (int64_t)le(p, 8); return true;
    case MX_GGUF_I64: *out = (int64_t)le(p, 8); return true;
    default: return false;
  }
}

bool mx_gguf_get_u32(const mx_gguf_t *g, const char *key, uint32_t *out) {
  const mx_gguf_kv_t *kv = mx_gguf_find(g, key);
  int64_t v = 0;
  if (!kv || !int_value(kv, &v) || v < 0 || v > UINT32_MAX) return false;
  *out = (uint32_t)v;
  return true;
}

bool mx_gguf_get_f32(const mx_gguf_t *g, const char *key, float *out) {
  const mx_gguf_kv_t *kv = mx_gguf_find(g, key);
  if (!kv) return false;
  if (kv->type == MX_GGUF_F32) {
    uint32_t b = (uint32_t)le(kv->value, 4);
    memcpy(out, &b, 4);
    return true;
  }
  if (kv->type == MX_GGUF_F64) {
    uint64_t b = le(kv->value, 8);
    double d;
    memcpy(&d, &b, 8);
    *out = (float)d;
    return true;
  }
  return false;
}

bool mx_gguf_get_bool(const mx_gguf_t *g, const char *key, bool *out) {
  const mx_gguf_kv_t *kv = mx_gguf_find(g, key);
  if (!kv || kv->type != MX_GGUF_BOOL) return false;
  *out = kv->value[0] != 0;
  return true;
}

bool mx_gguf_get_str(const mx_gguf_t *g, const char *key, const char **s, size_t *len) {
  const mx_gguf_kv_t *kv = mx_gguf_find(g, key);
  if (!kv || kv->type != MX_GGUF_STRING) return false;
  *len = (size_t)le(kv->value, 8);
  *s = (const char *)kv->value + 8;
  return true;
}

bool mx_gguf_get_str_array(const mx_gguf_t *g, const char *key, const char ***strs, size_t **lens, uint64_t *n) {
  const mx_gguf_kv_t *kv = mx_gguf_find(g, key);
  if (!kv || kv->type != MX_GGUF_ARRAY || kv->arr_type != MX_GGUF_STRING) return false;
  *strs = malloc((kv->arr_n + 1) * sizeof **strs);
  *lens = malloc((kv->arr_n + 1) * sizeof **lens);
  if (!*strs || !*lens) {
    free(*strs);
    free(*lens);
    return false;
  }
  const uint8_t *p = kv->value; /* bounds were checked when the metadata was parsed */
  for (uint64_t i = 0; i < kv->arr_n; i++) {
    (*lens)[i] = (size_t)le(p, 8);
    (*strs)[i] = (const char *)p + 8;
    p += 8 + (*lens)[i];
  }
  *n = kv->arr_n;
  return true;
}

bool mx_gguf_get_f32_array(const mx_gguf_t *g, const char *key, float **vals, uint64_t *n) {
  const mx_gguf_kv_t *kv = mx_gguf_find(g, key);
  if (!kv || kv->type != MX_GGUF_ARRAY || kv->arr_type != MX_GGUF_F32) return false;
  *vals = malloc((kv->arr_n + 1) * sizeof **vals);
  if (!*vals) return false;
  for (uint64_t i = 0; i < kv->arr_n; i++) {
    uint32_t b = (uint32_t)le(kv->value + 4 * i, 4);
    memcpy(&(*vals)[i], &b, 4);
  }
  *n = kv->arr_n;
  return true;
}

bool mx_gguf_get_i32_array(const mx_gguf_t *g, const char *key, int32_t **vals, uint64_t *n) {
  const mx_gguf_kv_t *kv = mx_gguf_find(g, key);
  if (!kv || kv->type != MX_GGUF_ARRAY || (kv->arr_type != MX_GGUF_I32 && kv->arr_type != MX_GGUF_U32)) return false;
  *vals = malloc((kv->arr_n + 1) * sizeof **vals);
  if (!*vals) return false;
  for (uint64_t i = 0; i < kv->arr_n; i++) (*vals)[i] = (int32_t)le(kv->value + 4 * i, 4);
  *n = kv->arr_n;
  return true;
}
