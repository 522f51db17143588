/* The sampler (engine/sampler): greedy ties, top-k, top-p, seeds, repetition penalty, bad values;
 * temperatures too small to divide by, rows holding NaN or infinity, the penalty's lower bound;
 * OpenAI's presence and frequency penalties and logit bias, and their ranges; the plain-temperature
 * draw the device shares (base/gumbel.h) against its definition and against the softmax. */
#include "testutil.h"

#include <float.h>
#include <math.h>

#include "base/gumbel.h"
#include "engine/sampler.h"
#include "sampler_reference.h"

static void sampler_behaves(void **state) {
  (void)state;
  float base[6] = {1.0f, 3.0f, 2.5f, -1.0f, 3.0f, 0.0f}, l[6];
  mx_sampling_t greedy = {.temperature = 0, .top_p = 1, .repeat_penalty = 1};
  assert_ok(mx_sampling_validate(&greedy));
  assert_true(mx_sampling_is_greedy(&greedy));
  mx_sampler_t *s = mx_sampler_create(&greedy, 6);
  memcpy(l, base, sizeof l);
  assert_int_equal(mx_sampler_pick(s, l, NULL, 0, 0), 1); /* ties: the lower id, as argmax */
  mx_sampler_destroy(s);
  mx_sampling_t topk1 = {.temperature = 1, .top_k = 1, .top_p = 1, .repeat_penalty = 1, .seed = 5};
  s = mx_sampler_create(&topk1, 6);
  for (int i = 0; i < 20; i++) {
    memcpy(l, base, sizeof l);
    assert_int_equal(mx_sampler_pick(s, l, NULL, 0, 0), 1);
  }
  mx_sampler_destroy(s);
  /* Same seed, same draws; the draws only come from the top-p nucleus. */
  mx_sampling_t nucleus = {.temperature = 1, .top_p = 0.5f, .repeat_penalty = 1, .seed = 9};
  mx_sampler_t *s1 = mx_sampler_create(&nucleus, 6), *s2 = mx_sampler_create(&nucleus, 6);
  for (int i = 0; i < 50; i++) {
    float l1[6], l2[6];
    memcpy(l1, base, sizeof l1);
    memcpy(l2, base, sizeof l2);
    int32_t a = mx_sampler_pick(s1, l1, NULL, 0, 0), b = mx_sampler_pick(s2, l2, NULL, 0, 0);
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
  assert_int_equal(mx_sampler_pick(s, l, hist, 2, 2), 2);
  mx_sampler_destroy(s);
  mx_sampling_t bad = {.temperature = -1, .top_p = 1, .repeat_penalty = 1};
  assert_status(mx_sampling_validate(&bad), MX_STAGE_USAGE, "temperature");
  bad = (mx_sampling_t){.temperature = 1, .top_p = 0, .repeat_penalty = 1};
  assert_status(mx_sampling_validate(&bad), MX_STAGE_USAGE, "top-p");
}


/* A temperature so small that dividing by it overflows (1e-39: 30 / 1e-39 is past FLT_MAX) made
 * every probability NaN, and the draw then fell through to the least likely token (issue 14, defect
 * 6). Below MX_SAMPLING_GREEDY_TEMPERATURE the request is greedy, in mx_sampling_is_greedy (so the
 * sequence takes the device's argmax) and in the sampler itself (taken when a penalty is on). */
static void tiny_temperature_is_greedy(void **state) {
  (void)state;
  const float base[6] = {10.0f, 30.0f, 25.0f, -10.0f, 30.0f, 0.0f}; /* argmax 1; least likely 3 */
  const float temps[] = {1e-39f, 1e-45f, FLT_MIN, 1e-30f, MX_SAMPLING_GREEDY_TEMPERATURE / 2};
  for (size_t t = 0; t < sizeof temps / sizeof temps[0]; t++) {
    for (uint64_t seed = 0; seed < 8; seed++) {
      mx_sampling_t p = {.temperature = temps[t], .top_p = 1, .repeat_penalty = 1, .seed = seed};
      assert_ok(mx_sampling_validate(&p));
      assert_true(mx_sampling_is_greedy(&p));
      mx_sampler_t *s = mx_sampler_create(&p, 6);
      float l[6];
      memcpy(l, base, sizeof l);
      assert_int_equal(mx_sampler_pick(s, l, NULL, 0, 0), 1);
      mx_sampler_destroy(s);
      /* With a penalty the host samples, and the tiny temperature is still greedy there: 1 and 4
       * are seen, so 2 wins. */
      p.repeat_penalty = 2;
      assert_false(mx_sampling_is_greedy(&p));
      s = mx_sampler_create(&p, 6);
      memcpy(l, base, sizeof l);
      int32_t hist[2] = {1, 4};
      assert_int_equal(mx_sampler_pick(s, l, hist, 2, 2), 2);
      mx_sampler_destroy(s);
    }
  }
  /* At and above the threshold it samples. */
  mx_sampling_t p = {.temperature = MX_SAMPLING_GREEDY_TEMPERATURE, .top_p = 1, .repeat_penalty = 1};
  assert_false(mx_sampling_is_greedy(&p));
}

/* A row holding NaN or +inf (a broken device result) must not be sampled from: the comparisons make
 * the order arbitrary and the probabilities NaN, and the draw fell to the last candidate, the least
 * likely. The documented choice is the argmax of the row's finite logits. -inf is a legitimate
 * "impossible" logit and does not trigger it, unless nothing else is left. */
static void nonfinite_rows_fall_back_to_finite_argmax(void **state) {
  (void)state;
  const float nan = NAN, inf = INFINITY;
  struct {
    float l[6];
    int32_t want; /* the argmax of the finite entries */
  } rows[] = {
      {{1, 2, nan, 5, -3, 0}, 3},
      {{nan, 2, 1, 5, -3, 0}, 3},
      {{1, 2, 4, 5, -3, nan}, 3},
      {{1, inf, 4, 5, -3, 0}, 3},
      {{1, 2, 4, 5, -inf, inf}, 3},
      {{nan, nan, nan, nan, nan, nan}, 0}, /* nothing finite: the lowest id */
      {{-inf, -inf, -inf, -inf, -inf, -inf}, 0},
      {{-inf, -inf, 7, -inf, nan, -inf}, 2},
  };
  const mx_sampling_t modes[] = {
      {.temperature = 1, .top_p = 1, .repeat_penalty = 1},
      {.temperature = 0.7f, .top_k = 3, .top_p = 1, .repeat_penalty = 1},
      {.temperature = 1.3f, .top_p = 0.9f, .min_p = 0.05f, .repeat_penalty = 1},
      {.temperature = 1, .top_p = 1, .repeat_penalty = 1.5f},
      {.temperature = 0, .top_p = 1, .repeat_penalty = 1.5f}, /* host greedy after the penalty */
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
      for (uint64_t seed = 0; seed < 16; seed++) {
        mx_sampling_t p = modes[m];
        p.seed = seed;
        mx_sampler_t *s = mx_sampler_create(&p, 6);
        float l[6];
        memcpy(l, rows[r].l, sizeof l);
        int32_t got = mx_sampler_pick(s, l, NULL, 0, 0);
        if (got != rows[r].want) fprintf(stderr, "row %zu mode %zu seed %llu: got %d\n", r, m, (unsigned long long)seed, got);
        assert_int_equal(got, rows[r].want);
        mx_sampler_destroy(s);
      }
  /* The host's greedy argmax (a greedy sequence in a batch that fetched logits) skips NaN too. */
  const float a[4] = {nan, 1, 5, -2};
  assert_int_equal(mx_logits_argmax(a, 4), 2);
  const float b[4] = {3, nan, 5, 5};
  assert_int_equal(mx_logits_argmax(b, 4), 2);
  const float c[3] = {nan, nan, nan};
  assert_int_equal(mx_logits_argmax(c, 3), 0);
  /* A -inf entry is only impossible: a finite row around it samples as usual (top-k 1: the max). */
  mx_sampling_t p = {.temperature = 1, .top_k = 1, .top_p = 1, .repeat_penalty = 1};
  mx_sampler_t *s = mx_sampler_create(&p, 4);
  float d[4] = {-inf, 1, 3, -inf};
  assert_int_equal(mx_sampler_pick(s, d, NULL, 0, 0), 2);
  mx_sampler_destroy(s);
}

/* A penalty near 0 divides a seen token's positive logit by it: 1e-39 overflowed to +inf, and NaN
 * followed. mx_sampling_validate refuses a penalty below MX_SAMPLING_MIN_REPEAT_PENALTY (a usage
 * error naming it, which the server answers with 400); the sampler given one anyway falls back to the
 * finite argmax rather than drawing from NaN. */
static void repeat_penalty_bound(void **state) {
  (void)state;
  const float refused[] = {1e-39f, 1e-30f, 1e-3f, MX_SAMPLING_MIN_REPEAT_PENALTY / 2, 0, -1, NAN, 10.5f};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    mx_sampling_t p = {.temperature = 1, .top_p = 1, .repeat_penalty = refused[i]};
    assert_status(mx_sampling_validate(&p), MX_STAGE_USAGE, "repetition penalty");
  }
  const float accepted[] = {MX_SAMPLING_MIN_REPEAT_PENALTY, 0.5f, 1, 1.3f, 10};
  for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
    mx_sampling_t p = {.temperature = 1, .top_p = 1, .repeat_penalty = accepted[i]};
    assert_ok(mx_sampling_validate(&p));
  }
  /* Unvalidated: the seen tokens 1 and 4 become +inf; the pick is the raw row's finite argmax. */
  const float base[6] = {10.0f, 30.0f, 25.0f, -10.0f, 30.0f, 0.0f};
  for (uint64_t seed = 0; seed < 16; seed++) {
    mx_sampling_t p = {.temperature = 1, .top_p = 1, .repeat_penalty = 1e-39f, .seed = seed};
    mx_sampler_t *s = mx_sampler_create(&p, 6);
    float l[6];
    memcpy(l, base, sizeof l);
    int32_t hist[2] = {1, 4};
    assert_int_equal(mx_sampler_pick(s, l, hist, 2, 2), 1);
    mx_sampler_destroy(s);
  }
}

