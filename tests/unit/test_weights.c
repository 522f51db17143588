/* Prepared weights (engine/weights.c) of the tiny GGUF (gguf_writer.h) in a cache of their own
 * (XDG_CACHE_HOME in a temporary directory): prepared once, checked at every reuse and prepared again
 * when damaged (zeroed weights used to be served as empty text); killed preparations' temporary files
 * are swept; an interrupt stops a preparation and removes the partial file. */
#include "testutil.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/log.h"
#include "engine/weights.h"
#include "gguf_writer.h"
#include "model/model.h"

typedef struct {
  char root[64], model_path[96], weights_dir[128];
  mx_model_t *model;
  char log[8192];
  bool interrupt_on_prepare; /* the sink sends SIGINT to this process when preparing starts */
} fx_t;

static void capture(void *user, mx_log_level_t level, const char *line) {
  (void)level;
  fx_t *fx = user;
  size_t n = strlen(fx->log);
  snprintf(fx->log + n, sizeof fx->log - n, "%s\n", line);
  if (fx->interrupt_on_prepare && strstr(line, "preparing")) raise(SIGINT);
}

static mx_log_sink_t sink;

static int setup(void **state) {
  fx_t *fx = calloc(1, sizeof *fx);
  snprintf(fx->root, sizeof fx->root, "/tmp/mlxcel-test-weights-XXXXXX");
  if (!mkdtemp(fx->root)) return -1;
  snprintf(fx->model_path, sizeof fx->model_path, "%s/tiny.gguf", fx->root);
  snprintf(fx->weights_dir, sizeof fx->weights_dir, "%s/mlxcel/weights", fx->root);
  size_t n;
  uint8_t *b = gw_tiny_llama(&n);
  FILE *f = fopen(fx->model_path, "wb");
  bool ok = f && fwrite(b, 1, n, f) == n;
  if (f) fclose(f);
  free(b);
  mx_status_t st = ok ? mx_model_open(fx->model_path, &fx->model) : mx_status_oom();
  if (st) return mx_status_free(st), -1;
  setenv("XDG_CACHE_HOME", fx->root, 1);
  sink = (mx_log_sink_t){capture, fx};
  mx_log_set_sink(&sink);
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fx_t *fx = *state;
  mx_log_set_sink(NULL);
  mx_model_close(fx->model);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->root);
  int rc = system(cmd);
  unsetenv("XDG_CACHE_HOME");
  free(fx);
  return rc == 0 ? 0 : -1;
}

static char *slurp(const char *path, size_t *n) {
  *n = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)len + 1);
  *n = fread(b, 1, (size_t)len, f);
  fclose(f);
  return b;
}

static void listing(const char *dir, char *out, size_t cap) {
  struct dirent **es;
  int n = scandir(dir, &es, NULL, alphasort);
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    if (es[i]->d_name[0] != '.') snprintf(out + strlen(out), cap - strlen(out), "%s%s", out[0] ? " " : "", es[i]->d_name);
    free(es[i]);
  }
  if (n >= 0) free(es);
}

static void weights_are_prepared_once_then_reused(void **state) {
  fx_t *fx = *state;
  mx_param_files_t p;
  assert_ok(mx_weights_prepare(fx->model, MX_F32, &p));
  assert_true(p.prepared);
  assert_non_null(strstr(fx->log, "preparing f32 weights"));
  fx->log[0] = '\0';
  assert_ok(mx_weights_prepare(fx->model, MX_F32, &p));
  assert_string_equal(fx->log, ""); /* reused without a word */
}

