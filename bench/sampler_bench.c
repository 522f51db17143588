/* Host sampler cost per pick: engine/sampler (candidates by radix select, no sort) against the whole row
 * sorted (tests/unit/sampler_reference.h, what the engine did until 2026-12-06), on rows of Llama 3's
 * and SmolLM2's vocabulary sizes. Prints one table: median (min..max) ms per pick over RUNS runs of
 * PICKS picks each, after one warm-up run.
 *   make bench-sampler && build/bench/sampler_bench [RUNS (3)] [PICKS (20)] */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../tests/unit/sampler_reference.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ms per pick of one run: the engine's sampler, or the reference's candidates plus a draw. */
static double run_once(const mx_sampling_t *p, const float *row, int V, int picks, int engine, float *l, int32_t *ids, double *probs) {
  mx_sampler_t *s = mx_sampler_create(p, V);
  volatile int32_t sink = 0;
  double t0 = now_ms();
  for (int i = 0; i < picks; i++) {
    memcpy(l, row, sizeof *l * (size_t)V);
    if (engine)
      sink += mx_sampler_pick(s, l, NULL, 0, 0);
    else
      sink += ids[ref_candidates(p, l, V, ids, probs) / 2];
  }
  double ms = (now_ms() - t0) / picks;
  mx_sampler_destroy(s);
  (void)sink;
  return ms;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 3, picks = argc > 2 ? atoi(argv[2]) : 20;
  if (runs < 1 || picks < 1) {
    fprintf(stderr, "sampler_bench: usage: sampler_bench [RUNS >= 1] [PICKS >= 1]\n");
    return 2;
  }
  const struct {
    const char *name;
    mx_sampling_t p;
  } settings[] = {
      {"T 1", {.temperature = 1, .top_p = 1, .repeat_penalty = 1}},
      {"T 0.8 top-p 0.95", {.temperature = 0.8f, .top_p = 0.95f, .repeat_penalty = 1}},
      {"T 1 top-k 40", {.temperature = 1, .top_k = 40, .top_p = 1, .repeat_penalty = 1}},
      {"T 1 min-p 0.05", {.temperature = 1, .top_p = 1, .min_p = 0.05f, .repeat_penalty = 1}},
  };
  const int vocabs[] = {128256, 49152};
  const int shapes[] = {REF_MODEL_LIKE, REF_FLAT};
  printf("| vocab | row | setting | kept | engine ms/pick | full sort ms/pick |\n|---|---|---|---|---|---|\n");
  for (size_t v = 0; v < 2; v++) {
    int V = vocabs[v];
    float *row = malloc(sizeof *row * (size_t)V), *l = malloc(sizeof *l * (size_t)V);
    int32_t *ids = malloc(sizeof *ids * (size_t)V);
    double *probs = malloc(sizeof *probs * (size_t)V), t[2][64];
    ref_rng_t rng = {7};
    for (size_t sh = 0; sh < 2; sh++) {
      ref_row(shapes[sh], row, V, &rng);
      for (size_t c = 0; c < sizeof settings / sizeof settings[0]; c++) {
        int kept = ref_candidates(&settings[c].p, row, V, ids, probs);
        for (int engine = 0; engine < 2; engine++) {
          run_once(&settings[c].p, row, V, picks, engine, l, ids, probs); /* warm-up */
          for (int r = 0; r < runs && r < 64; r++) t[engine][r] = run_once(&settings[c].p, row, V, picks, engine, l, ids, probs);
          qsort(t[engine], (size_t)(runs < 64 ? runs : 64), sizeof(double), cmp_double);
        }
        int n = runs < 64 ? runs : 64;
        printf("| %d | %s | %s | %d | %.3f (%.3f..%.3f) | %.3f (%.3f..%.3f) |\n", V, ref_shape_names[shapes[sh]], settings[c].name, kept,
               t[1][n / 2], t[1][0], t[1][n - 1], t[0][n / 2], t[0][0], t[0][n - 1]);
        fflush(stdout);
      }
    }
    free(row), free(l), free(ids), free(probs);
  }
  return 0;
}