/* presence and frequency count the output only: history = prompt [1], then the output 4, 4, 2. */
static void presence_and_frequency_penalties(void **state) {
  (void)state;
  const float base[6] = {1.0f, 3.0f, 2.5f, -1.0f, 3.0f, 0.0f};
  const int32_t hist[4] = {1, 4, 4, 2};
  mx_sampling_t p = {.temperature = 0, .top_p = 1, .repeat_penalty = 1, .presence_penalty = 0.5f, .frequency_penalty = 0.25f};
  assert_ok(mx_sampling_validate(&p));
  assert_false(mx_sampling_is_greedy(&p)); /* the logits must come to the host */
  mx_sampler_t *s = mx_sampler_create(&p, 6);
  for (int round = 0; round < 2; round++) { /* the counts start from zero again */
    float l[6];
    memcpy(l, base, sizeof l);
    assert_int_equal(mx_sampler_pick(s, l, hist, 4, 1), 1);
    assert_true(l[1] == 3.0f);  /* in the prompt only */
    assert_true(l[4] == 2.0f);  /* 3 - (2 * 0.25 + 0.5) */
    assert_true(l[2] == 1.75f); /* 2.5 - (1 * 0.25 + 0.5) */
    assert_true(l[0] == 1.0f && l[3] == -1.0f && l[5] == 0.0f);
  }
  mx_sampler_destroy(s);
  /* Negative values encourage repeats: token 4 (3 + 2 * 0.5 + 1 = 5) beats token 1. */
  p.presence_penalty = -1, p.frequency_penalty = -0.5f;
  s = mx_sampler_create(&p, 6);
  float l[6];
  memcpy(l, base, sizeof l);
  assert_int_equal(mx_sampler_pick(s, l, hist, 4, 1), 4);
  assert_true(l[4] == 5.0f);
  mx_sampler_destroy(s);
  const float refused[] = {2.01f, -2.01f, NAN, INFINITY};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    mx_sampling_t b = {.temperature = 1, .top_p = 1, .repeat_penalty = 1, .presence_penalty = refused[i]};
    assert_status(mx_sampling_validate(&b), MX_STAGE_USAGE, "presence penalty");
    b = (mx_sampling_t){.temperature = 1, .top_p = 1, .repeat_penalty = 1, .frequency_penalty = refused[i]};
    assert_status(mx_sampling_validate(&b), MX_STAGE_USAGE, "frequency penalty");
  }
  mx_sampling_t edge = {.temperature = 1, .top_p = 1, .repeat_penalty = 1, .presence_penalty = -2, .frequency_penalty = 2};
  assert_ok(mx_sampling_validate(&edge));
}

