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
      cmocka_unit_test(llama3_rope_scaling_keeps_high_frequencies),
  };
  return cmocka_run_group_tests_name("hlo/llama", tests, NULL, NULL);
}
