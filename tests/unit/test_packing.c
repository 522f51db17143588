/* Packed quantization's host side (model/packing.c): GGUF blocks moved into the packed form dequantize,
 * by the graph's formula, to exactly what the GGUF dequantizer (format/wtype.c, itself checked against
 * the gguf package by tests/oracle/dequant_parity.py) gives; host quantization stays within half a step; the
 * plan refuses what it cannot carry, naming the tensor. */
#include "testutil.h"

#include <math.h>

#include "base/half.h"
#include "model/packing.h"

static uint32_t rng = 12345;
static uint32_t next(void) { return rng = rng * 1664525u + 1013904223u; }

/* The graph's dequantization (hlo/llama.c dequantize) of element i of a packed row. */
static float device_value(mx_pack_t p, const uint8_t *values, const float *scales, const float *offsets, int64_t i) {
  int64_t b = i / p.group;
  if (p.kind == MX_PACK_Q8) return (float)(int8_t)values[i] * scales[b];
  if (p.kind == MX_PACK_Q8_AFFINE) return (float)(int8_t)values[i] * scales[b] + offsets[b];
  int nib = (values[i / 2] >> (4 * (i & 1))) & 0x0f, q = nib >= 8 ? nib - 16 : nib; /* signed i4 */
  if (p.kind == MX_PACK_Q4) return (float)q * scales[b];
  return ((float)q + 8.0f) * scales[b] + offsets[b];
}

/* Random blocks of a type, every byte random but its f16 scale fields finite. */
static void random_blocks(mx_wtype_t t, uint8_t *row, int n_blocks) {
  static const struct {
    mx_wtype_t t;
    int at[2];
  } scales[] = {{MX_W_Q8_0, {0, -1}}, {MX_W_Q4_0, {0, -1}}, {MX_W_Q4_1, {0, 2}},   {MX_W_Q5_0, {0, -1}},
                {MX_W_Q5_1, {0, 2}},  {MX_W_Q2_K, {80, 82}}, {MX_W_Q3_K, {108, -1}}, {MX_W_Q4_K, {0, 2}},
                {MX_W_Q5_K, {0, 2}},  {MX_W_Q6_K, {208, -1}}, {MX_W_IQ4_NL, {0, -1}}, {MX_W_IQ4_XS, {0, -1}}};
  int bb = mx_wtype_block_bytes(t);
  for (int i = 0; i < n_blocks * bb; i++) row[i] = (uint8_t)next();
  for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++)
    for (int j = 0; scales[k].t == t && j < 2 && scales[k].at[j] >= 0; j++)
      for (int b = 0; b < n_blocks; b++) {
        uint16_t d = mx_f32_to_f16(((float)(next() % 2001) - 1000.0f) / 4096.0f);
        memcpy(row + b * bb + scales[k].at[j], &d, 2);
      }
}

/* Every GGUF block type moved into its packed form dequantizes, by the graph's formula, to exactly
 * what format/wtype.c gives (which tests/oracle/dequant_parity.py holds to the gguf package). */
static void gguf_blocks_dequantize_bit_for_bit(void **state) {
  (void)state;
  enum { K = 512 };
  mx_wtype_t types[] = {MX_W_Q8_0, MX_W_Q4_0, MX_W_Q4_1, MX_W_Q5_0, MX_W_Q5_1, MX_W_Q2_K,
                        MX_W_Q3_K, MX_W_Q4_K, MX_W_Q5_K, MX_W_Q6_K, MX_W_IQ4_NL, MX_W_IQ4_XS};
  mx_quant_options_t on = {.on = true, .host_bits = 4, .host_group = 32};
  int64_t dims[2] = {1, K};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    mx_wtype_t t = types[k];
    static uint8_t row[K / 32 * 34 + 1024], values[K];
    float want[K], scales[K / 16], offsets[K / 16];
    random_blocks(t, row, K / mx_wtype_block_elems(t));
    mx_pack_t p;
    assert_ok(mx_pack_choose(mx_arch_layer(MX_T_Q), "q", t, dims, &on, &p));
    mx_wtype_to_f32(t, row, K, want);
    mx_pack_from_blocks(t, row, K, values, scales, offsets);
    for (int64_t i = 0; i < K; i++) {
      float got = device_value(p, values, scales, offsets, i);
      if (memcmp(&got, &want[i], sizeof got) != 0)
        fail_msg("%s (%s, group %d) element %lld: %.9g, GGUF %.9g", mx_wtype_name(t), mx_pack_kind_name(p.kind), p.group,
                 (long long)i, got, want[i]);
    }
  }
}

