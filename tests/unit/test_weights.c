/* Prepared weights (engine/weights.c) of the tiny GGUF (gguf_writer.h) in a cache of their own
 * (XDG_CACHE_HOME in a temporary directory): prepared once, checked at every reuse and prepared again
 * when damaged (zeroed weights used to be served as empty text); killed preparations' temporary files
 * are swept; an interrupt stops a preparation and removes the partial file. */
#include "testutil.h"

#include <signal.h>
#include <unistd.h>

#include <jansson.h>

#include "engine/weights.h"
#include "fileutil.h"
#include "gguf_writer.h"
#include "model/model.h"

typedef struct {
  char root[64], model_path[96], weights_dir[128];
  mx_model_t *model;
  mx_test_log_t log;
} fx_t;

static int setup(void **state) {
  fx_t *fx = calloc(1, sizeof *fx);
  if (mx_test_tmpdir(fx->root, sizeof fx->root, "weights") != 0) return -1;
  snprintf(fx->model_path, sizeof fx->model_path, "%s/tiny.gguf", fx->root);
  snprintf(fx->weights_dir, sizeof fx->weights_dir, "%s/mlxcel/weights", fx->root);
  size_t n;
  uint8_t *b = gw_tiny_llama(&n);
  bool ok = mx_test_write_file(fx->model_path, b, n) == 0;
  free(b);
  mx_status_t st = ok ? mx_model_open(fx->model_path, &fx->model) : mx_status_oom();
  if (st) return mx_status_free(st), -1;
  setenv("XDG_CACHE_HOME", fx->root, 1);
  mx_test_log_start(&fx->log);
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fx_t *fx = *state;
  mx_test_log_stop(&fx->log);
  mx_model_close(fx->model);
  int rc = mx_test_rm_rf(fx->root);
  unsetenv("XDG_CACHE_HOME");
  free(fx);
  return rc;
}

static void weights_are_prepared_once_then_reused(void **state) {
  fx_t *fx = *state;
  mx_param_files_t p;
  assert_ok(mx_weights_prepare(fx->model, MX_F32, NULL, NULL, &p));
  assert_true(p.prepared);
  assert_non_null(strstr(fx->log.text, "preparing f32 weights"));
  fx->log.text[0] = '\0';
  assert_ok(mx_weights_prepare(fx->model, MX_F32, NULL, NULL, &p));
  assert_string_equal(fx->log.text, ""); /* reused without a word */
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
static void flip_a_byte(const char *path, size_t size) { mx_test_flip_byte(path, (long)size - 5, 1); }
static void truncate_it(const char *path, size_t size) { mx_test_truncate(path, size - 4096); }

static void damaged_weights_are_prepared_again(void **state) {
  fx_t *fx = *state;
  void (*damage[])(const char *, size_t) = {zero_the_tensors, flip_a_byte, truncate_it};
  mx_param_files_t p;
  assert_ok(mx_weights_prepare(fx->model, MX_F16, NULL, NULL, &p));
  size_t clean_n = 0, n = 0;
  char *clean = mx_test_slurp(p.files[0], &clean_n);
  assert_true(clean && clean_n > 8192);
  for (int i = 0; i < 3; i++) {
    damage[i](p.files[0], clean_n);
    fx->log.text[0] = '\0';
    assert_ok(mx_weights_prepare(fx->model, MX_F16, NULL, NULL, &p));
    char line[MX_PATH_MAX + 64];
    snprintf(line, sizeof line, "mlxcel: cache: %s failed verification (", p.files[0]);
    if (!strstr(fx->log.text, line) || !strstr(fx->log.text, "preparing f16 weights")) {
      fprintf(stderr, "damage %d, log:\n%s", i, fx->log.text);
      fail();
    }
    char *now = mx_test_slurp(p.files[0], &n);
    assert_true(n == clean_n && memcmp(now, clean, n) == 0);
    free(now);
  }
  free(clean);
}

static void temporary_files_of_dead_preparations_are_swept(void **state) {
  fx_t *fx = *state;
  mx_param_files_t p;
  assert_ok(mx_weights_prepare(fx->model, MX_F32, NULL, NULL, &p));
  pid_t dead = mx_test_dead_pid();
  char name[160], live[96], want[1024];
  snprintf(name, sizeof name, "%s.tmp%d", strrchr(p.files[0], '/') + 1, (int)dead);
  snprintf(live, sizeof live, "other-f16.safetensors.tmp%d", (int)getppid());
  mx_test_write_in(fx->weights_dir, name, "a partial file of 300 MB, say");
  mx_test_write_in(fx->weights_dir, live, "a partial file of 300 MB, say");
  assert_ok(mx_weights_prepare(fx->model, MX_F32, NULL, NULL, &p));
  const char *base = strrchr(p.files[0], '/') + 1;
  snprintf(want, sizeof want, "%s %s.sum %s", base, base, live);
  assert_listing(fx->weights_dir, want);
}

/* The captured log's hook in the child below: SIGINT to this process when preparing starts. */
static void interrupt_when_preparing(const char *line) {
  if (strstr(line, "preparing")) raise(SIGINT);
}

/* In a child, as a command: SIGINT when the preparation starts ends it with a status (exit 0 here)
 * and no file, partial or temporary, is left. */
static void an_interrupt_stops_the_preparation_and_leaves_nothing(void **state) {
  fx_t *fx = *state;
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    signal(SIGINT, SIG_DFL);
    fx->log.then = interrupt_when_preparing;
    mx_param_files_t p;
    mx_status_t st = mx_weights_prepare(fx->model, MX_F32, NULL, NULL, &p);
    _exit(st && mx_status_stage(st) == MX_STAGE_BUSY && strstr(mx_status_message(st), "SIGINT while preparing") ? 0 : 3);
  }
  assert_int_equal(mx_test_wait(child), 0);
  assert_listing(fx->weights_dir, "");
}

