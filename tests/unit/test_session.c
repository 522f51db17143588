/* The session's checks that need no device (engine/session). The session on a real model is
 * exercised by test_scheduler_iree.c and the gates in tests/run_tests.sh. */
#include "testutil.h"

#include "engine/session.h"

/* A token outside the vocabulary is an error before it reaches the device (its gather does not
 * clamp) and when it comes back from it (a wrong argmax, as IREE 3.13 computed on CUDA). */
static void token_ids_outside_the_vocabulary_are_refused(void **state) {
  (void)state;
  int32_t ok[3] = {0, 17, 39}, neg[2] = {5, -1}, big[1] = {40};
  assert_ok(mx_check_token_ids("decode", ok, 3, 40, false));
  assert_ok(mx_check_token_ids("decode", ok, 3, 40, true));
  mx_status_t st = mx_check_token_ids("prefill_32", neg, 2, 40, true);
  assert_non_null(st);
  assert_int_equal(mx_status_stage(st), MX_STAGE_CALL);
  assert_non_null(strstr(mx_status_message(st), "prefill_32 returned token -1 (row 1), outside the vocabulary 0..39"));
  mx_status_free(st);
  st = mx_check_token_ids("decode", big, 1, 40, false);
  assert_non_null(st);
  assert_int_equal(mx_status_stage(st), MX_STAGE_INTERNAL);
  mx_status_free(st);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(token_ids_outside_the_vocabulary_are_refused),
  };
  return cmocka_run_group_tests_name("engine/session", tests, NULL, NULL);
}
