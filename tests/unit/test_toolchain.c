/* Finding the pinned IREE toolchain (base/toolchain): overrides and an empty cache, without one. */
#include "testutil.h"

#include "base/toolchain.h"

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
      cmocka_unit_test(toolchain_overrides_must_exist),
  };
  return cmocka_run_group_tests_name("base/toolchain", tests, NULL, NULL);
}
