/* Running the pinned iree-compile. */
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

static void missing_compiler_is_a_toolchain_error(void **state) {
  (void)state;
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  assert_status(mx_compile_mlir("/nonexistent/iree-compile", &t, "module {}", "/tmp/mlxcel-test-missing.vmfb", NULL),
                MX_STAGE_TOOLCHAIN, "cannot run");
  unlink("/tmp/mlxcel-test-missing.vmfb.mlir");
  unlink("/tmp/mlxcel-test-missing.vmfb.log");
}

static void toolchain_overrides_must_exist(void **state) {
  (void)state;
  char path[MX_PATH_MAX];
  setenv("MLXCEL_XLA_IREE_COMPILE", "/nonexistent/iree-compile", 1);
  assert_status(mx_toolchain_compiler(path, sizeof path), MX_STAGE_TOOLCHAIN, "not an executable");
  unsetenv("MLXCEL_XLA_IREE_COMPILE");
  /* An empty cache (toolchain not set up) names the pinned version and where it looked. */
  const char *home = getenv("XDG_CACHE_HOME");
  char *saved = home ? strdup(home) : NULL;
  setenv("XDG_CACHE_HOME", "/nonexistent-cache", 1);
  assert_status(mx_toolchain_compiler(path, sizeof path), MX_STAGE_TOOLCHAIN, "not found in /nonexistent-cache/mlxcel/iree-");
  if (saved) {
    setenv("XDG_CACHE_HOME", saved, 1);
    free(saved);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(compiles_smoke_for_cpu),
      cmocka_unit_test(invalid_mlir_quotes_the_compiler_error),
      cmocka_unit_test(missing_compiler_is_a_toolchain_error),
      cmocka_unit_test(toolchain_overrides_must_exist),
  };
  return cmocka_run_group_tests_name("compiler/compile", tests, NULL, NULL);
}
