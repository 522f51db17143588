#include "model/packing.h"

#include <math.h>
#include <stdio.h>

#include "base/half.h"

const char *mx_pack_kind_name(mx_pack_kind_t k) {
  switch (k) {
    case MX_PACK_Q8: return "q8";
    case MX_PACK_Q4: return "q4";
    case MX_PACK_Q4_AFFINE: return "q4-affine";
    default: return "none";
  }
}

mx_status_t mx_pack_choose(const mx_tensor_spec_t *t, const char *name, mx_wtype_t source, const int64_t dims[2],
                           const mx_quant_options_t *q, mx_pack_t *out) {
  *out = (mx_pack_t){MX_PACK_NONE, 0};
  if (!q->on || t->is_norm || t->rank != 2) return NULL;
  switch (source) {
    case MX_W_Q8_0: *out = (mx_pack_t){MX_PACK_Q8, 32}; break;
    case MX_W_Q4_0: *out = (mx_pack_t){MX_PACK_Q4, 32}; break;
    case MX_W_Q4_1: *out = (mx_pack_t){MX_PACK_Q4_AFFINE, 32}; break;
    case MX_W_F32:
    case MX_W_F16:
    case MX_W_BF16:
      if (q->host_bits != 4 && q->host_bits != 8)
        return mx_status_make(MX_STAGE_USAGE, "use --quant-bits 4 or 8", "%d-bit packed weights are not supported", q->host_bits);
      if (q->host_group != 32 && q->host_group != 64 && q->host_group != 128)
        return mx_status_make(MX_STAGE_USAGE, "use --quant-group 32, 64 or 128", "a quantization group of %d is not supported",
                              q->host_group);
      *out = (mx_pack_t){q->host_bits == 8 ? MX_PACK_Q8 : MX_PACK_Q4_AFFINE, q->host_group};
      break;
    default:
      return mx_status_make(MX_STAGE_USAGE, "drop --quant packed for this model",
                            "tensor %s is %s, which the packed mode does not carry (it carries Q8_0, Q4_0, Q4_1 and float)",
                            name, mx_wtype_name(source));
  }
  if (dims[1] % out->group != 0)
    return mx_status_make(MX_STAGE_USAGE, "use a --quant-group that divides the input dimension, or drop --quant packed",
                          "tensor %s has %lld inputs, not a whole number of groups of %d", name, (long long)dims[1], out->group);
  return NULL;
}

uint64_t mx_pack_bytes(mx_pack_t p, int64_t N, int64_t K, mx_dtype_t scale) {
  uint64_t n = (uint64_t)N * (uint64_t)K, groups = n / (uint64_t)p.group, s = mx_dtype_size(scale);
  switch (p.kind) {
    case MX_PACK_Q8: return n + groups * s;
    case MX_PACK_Q4: return n / 2 + groups * s;
    case MX_PACK_Q4_AFFINE: return n / 2 + 2 * groups * s;
    default: return 0;
  }
}

uint64_t mx_pack_plan_hash(const mx_pack_t *plan, int n) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a over (kind, group) */
  for (int i = 0; i < n; i++) {
    h = (h ^ (uint64_t)plan[i].kind) * 1099511628211ull;
    h = (h ^ (uint64_t)plan[i].group) * 1099511628211ull;
  }
  return h;
}

static float round_to(mx_dtype_t d, float v) {
  if (d == MX_F16) return mx_f16_to_f32(mx_f32_to_f16(v));
  if (d == MX_BF16) return mx_bf16_to_f32(mx_f32_to_bf16(v));
  return v;
}

/* Element i of a 4-bit row goes to nibble (i & 1) of byte i / 2, as nibble - 8 in two's complement. */
static void put4(uint8_t *values, int64_t i, int nibble) {
  uint8_t v = (uint8_t)((nibble ^ 8) & 0x0f);
  if (i & 1) values[i / 2] = (uint8_t)((values[i / 2] & 0x0f) | (v << 4));
  else values[i / 2] = (uint8_t)((values[i / 2] & 0xf0) | v);
}

double mx_pack_quantize_row(mx_pack_t p, mx_dtype_t scale, const float *x, int64_t K, uint8_t *values, float *scales,
                            float *offsets) {
  double err = 0;
  for (int64_t g0 = 0, b = 0; g0 < K; g0 += p.group, b++) {
    float lo = x[g0], hi = x[g0], amax = 0;
    for (int64_t i = g0; i < g0 + p.group; i++) {
      lo = fminf(lo, x[i]);
      hi = fmaxf(hi, x[i]);
      amax = fmaxf(amax, fabsf(x[i]));
    }
    bool q8 = p.kind == MX_PACK_Q8;
    float d = round_to(scale, q8 ? amax / 127.0f : (hi - lo) / 15.0f), m = q8 ? 0 : round_to(scale, lo);
    scales[b] = d;
    if (!q8) offsets[b] = m;
    for (int64_t i = g0; i < g0 + p.group; i++) {
      float y;
      if (q8) {
        long v = d > 0 ? lrintf(x[i] / d) : 0;
        v = v < -127 ? -127 : v > 127 ? 127 : v;
        values[i] = (uint8_t)(int8_t)v;
        y = (float)v * d;
      } else {
        long v = d > 0 ? lrintf((x[i] - m) / d) : 0;
        v = v < 0 ? 0 : v > 15 ? 15 : v;
        put4(values, i, (int)v);
        y = (float)v * d + m;
      }
      err += ((double)x[i] - y) * ((double)x[i] - y);
    }
  }
  return err;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

void mx_pack_from_blocks(mx_wtype_t source, const uint8_t *row, int64_t K, uint8_t *values, float *scales, float *offsets) {
  int bytes = mx_wtype_block_bytes(source);
  for (int64_t b = 0; b < K / 32; b++, row += bytes) {
    scales[b] = mx_f16_to_f32(rd16(row));
    if (source == MX_W_Q8_0) {
      for (int i = 0; i < 32; i++) values[b * 32 + i] = row[2 + i];
      continue;
    }
    const uint8_t *qs = row + (source == MX_W_Q4_1 ? 4 : 2);
    if (source == MX_W_Q4_1) offsets[b] = mx_f16_to_f32(rd16(row + 2));
    for (int i = 0; i < 16; i++) { /* GGUF: element i in the low nibble of byte i, element 16 + i in its high one */
      put4(values, b * 32 + i, qs[i] & 0x0f);
      put4(values, b * 32 + 16 + i, qs[i] >> 4);
    }
  }
}
