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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(smoke_add_matches_golden),      cmocka_unit_test(smoke_matmul_matches_golden),
      cmocka_unit_test(shape_errors_are_reported_once), cmocka_unit_test(add_of_different_types_fails),
      cmocka_unit_test(unclosed_function_fails),
  };
  return cmocka_run_group_tests_name("hlo/builder", tests, NULL, NULL);
}
