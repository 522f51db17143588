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
  MX_W_Q5_0, /* blocks of 32: f16 scale, 32 high bits, 16 bytes of low nibbles; values offset by 16 */
  MX_W_Q5_1, /* blocks of 32: f16 scale, f16 min, 32 high bits, 16 bytes of low nibbles */
  MX_W_Q2_K, /* super-blocks of 256 (K-quants): 16 sub-blocks of 16 with 4-bit scales and minimums */
  MX_W_Q3_K, /* 256: 16 sub-blocks of 16, 6-bit signed scales, 3-bit values (2 low bits + a high-bit mask) */
  MX_W_Q4_K, /* 256: 8 sub-blocks of 32, 6-bit scales and minimums, 4-bit values */
  MX_W_Q5_K, /* 256: as Q4_K with a fifth bit per value */
  MX_W_Q6_K, /* 256: 16 sub-blocks of 16, 8-bit scales, 6-bit values offset by 32 */
  MX_W_IQ4_NL, /* blocks of 32: f16 scale, 4-bit indices into a fixed non-linear table */
  MX_W_IQ4_XS, /* 256: 8 sub-blocks of 32 with 6-bit scales, IQ4_NL's table */
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

/* One block of a GGUF block type, decoded: n_groups groups of `group` integer values q (in element
 * order) whose weights are scale * q, plus offset for the affine types, in f32 and in that order:
 * GGUF's dequantization. */
typedef struct {
  int n_groups, group;
  bool has_offset;
  float scale[16], offset[16];
  int8_t q[256];
} mx_wblock_t;
/* false for a type that is not a block type. */
bool mx_wtype_decode_block(mx_wtype_t t, const uint8_t *block, mx_wblock_t *out);

/* Dequantizes or widens `count` elements (a whole number of blocks) to f32. */
void mx_wtype_to_f32(mx_wtype_t t, const void *src, uint64_t count, float *dst);


#endif
