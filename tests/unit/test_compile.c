/* Running iree-compile, where no compiler is needed: a missing one, and a fake one (fake_compiler.h)
 * for how failures are reported, the compiler's signal mask and interruption. Compiling for real is
 * test_compile_iree.c. */
#include "testutil.h"

#include <signal.h>
#include <unistd.h>

#include "compiler/compile.h"
#include "fake_compiler.h"
#include "fileutil.h"

typedef struct {
  char dir[64], compiler[128], out[128];
  mx_target_t t;
} fx_t;

static int setup(void **state) {
  fx_t *fx = calloc(1, sizeof *fx);
  if (mx_test_fake_compiler_setup(fx->dir, sizeof fx->dir, "compile", fx->compiler, sizeof fx->compiler, &fx->t) != 0)
    return -1;
  snprintf(fx->out, sizeof fx->out, "%s/m.vmfb", fx->dir);
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fx_t *fx = *state;
  int rc = mx_test_rm_rf(fx->dir);
  unsetenv("MLXCEL_FAKE_COMPILE");
  free(fx);
  return rc;
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

static void an_error_line_is_quoted(void **state) {
  fx_t *fx = *state;
  setenv("MLXCEL_FAKE_COMPILE", "error", 1);
  assert_status(mx_compile_mlir(fx->compiler, &fx->t, "module {}", fx->out, NULL), MX_STAGE_COMPILE,
                "error: 'func.return' op has 1 operands");
  /* kept beside the output for the report */
  assert_true(mx_test_exists(fx->out, ".log") && mx_test_exists(fx->out, ".mlir"));
}

/* What iree-compile prints on a full disk has no "error:": it was reported as "no error line". */
static void a_full_disk_is_reported_as_a_disk_problem(void **state) {
  fx_t *fx = *state;
  setenv("MLXCEL_FAKE_COMPILE", "disk", 1);
  mx_status_t st = mx_compile_mlir(fx->compiler, &fx->t, "module {}", fx->out, NULL);
  assert_non_null(st);
  char where[96];
  snprintf(where, sizeof where, "bytes free in %s", fx->dir);
  if (mx_status_stage(st) != MX_STAGE_IO || !strstr(mx_status_message(st), "No space left on device") ||
      !strstr(mx_status_message(st), where) || !strstr(mx_status_remedy(st), "XDG_CACHE_HOME")) {
    mx_status_print(stderr, st);
    fail();
  }
  mx_status_free(st);
}

/* Without a recognised line, a (nearly) full disk is still named: the free space decides (passed here). */
static void a_silent_failure_on_a_full_disk_says_so(void **state) {
  fx_t *fx = *state;
  setenv("MLXCEL_FAKE_COMPILE", "silent", 1);
  assert_status(mx_compile_mlir(fx->compiler, &fx->t, "module {}", fx->out, NULL), MX_STAGE_COMPILE, "no error line");
  char log[160];
  snprintf(log, sizeof log, "%s.log", fx->out);
  mx_disk_room_t full[] = {{fx->dir, 4096}}, roomy[] = {{fx->dir, 50LL << 30}, {"/tmp", 12}};
  assert_status(mx_compile_failure("llvm-cpu:host", log, 1 << 8, full, 1, "m.mlir"), MX_STAGE_IO,
                "without an error line, and the disk is (nearly) full: 4096 bytes free in /tmp/mlxcel-test-compile-");
  assert_status(mx_compile_failure("llvm-cpu:host", log, 1 << 8, roomy, 1, "m.mlir"), MX_STAGE_COMPILE, "no error line");
  assert_status(mx_compile_failure("llvm-cpu:host", log, 1 << 8, roomy, 2, "m.mlir"), MX_STAGE_IO, "12 bytes free in /tmp");
}

/* The compiler, for the mask test, is this test binary (a shell would reset the mask it inherits):
 * run with iree-compile's first flag, it records its blocked and ignored signals and writes the output. */
static int as_compiler(int argc, char **argv) {
  const char *report = getenv("MLXCEL_FAKE_SIGNALS");
  FILE *in = fopen("/proc/self/status", "r"), *out = report ? fopen(report, "w") : NULL;
  char line[256];
  while (in && out && fgets(line, sizeof line, in))
    if (!strncmp(line, "SigBlk:", 7) || !strncmp(line, "SigIgn:", 7)) fputs(line, out);
  if (in) fclose(in);
  if (out) fclose(out);
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "-o")) fclose(fopen(argv[i + 1], "w"));
  return 0;
}