static void host_quantization_is_within_half_a_step(void **state) {
  (void)state;
  enum { K = 512 };
  float x[K], scales[K / 32], offsets[K / 32];
  uint8_t values[K];
  for (int i = 0; i < K; i++) x[i] = ((float)(next() % 20001) - 10000.0f) / 7000.0f;
  mx_pack_kind_t kinds[2] = {MX_PACK_Q8, MX_PACK_Q4_AFFINE};
  int groups[3] = {32, 64, 128};
  for (int k = 0; k < 2; k++)
    for (int g = 0; g < 3; g++) {
      mx_pack_t p = {kinds[k], groups[g]};
      double err = mx_pack_quantize_row(p, MX_F16, x, K, values, scales, offsets), sum = 0;
      for (int64_t i = 0; i < K; i++) {
        float y = device_value(p, values, scales, offsets, i), d = scales[i / p.group];
        sum += ((double)x[i] - y) * ((double)x[i] - y);
        /* half a step, plus what rounding the scale and offset to f16 moves the grid's ends */
        assert_true(fabsf(x[i] - y) <= 0.5f * d + 0.01f * fabsf(x[i]) + 1e-3f);
      }
      assert_true(fabs(sum - err) <= 1e-6 * (sum + 1e-12)); /* the reported error is the reconstruction's */
      assert_true(scales[0] == mx_f16_to_f32(mx_f32_to_f16(scales[0])));
    }
}

static void the_plan_refuses_by_name(void **state) {
  (void)state;
  mx_quant_options_t q = {.on = true, .host_bits = 4, .host_group = 64};
  mx_pack_t p;
  int64_t ok[2] = {128, 256}, bad[2] = {128, 96};
  assert_ok(mx_pack_choose(mx_arch_layer(MX_T_Q), "q", MX_W_BF16, ok, &q, &p));
  assert_int_equal(p.kind, MX_PACK_Q4_AFFINE);
  assert_int_equal(p.group, 64);
  assert_ok(mx_pack_choose(mx_arch_layer(MX_T_Q), "q", MX_W_Q8_0, ok, &q, &p));
  assert_true(p.kind == MX_PACK_Q8 && p.group == 32); /* a GGUF block keeps its own form */
  int64_t norm[2] = {256, 0};
  assert_ok(mx_pack_choose(mx_arch_layer(MX_T_ATTN_NORM), "n", MX_W_F32, norm, &q, &p));
  assert_int_equal(p.kind, MX_PACK_NONE);
  assert_status(mx_pack_choose(mx_arch_layer(MX_T_Q), "model.layers.0.self_attn.q_proj.weight", MX_W_F32, bad, &q, &p),
               MX_STAGE_USAGE, "q_proj.weight has 96 inputs");
  q.host_bits = 3;
  assert_status(mx_pack_choose(mx_arch_layer(MX_T_Q), "q", MX_W_F32, ok, &q, &p), MX_STAGE_USAGE, "3-bit");
  q = (mx_quant_options_t){.on = false};
  assert_ok(mx_pack_choose(mx_arch_layer(MX_T_Q), "q", MX_W_Q4_1, ok, &q, &p));
  assert_int_equal(p.kind, MX_PACK_NONE);
}

static void packed_bytes_count_values_and_scales(void **state) {
  (void)state;
  /* 2048 x 2048 in groups of 32 with f16 scales: Q4_1's 5 bits per weight, Q8_0's 8.5. */
  assert_int_equal(mx_pack_bytes((mx_pack_t){MX_PACK_Q4_AFFINE, 32}, 2048, 2048, MX_F16), 2048 * 2048 * 5 / 8);
  assert_int_equal(mx_pack_bytes((mx_pack_t){MX_PACK_Q8, 32}, 2048, 2048, MX_F16), 2048 * 2048 * 17 / 16);
  assert_int_equal(mx_pack_bytes((mx_pack_t){MX_PACK_Q4, 32}, 2048, 2048, MX_F32), 2048 * 2048 / 2 + 2048 * 64 * 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gguf_blocks_dequantize_bit_for_bit),
      cmocka_unit_test(host_quantization_is_within_half_a_step),
      cmocka_unit_test(the_plan_refuses_by_name),
      cmocka_unit_test(packed_bytes_count_values_and_scales),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
