/* Weight storage types as they appear in model files (safetensors dtypes and GGUF ggml types). */
#ifndef MX_FORMAT_WTYPE_H
#define MX_FORMAT_WTYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/half.h"

typedef enum {
  MX_W_F32 = 0,
  MX_W_F16,
  MX_W_BF16,
  MX_W_Q8_0, /* blocks of 32: f16 scale, 32 x int8 */
  MX_W_Q4_0, /* blocks of 32: f16 scale, 16 bytes of 4-bit values offset by 8 */
  MX_W_Q4_1, /* blocks of 32: f16 scale, f16 min, 16 bytes of 4-bit values */
  MX_W_I8,   /* written only: packed weights' values (model/packing.h) */
  MX_W_U8,   /* written only: packed 4-bit values, two per byte */
  MX_W_COUNT,
} mx_wtype_t;

const char *mx_wtype_name(mx_wtype_t t);
/* Elements per block (1 for plain types) and bytes per block. */
int mx_wtype_block_elems(mx_wtype_t t);
int mx_wtype_block_bytes(mx_wtype_t t);
/* Bytes for `count` elements; false when count is not a whole number of blocks or overflows. */
bool mx_wtype_nbytes(mx_wtype_t t, uint64_t count, uint64_t *out);

/* Dequantizes or widens `count` elements (a whole number of blocks) to f32. */
void mx_wtype_to_f32(mx_wtype_t t, const void *src, uint64_t count, float *dst);


#endif
