#include "format/st_writer.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

uint64_t mx_st_entry_bytes(const mx_st_entry_t *e) {
  uint64_t n = 1, bytes = 0;
  for (int i = 0; i < e->rank; i++) n *= (uint64_t)e->shape[i];
  mx_wtype_nbytes(e->dtype, n, &bytes);
  return bytes;
}

mx_status_t mx_st_write_header(FILE *f, const mx_st_entry_t *e, int n, const char *path) {
  json_t *root = json_object();
  json_object_set_new(root, "__metadata__", json_pack("{s:s}", "format", "pt"));
  uint64_t off = 0, *start = calloc((size_t)n + 1, sizeof *start);
  if (!start) {
    json_decref(root);
    return mx_status_oom();
  }
  for (int i = 0; i < n; i++) {
    json_t *shape = json_array();
    for (int d = 0; d < e[i].rank; d++) json_array_append_new(shape, json_integer(e[i].shape[d]));
    uint64_t first = off, end = off + mx_st_entry_bytes(&e[i]);
    if (e[i].view_parts > 0) { /* parts before it, consecutive: the first's start to the last's end */
      int last = e[i].view_first + e[i].view_parts - 1;
      first = start[e[i].view_first];
      end = start[last] + mx_st_entry_bytes(&e[last]);
    }
    start[i] = first;
    json_object_set_new(root, e[i].name,
                        json_pack("{s:s,s:o,s:[I,I]}", "dtype", mx_wtype_name(e[i].dtype), "shape", shape, "data_offsets",
                                  (json_int_t)first, (json_int_t)end));
    if (e[i].view_parts == 0) off = end;
  }
  free(start);
  char *text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(root);
  if (!text) return mx_status_oom();
  size_t len = strlen(text), padded = (len + 7) / 8 * 8;
  uint8_t len8[8];
  for (int i = 0; i < 8; i++) len8[i] = (uint8_t)((uint64_t)padded >> (8 * i));
  bool ok = fwrite(len8, 1, 8, f) == 8 && fwrite(text, 1, len, f) == len;
  for (size_t i = len; ok && i < padded; i++) ok = fputc(' ', f) != EOF;
  free(text);
  return ok ? NULL : mx_status_make(MX_STAGE_IO, "check free disk space", "short write to %s", path);
}
