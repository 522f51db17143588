#include "model/packing.h"

#include <math.h>
#include <stdio.h>

#include "base/half.h"

const char *mx_pack_kind_name(mx_pack_kind_t k) {
  switch (k) {
    case MX_PACK_Q8: return "q8";
    case MX_PACK_Q8_AFFINE: return "q8-affine";
    case MX_PACK_Q4: return "q4";
    case MX_PACK_Q4_AFFINE: return "q4-affine";
    default: return "none";
  }
}

/* How each GGUF block type is carried (packing.h): its own groups, in the narrowest form that holds its values. */
static mx_pack_t block_form(mx_wtype_t t) {
  switch (t) {
    case MX_W_Q8_0:
    case MX_W_Q5_0:
    case MX_W_IQ4_NL:
    case MX_W_IQ4_XS: return (mx_pack_t){MX_PACK_Q8, 32};
    case MX_W_Q6_K: return (mx_pack_t){MX_PACK_Q8, 16};
    case MX_W_Q5_1:
    case MX_W_Q5_K: return (mx_pack_t){MX_PACK_Q8_AFFINE, 32};
    case MX_W_Q4_0: return (mx_pack_t){MX_PACK_Q4, 32};
    case MX_W_Q3_K: return (mx_pack_t){MX_PACK_Q4, 16};
    case MX_W_Q4_1:
    case MX_W_Q4_K: return (mx_pack_t){MX_PACK_Q4_AFFINE, 32};
    case MX_W_Q2_K: return (mx_pack_t){MX_PACK_Q4_AFFINE, 16};
    default: return (mx_pack_t){MX_PACK_NONE, 0};
  }
}

mx_status_t mx_pack_choose(const mx_tensor_spec_t *t, const char *name, mx_wtype_t source, const int64_t dims[2],
                           const mx_quant_options_t *q, mx_pack_t *out) {
  *out = (mx_pack_t){MX_PACK_NONE, 0};
  if (!q->on || t->is_norm || t->rank != 2) return NULL;
  *out = block_form(source);
  bool is_float = source == MX_W_F32 || source == MX_W_F16 || source == MX_W_BF16;
  if (!out->kind && !is_float)
    return mx_status_make(MX_STAGE_USAGE, "drop --quant packed for this model",
                          "tensor %s is %s, which the packed mode does not carry (it carries GGUF's block types and float)",
                          name, mx_wtype_name(source));
  if (!out->kind) { /* float: quantized on the host */
    if (q->host_bits != 4 && q->host_bits != 8)
      return mx_status_make(MX_STAGE_USAGE, "use --quant-bits 4 or 8", "%d-bit packed weights are not supported", q->host_bits);
    if (q->host_group != 32 && q->host_group != 64 && q->host_group != 128)
      return mx_status_make(MX_STAGE_USAGE, "use --quant-group 32, 64 or 128", "a quantization group of %d is not supported",
                            q->host_group);
    *out = (mx_pack_t){q->host_bits == 8 ? MX_PACK_Q8 : MX_PACK_Q4_AFFINE, q->host_group};
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
    case MX_PACK_Q8_AFFINE: return n + 2 * groups * s;
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

void mx_pack_from_blocks(mx_wtype_t source, const uint8_t *row, int64_t K, uint8_t *values, float *scales, float *offsets) {
  int be = mx_wtype_block_elems(source), bb = mx_wtype_block_bytes(source);
  mx_pack_t p = block_form(source);
  mx_wblock_t blk;
  for (int64_t b = 0; b < K / be && mx_wtype_decode_block(source, row + b * bb, &blk); b++)
    for (int g = 0; g < blk.n_groups; g++) {
      int64_t at = b * blk.n_groups + g, first = b * be + (int64_t)g * blk.group;
      scales[at] = blk.scale[g];
      if (mx_pack_affine(p.kind)) offsets[at] = blk.offset[g];
      for (int i = 0; i < blk.group; i++) {
        int q = blk.q[g * blk.group + i];
        if (mx_pack_bits(p.kind) == 8) values[first + i] = (uint8_t)(int8_t)q;
        else put4(values, first + i, p.kind == MX_PACK_Q4 ? q + 8 : q); /* put4 stores its argument minus 8 */
      }
    }
}
