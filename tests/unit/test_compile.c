/* Running iree-compile, where no compiler is needed: a missing one. Compiling is test_compile_iree.c. */
#include "testutil.h"

#include <unistd.h>

#include "compiler/compile.h"

static void missing_compiler_is_a_toolchain_error(void **state) {
  (void)state;
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  assert_status(mx_compile_mlir("/nonexistent/iree-compile", &t, "module {}", "/tmp/mlxcel-test-missing.vmfb", NULL),
                MX_STAGE_TOOLCHAIN, "cannot run");
  unlink("/tmp/mlxcel-test-missing.vmfb.mlir");
  unlink("/tmp/mlxcel-test-missing.vmfb.log");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(missing_compiler_is_a_toolchain_error),
  };
  return cmocka_run_group_tests_name("compiler/compile", tests, NULL, NULL);
}
