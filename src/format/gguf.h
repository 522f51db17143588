/* GGUF (versions 2 and 3): header, typed key/value metadata, tensor infos, aligned data. Parsed
 * from a buffer (the mapped file) with every length and offset checked: the file is untrusted. */
#ifndef MX_FORMAT_GGUF_H
#define MX_FORMAT_GGUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "format/weight.h"

enum {
  MX_GGUF_U8 = 0, MX_GGUF_I8, MX_GGUF_U16, MX_GGUF_I16, MX_GGUF_U32, MX_GGUF_I32, MX_GGUF_F32, MX_GGUF_BOOL,
  MX_GGUF_STRING, MX_GGUF_ARRAY, MX_GGUF_U64, MX_GGUF_I64, MX_GGUF_F64, MX_GGUF_TYPE_COUNT
};

typedef struct {
  char *key;
  uint32_t type;
  const uint8_t *value; /* scalar or string (u64 length + bytes) or array elements */
  uint32_t arr_type;    /* for arrays */
  uint64_t arr_n;
} mx_gguf_kv_t;

typedef struct {
  uint32_t version;
  int n_kv;
  mx_gguf_kv_t *kv;
  int n_tensors;
  mx_weight_t *tensors; /* GGUF names ("blk.0.attn_q.weight"), shapes outermost first */
  uint64_t alignment, data_offset;
} mx_gguf_t;

/* Limits that no real model reaches; larger counts are taken as corruption. */
#define MX_GGUF_MAX_KV 65536
#define MX_GGUF_MAX_TENSORS 65536
#define MX_GGUF_MAX_ARRAY (64ull << 20)

MX_MUST_USE mx_status_t mx_gguf_parse(const uint8_t *buf, size_t size, const char *name, int file_index, mx_gguf_t **out);
void mx_gguf_free(mx_gguf_t *g);

const mx_gguf_kv_t *mx_gguf_find(const mx_gguf_t *g, const char *key);
/* Typed getters: false when the key is absent or of an incompatible type or out of range. */
bool mx_gguf_get_u32(const mx_gguf_t *g, const char *key, uint32_t *out);
bool mx_gguf_get_f32(const mx_gguf_t *g, const char *key, float *out);
bool mx_gguf_get_bool(const mx_gguf_t *g, const char *key, bool *out);
bool mx_gguf_get_str(const mx_gguf_t *g, const char *key, const char **s, size_t *len);
/* Arrays of strings: fills malloc'd arrays of pointers and lengths (strings are not NUL-terminated). */
bool mx_gguf_get_str_array(const mx_gguf_t *g, const char *key, const char ***strs, size_t **lens, uint64_t *n);
/* Arrays of 32-bit integers (i32 or u32), copied out into a malloc'd array. */
bool mx_gguf_get_i32_array(const mx_gguf_t *g, const char *key, int32_t **vals, uint64_t *n);
/* Arrays of f32, copied out into a malloc'd array. */
bool mx_gguf_get_f32_array(const mx_gguf_t *g, const char *key, float **vals, uint64_t *n);

#endif