/* The tensors' bytes, after the safetensors header, become zeros: same size, same header. */
static void zero_the_tensors(const char *path, size_t size) {
  FILE *f = fopen(path, "r+b");
  uint64_t header;
  assert_int_equal(fread(&header, 8, 1, f), 1);
  char *zeros = calloc(1, size);
  fseek(f, (long)(8 + header), SEEK_SET);
  fwrite(zeros, 1, size - 8 - header, f);
  fclose(f);
  free(zeros);
}
static void flip_a_byte(const char *path, size_t size) {
  FILE *f = fopen(path, "r+b");
  fseek(f, (long)size - 5, SEEK_SET);
  int c = fgetc(f);
  fseek(f, (long)size - 5, SEEK_SET);
  fputc(c ^ 1, f);
  fclose(f);
}
static void truncate_it(const char *path, size_t size) { assert_int_equal(truncate(path, (off_t)size - 4096), 0); }

static void damaged_weights_are_prepared_again(void **state) {
  fx_t *fx = *state;
  void (*damage[])(const char *, size_t) = {zero_the_tensors, flip_a_byte, truncate_it};
  mx_param_files_t p;
  assert_ok(mx_weights_prepare(fx->model, MX_F16, &p));
  size_t clean_n = 0, n = 0;
  char *clean = slurp(p.files[0], &clean_n);
  assert_true(clean && clean_n > 8192);
  for (int i = 0; i < 3; i++) {
    damage[i](p.files[0], clean_n);
    fx->log[0] = '\0';
    assert_ok(mx_weights_prepare(fx->model, MX_F16, &p));
    char line[MX_PATH_MAX + 64];
    snprintf(line, sizeof line, "mlxcel: cache: %s failed verification (", p.files[0]);
    if (!strstr(fx->log, line) || !strstr(fx->log, "preparing f16 weights")) {
      fprintf(stderr, "damage %d, log:\n%s", i, fx->log);
      fail();
    }
    char *now = slurp(p.files[0], &n);
    assert_true(n == clean_n && memcmp(now, clean, n) == 0);
    free(now);
  }
  free(clean);
}

static void temporary_files_of_dead_preparations_are_swept(void **state) {
  fx_t *fx = *state;
  mx_param_files_t p;
  assert_ok(mx_weights_prepare(fx->model, MX_F32, &p));
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, NULL, 0);
  char name[160], path[256], live[96], got[1024], want[1024];
  snprintf(name, sizeof name, "%s.tmp%d", strrchr(p.files[0], '/') + 1, (int)dead);
  snprintf(live, sizeof live, "other-f16.safetensors.tmp%d", (int)getppid());
  const char *names[] = {name, live};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", fx->weights_dir, names[i]);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("a partial file of 300 MB, say", f);
    fclose(f);
  }
  assert_ok(mx_weights_prepare(fx->model, MX_F32, &p));
  listing(fx->weights_dir, got, sizeof got);
  const char *base = strrchr(p.files[0], '/') + 1;
  snprintf(want, sizeof want, "%s %s.sum %s", base, base, live);
  assert_string_equal(got, want);
}

/* In a child, as a command: SIGINT when the preparation starts ends it with a status (exit 0 here)
 * and no file, partial or temporary, is left. */
static void an_interrupt_stops_the_preparation_and_leaves_nothing(void **state) {
  fx_t *fx = *state;
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    signal(SIGINT, SIG_DFL);
    fx->interrupt_on_prepare = true;
    mx_param_files_t p;
    mx_status_t st = mx_weights_prepare(fx->model, MX_F32, &p);
    _exit(st && mx_status_stage(st) == MX_STAGE_BUSY && strstr(mx_status_message(st), "SIGINT while preparing") ? 0 : 3);
  }
  int ws = 0;
  waitpid(child, &ws, 0);
  assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
  char got[1024];
  listing(fx->weights_dir, got, sizeof got);
  assert_string_equal(got, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(weights_are_prepared_once_then_reused, setup, teardown),
      cmocka_unit_test_setup_teardown(damaged_weights_are_prepared_again, setup, teardown),
      cmocka_unit_test_setup_teardown(temporary_files_of_dead_preparations_are_swept, setup, teardown),
      cmocka_unit_test_setup_teardown(an_interrupt_stops_the_preparation_and_leaves_nothing, setup, teardown),
  };
  return cmocka_run_group_tests_name("engine/weights", tests, NULL, NULL);
}