/* serve blocks SIGINT/SIGTERM for its sigwait and ignores SIGPIPE; the compiler used to inherit the
 * mask and ignore Ctrl-C. */
static void the_compiler_starts_with_no_signal_blocked(void **state) {
  fx_t *fx = *state;
  char self[256] = "", report[96], line[128];
  assert_true(readlink("/proc/self/exe", self, sizeof self - 1) > 0);
  snprintf(report, sizeof report, "%s/signals", fx->dir);
  setenv("MLXCEL_FAKE_SIGNALS", report, 1);
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  void (*pipe_was)(int) = signal(SIGPIPE, SIG_IGN);
  mx_status_t st = mx_compile_mlir(self, &fx->t, "module {}", fx->out, NULL);
  signal(SIGPIPE, pipe_was);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  unsetenv("MLXCEL_FAKE_SIGNALS");
  assert_ok(st);
  FILE *f = fopen(report, "r");
  assert_non_null(f);
  unsigned long long blocked = ~0ULL, ignored = ~0ULL, v;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "SigBlk: %llx", &v) == 1) blocked = v;
    if (sscanf(line, "SigIgn: %llx", &v) == 1) ignored = v;
  }
  fclose(f);
  assert_int_equal(blocked, 0);
  assert_int_equal(ignored & (1ULL << (SIGPIPE - 1)), 0);
}

/* In a child process (a signal that is not handled ends the process, as in a command): the compile
 * returns an interrupted status, which the child turns into exit 0. */
static void interrupt_during_compile(fx_t *fx, int sig) {
  setenv("MLXCEL_FAKE_COMPILE", "hang", 1);
  char pid_file[96];
  snprintf(pid_file, sizeof pid_file, "%s/pid", fx->dir);
  unlink(pid_file);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    signal(sig, SIG_DFL); /* as a command starts, whatever the test runner ignores */
    mx_status_t st = mx_compile_mlir(fx->compiler, &fx->t, "module {}", fx->out, NULL);
    _exit(st && mx_status_stage(st) == MX_STAGE_BUSY && strstr(mx_status_message(st), "while compiling") ? 0 : 3);
  }
  double ms;
  bool compiler_left;
  assert_int_equal(mx_test_interrupt_compile(fx->dir, child, sig, &ms, &compiler_left), 0);
  assert_true(ms < 1000);
  assert_false(compiler_left);
  assert_false(mx_test_exists(fx->out, "") || mx_test_exists(fx->out, ".mlir") || mx_test_exists(fx->out, ".log"));
}

static void sigint_stops_the_compiler_and_removes_its_files(void **state) { interrupt_during_compile(*state, SIGINT); }
static void sigterm_stops_the_compiler_and_removes_its_files(void **state) { interrupt_during_compile(*state, SIGTERM); }

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--iree-input-type=stablehlo")) return as_compiler(argc, argv);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(missing_compiler_is_a_toolchain_error),
      cmocka_unit_test_setup_teardown(an_error_line_is_quoted, setup, teardown),
      cmocka_unit_test_setup_teardown(a_full_disk_is_reported_as_a_disk_problem, setup, teardown),
      cmocka_unit_test_setup_teardown(a_silent_failure_on_a_full_disk_says_so, setup, teardown),
      cmocka_unit_test_setup_teardown(the_compiler_starts_with_no_signal_blocked, setup, teardown),
      cmocka_unit_test_setup_teardown(sigint_stops_the_compiler_and_removes_its_files, setup, teardown),
      cmocka_unit_test_setup_teardown(sigterm_stops_the_compiler_and_removes_its_files, setup, teardown),
  };
  return cmocka_run_group_tests_name("compiler/compile", tests, NULL, NULL);
}
