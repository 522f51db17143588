/* Element types shared by the graph emitter and the device protocol. */
#ifndef MX_BASE_DTYPE_H
#define MX_BASE_DTYPE_H

#include <stddef.h>

typedef enum {
  MX_F32 = 0,
  MX_F16,
  MX_BF16,
  MX_I32,
  MX_I64,
  MX_I8,
  MX_U8,
  MX_BOOL, /* i1: comparison results inside graphs */
  MX_I4,   /* packed weights inside graphs (model/packing.h): two per byte; not a protocol type */
  MX_DTYPE_COUNT,
} mx_dtype_t;

#define MX_MAX_RANK 8

size_t mx_dtype_size(mx_dtype_t dt);
/* Protocol and numpy spelling: "f32", "f16", "bf16", "i32", ... */
const char *mx_dtype_name(mx_dtype_t dt);
/* MLIR element type spelling: "f32", "f16", "bf16", "i32", ... */
const char *mx_dtype_mlir(mx_dtype_t dt);
/* Returns 0 and sets *out on success, -1 for an unknown name. */
int mx_dtype_parse(const char *name, mx_dtype_t *out);

#endif
