#include "model/wtype.h"

#include <string.h>

static const struct {
  const char *name;
  int block_elems, block_bytes;
} info[MX_W_COUNT] = {
    [MX_W_F32] = {"F32", 1, 4},    [MX_W_F16] = {"F16", 1, 2},    [MX_W_BF16] = {"BF16", 1, 2},
    [MX_W_Q8_0] = {"Q8_0", 32, 34}, [MX_W_Q4_0] = {"Q4_0", 32, 18}, [MX_W_Q4_1] = {"Q4_1", 32, 20},
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

float mx_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff, bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { /* subnormal: normalise */
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        exp--;
      }
      bits = sign | (exp << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

uint16_t mx_f32_to_f16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 31) return (uint16_t)(sign | 0x7c00);
  if (exp <= 0) {
    if (exp < -10) return (uint16_t)sign;
    mant |= 0x800000;
    uint32_t shift = (uint32_t)(14 - exp);
    uint32_t half = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) half++;
    return (uint16_t)(sign | half);
  }
  uint32_t h = sign | ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++; /* may carry into the exponent: correct */
  return (uint16_t)h;
}

float mx_bf16_to_f32(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

uint16_t mx_f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000) return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
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