/* logit_bias is added before anything else: +100 forces a token under greedy decoding, -100 bans the
 * likeliest ones; ids and values out of range are refused, the vocabulary checked separately. */
static void logit_bias(void **state) {
  (void)state;
  const float base[6] = {1.0f, 3.0f, 2.5f, -1.0f, 3.0f, 0.0f};
  mx_sampling_t p = {.temperature = 0, .top_p = 1, .repeat_penalty = 1, .n_bias = 1, .bias = {{3, 100}}};
  assert_ok(mx_sampling_validate(&p));
  assert_ok(mx_sampling_check_vocab(&p, 6));
  assert_false(mx_sampling_is_greedy(&p));
  mx_sampler_t *s = mx_sampler_create(&p, 6);
  float l[6];
  memcpy(l, base, sizeof l);
  assert_int_equal(mx_sampler_pick(s, l, NULL, 0, 0), 3);
  assert_true(l[3] == 99.0f);
  mx_sampler_destroy(s);
  p = (mx_sampling_t){.temperature = 0.7f, .top_p = 1, .repeat_penalty = 1, .n_bias = 2, .bias = {{1, -100}, {4, -100}}, .seed = 3};
  s = mx_sampler_create(&p, 6);
  for (int i = 0; i < 50; i++) { /* sampled: the banned tokens' weight is e^-143 of token 2's */
    memcpy(l, base, sizeof l);
    int32_t got = mx_sampler_pick(s, l, NULL, 0, 0);
    assert_true(got != 1 && got != 4);
  }
  mx_sampler_destroy(s);
  mx_sampling_t b = p;
  b.bias[1].bias = 100.5f;
  assert_status(mx_sampling_validate(&b), MX_STAGE_USAGE, "logit bias 100.5 of token 4");
  b.bias[1] = (mx_logit_bias_t){-1, 0};
  assert_status(mx_sampling_validate(&b), MX_STAGE_USAGE, "token id -1");
  b = p;
  b.n_bias = MX_SAMPLING_MAX_BIASED + 1;
  assert_status(mx_sampling_validate(&b), MX_STAGE_USAGE, "301 entries");
  b = p;
  b.bias[0].id = 6;
  assert_ok(mx_sampling_validate(&b));
  assert_status(mx_sampling_check_vocab(&b, 6), MX_STAGE_USAGE, "token id 6 is outside the vocabulary of 6");
}

