/* The VMFB cache (compiler/cache.c) with a fake compiler (fake_compiler.h) and a cache of its own
 * (XDG_CACHE_HOME in a temporary directory): a module is compiled once, checked at every hit and
 * rebuilt when damaged; killed compiles' temporary files are swept; a failed compile keeps only its
 * last MLIR and log; a full disk is named; an interrupt stops the compile. No IREE needed. */
#include "testutil.h"

#include <signal.h>
#include <unistd.h>

#include "base/toolchain.h"
#include "compiler/cache.h"
#include "fake_compiler.h"
#include "fileutil.h"

typedef struct {
  char root[64], compiler[128], vmfb_dir[MX_PATH_MAX + 16];
  mx_target_t t;
  mx_test_log_t log; /* the lines mx_log wrote */
} fx_t;

static int setup(void **state) {
  fx_t *fx = calloc(1, sizeof *fx);
  if (mx_test_fake_compiler_setup(fx->root, sizeof fx->root, "cache", fx->compiler, sizeof fx->compiler, &fx->t) != 0)
    return -1;
  setenv("XDG_CACHE_HOME", fx->root, 1);
  setenv("MLXCEL_XLA_IREE_COMPILE", fx->compiler, 1);
  char home[MX_PATH_MAX];
  mx_status_t st = mx_toolchain_home(home, sizeof home);
  if (st) return mx_status_free(st), -1;
  snprintf(fx->vmfb_dir, sizeof fx->vmfb_dir, "%s/vmfb", home);
  mx_test_log_start(&fx->log);
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fx_t *fx = *state;
  mx_test_log_stop(&fx->log);
  int rc = mx_test_rm_rf(fx->root);
  unsetenv("MLXCEL_FAKE_COMPILE");
  unsetenv("MLXCEL_XLA_IREE_COMPILE");
  unsetenv("XDG_CACHE_HOME");
  free(fx);
  return rc;
}

static const char graph[] = "module @cached { func.func @f() { return } }\n";

static void a_module_is_compiled_once_then_reused(void **state) {
  fx_t *fx = *state;
  mx_vmfb_t v;
  assert_ok(mx_compile_cached(&fx->t, graph, "the test graph", &v));
  assert_false(v.hit);
  assert_ok(mx_compile_cached(&fx->t, graph, "the test graph", &v));
  assert_true(v.hit);
  assert_int_equal(fake_compiler_runs(fx->root), 1);
  assert_non_null(strstr(fx->log.text, "compile cache hit for the test graph"));
  assert_null(strstr(fx->log.text, "failed verification"));
}

/* damage(path, size): one way a cached file goes bad. */
static void flip_a_byte(const char *path, size_t size) { mx_test_flip_byte(path, (long)size / 2, 0x20); }
static void truncate_it(const char *path, size_t size) { mx_test_truncate(path, size / 3); }
static void drop_its_checksum(const char *path, size_t size) {
  (void)size;
  char sum[MX_PATH_MAX + 8];
  snprintf(sum, sizeof sum, "%s.sum", path);
  unlink(sum); /* as a module cached before checksums, or one whose writer died between the renames */
}

static void a_damaged_module_is_rebuilt(void **state) {
  fx_t *fx = *state;
  void (*damage[])(const char *, size_t) = {flip_a_byte, truncate_it, mx_test_zero, drop_its_checksum};
  mx_vmfb_t v;
  assert_ok(mx_compile_cached(&fx->t, graph, "the test graph", &v));
  size_t clean_n = 0, n = 0;
  char *clean = mx_test_slurp(v.path, &clean_n);
  assert_non_null(clean);
  for (int i = 0; i < 4; i++) {
    fx->log.text[0] = '\0';
    damage[i](v.path, clean_n);
    assert_ok(mx_compile_cached(&fx->t, graph, "the test graph", &v));
    assert_false(v.hit);
    char line[MX_PATH_MAX + 64];
    snprintf(line, sizeof line, "mlxcel: cache: %s failed verification (", v.path);
    if (!strstr(fx->log.text, line) || !strstr(fx->log.text, "deleting it and rebuilding it")) {
      fprintf(stderr, "damage %d, log:\n%s", i, fx->log.text);
      fail();
    }
    assert_int_equal(fake_compiler_runs(fx->root), 2 + i);
    char *now = mx_test_slurp(v.path, &n);
    assert_true(n == clean_n && memcmp(now, clean, n) == 0);
    free(now);
    assert_ok(mx_compile_cached(&fx->t, graph, "the test graph", &v)); /* and trusted again */
    assert_true(v.hit);
  }
  free(clean);
}

static void touch(const char *dir, const char *name) { mx_test_write_in(dir, name, "litter"); }

