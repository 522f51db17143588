#include "format/safetensors.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define REMEDY "the file is truncated or corrupt; re-download or regenerate it"

static int parse_dtype(const char *s, mx_wtype_t *out) {
  if (!s) return -1;
  if (!strcmp(s, "F32")) *out = MX_W_F32;
  else if (!strcmp(s, "F16")) *out = MX_W_F16;
  else if (!strcmp(s, "BF16")) *out = MX_W_BF16;
  else return -1;
  return 0;
}

/* Reads one entry of the header into w; data bounds are checked by the caller. */
static mx_status_t parse_entry(const char *file, const char *key, json_t *v, uint64_t data_size, mx_weight_t *w,
                               mx_span_t *span) {
  if (strlen(key) >= MX_WEIGHT_NAME_MAX)
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor name too long (%zu bytes)", file, strlen(key));
  snprintf(w->name, sizeof w->name, "%s", key);
  if (!json_is_object(v)) return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' is not an object", file, key);
  const char *dt = json_string_value(json_object_get(v, "dtype"));
  if (parse_dtype(dt, &w->type) != 0)
    return mx_status_make(MX_STAGE_IO, "convert the checkpoint to f32, f16 or bf16",
                          "%s: tensor '%s' has unsupported dtype %s (supported: F32, F16, BF16)", file, key,
                          dt ? dt : "(missing)");
  json_t *shape = json_object_get(v, "shape"), *offs = json_object_get(v, "data_offsets");
  if (!json_is_array(shape) || json_array_size(shape) > MX_WEIGHT_MAX_RANK)
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' has a missing shape or rank above %d", file, key,
                          MX_WEIGHT_MAX_RANK);
  w->rank = (int)json_array_size(shape);
  uint64_t count = 1;
  for (int i = 0; i < w->rank; i++) {
    json_t *d = json_array_get(shape, (size_t)i);
    json_int_t dv = json_is_integer(d) ? json_integer_value(d) : -1;
    if (dv < 0 || (dv > 0 && count > (UINT64_MAX >> 2) / (uint64_t)dv))
      return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' has an invalid or absurd dimension", file, key);
    w->shape[i] = dv;
    count *= (uint64_t)dv;
  }
  if (!json_is_array(offs) || json_array_size(offs) != 2 || !json_is_integer(json_array_get(offs, 0)) ||
      !json_is_integer(json_array_get(offs, 1)))
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' lacks data_offsets", file, key);
  json_int_t b = json_integer_value(json_array_get(offs, 0)), e = json_integer_value(json_array_get(offs, 1));
  if (b < 0 || e < b || (uint64_t)e > data_size)
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' data [%lld, %lld) lies outside the %llu data bytes", file,
                          key, (long long)b, (long long)e, (unsigned long long)data_size);
  uint64_t need;
  if (!mx_wtype_nbytes(w->type, count, &need) || need != (uint64_t)(e - b))
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensor '%s' holds %lld bytes but its %s shape needs %llu", file, key,
                          (long long)(e - b), mx_wtype_name(w->type), (unsigned long long)need);
  span->begin = (uint64_t)b;
  span->end = (uint64_t)e;
  return NULL;
}

mx_status_t mx_safetensors_parse(const uint8_t *buf, size_t size, const char *name, int file_index,
                                 mx_weight_t **weights, int *n) {
  *weights = NULL;
  *n = 0;
  if (size < 8) return mx_status_make(MX_STAGE_IO, REMEDY, "%s: %zu bytes is too short for a safetensors file", name, size);
  uint64_t hlen = 0;
  for (int i = 0; i < 8; i++) hlen |= (uint64_t)buf[i] << (8 * i);
  if (hlen < 2 || hlen > MX_SAFETENSORS_MAX_HEADER || hlen > size - 8)
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: header length %llu does not fit the %zu-byte file", name,
                          (unsigned long long)hlen, size);
  json_error_t jerr;
  json_t *root = json_loadb((const char *)buf + 8, (size_t)hlen, JSON_REJECT_DUPLICATES, &jerr);
  if (!root || !json_is_object(root)) {
    json_decref(root);
    return mx_status_make(MX_STAGE_IO, REMEDY, "%s: header is not a JSON object (%s)", name, root ? "" : jerr.text);
  }
  uint64_t data_off = 8 + hlen, data_size = size - data_off;
  size_t cap = json_object_size(root);
  mx_weight_t *ws = calloc(cap ? cap : 1, sizeof *ws);
  mx_span_t *spans = calloc(cap ? cap : 1, sizeof *spans);
  mx_status_t st = (!ws || !spans) ? mx_status_oom() : NULL;
  int count = 0;
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    if (st) break;
    if (!strcmp(key, "__metadata__")) continue;
    st = parse_entry(name, key, v, data_size, &ws[count], &spans[count]);
    if (st) break;
    ws[count].data = buf + data_off + spans[count].begin;
    ws[count].nbytes = spans[count].end - spans[count].begin;
    ws[count].file_offset = data_off + spans[count].begin;
    ws[count].file = file_index;
    spans[count].index = count;
    count++;
  }
  int ov = st ? -1 : mx_spans_first_overlap(spans, count); /* overlap: a corrupt or malicious header */
  if (ov > 0)
    st = mx_status_make(MX_STAGE_IO, REMEDY, "%s: tensors '%s' and '%s' overlap", name, ws[spans[ov - 1].index].name,
                        ws[spans[ov].index].name);
  json_decref(root);
  free(spans);
  if (st) {
    free(ws);
    return st;
  }
  *weights = ws;
  *n = count;
  return NULL;
}
