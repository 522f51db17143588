#include "testutil.h"

#include "server/openai.h"

static void status_folds_to_one_line(void **state) {
  (void)state;
  mx_status_t st = mx_status_make(MX_STAGE_CALL, "fix\nit", "line one\nline two\t%d\n\n", 3);
  assert_string_equal(mx_status_message(st), "line one line two 3");
  assert_string_equal(mx_status_remedy(st), "fix it");
  assert_int_equal(mx_status_stage(st), MX_STAGE_CALL);
  char buf[256];
  FILE *f = fmemopen(buf, sizeof buf, "w");
  mx_status_print(f, st);
  fclose(f);
  assert_string_equal(buf, "mlxcel: call: line one line two 3; remedy: fix it\n");
  mx_status_free(st);
}

static void status_without_remedy_prints_no_remedy(void **state) {
  (void)state;
  mx_status_t st = mx_status_make(MX_STAGE_IO, NULL, "disk full");
  char buf[128];
  FILE *f = fmemopen(buf, sizeof buf, "w");
  mx_status_print(f, st);
  fclose(f);
  assert_string_equal(buf, "mlxcel: io: disk full\n");
  mx_status_free(st);
}

static void stage_names_round_trip(void **state) {
  (void)state;
  for (int s = MX_STAGE_USAGE; s <= MX_STAGE_LAST; s++)
    assert_int_equal(mx_stage_from_name(mx_stage_name((mx_stage_t)s)), s);
  assert_int_equal(mx_stage_from_name("no-such-stage"), MX_STAGE_WORKER);
  assert_int_equal(mx_stage_from_name(NULL), MX_STAGE_WORKER);
  assert_string_equal(mx_stage_name(MX_STAGE_MODULE_LOAD), "module_load");
  /* Every stage has a name of its own, and the names the worker sends still parse. */
  for (int s = MX_STAGE_USAGE; s <= MX_STAGE_LAST; s++) assert_string_not_equal(mx_stage_name((mx_stage_t)s), "unknown");
  static const char *const from_worker[] = {"usage", "toolchain", "protocol", "driver", "device",
                                            "module_load", "call", "transfer", "worker"};
  for (size_t i = 0; i < sizeof from_worker / sizeof *from_worker; i++)
    assert_string_equal(mx_stage_name(mx_stage_from_name(from_worker[i])), from_worker[i]);
  assert_int_equal(mx_stage_from_name("internal"), MX_STAGE_INTERNAL);
  assert_int_equal(mx_stage_from_name("oom"), MX_STAGE_OOM);
}

static void ok_status_is_null_and_freeable(void **state) {
  (void)state;
  assert_string_equal(mx_status_message(NULL), "ok");
  mx_status_free(NULL);
}

/* The printed line, in a buffer the caller frees. */
static char *printed(mx_status_t st) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  mx_status_print(f, st);
  fclose(f);
  return buf;
}

static void assert_one_line(mx_status_t st) {
  char *line = printed(st);
  size_t n = strlen(line);
  assert_true(n > 0 && line[n - 1] == '\n');
  assert_int_equal(strcspn(line, "\n"), n - 1); /* the only newline is the last byte */
  free(line);
}

static void annotate_keeps_stage_and_remedy(void **state) {
  (void)state;
  mx_status_t st = mx_status_make(MX_STAGE_MODULE_LOAD, "compile it first", "VMFB %s does not exist", "a.vmfb");
  st = mx_status_annotate(st, "loading the %s graph\n(2 of 3)", "f16");
  assert_int_equal(mx_status_stage(st), MX_STAGE_MODULE_LOAD);
  assert_string_equal(mx_status_message(st), "loading the f16 graph (2 of 3): VMFB a.vmfb does not exist");
  assert_string_equal(mx_status_remedy(st), "compile it first");
  char *line = printed(st);
  assert_string_equal(line, "mlxcel: module_load: loading the f16 graph (2 of 3): VMFB a.vmfb does not exist; remedy: compile it first\n");
  free(line);
  mx_status_free(st);
  /* Success stays success, so a call can be annotated without a test first. */
  assert_null(mx_status_annotate(NULL, "never %s", "formatted"));
  /* An empty context changes nothing. */
  st = mx_status_annotate(mx_status_make(MX_STAGE_IO, NULL, "disk full"), "%s", "");
  assert_string_equal(mx_status_message(st), "disk full");
  mx_status_free(st);
}

