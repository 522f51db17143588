/* engine/logprobs: the log-softmax of a row, the chosen token's value, the most likely alternatives in
 * order (ties: the lower id), NaN and infinite entries, and the growing list. The values are checked
 * against a direct log(exp(x) / sum exp) in long double. */
#include "testutil.h"

#include <math.h>

#include "engine/logprobs.h"

static double direct(const float *l, int n, int i) {
  long double sum = 0;
  for (int k = 0; k < n; k++) sum += expl((long double)l[k]);
  return (double)logl(expl((long double)l[i]) / sum);
}

static void values_and_order(void **state) {
  (void)state;
  const float l[8] = {1.5f, -2.0f, 3.25f, 3.25f, 0.0f, -30.0f, 2.0f, 7.0f};
  mx_token_logprob_t e;
  mx_logprob_compute(l, 8, 4, 5, &e);
  assert_int_equal(e.id, 4);
  assert_true(fabs(e.logprob - direct(l, 8, 4)) < 1e-6);
  assert_int_equal(e.n_top, 5);
  const int32_t want[5] = {7, 2, 3, 6, 0}; /* 3.25 twice: id 2 before 3 */
  for (int k = 0; k < 5; k++) {
    assert_int_equal(e.top_id[k], want[k]);
    assert_true(fabs(e.top_logprob[k] - direct(l, 8, want[k])) < 1e-6);
  }
  /* The probabilities of a whole row add up to 1. */
  double total = 0;
  for (int i = 0; i < 8; i++) {
    mx_logprob_compute(l, 8, i, 0, &e);
    assert_int_equal(e.n_top, 0);
    total += exp(e.logprob);
  }
  assert_true(fabs(total - 1) < 1e-6);
  /* More alternatives than the row has, or than the bound. */
  mx_logprob_compute(l, 8, 0, 50, &e);
  assert_int_equal(e.n_top, 8);
  assert_int_equal(e.top_id[7], 5);
  float big[64];
  for (int i = 0; i < 64; i++) big[i] = (float)(i % 7) - (float)i / 100;
  mx_logprob_compute(big, 64, 3, MX_MAX_TOP_LOGPROBS + 5, &e);
  assert_int_equal(e.n_top, MX_MAX_TOP_LOGPROBS);
  for (int k = 1; k < e.n_top; k++) assert_true(big[e.top_id[k - 1]] >= big[e.top_id[k]]);
}

/* Large logits do not overflow (the sum runs around the largest); NaN and -inf are impossible tokens. */
static void extreme_rows(void **state) {
  (void)state;
  const float l[4] = {1000.0f, 999.0f, NAN, -INFINITY};
  mx_token_logprob_t e;
  mx_logprob_compute(l, 4, 1, 4, &e);
  assert_true(fabs(e.logprob - (-1.0 - log1p(exp(-1.0)))) < 1e-5);
  assert_int_equal(e.n_top, 4);
  assert_int_equal(e.top_id[0], 0);
  assert_int_equal(e.top_id[1], 1);
  assert_int_equal(e.top_id[2], 3); /* -inf ranks above NaN */
  assert_int_equal(e.top_id[3], 2);
  assert_true(isinf(e.top_logprob[2]) && e.top_logprob[2] < 0);
  assert_true(isinf(e.top_logprob[3]) && e.top_logprob[3] < 0);
  mx_logprob_compute(l, 4, 2, 0, &e);
  assert_true(isinf(e.logprob) && e.logprob < 0);
  const float none[2] = {NAN, -INFINITY};
  mx_logprob_compute(none, 2, 0, 1, &e);
  assert_true(isinf(e.logprob) && e.logprob < 0);
  assert_true(isinf(e.top_logprob[0]) && e.top_logprob[0] < 0);
}

static void list_grows(void **state) {
  (void)state;
  mx_logprob_list_t list = {0};
  mx_token_logprob_t e = {.id = 0};
  for (int i = 0; i < 1000; i++) {
    e.id = i;
    assert_true(mx_logprob_list_push(&list, &e));
  }
  assert_int_equal(list.n, 1000);
  assert_int_equal(list.v[999].id, 999);
  mx_logprob_list_free(&list);
  assert_null(list.v);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(values_and_order),
      cmocka_unit_test(extreme_rows),
      cmocka_unit_test(list_grows),
  };
  return cmocka_run_group_tests_name("engine/logprobs", tests, NULL, NULL);
}