/* The sampler builds its candidates without sorting the vocabulary (a sorted prefix grown by logit
 * thresholds): on every row shape and setting it must keep the same candidates, in the same order,
 * with the same probabilities as the whole row sorted (sampler_reference.h). The flat rows make the
 * prefix grow to the whole vocabulary; ties check the order among equal logits; -inf entries the
 * last threshold. */
static void candidates_equal_a_full_sort(void **state) {
  (void)state;
  const mx_sampling_t settings[] = {
      {.temperature = 1, .top_p = 1, .repeat_penalty = 1},
      {.temperature = 0.8f, .top_p = 0.95f, .repeat_penalty = 1},
      {.temperature = 0.6f, .top_p = 0.5f, .repeat_penalty = 1},
      {.temperature = 1, .top_k = 40, .top_p = 1, .repeat_penalty = 1},
      {.temperature = 1.5f, .top_k = 700, .top_p = 0.9f, .repeat_penalty = 1},
      {.temperature = 1, .top_p = 1, .min_p = 0.05f, .repeat_penalty = 1},
      {.temperature = 0.7f, .top_k = 50, .top_p = 0.8f, .min_p = 0.1f, .repeat_penalty = 1},
      {.temperature = 2, .top_p = 0.999f, .min_p = 0.001f, .repeat_penalty = 1},
  };
  const int vocabs[] = {1, 7, 1000, 5003};
  ref_rng_t rng = {0x1234567ULL};
  for (size_t v = 0; v < sizeof vocabs / sizeof vocabs[0]; v++) {
    int V = vocabs[v];
    float *row = malloc(sizeof *row * (size_t)V), *l = malloc(sizeof *l * (size_t)V);
    int32_t *want_ids = malloc(sizeof *want_ids * (size_t)V), *ids = malloc(sizeof *ids * (size_t)V);
    double *want_p = malloc(sizeof *want_p * (size_t)V), *p = malloc(sizeof *p * (size_t)V);
    for (int shape = 0; shape < REF_SHAPES; shape++)
      for (int rep = 0; rep < 3; rep++) {
        ref_row(shape, row, V, &rng);
        row[V - 1] = shape == REF_NEG_INF ? 0.5f : row[V - 1]; /* one finite entry at least */
        for (size_t c = 0; c < sizeof settings / sizeof settings[0]; c++) {
          int want = ref_candidates(&settings[c], row, V, want_ids, want_p);
          mx_sampler_t *s = mx_sampler_create(&settings[c], V);
          memcpy(l, row, sizeof *l * (size_t)V);
          int got = mx_sampler_candidates(s, l, ids, p, V);
          mx_sampler_destroy(s);
          if (got != want)
            fprintf(stderr, "V %d %s setting %zu: %d candidates, the full sort keeps %d\n", V, ref_shape_names[shape], c, got, want);
          assert_int_equal(got, want);
          for (int i = 0; i < got; i++) {
            assert_int_equal(ids[i], want_ids[i]);
            assert_true(fabs(p[i] - want_p[i]) <= 1e-12 * want_p[i] + 1e-300);
          }
        }
      }
    free(row), free(l), free(want_ids), free(ids), free(want_p), free(p);
  }
}