/* The header's entry `name`: its shape's rows and its data offsets. */
static void header_entry(json_t *h, const char *name, int64_t *rows, int64_t *start, int64_t *end) {
  json_t *e = json_object_get(h, name);
  assert_non_null(e);
  *rows = json_integer_value(json_array_get(json_object_get(e, "shape"), 0));
  *start = json_integer_value(json_array_get(json_object_get(e, "data_offsets"), 0));
  *end = json_integer_value(json_array_get(json_object_get(e, "data_offsets"), 1));
}

/* A prepared file names each layer's Q/K/V and gate/up a second time, stacked: a view whose bytes are
 * its parts', consecutive (the graph's stacked products bind it by name; hlo/llama.c linears). */
static void prepared_files_hold_views_over_the_stacks(void **state) {
  fx_t *fx = *state;
  mx_param_files_t p;
  assert_ok(mx_weights_prepare(fx->model, MX_F32, NULL, NULL, &p));
  assert_true(mx_weights_stacked(fx->model, NULL));
  FILE *f = fopen(p.files[0], "rb");
  assert_non_null(f);
  uint8_t len8[8];
  assert_int_equal(fread(len8, 1, 8, f), 8);
  uint64_t len = 0;
  for (int i = 0; i < 8; i++) len |= (uint64_t)len8[i] << (8 * i);
  char *text = calloc(1, len + 1);
  assert_int_equal(fread(text, 1, len, f), len);
  fclose(f);
  json_t *h = json_loads(text, 0, NULL);
  free(text);
  assert_non_null(h);
  static const char *const stacks[2][4] = {
      {"model.layers.0.self_attn.qkv_proj.weight", "model.layers.0.self_attn.q_proj.weight",
       "model.layers.0.self_attn.k_proj.weight", "model.layers.0.self_attn.v_proj.weight"},
      {"model.layers.0.mlp.gate_up_proj.weight", "model.layers.0.mlp.gate_proj.weight", "model.layers.0.mlp.up_proj.weight", NULL}};
  for (int s = 0; s < 2; s++) {
    int64_t rows, start, end, prows, pstart, pend, sum = 0, at = -1;
    header_entry(h, stacks[s][0], &rows, &start, &end);
    for (int i = 1; i < 4 && stacks[s][i]; i++) {
      header_entry(h, stacks[s][i], &prows, &pstart, &pend);
      if (at < 0) assert_int_equal(pstart, start);
      else assert_int_equal(pstart, at); /* consecutive */
      at = pend;
      sum += prows;
    }
    assert_int_equal(at, end);
    assert_int_equal(sum, rows);
  }
  json_decref(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(weights_are_prepared_once_then_reused, setup, teardown),
      cmocka_unit_test_setup_teardown(damaged_weights_are_prepared_again, setup, teardown),
      cmocka_unit_test_setup_teardown(temporary_files_of_dead_preparations_are_swept, setup, teardown),
      cmocka_unit_test_setup_teardown(an_interrupt_stops_the_preparation_and_leaves_nothing, setup, teardown),
      cmocka_unit_test_setup_teardown(prepared_files_hold_views_over_the_stacks, setup, teardown),
  };
  return cmocka_run_group_tests_name("engine/weights", tests, NULL, NULL);
}
