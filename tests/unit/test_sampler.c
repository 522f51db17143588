/* The sampler (engine/sampler): greedy ties, top-k, top-p, seeds, repetition penalty, bad values. */
#include "testutil.h"

#include "engine/sampler.h"

static void sampler_behaves(void **state) {
  (void)state;
  float base[6] = {1.0f, 3.0f, 2.5f, -1.0f, 3.0f, 0.0f}, l[6];
  mx_sampling_t greedy = {.temperature = 0, .top_p = 1, .repeat_penalty = 1};
  assert_ok(mx_sampling_validate(&greedy));
  assert_true(mx_sampling_is_greedy(&greedy));
  mx_sampler_t *s = mx_sampler_create(&greedy, 6);
  memcpy(l, base, sizeof l);
  assert_int_equal(mx_sampler_pick(s, l, NULL, 0), 1); /* ties: the lower id, as argmax */
  mx_sampler_destroy(s);
  mx_sampling_t topk1 = {.temperature = 1, .top_k = 1, .top_p = 1, .repeat_penalty = 1, .seed = 5};
  s = mx_sampler_create(&topk1, 6);
  for (int i = 0; i < 20; i++) {
    memcpy(l, base, sizeof l);
    assert_int_equal(mx_sampler_pick(s, l, NULL, 0), 1);
  }
  mx_sampler_destroy(s);
  /* Same seed, same draws; the draws only come from the top-p nucleus. */
  mx_sampling_t nucleus = {.temperature = 1, .top_p = 0.5f, .repeat_penalty = 1, .seed = 9};
  mx_sampler_t *s1 = mx_sampler_create(&nucleus, 6), *s2 = mx_sampler_create(&nucleus, 6);
  for (int i = 0; i < 50; i++) {
    float l1[6], l2[6];
    memcpy(l1, base, sizeof l1);
    memcpy(l2, base, sizeof l2);
    int32_t a = mx_sampler_pick(s1, l1, NULL, 0), b = mx_sampler_pick(s2, l2, NULL, 0);
    assert_int_equal(a, b);
    assert_true(a == 1 || a == 4);
  }
  mx_sampler_destroy(s1);
  mx_sampler_destroy(s2);
  /* Repetition penalty: a seen token with the top logit loses to the next one. */
  mx_sampling_t rep = {.temperature = 0, .top_p = 1, .repeat_penalty = 2};
  s = mx_sampler_create(&rep, 6);
  memcpy(l, base, sizeof l);
  int32_t hist[2] = {1, 4};
  assert_int_equal(mx_sampler_pick(s, l, hist, 2), 2);
  mx_sampler_destroy(s);
  mx_sampling_t bad = {.temperature = -1, .top_p = 1, .repeat_penalty = 1};
  assert_status(mx_sampling_validate(&bad), MX_STAGE_USAGE, "temperature");
  bad = (mx_sampling_t){.temperature = 1, .top_p = 0, .repeat_penalty = 1};
  assert_status(mx_sampling_validate(&bad), MX_STAGE_USAGE, "top-p");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sampler_behaves),
  };
  return cmocka_run_group_tests_name("engine/sampler", tests, NULL, NULL);
}