/* The draw follows the kept probabilities: 40000 seeded picks (at successive positions) from a row whose top-p nucleus holds a
 * handful of tokens, binned, against a chi-square bound that a correct draw exceeds with probability
 * 1e-6 (a draw that favoured one candidate by a few percent, or reached outside the nucleus, fails). */
static void draws_follow_the_kept_probabilities(void **state) {
  (void)state;
  enum { V = 3000, DRAWS = 40000 };
  float row[V], l[V];
  ref_rng_t rng = {99};
  ref_row(REF_MODEL_LIKE, row, V, &rng);
  mx_sampling_t p = {.temperature = 0.5f, .top_p = 0.97f, .repeat_penalty = 1, .seed = 2024};
  int32_t ids[V];
  double probs[V];
  mx_sampler_t *s = mx_sampler_create(&p, V);
  memcpy(l, row, sizeof l);
  int n = mx_sampler_candidates(s, l, ids, probs, V);
  assert_true(n >= 3 && n <= 64);
  static int count[V];
  static int32_t history[DRAWS + 1];
  memset(count, 0, sizeof count);
  for (int d = 0; d < DRAWS; d++) { /* the d-th after d + 1 tokens of history, as in a run */
    memcpy(l, row, sizeof l);
    count[mx_sampler_pick(s, l, history, d + 1, d + 1)]++;
  }
  mx_sampler_destroy(s);
  double chi2 = 0;
  int outside = DRAWS;
  for (int i = 0; i < n; i++) {
    double e = probs[i] * DRAWS;
    chi2 += (count[ids[i]] - e) * (count[ids[i]] - e) / e;
    outside -= count[ids[i]];
  }
  assert_int_equal(outside, 0);
  /* The 1 - 1e-6 quantile of chi-square with k = n - 1 degrees of freedom, by the Wilson-Hilferty
   * approximation (z = 4.753): k (1 - 2/(9k) + z sqrt(2/(9k)))^3. */
  double k = n - 1, bound = k * pow(1 - 2 / (9 * k) + 4.753 * sqrt(2 / (9 * k)), 3);
  if (chi2 > bound) fprintf(stderr, "chi-square %.1f over %d candidates, bound %.1f\n", chi2, n, bound);
  assert_true(chi2 <= bound);
}

/* A plain-temperature pick is the Gumbel-max draw the device makes in decode_<W>_steps: the argmax of
 * logit + T * g over every id (base/gumbel.h), computed here without the sampler's shortcut past the
 * ids that cannot win, over every row shape, temperatures up to the largest allowed, seeds above 32
 * bits and several positions. */