static void nested_annotations_read_outermost_first(void **state) {
  (void)state;
  mx_status_t st = mx_status_make(MX_STAGE_IO, "check the path", "cannot open x.json");
  st = mx_status_annotate(st, "reading the tokenizer");
  st = mx_status_annotate(st, "loading %s", "model/");
  st = mx_status_annotate(st, "request %d", 7);
  assert_string_equal(mx_status_message(st), "request 7: loading model/: reading the tokenizer: cannot open x.json");
  assert_int_equal(mx_status_stage(st), MX_STAGE_IO);
  assert_string_equal(mx_status_remedy(st), "check the path");
  assert_one_line(st);
  mx_status_free(st);
}

static mx_status_t fails_with_context(const char *path) {
  MX_RETURN_IF_ERROR(NULL);
  MX_RETURN_IF_ERROR_CTX(NULL, "not reached %s", path);
  MX_RETURN_IF_ERROR_CTX(mx_status_make(MX_STAGE_IO, "pass a readable file", "short read"), "loading %s", path);
  return mx_status_make(MX_STAGE_INTERNAL, NULL, "not reached");
}

static void return_if_error_ctx_annotates(void **state) {
  (void)state;
  mx_status_t st = fails_with_context("w.gguf");
  assert_int_equal(mx_status_stage(st), MX_STAGE_IO);
  assert_string_equal(mx_status_message(st), "loading w.gguf: short read");
  assert_string_equal(mx_status_remedy(st), "pass a readable file");
  mx_status_free(st);
}

static void clone_is_independent(void **state) {
  (void)state;
  mx_status_t a = mx_status_make(MX_STAGE_TRANSFER, "check device health", "output %d lost", 2);
  mx_status_t b = mx_status_clone(a);
  assert_ptr_not_equal(a, b);
  assert_int_equal(mx_status_stage(b), MX_STAGE_TRANSFER);
  assert_string_equal(mx_status_message(b), "output 2 lost");
  assert_string_equal(mx_status_remedy(b), "check device health");
  /* Annotating one owner's copy leaves the other's alone; each frees its own. */
  b = mx_status_annotate(b, "request 3");
  assert_string_equal(mx_status_message(a), "output 2 lost");
  mx_status_free(a);
  assert_string_equal(mx_status_message(b), "request 3: output 2 lost");
  mx_status_free(b);
  assert_null(mx_status_clone(NULL));
}

/* The allocation-failure status: annotating and cloning it must work (a heap copy, or itself) and
 * freeing any of them must be safe. */
static void oom_status_is_safe_to_annotate_clone_and_free(void **state) {
  (void)state;
  mx_status_t s = mx_status_oom();
  assert_int_equal(mx_status_stage(s), MX_STAGE_OOM);
  assert_string_equal(mx_status_message(s), "out of memory");
  assert_true(mx_status_remedy(s)[0] != '\0');
  assert_ptr_equal(mx_status_clone(s), s); /* shared, never freed: its copy is itself */
  mx_status_t a = mx_status_annotate(s, "reading %s", "big.gguf");
  assert_int_equal(mx_status_stage(a), MX_STAGE_OOM);
  assert_string_equal(mx_status_message(a), "reading big.gguf: out of memory");
  assert_string_equal(mx_status_remedy(a), mx_status_remedy(s));
  assert_string_equal(mx_status_message(s), "out of memory"); /* the shared one is untouched */
  assert_one_line(a);
  mx_status_free(a);
  mx_status_free(s);
  mx_status_ignore(s);
  mx_status_free(s); /* any number of times */
  assert_string_equal(mx_status_message(s), "out of memory");
  /* A made out-of-memory status gets the same default remedy. */
  mx_status_t m = mx_status_make(MX_STAGE_OOM, NULL, "out of memory reading %s", "x");
  assert_string_equal(mx_status_remedy(m), mx_status_remedy(s));
  mx_status_free(m);
}

