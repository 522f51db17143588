#include "format/wtype.h"

#include <string.h>

static const struct {
  const char *name;
  int block_elems, block_bytes;
} info[MX_W_COUNT] = {
    [MX_W_F32] = {"F32", 1, 4},    [MX_W_F16] = {"F16", 1, 2},    [MX_W_BF16] = {"BF16", 1, 2},
    [MX_W_Q8_0] = {"Q8_0", 32, 34}, [MX_W_Q4_0] = {"Q4_0", 32, 18}, [MX_W_Q4_1] = {"Q4_1", 32, 20},
    [MX_W_I8] = {"I8", 1, 1},       [MX_W_U8] = {"U8", 1, 1},
};

const char *mx_wtype_name(mx_wtype_t t) { return t < MX_W_COUNT ? info[t].name : "?"; }
int mx_wtype_block_elems(mx_wtype_t t) { return t < MX_W_COUNT ? info[t].block_elems : 0; }
int mx_wtype_block_bytes(mx_wtype_t t) { return t < MX_W_COUNT ? info[t].block_bytes : 0; }

bool mx_wtype_nbytes(mx_wtype_t t, uint64_t count, uint64_t *out) {
  if (t >= MX_W_COUNT) return false;
  uint64_t be = (uint64_t)info[t].block_elems, bb = (uint64_t)info[t].block_bytes;
  if (count % be) return false;
  uint64_t blocks = count / be;
  if (blocks > UINT64_MAX / bb) return false;
  *out = blocks * bb;
  return true;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

void mx_wtype_to_f32(mx_wtype_t t, const void *src, uint64_t count, float *dst) {
  const uint8_t *p = src;
  switch (t) {
    case MX_W_F32:
      memcpy(dst, src, count * 4);
      break;
    case MX_W_F16:
      for (uint64_t i = 0; i < count; i++) dst[i] = mx_f16_to_f32(rd16(p + 2 * i));
      break;
    case MX_W_BF16:
      for (uint64_t i = 0; i < count; i++) dst[i] = mx_bf16_to_f32(rd16(p + 2 * i));
      break;
    case MX_W_Q8_0:
      for (uint64_t b = 0; b < count / 32; b++, p += 34) {
        float d = mx_f16_to_f32(rd16(p));
        for (int i = 0; i < 32; i++) dst[b * 32 + i] = d * (float)(int8_t)p[2 + i];
      }
      break;
    case MX_W_Q4_0: /* element i: low nibble of byte i; element 16+i: high nibble */
      for (uint64_t b = 0; b < count / 32; b++, p += 18) {
        float d = mx_f16_to_f32(rd16(p));
        for (int i = 0; i < 16; i++) {
          dst[b * 32 + i] = d * (float)((p[2 + i] & 0x0f) - 8);
          dst[b * 32 + 16 + i] = d * (float)((p[2 + i] >> 4) - 8);
        }
      }
      break;
    case MX_W_Q4_1:
      for (uint64_t b = 0; b < count / 32; b++, p += 20) {
        float d = mx_f16_to_f32(rd16(p)), m = mx_f16_to_f32(rd16(p + 2));
        for (int i = 0; i < 16; i++) {
          dst[b * 32 + i] = d * (float)(p[4 + i] & 0x0f) + m;
          dst[b * 32 + 16 + i] = d * (float)(p[4 + i] >> 4) + m;
        }
      }
      break;
    default:
      break;
  }
}