static void plain_pick_is_the_gumbel_argmax(void **state) {
  (void)state;
  enum { V = 3000, POS_MAX = 1000 };
  static float row[V], l[V];
  static int32_t history[POS_MAX + 1];
  const float temperatures[] = {0.3f, 1, 2.5f, 100};
  const uint64_t seeds[] = {0, 7, (1ULL << 40) + 3};
  const int positions[] = {0, 5, POS_MAX};
  ref_rng_t rng = {4242};
  for (int shape = 0; shape < REF_SHAPES; shape++)
    for (size_t t = 0; t < sizeof temperatures / sizeof *temperatures; t++)
      for (size_t k = 0; k < sizeof seeds / sizeof *seeds; k++)
        for (size_t q = 0; q < sizeof positions / sizeof *positions; q++) {
          ref_row(shape, row, V, &rng);
          mx_sampling_t p = {.temperature = temperatures[t], .top_p = 1, .repeat_penalty = 1, .seed = seeds[k]};
          assert_true(mx_sampling_is_plain(&p, V));
          uint32_t at = mx_gumbel_row(mx_gumbel_key(seeds[k]), positions[q]);
          int32_t want = -1;
          float best = -INFINITY;
          for (int i = 0; i < V; i++) {
            float score = row[i] + temperatures[t] * mx_gumbel_noise(at, i);
            if (row[i] != -INFINITY && (want < 0 || score > best)) want = i, best = score;
          }
          mx_sampler_t *s = mx_sampler_create(&p, V);
          memcpy(l, row, sizeof l);
          assert_int_equal(mx_sampler_pick(s, l, history, positions[q] + 1, positions[q] + 1), want);
          mx_sampler_destroy(s);
        }
  /* The cuts, the penalties and the bias keep the host's own draw; top-k of the whole vocabulary is no cut. */
  assert_true(mx_sampling_is_plain(&(mx_sampling_t){.temperature = 1, .top_k = V, .top_p = 1, .repeat_penalty = 1}, V));
  assert_false(mx_sampling_is_plain(&(mx_sampling_t){.temperature = 1, .top_k = 40, .top_p = 1, .repeat_penalty = 1}, V));
  assert_false(mx_sampling_is_plain(&(mx_sampling_t){.temperature = 1, .top_p = 0.9f, .repeat_penalty = 1}, V));
  assert_false(mx_sampling_is_plain(&(mx_sampling_t){.temperature = 1, .top_p = 1, .min_p = 0.1f, .repeat_penalty = 1}, V));
  assert_false(mx_sampling_is_plain(&(mx_sampling_t){.temperature = 1, .top_p = 1, .repeat_penalty = 1.1f}, V));
  assert_false(mx_sampling_is_plain(&(mx_sampling_t){.temperature = 1, .top_p = 1, .repeat_penalty = 1, .presence_penalty = 0.5f}, V));
  assert_false(mx_sampling_is_plain(&(mx_sampling_t){.temperature = 1, .top_p = 1, .repeat_penalty = 1, .n_bias = 1}, V));
  assert_false(mx_sampling_is_plain(&(mx_sampling_t){.temperature = 0, .top_p = 1, .repeat_penalty = 1}, V));
}

/* A pick under cuts (and under penalties and a bias) is the same Gumbel-max draw over the candidates:
 * the argmax of logit + T * g among mx_sampler_candidates' ids, the logits after the bias and the
 * penalties and before the temperature, for every row shape and several cuts, seeds and positions. */
static void cut_pick_is_the_gumbel_argmax_over_the_candidates(void **state) {
  (void)state;
  enum { V = 3000 };
  static float row[V], l[V];
  static int32_t history[600], ids[V];
  static double probs[V];
  const mx_sampling_t cuts[] = {{.temperature = 1, .top_k = 40, .top_p = 1, .repeat_penalty = 1},
                                {.temperature = 0.7f, .top_p = 0.9f, .repeat_penalty = 1},
                                {.temperature = 1.5f, .top_p = 1, .min_p = 0.05f, .repeat_penalty = 1},
                                {.temperature = 0.8f, .top_k = 50, .top_p = 0.95f, .min_p = 0.02f, .repeat_penalty = 1},
                                {.temperature = 1, .top_p = 0.8f, .repeat_penalty = 1.3f, .presence_penalty = 0.5f}};
  const int positions[] = {0, 17, 599};
  for (int i = 0; i < 600; i++) history[i] = (i * 37) % V;
  ref_rng_t rng = {555};
  int not_top = 0;
  for (int shape = 0; shape < REF_SHAPES; shape++)
    for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++)
      for (size_t q = 0; q < sizeof positions / sizeof *positions; q++) {
        ref_row(shape, row, V, &rng);
        mx_sampling_t p = cuts[c];
        p.seed = 1000 * (uint64_t)c + q;
        int n = positions[q] + 1;
        mx_sampler_t *s = mx_sampler_create(&p, V);
        /* the row the draw sees: the one the pick sees after the penalties, without its history the
         * candidates could not know, so the penalty cases compare the penalised row's candidates */
        memcpy(l, row, sizeof l);
        int32_t got = mx_sampler_pick(s, l, history, n, 1);
        memcpy(l, row, sizeof l);
        if (p.repeat_penalty != 1 || p.presence_penalty != 0) { /* what the pick's penalties did to the row */
          mx_sampling_t none = p;
          none.repeat_penalty = 1, none.presence_penalty = 0;
          static uint8_t seen[V];
          memset(seen, 0, sizeof seen);
          for (int i = 0; i < n; i++)
            if (!seen[history[i]]) seen[history[i]] = 1, l[history[i]] = l[history[i]] > 0 ? l[history[i]] / p.repeat_penalty : l[history[i]] * p.repeat_penalty;
          for (int i = 1; i < n; i++) /* presence: each output token once (the prompt is the first) */
            if (seen[history[i]] == 1) seen[history[i]] = 2, l[history[i]] -= p.presence_penalty;
          mx_sampler_destroy(s);
          s = mx_sampler_create(&none, V);
        }
        float pen[V];
        memcpy(pen, l, sizeof pen);
        int k = mx_sampler_candidates(s, l, ids, probs, V);
        mx_sampler_destroy(s);
        uint32_t at = mx_gumbel_row(mx_gumbel_key(p.seed), positions[q]);
        int32_t want = -1;
        float best = -INFINITY;
        for (int i = 0; i < k; i++) {
          int id = ids[i];
          float score = pen[id] + p.temperature * mx_gumbel_noise(at, id);
          if (want < 0 || score > best || (score == best && id < want)) want = id, best = score;
        }
        assert_int_equal(got, want);
        not_top += got != ids[0];
      }
  assert_true(not_top >= 10); /* draws, not the first candidate */
}

