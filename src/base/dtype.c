#include "base/dtype.h"

#include <string.h>

static const struct {
  const char *name, *mlir;
  size_t size;
} dtypes[MX_DTYPE_COUNT] = {
    [MX_F32] = {"f32", "f32", 4}, [MX_F16] = {"f16", "f16", 2}, [MX_BF16] = {"bf16", "bf16", 2},
    [MX_I32] = {"i32", "i32", 4}, [MX_I64] = {"i64", "i64", 8}, [MX_I8] = {"i8", "i8", 1},
    [MX_U8] = {"u8", "ui8", 1},    [MX_BOOL] = {"bool", "i1", 1},  [MX_I4] = {"i4", "i4", 0},
};

size_t mx_dtype_size(mx_dtype_t dt) { return dt < MX_DTYPE_COUNT ? dtypes[dt].size : 0; }
const char *mx_dtype_name(mx_dtype_t dt) { return dt < MX_DTYPE_COUNT ? dtypes[dt].name : "?"; }
const char *mx_dtype_mlir(mx_dtype_t dt) { return dt < MX_DTYPE_COUNT ? dtypes[dt].mlir : "?"; }

int mx_dtype_parse(const char *name, mx_dtype_t *out) {
  for (int i = 0; name && i < MX_DTYPE_COUNT; i++)
    if (strcmp(dtypes[i].name, name) == 0) {
      *out = (mx_dtype_t)i;
      return 0;
    }
  return -1;
}
