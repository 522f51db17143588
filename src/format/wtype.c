#include "format/wtype.h"

#include <stdbool.h>
#include <string.h>

static const struct {
  const char *name;
  int block_elems, block_bytes;
} info[MX_W_COUNT] = {
    [MX_W_F32] = {"F32", 1, 4},    [MX_W_F16] = {"F16", 1, 2},    [MX_W_BF16] = {"BF16", 1, 2},
    [MX_W_Q8_0] = {"Q8_0", 32, 34}, [MX_W_Q4_0] = {"Q4_0", 32, 18}, [MX_W_Q4_1] = {"Q4_1", 32, 20},
    [MX_W_Q5_0] = {"Q5_0", 32, 22}, [MX_W_Q5_1] = {"Q5_1", 32, 24}, [MX_W_Q2_K] = {"Q2_K", 256, 84},
    [MX_W_Q3_K] = {"Q3_K", 256, 110}, [MX_W_Q4_K] = {"Q4_K", 256, 144}, [MX_W_Q5_K] = {"Q5_K", 256, 176},
    [MX_W_Q6_K] = {"Q6_K", 256, 210}, [MX_W_IQ4_NL] = {"IQ4_NL", 32, 18}, [MX_W_IQ4_XS] = {"IQ4_XS", 256, 136},
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
static float f16at(const uint8_t *p) { return mx_f16_to_f32(rd16(p)); }

/* The layouts below are GGUF's (ggml's block_* structs). Each decoder splits a block into groups of
 * integer values with one scale (and, for the affine types, one offset) per group; weights are
 * scale * q (+ offset), in f32 and in that order, which is the `gguf` package's reference
 * dequantization bit for bit (tests/oracle/dequant_parity.py). Packed quantization (model/packing.c)
 * carries the same groups to the device. */

static void put_group(mx_wblock_t *o, int g, float scale, float offset) {
  o->scale[g] = scale;
  o->offset[g] = offset;
}

/* Q4_0 / Q4_1 / IQ4_NL: element j < 16 is the low nibble of byte j, element 16 + j its high nibble. */
static void nibbles32(const uint8_t *qs, int8_t *q, int bias) {
  for (int j = 0; j < 16; j++) {
    q[j] = (int8_t)((qs[j] & 0x0f) + bias);
    q[j + 16] = (int8_t)((qs[j] >> 4) + bias);
  }
}

/* Q5_0 / Q5_1: the nibbles as above with bit j (element j) or 16 + j (element 16 + j) of qh as the fifth. */
static void fives32(const uint8_t *p, int8_t *q, int bias) {
  uint32_t qh = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  const uint8_t *qs = p + 4;
  for (int j = 0; j < 16; j++) {
    q[j] = (int8_t)(((qs[j] & 0x0f) | (int)((qh >> j) & 1) << 4) + bias);
    q[j + 16] = (int8_t)(((qs[j] >> 4) | (int)((qh >> (j + 16)) & 1) << 4) + bias);
  }
}

/* The non-linear 4-bit code book of IQ4_NL and IQ4_XS. */
static const int8_t iq4_values[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

static void iq4_codes32(const uint8_t *qs, int8_t *q) {
  for (int j = 0; j < 16; j++) {
    q[j] = iq4_values[qs[j] & 0x0f];
    q[j + 16] = iq4_values[qs[j] >> 4];
  }
}

/* Q2_K: per half of 128, four shifts of the same 32 bytes; each shift gives two groups of 16, whose
 * scale is the low nibble of its scale byte times d and whose minimum the high nibble times dmin. */
static void decode_q2_k(const uint8_t *p, mx_wblock_t *o) {
  const uint8_t *sc = p, *q = p + 16;
  float d = f16at(p + 80), dmin = f16at(p + 82);
  int g = 0;
  for (int half = 0; half < 2; half++, q += 32)
    for (int shift = 0; shift < 8; shift += 2)
      for (int k = 0; k < 2; k++, g++) {
        put_group(o, g, d * (float)(sc[g] & 0x0f), -(dmin * (float)(sc[g] >> 4)));
        for (int l = 0; l < 16; l++) o->q[16 * g + l] = (int8_t)((q[16 * k + l] >> shift) & 3);
      }
}

/* Q3_K: 16 scales of 6 bits (the low 4 in bytes 0-7, two high bits in bytes 8-11), minus 32; values
 * of two low bits (laid out as Q2_K's) minus 4 where their bit of the high-bit mask is clear. */
static void decode_q3_k(const uint8_t *p, mx_wblock_t *o) {
  const uint8_t *hm = p, *q = p + 32, *s = p + 96;
  float d = f16at(p + 108);
  int g = 0, bit = 0;
  for (int half = 0; half < 2; half++, q += 32)
    for (int shift = 0; shift < 8; shift += 2, bit++)
      for (int k = 0; k < 2; k++, g++) {
        int low = g < 8 ? s[g] & 0x0f : s[g - 8] >> 4, high = (s[8 + g % 4] >> (2 * (g / 4))) & 3;
        put_group(o, g, d * (float)((low | high << 4) - 32), 0);
        for (int l = 0; l < 16; l++)
          o->q[16 * g + l] = (int8_t)(((q[16 * k + l] >> shift) & 3) - ((hm[16 * k + l] >> bit) & 1 ? 0 : 4));
      }
}

/* The 6-bit scale and minimum of group j of a Q4_K/Q5_K super-block (12 bytes at s). */
static void scale_min_k4(const uint8_t *s, int j, int *sc, int *m) {
  if (j < 4) {
    *sc = s[j] & 63;
    *m = s[j + 4] & 63;
  } else {
    *sc = (s[j + 4] & 0x0f) | (s[j - 4] >> 6) << 4;
    *m = (s[j + 4] >> 4) | (s[j] >> 6) << 4;
  }
}

/* Q4_K / Q5_K: per 64 values, 32 bytes whose low nibbles are one group and high nibbles the next;
 * Q5_K's fifth bits come from qh, bits 2j and 2j + 1 of each byte for the j-th 64. */
static void decode_q45_k(const uint8_t *p, bool five, mx_wblock_t *o) {
  float d = f16at(p), dmin = f16at(p + 2);
  const uint8_t *s = p + 4, *qh = p + 16, *q = p + (five ? 48 : 16);
  for (int g = 0; g < 8; g++) {
    int sc, m;
    scale_min_k4(s, g, &sc, &m);
    put_group(o, g, d * (float)sc, -(dmin * (float)m));
    const uint8_t *bytes = q + 32 * (g / 2);
    for (int l = 0; l < 32; l++) {
      int v = g % 2 ? bytes[l] >> 4 : bytes[l] & 0x0f;
      o->q[32 * g + l] = (int8_t)(v + (five && (qh[l] >> g) & 1 ? 16 : 0));
    }
  }
}

/* Q6_K: per half of 128, element l + 32k (k < 4) takes 4 bits from ql (the low or high nibble of
 * byte l or l + 32) and 2 from qh[l] (bits 2k, 2k + 1), minus 32; 16 groups of 16 with 8-bit scales. */
static void decode_q6_k(const uint8_t *p, mx_wblock_t *o) {
  const int8_t *sc = (const int8_t *)(p + 192);
  float d = f16at(p + 208);
  for (int g = 0; g < 16; g++) put_group(o, g, d * (float)sc[g], 0);
  for (int half = 0; half < 2; half++) {
    const uint8_t *ql = p + 64 * half, *qh = p + 128 + 32 * half;
    for (int l = 0; l < 32; l++)
      for (int k = 0; k < 4; k++) {
        int low = (k & 1 ? ql[l + 32] : ql[l]) >> (k & 2 ? 4 : 0) & 0x0f, high = (qh[l] >> (2 * k)) & 3;
        o->q[128 * half + l + 32 * k] = (int8_t)((low | high << 4) - 32);
      }
  }
}

static void decode_iq4_xs(const uint8_t *p, mx_wblock_t *o) {
  float d = f16at(p);
  uint16_t sh = rd16(p + 2);
  const uint8_t *sl = p + 4;
  for (int g = 0; g < 8; g++) {
    int ls = ((sl[g / 2] >> (4 * (g % 2))) & 0x0f) | ((sh >> (2 * g)) & 3) << 4;
    put_group(o, g, d * (float)(ls - 32), 0);
    iq4_codes32(p + 8 + 16 * g, o->q + 32 * g);
  }
}

bool mx_wtype_decode_block(mx_wtype_t t, const uint8_t *p, mx_wblock_t *o) {
  o->group = 32;
  o->has_offset = t == MX_W_Q4_1 || t == MX_W_Q5_1 || t == MX_W_Q2_K || t == MX_W_Q4_K || t == MX_W_Q5_K;
  switch (t) {
    case MX_W_Q8_0:
      put_group(o, 0, f16at(p), 0);
      for (int i = 0; i < 32; i++) o->q[i] = (int8_t)p[2 + i];
      break;
    case MX_W_Q4_0: put_group(o, 0, f16at(p), 0), nibbles32(p + 2, o->q, -8); break;
    case MX_W_Q4_1: put_group(o, 0, f16at(p), f16at(p + 2)), nibbles32(p + 4, o->q, 0); break;
    case MX_W_Q5_0: put_group(o, 0, f16at(p), 0), fives32(p + 2, o->q, -16); break;
    case MX_W_Q5_1: put_group(o, 0, f16at(p), f16at(p + 2)), fives32(p + 4, o->q, 0); break;
    case MX_W_IQ4_NL: put_group(o, 0, f16at(p), 0), iq4_codes32(p + 2, o->q); break;
    case MX_W_Q2_K: o->group = 16, decode_q2_k(p, o); break;
    case MX_W_Q3_K: o->group = 16, decode_q3_k(p, o); break;
    case MX_W_Q4_K: decode_q45_k(p, false, o); break;
    case MX_W_Q5_K: decode_q45_k(p, true, o); break;
    case MX_W_Q6_K: o->group = 16, decode_q6_k(p, o); break;
    case MX_W_IQ4_XS: decode_iq4_xs(p, o); break;
    default: return false;
  }
  o->n_groups = mx_wtype_block_elems(t) / o->group;
  return true;
}

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
    default: { /* a block type: its groups, scale * q (+ offset) */
      mx_wblock_t blk;
      int be = mx_wtype_block_elems(t), bb = mx_wtype_block_bytes(t);
      for (uint64_t b = 0; b < count / (uint64_t)be && mx_wtype_decode_block(t, p + b * (uint64_t)bb, &blk); b++)
        for (int i = 0; i < be; i++) {
          float sc = blk.scale[i / blk.group], v = sc * (float)blk.q[i];
          dst[b * (uint64_t)be + (uint64_t)i] = blk.has_offset ? v + blk.offset[i / blk.group] : v;
        }
      break;
    }
  }
}
