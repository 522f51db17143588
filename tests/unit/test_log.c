/* The log sink: library lines reach whatever sink main installs, one line each; the default sink
 * prints exactly what the modules used to fprintf to stderr. */
#include "testutil.h"

#include <unistd.h>

#include "base/log.h"

typedef struct {
  int n;
  mx_log_level_t level;
  char last[2048];
} capture_t;

static void capture_write(void *user, mx_log_level_t level, const char *line) {
  capture_t *c = user;
  c->n++;
  c->level = level;
  snprintf(c->last, sizeof c->last, "%s", line);
}

static void installed_sink_gets_each_line(void **state) {
  (void)state;
  capture_t c = {0};
  const mx_log_sink_t sink = {capture_write, &c};
  mx_log_set_sink(&sink);
  mx_log(MX_LOG_INFO, "mlxcel: compiled %s in %.1f s", "graph", 1.25);
  assert_int_equal(c.n, 1);
  assert_int_equal(c.level, MX_LOG_INFO);
  assert_string_equal(c.last, "mlxcel: compiled graph in 1.2 s");
  /* A quoted multi-line text still arrives as one line, without a trailing newline. */
  mx_log(MX_LOG_WARN, "first\nsecond\r\n");
  assert_string_equal(c.last, "first second");
  assert_int_equal(c.level, MX_LOG_WARN);
  /* Longer than the stack buffer: nothing is cut. */
  char big[1500];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  mx_log(MX_LOG_ERROR, "<%s>", big);
  assert_int_equal(strlen(c.last), sizeof big + 1);
  assert_int_equal(c.last[sizeof big], '>');
  mx_log_set_sink(NULL);
  assert_int_equal(c.n, 3);
}

static void default_sink_prints_the_line_to_stderr(void **state) {
  (void)state;
  char path[] = "/tmp/mlxcel-test-log-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  mx_log_set_sink(NULL);
  mx_log(MX_LOG_INFO, "mlxcel: compile cache hit for %s (%s)", "SmolLM2 f32 graph", "llvm-cpu");
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char buf[256] = {0};
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  close(fd);
  unlink(path);
  assert_true(n > 0);
  assert_string_equal(buf, "mlxcel: compile cache hit for SmolLM2 f32 graph (llvm-cpu)\n");
  assert_string_equal(mx_log_level_name(MX_LOG_DEBUG), "debug");
  assert_string_equal(mx_log_level_name(MX_LOG_ERROR), "error");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(installed_sink_gets_each_line),
      cmocka_unit_test(default_sink_prints_the_line_to_stderr),
  };
  return cmocka_run_group_tests_name("base/log", tests, NULL, NULL);
}
