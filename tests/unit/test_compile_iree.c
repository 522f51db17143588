/* Running the pinned iree-compile (`make iree` sets it up). What needs no compiler is test_compile.c. */
#include "testutil.h"

#include <unistd.h>

#include "base/toolchain.h"
#include "compiler/compile.h"
#include "hlo/smoke.h"

static void compiles_smoke_for_cpu(void **state) {
  (void)state;
  char compiler[MX_PATH_MAX], *mlir, dir[] = "/tmp/mlxcel-test-compile-XXXXXX", out[MX_PATH_MAX];
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  assert_non_null(mkdtemp(dir));
  snprintf(out, sizeof out, "%s/m.vmfb", dir);
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  assert_ok(mx_hlo_smoke_matmul(&mlir));
  double ms = -1;
  assert_ok(mx_compile_mlir(compiler, &t, mlir, out, &ms));
  assert_true(ms > 0);
  assert_int_equal(access(out, R_OK), 0);
  free(mlir);
  char cmd[MX_PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

static void invalid_mlir_quotes_the_compiler_error(void **state) {
  (void)state;
  char compiler[MX_PATH_MAX], dir[] = "/tmp/mlxcel-test-compile-XXXXXX", out[MX_PATH_MAX];
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  assert_non_null(mkdtemp(dir));
  snprintf(out, sizeof out, "%s/bad.vmfb", dir);
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  const char *bad = "func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {\n  return %a : tensor<2xf32>\n}\n";
  assert_status(mx_compile_mlir(compiler, &t, bad, out, NULL), MX_STAGE_COMPILE, "error:");
  char log[MX_PATH_MAX + 8];
  snprintf(log, sizeof log, "%s.log", out);
  assert_int_equal(access(log, R_OK), 0); /* the full diagnostics are kept */
  char cmd[MX_PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(compiles_smoke_for_cpu),
      cmocka_unit_test(invalid_mlir_quotes_the_compiler_error),
  };
  return cmocka_run_group_tests_name("compiler/compile on IREE", tests, NULL, NULL);
}
