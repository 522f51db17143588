#include "testutil.h"

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
  for (int s = MX_STAGE_USAGE; s <= MX_STAGE_BUSY; s++)
    assert_int_equal(mx_stage_from_name(mx_stage_name((mx_stage_t)s)), s);
  assert_int_equal(mx_stage_from_name("no-such-stage"), MX_STAGE_WORKER);
  assert_int_equal(mx_stage_from_name(NULL), MX_STAGE_WORKER);
  assert_string_equal(mx_stage_name(MX_STAGE_MODULE_LOAD), "module_load");
}

static void ok_status_is_null_and_freeable(void **state) {
  (void)state;
  assert_string_equal(mx_status_message(NULL), "ok");
  mx_status_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(status_folds_to_one_line),
      cmocka_unit_test(status_without_remedy_prints_no_remedy),
      cmocka_unit_test(stage_names_round_trip),
      cmocka_unit_test(ok_status_is_null_and_freeable),
  };
  return cmocka_run_group_tests_name("base/status", tests, NULL, NULL);
}