/* The plain draw follows softmax(logits / T) (the full-sort reference): 40000 picks, the d-th after
 * d + 1 tokens of history as in a run, binned (candidates expected fewer than 5 times pooled), against
 * the chi-square bound that a correct draw exceeds with probability 1e-6. */
static void plain_draws_follow_the_softmax(void **state) {
  (void)state;
  enum { V = 3000, DRAWS = 40000 };
  static float row[V], l[V];
  static int32_t history[DRAWS + 1], ids[V];
  static double probs[V];
  static int count[V];
  ref_rng_t rng = {77};
  ref_row(REF_MODEL_LIKE, row, V, &rng);
  mx_sampling_t p = {.temperature = 0.7f, .top_p = 1, .repeat_penalty = 1, .seed = 31337};
  int n = ref_candidates(&p, row, V, ids, probs);
  mx_sampler_t *s = mx_sampler_create(&p, V);
  memset(count, 0, sizeof count);
  for (int d = 0; d < DRAWS; d++) {
    memcpy(l, row, sizeof l);
    count[mx_sampler_pick(s, l, history, d + 1, d + 1)]++;
  }
  mx_sampler_destroy(s);
  double chi2 = 0, pool_e = 0, pool_o = 0;
  int bins = 0, outside = DRAWS;
  for (int i = 0; i < n; i++) {
    double e = probs[i] * DRAWS;
    outside -= count[ids[i]];
    if (e < 5) {
      pool_e += e, pool_o += count[ids[i]];
      continue;
    }
    chi2 += (count[ids[i]] - e) * (count[ids[i]] - e) / e, bins++;
  }
  if (pool_e >= 5) chi2 += (pool_o - pool_e) * (pool_o - pool_e) / pool_e, bins++;
  assert_int_equal(outside, 0);
  assert_true(bins >= 8);
  double k = bins - 1, bound = k * pow(1 - 2 / (9 * k) + 4.753 * sqrt(2 / (9 * k)), 3);
  if (chi2 > bound) fprintf(stderr, "chi-square %.1f over %d bins, bound %.1f\n", chi2, bins, bound);
  assert_true(chi2 <= bound);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sampler_behaves),
      cmocka_unit_test(tiny_temperature_is_greedy),
      cmocka_unit_test(nonfinite_rows_fall_back_to_finite_argmax),
      cmocka_unit_test(repeat_penalty_bound),
      cmocka_unit_test(presence_and_frequency_penalties),
      cmocka_unit_test(logit_bias),
      cmocka_unit_test(candidates_equal_a_full_sort),
      cmocka_unit_test(draws_follow_the_kept_probabilities),
      cmocka_unit_test(cut_pick_is_the_gumbel_argmax_over_the_candidates),
      cmocka_unit_test(plain_pick_is_the_gumbel_argmax),
      cmocka_unit_test(plain_draws_follow_the_softmax),
  };
  return cmocka_run_group_tests_name("engine/sampler", tests, NULL, NULL);
}
