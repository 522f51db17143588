#include "testutil.h"

#include "hlo/builder.h"
#include "hlo/smoke.h"

/* Golden text: reviewed by hand; any change to the emitter's output shows up here. */
static const char *const golden_add =
    "module @mlxcel {\n"
    "  func.func @add(%a0: tensor<2x3xf32>, %a1: tensor<2x3xf32>) -> (tensor<2x3xf32>) {\n"
    "    %v0 = stablehlo.add %a0, %a1 : tensor<2x3xf32>\n"
    "    return %v0 : tensor<2x3xf32>\n"
    "  }\n"
    "  func.func @empty() -> () {\n"
    "    return\n"
    "  }\n"
    "}\n";

static const char *const golden_matmul =
    "module @mlxcel {\n"
    "  func.func @matmul(%a0: tensor<64x128xf32>, %a1: tensor<128x32xf32>) -> (tensor<64x32xf32>) {\n"
    "    %v0 = stablehlo.dot_general %a0, %a1, contracting_dims = [1] x [0] : "
    "(tensor<64x128xf32>, tensor<128x32xf32>) -> tensor<64x32xf32>\n"
    "    return %v0 : tensor<64x32xf32>\n"
    "  }\n"
    "}\n";

static void smoke_add_matches_golden(void **state) {
  (void)state;
  char *text;
  assert_ok(mx_hlo_smoke_add(&text));
  assert_string_equal(text, golden_add);
  free(text);
}

static void smoke_matmul_matches_golden(void **state) {
  (void)state;
  char *text;
  assert_ok(mx_hlo_smoke_matmul(&text));
  assert_string_equal(text, golden_matmul);
  free(text);
}

static void shape_errors_are_reported_once(void **state) {
  (void)state;
  mx_hlo_t *h = mx_hlo_create();
  int64_t a[2] = {4, 8}, b[2] = {7, 2};
  mx_hval_t types[2] = {mx_htype(MX_F32, 2, a), mx_htype(MX_F32, 2, b)}, args[2];
  mx_hlo_func_begin(h, "bad", 2, types, args);
  mx_hval_t r = mx_hlo_matmul(h, args[0], args[1]);
  assert_int_equal(r.id, -1);
  mx_hval_t r2 = mx_hlo_add(h, args[0], args[1]); /* after an error: a no-op */
  assert_int_equal(r2.id, -1);
  mx_hlo_func_end(h, 1, &r);
  char *text;
  assert_status(mx_hlo_finish(h, &text), MX_STAGE_INTERNAL, "matmul contracts 8 against 7");
  assert_null(text);
  mx_hlo_destroy(h);
}

static void add_of_different_types_fails(void **state) {
  (void)state;
  mx_hlo_t *h = mx_hlo_create();
  int64_t a[2] = {2, 3};
  mx_hval_t types[2] = {mx_htype(MX_F32, 2, a), mx_htype(MX_F16, 2, a)}, args[2];
  mx_hlo_func_begin(h, "bad", 2, types, args);
  mx_hval_t r = mx_hlo_add(h, args[0], args[1]);
  mx_hlo_func_end(h, 1, &r);
  char *text;
  assert_status(mx_hlo_finish(h, &text), MX_STAGE_INTERNAL, "add of different types");
  mx_hlo_destroy(h);
}

static void unclosed_function_fails(void **state) {
  (void)state;
  mx_hlo_t *h = mx_hlo_create();
  mx_hlo_func_begin(h, "open", 0, NULL, NULL);
  char *text;
  assert_status(mx_hlo_finish(h, &text), MX_STAGE_INTERNAL, "unclosed");
  mx_hlo_destroy(h);
}

/* An initializer stores a global computed from parameters once; the text is what IREE reads (the
 * engine's stacked weights, hlo/llama.c emit_stacks), and one cannot open inside a function. */
static void initializer_fills_a_global(void **state) {
  (void)state;
  mx_hlo_t *h = mx_hlo_create();
  int64_t a[2] = {2, 3}, ab[2] = {4, 3};
  mx_hlo_declare_param(h, "pa", "a", mx_htype(MX_F32, 2, a));
  mx_hlo_declare_global(h, "stack", mx_htype(MX_F32, 2, ab));
  mx_hlo_initializer_begin(h);
  mx_hval_t parts[2] = {mx_hlo_load(h, "pa", mx_htype(MX_F32, 2, a)), mx_hlo_load(h, "pa", mx_htype(MX_F32, 2, a))};
  mx_hlo_store(h, "stack", mx_hlo_concat(h, 2, parts, 0));
  mx_hlo_initializer_end(h);
  char *text;
  assert_ok(mx_hlo_finish(h, &text));
  assert_non_null(strstr(text, "  util.global private @stack : tensor<4x3xf32>\n"));
  const char *init = strstr(text, "  util.initializer {\n");
  assert_non_null(init);
  const char *store = strstr(init, "util.global.store %v2, @stack : tensor<4x3xf32>\n    util.return\n  }\n");
  assert_non_null(store);
  free(text);
  mx_hlo_destroy(h);

  h = mx_hlo_create();
  mx_hlo_func_begin(h, "f", 0, NULL, NULL);
  mx_hlo_initializer_begin(h);
  assert_status(mx_hlo_finish(h, &text), MX_STAGE_INTERNAL, "opened inside another");
  mx_hlo_destroy(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(smoke_add_matches_golden),      cmocka_unit_test(smoke_matmul_matches_golden),
      cmocka_unit_test(shape_errors_are_reported_once), cmocka_unit_test(add_of_different_types_fails),
      cmocka_unit_test(unclosed_function_fails),       cmocka_unit_test(initializer_fills_a_global),
  };
  return cmocka_run_group_tests_name("hlo/builder", tests, NULL, NULL);
}
