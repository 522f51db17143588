/* Helpers shared by the unit tests of the caches, the compiler runs and interrupts: temporary
 * directories, whole files, listings, damage, captured log lines, child processes and the fake
 * compiler's fixture (fake_compiler.h). */
#ifndef MX_TESTS_FILEUTIL_H
#define MX_TESTS_FILEUTIL_H

#include "testutil.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/log.h"
#include "compiler/target.h"
#include "fake_compiler.h"

/* Makes the temporary directory /tmp/mlxcel-test-<what>-XXXXXX into `dir`; 0 on success. */
static inline int mx_test_tmpdir(char *dir, size_t cap, const char *what) {
  snprintf(dir, cap, "/tmp/mlxcel-test-%s-XXXXXX", what);
  return mkdtemp(dir) ? 0 : -1;
}

/* Removes `dir` and everything in it ("rm -rf"); 0 on success. */
static inline int mx_test_rm_rf(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* The whole file at `path` (malloc'd, NUL-terminated) and its size in *n; NULL (*n 0) when it cannot be read. */
static inline char *mx_test_slurp(const char *path, size_t *n) {
  *n = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (b) {
    *n = fread(b, 1, (size_t)len, f);
    b[*n] = '\0';
  }
  fclose(f);
  return b;
}

/* Writes `n` bytes of `data` as the file `path`; 0 on success. */
static inline int mx_test_write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  bool ok = fwrite(data, 1, n, f) == n;
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* Writes `text` as the file `path`, or fails the test. */
static inline void mx_test_write_text(const char *path, const char *text) {
  assert_int_equal(mx_test_write_file(path, text, strlen(text)), 0);
}

/* Writes `text` as the file `name` in `dir`, or fails the test. */
static inline void mx_test_write_in(const char *dir, const char *name, const char *text) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  mx_test_write_text(path, text);
}

/* Whether the file `path` followed by `suffix` ("" for `path` itself) exists. */
static inline bool mx_test_exists(const char *path, const char *suffix) {
  char p[4200];
  snprintf(p, sizeof p, "%s%s", path, suffix);
  return access(p, F_OK) == 0;
}

/* The entries of `dir`, sorted and space-separated, without dot files ("" when empty or missing). */
static inline void mx_test_listing(const char *dir, char *out, size_t cap) {
  struct dirent **es;
  int n = scandir(dir, &es, NULL, alphasort);
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    if (es[i]->d_name[0] != '.') snprintf(out + strlen(out), cap - strlen(out), "%s%s", out[0] ? " " : "", es[i]->d_name);
    free(es[i]);
  }
  if (n >= 0) free(es);
}

/* Asserts that the entries of `dir` (mx_test_listing) are `want`, e.g. "a b.sum" ("" for none). */
#define assert_listing(dir, want) mx_test_assert_listing((dir), (want), __FILE__, __LINE__)

static inline void mx_test_assert_listing(const char *dir, const char *want, const char *file, int line) {
  char got[4096];
  mx_test_listing(dir, got, sizeof got);
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "%s:%d: %s holds \"%s\", expected \"%s\"\n", file, line, dir, got, want);
    _fail(file, line);
  }
}

/* Damage: XORs the byte at `offset` of the file `path` with `mask`, or fails the test. */
static inline void mx_test_flip_byte(const char *path, long offset, int mask) {
  FILE *f = fopen(path, "r+b");
  assert_non_null(f);
  fseek(f, offset, SEEK_SET);
  int c = fgetc(f);
  fseek(f, offset, SEEK_SET);
  fputc(c ^ mask, f);
  fclose(f);
}

/* Damage: cuts the file `path` to `size` bytes, or fails the test. */
static inline void mx_test_truncate(const char *path, size_t size) { assert_int_equal(truncate(path, (off_t)size), 0); }

/* Damage: the file `path` becomes `size` zero bytes (same size, nothing left of its contents), or fails the test. */
static inline void mx_test_zero(const char *path, size_t size) {
  mx_test_truncate(path, 0);
  mx_test_truncate(path, size);
}

/* The lines mx_log writes while installed by mx_test_log_start, each with its newline, in `text`. */
typedef struct {
  char text[8192];
  void (*then)(const char *line); /* NULL, or called with each line once it is kept */
  pthread_mutex_t lock;
  mx_log_sink_t sink;
} mx_test_log_t;

/* The sink of mx_test_log_t (thread-safe, as mx_log wants). */
static inline void mx_test_log_write(void *user, mx_log_level_t level, const char *line) {
  (void)level;
  mx_test_log_t *log = user;
  pthread_mutex_lock(&log->lock);
  size_t n = strlen(log->text);
  snprintf(log->text + n, sizeof log->text - n, "%s\n", line);
  pthread_mutex_unlock(&log->lock);
  if (log->then) log->then(line);
}

/* Starts capturing mx_log's lines into `log` (which must outlive mx_test_log_stop). */
static inline void mx_test_log_start(mx_test_log_t *log) {
  log->text[0] = '\0';
  log->then = NULL;
  pthread_mutex_init(&log->lock, NULL);
  log->sink = (mx_log_sink_t){mx_test_log_write, log};
  mx_log_set_sink(&log->sink);
}

/* Gives mx_log back its default sink (stderr) and releases `log`. */
static inline void mx_test_log_stop(mx_test_log_t *log) {
  mx_log_set_sink(NULL);
  pthread_mutex_destroy(&log->lock);
}

/* The pid of a child that has already exited and been reaped: a writer that is gone. */
static inline pid_t mx_test_dead_pid(void) {
  pid_t p = fork();
  if (p == 0) _exit(0);
  waitpid(p, NULL, 0);
  return p;
}

/* Reaps `child`: its exit code, or -1 (and a line on stderr) when a signal ended it. */
static inline int mx_test_wait(pid_t child) {
  int ws = 0;
  if (waitpid(child, &ws, 0) != child) return -1;
  if (WIFEXITED(ws)) return WEXITSTATUS(ws);
  fprintf(stderr, "the child ended by signal %d\n", WIFSIGNALED(ws) ? WTERMSIG(ws) : -1);
  return -1;
}

/* The fake compiler's fixture: a temporary directory for `what` holding it (at `compiler`), *t local-task; 0 on success. */
static inline int mx_test_fake_compiler_setup(char *dir, size_t cap, const char *what, char *compiler,
                                              size_t compiler_cap, mx_target_t *t) {
  if (mx_test_tmpdir(dir, cap, what) != 0 || fake_compiler_write(dir, compiler, compiler_cap) != 0) return -1;
  mx_status_t st = mx_target_for_device("local-task", NULL, t);
  if (st) return mx_status_free(st), -1;
  return 0;
}

/* Sends `sig` to `child` once its fake compiler in `dir` hangs, reaps it (mx_test_wait); *ms to its end, *left if the compiler outlived it (killed). */
static inline int mx_test_interrupt_compile(const char *dir, pid_t child, int sig, double *ms, bool *left) {
  long compiler = 0;
  for (int i = 0; i < 500 && !(compiler = fake_compiler_pid(dir)); i++) usleep(10000);
  assert_true(compiler > 0);
  usleep(50000); /* let it reach its sleep */
  double t0 = mx_now_ms();
  kill(child, sig);
  int code = mx_test_wait(child);
  if (ms) *ms = mx_now_ms() - t0;
  *left = kill((pid_t)compiler, 0) == 0;
  if (*left) kill((pid_t)compiler, SIGKILL);
  return code;
}

#endif