static void temporary_files_of_dead_compiles_are_swept(void **state) {
  fx_t *fx = *state;
  mx_vmfb_t v;
  assert_ok(mx_compile_cached(&fx->t, graph, "the test graph", &v)); /* makes the directory */
  char dead[96], live[96], want[1024];
  pid_t d = mx_test_dead_pid();
  snprintf(dead, sizeof dead, "0123.vmfb.tmp%d", (int)d);
  touch(fx->vmfb_dir, dead);
  snprintf(dead, sizeof dead, "0123.vmfb.tmp%d.mlir", (int)d);
  touch(fx->vmfb_dir, dead);
  snprintf(dead, sizeof dead, "0123.vmfb.tmp%d.log", (int)d);
  touch(fx->vmfb_dir, dead);
  snprintf(live, sizeof live, "4567.vmfb.tmp%d", (int)getppid()); /* a writer still running */
  touch(fx->vmfb_dir, live);
  touch(fx->vmfb_dir, "notes.txt");
  assert_ok(mx_compile_cached(&fx->t, graph, "the test graph", &v));
  const char *base = strrchr(v.path, '/') + 1;
  snprintf(want, sizeof want, "%s %s %s.sum notes.txt", live, base, base);
  assert_listing(fx->vmfb_dir, want);
  assert_non_null(strstr(fx->log.text, "which is gone"));
}

static void a_failed_compile_keeps_only_the_last_mlir_and_log(void **state) {
  fx_t *fx = *state;
  setenv("MLXCEL_FAKE_COMPILE", "error", 1);
  mx_vmfb_t v;
  assert_status(mx_compile_cached(&fx->t, graph, "the test graph", &v), MX_STAGE_COMPILE, "/vmfb/failed/last.log");
  assert_status(mx_compile_cached(&fx->t, "module @second {}\n", "the test graph", &v), MX_STAGE_COMPILE,
                "error: 'func.return'");
  char failed[MX_PATH_MAX + 32];
  assert_listing(fx->vmfb_dir, "failed");
  snprintf(failed, sizeof failed, "%s/failed", fx->vmfb_dir);
  assert_listing(failed, "last.log last.mlir");
  size_t n = 0;
  snprintf(failed, sizeof failed, "%s/failed/last.mlir", fx->vmfb_dir);
  char *mlir = mx_test_slurp(failed, &n);
  assert_true(n == strlen("module @second {}\n") && !memcmp(mlir, "module @second {}\n", n)); /* the last one's */
  free(mlir);
}

static void a_full_disk_is_named_and_leaves_no_litter(void **state) {
  fx_t *fx = *state;
  setenv("MLXCEL_FAKE_COMPILE", "disk", 1);
  mx_vmfb_t v;
  mx_status_t st = mx_compile_cached(&fx->t, graph, "the test graph", &v);
  char where[MX_PATH_MAX + 32];
  snprintf(where, sizeof where, "bytes free in %s", fx->vmfb_dir);
  if (!st || mx_status_stage(st) != MX_STAGE_IO || !strstr(mx_status_message(st), "No space left on device") ||
      !strstr(mx_status_message(st), where) || !strstr(mx_status_remedy(st), "XDG_CACHE_HOME")) {
    if (st) mx_status_print(stderr, st);
    fail();
  }
  mx_status_free(st);
  assert_listing(fx->vmfb_dir, "failed");
}

/* In a child, as a command: SIGINT while the compiler runs ends the call promptly with a status
 * (exit 0 here), the compiler gone and nothing left in the cache directory. */
static void an_interrupt_stops_the_compile_and_leaves_nothing(void **state) {
  fx_t *fx = *state;
  setenv("MLXCEL_FAKE_COMPILE", "hang", 1);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    signal(SIGINT, SIG_DFL);
    mx_vmfb_t v;
    mx_status_t st = mx_compile_cached(&fx->t, graph, "the test graph", &v);
    _exit(st && mx_status_stage(st) == MX_STAGE_BUSY ? 0 : 3);
  }
  bool left;
  assert_int_equal(mx_test_interrupt_compile(fx->root, child, SIGINT, NULL, &left), 0);
  assert_false(left);
  assert_listing(fx->vmfb_dir, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(a_module_is_compiled_once_then_reused, setup, teardown),
      cmocka_unit_test_setup_teardown(a_damaged_module_is_rebuilt, setup, teardown),
      cmocka_unit_test_setup_teardown(temporary_files_of_dead_compiles_are_swept, setup, teardown),
      cmocka_unit_test_setup_teardown(a_failed_compile_keeps_only_the_last_mlir_and_log, setup, teardown),
      cmocka_unit_test_setup_teardown(a_full_disk_is_named_and_leaves_no_litter, setup, teardown),
      cmocka_unit_test_setup_teardown(an_interrupt_stops_the_compile_and_leaves_nothing, setup, teardown),
  };
  return cmocka_run_group_tests_name("compiler/cache", tests, NULL, NULL);
}
