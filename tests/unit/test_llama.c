/* The Llama graph emitter (hlo/llama) without a compiler: the pinned text of a tiny config, the IREE
 * workaround the graph carries, and RoPE scaling. Compiling and running the graph is
 * test_llama_iree.c; token-exactness against HF transformers is `mlxcel check`, run by
 * tests/run_tests.sh. */
#include "llama_tiny.h"

#include <math.h>

/* The emitted text of a tiny config is pinned: any change to the graph shows up here, to be reviewed
 * and accepted with MLXCEL_UPDATE_GOLDEN=1. */
static void llama_graph_matches_golden(void **state) {
  (void)state;
  char *text = emit_tiny();
  const char *path = "tests/unit/golden/llama_tiny.mlir";
  if (getenv("MLXCEL_UPDATE_GOLDEN")) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
  }
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  static char golden[1 << 20];
  size_t n = fread(golden, 1, sizeof golden - 1, f);
  fclose(f);
  golden[n] = '\0';
  assert_string_equal(text, golden);
  free(text);
}

/* IREE 3.13's CUDA backend starts signed-integer min/max reductions from the unsigned identities
 * (-1 for min, 0 for max), so an i32 argmax returned -1 on the H200 (docs/spikes.md,
 * bench/results/2026-11-30-h200-cuda-debug/). The graph must reduce no integer tensor with minimum
 * or maximum; the argmax takes its index minimum in f32. */
static void graph_has_no_integer_min_max_reduction(void **state) {
  (void)state;
  for (int slots = 1; slots <= 3; slots += 2) {
    char *text = emit_tiny_graph(slots, 3);
    int argmin_f32 = 0;
    for (char *line = text; line && *line;) {
      char *end = strchr(line, '\n');
      size_t n = end ? (size_t)(end - line) : strlen(line);
      char buf[512];
      snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf - 1 ? n : sizeof buf - 1), line);
      if (strstr(buf, "\"stablehlo.minimum\"(%rx") || strstr(buf, "\"stablehlo.maximum\"(%rx")) {
        if (strstr(buf, "i32>") || strstr(buf, "i64>")) fail_msg("integer min/max reduction: %s", buf);
        if (strstr(buf, "minimum") && strstr(buf, "f32>")) argmin_f32++;
      }
      line = end ? end + 1 : NULL;
    }
    /* The argmax's index minimum, in f32: prefill_N for each bucket (2), decode_W for each window
     * (2), and decode_W_steps's three steps for each window (6). */
    assert_int_equal(argmin_f32, 10);
    free(text);
  }
}

/* Decode windows from 128 up to the capacity, x4 apart unless the target asks for x2; the session
 * picks the smallest that holds a step's positions, so the ratio bounds the unused positions a step
 * reads. */
static void decode_windows_follow_the_ratio(void **state) {
  (void)state;
  mx_model_config_t c = tiny;
  c.max_position = 1 << 16;
  static const struct {
    int ratio, capacity, n, windows[MX_LLAMA_MAX_BUCKETS];
  } cases[] = {
      {0, 8192, 4, {128, 512, 2048, 8192}},
      {4, 8192, 4, {128, 512, 2048, 8192}},
      {2, 8192, 7, {128, 256, 512, 1024, 2048, 4096, 8192}},
      {2, 1000, 4, {128, 256, 512, 1000}},
      {2, 100, 1, {100}},
      {3, 8192, 4, {128, 512, 2048, 8192}}, /* anything but 2 is 4 */
      {2, 65536, 8, {128, 256, 512, 1024, 2048, 4096, 8192, 65536}}, /* at most 8: the last jump is larger */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mx_llama_graph_options_t o = {.precision = MX_F32, .weight_dtype = MX_F32, .capacity = cases[i].capacity,
                                  .window_ratio = cases[i].ratio};
    mx_llama_graph_t g;
    assert_ok(mx_llama_graph_make(&c, &o, &g));
    assert_int_equal(g.n_windows, cases[i].n);
    for (int w = 0; w < g.n_windows; w++) assert_int_equal(g.windows[w], cases[i].windows[w]);
    char *text;
    assert_ok(mx_llama_emit(&g, &text)); /* every window emits its decode functions */
    char fn[48];
    for (int w = 0; w < g.n_windows; w++) {
      snprintf(fn, sizeof fn, "@decode_%d_logits(", g.windows[w]);
      assert_non_null(strstr(text, fn));
      /* extends above the 512-row chunk at 128 * 4^k and the capacity only */
      int v = g.windows[w];
      bool extend = v > 512 && (w == g.n_windows - 1 || v == 2048 || v == 8192 || v == 32768);
      assert_true(mx_llama_window_has_extend(&g, w) == extend);
      snprintf(fn, sizeof fn, "@extend_%d_logits(", v);
      assert_true((strstr(text, fn) != NULL) == extend);
      for (int t = 32; t < 512; t *= 4) { /* with a last chunk of each smaller bucket */
        snprintf(fn, sizeof fn, "@extend_%d_t%d_logits(", v, t);
        assert_true((strstr(text, fn) != NULL) == extend);
      }
    }
    assert_false(mx_llama_window_has_extend(&g, -1));
    assert_false(mx_llama_window_has_extend(&g, g.n_windows));
    free(text);
  }
  /* What the session calls at 8192 on the x2 ladder: decode at position 600 in 1024, the chunk that
   * ends there in extend_2048; past the capacity nothing. */
  mx_llama_graph_options_t o = {.precision = MX_F32, .weight_dtype = MX_F32, .capacity = 8192, .window_ratio = 2};
  mx_llama_graph_t g;
  assert_ok(mx_llama_graph_make(&c, &o, &g));
  assert_int_equal(mx_llama_window_for(&g, 127, false), 128);
  assert_int_equal(mx_llama_window_for(&g, 128, false), 256);
  assert_int_equal(mx_llama_window_for(&g, 600, false), 1024);
  assert_int_equal(mx_llama_window_for(&g, 600, true), 2048);
  assert_int_equal(mx_llama_window_for(&g, 2048, true), 8192);
  assert_int_equal(mx_llama_window_for(&g, 8191, true), 8192);
  assert_int_equal(mx_llama_window_for(&g, 8192, false), -1);
}

static void llama3_rope_scaling_keeps_high_frequencies(void **state) {
  (void)state;
  mx_model_config_t c = tiny;
  c.head_dim = 64;
  c.rope_theta = 500000;
  float plain[32], scaled[32];
  mx_llama_inv_freq(&c, plain);
  c.rope_kind = MX_ROPE_LLAMA3;
  c.rope_factor = 32, c.rope_low_freq_factor = 1, c.rope_high_freq_factor = 4, c.rope_original_max_position = 8192;
  mx_llama_inv_freq(&c, scaled);
  assert_true(plain[0] == 1.0f && scaled[0] == 1.0f);          /* high frequency: unchanged */
  assert_true(fabsf(scaled[31] - plain[31] / 32) < 1e-12f);   /* low frequency: divided by the factor */
  for (int i = 1; i < 32; i++) assert_true(scaled[i] <= plain[i] && scaled[i] < scaled[i - 1]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(llama_graph_matches_golden),
      cmocka_unit_test(graph_has_no_integer_min_max_reduction),
      cmocka_unit_test(decode_windows_follow_the_ratio),
      cmocka_unit_test(llama3_rope_scaling_keeps_high_frequencies),
  };
  return cmocka_run_group_tests_name("hlo/llama", tests, NULL, NULL);
}