static void internal_stage_prints_its_default_remedy(void **state) {
  (void)state;
  mx_status_t st = mx_status_make(MX_STAGE_INTERNAL, NULL, "slot %d of %d", 5, 4);
  char *line = printed(st);
  char want[512];
  snprintf(want, sizeof want, "mlxcel: internal: slot 5 of 4; remedy: %s\n", mx_stage_default_remedy(MX_STAGE_INTERNAL));
  assert_string_equal(line, want);
  assert_non_null(strstr(line, "bug in mlxcel"));
  assert_non_null(strstr(line, "report it"));
  free(line);
  mx_status_free(st);
  /* An empty remedy is no remedy: the default applies too; an explicit one wins. */
  st = mx_status_make(MX_STAGE_INTERNAL, "", "x");
  assert_string_equal(mx_status_remedy(st), mx_stage_default_remedy(MX_STAGE_INTERNAL));
  mx_status_free(st);
  st = mx_status_make(MX_STAGE_INTERNAL, "keep the work dir", "x");
  assert_string_equal(mx_status_remedy(st), "keep the work dir");
  mx_status_free(st);
  /* Stages without a default stay without a remedy. */
  assert_string_equal(mx_stage_default_remedy(MX_STAGE_IO), "");
  assert_string_equal(mx_stage_default_remedy((mx_stage_t)999), "");
}

/* The server's one stage -> HTTP table: every stage has an answer, and only usage is the client's. */
static void every_stage_maps_to_one_http_answer(void **state) {
  (void)state;
  static const struct {
    mx_stage_t stage;
    int http;
    const char *type, *code;
  } want[] = {
      {MX_STAGE_USAGE, 400, "invalid_request_error", ""}, {MX_STAGE_TOOLCHAIN, 500, "server_error", ""},
      {MX_STAGE_COMPILE, 500, "server_error", ""},        {MX_STAGE_SPAWN, 500, "server_error", ""},
      {MX_STAGE_PROTOCOL, 500, "server_error", ""},       {MX_STAGE_DRIVER, 500, "server_error", ""},
      {MX_STAGE_DEVICE, 503, "server_error", "unavailable"}, {MX_STAGE_MODULE_LOAD, 500, "server_error", ""},
      {MX_STAGE_CALL, 500, "server_error", ""},           {MX_STAGE_TRANSFER, 500, "server_error", ""},
      {MX_STAGE_WORKER, 500, "server_error", ""},         {MX_STAGE_IO, 500, "server_error", ""},
      {MX_STAGE_CHECK, 500, "server_error", ""},          {MX_STAGE_BUSY, 503, "server_error", "overloaded"},
      {MX_STAGE_INTERNAL, 500, "server_error", ""},       {MX_STAGE_OOM, 500, "server_error", ""},
  };
  assert_int_equal(sizeof want / sizeof *want, MX_STAGE_LAST); /* one row per stage */
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    mx_status_t st = mx_status_make(want[i].stage, NULL, "x");
    mx_api_error_t e;
    mx_api_error_for_status(&e, st, NULL, NULL);
    if (e.http_status != want[i].http || strcmp(e.type, want[i].type) || strcmp(e.code, want[i].code))
      fail_msg("stage %s: got %d %s '%s'", mx_stage_name(want[i].stage), e.http_status, e.type, e.code);
    assert_string_equal(e.param, "");
    /* The caller's param and code win over the table's default code; the status stays the stage's. */
    mx_api_error_for_status(&e, st, "prompt", "shutting_down");
    assert_int_equal(e.http_status, want[i].http);
    assert_string_equal(e.param, "prompt");
    assert_string_equal(e.code, "shutting_down");
    mx_status_free(st);
  }
  /* The shared out-of-memory status is the server's failure too. */
  mx_api_error_t e;
  mx_api_error_for_status(&e, mx_status_oom(), NULL, NULL);
  assert_int_equal(e.http_status, 500);
  /* A value outside the table (a corrupt or future stage) is still a 500, never a 400. */
  mx_status_t odd = mx_status_make((mx_stage_t)99, NULL, "x");
  mx_api_error_for_status(&e, odd, NULL, NULL);
  assert_int_equal(e.http_status, 500);
  assert_string_equal(e.type, "server_error");
  mx_status_free(odd);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(status_folds_to_one_line),
      cmocka_unit_test(status_without_remedy_prints_no_remedy),
      cmocka_unit_test(stage_names_round_trip),
      cmocka_unit_test(ok_status_is_null_and_freeable),
      cmocka_unit_test(annotate_keeps_stage_and_remedy),
      cmocka_unit_test(nested_annotations_read_outermost_first),
      cmocka_unit_test(return_if_error_ctx_annotates),
      cmocka_unit_test(clone_is_independent),
      cmocka_unit_test(oom_status_is_safe_to_annotate_clone_and_free),
      cmocka_unit_test(internal_stage_prints_its_default_remedy),
      cmocka_unit_test(every_stage_maps_to_one_http_answer),
  };
  return cmocka_run_group_tests_name("base/status", tests, NULL, NULL);
}
