/* tests/oracle/warpers_parity.py's view of engine/sampler: for each case read from stdin, one line
 *   TEMPERATURE TOP_K TOP_P MIN_P SEED DRAWS V LOGIT_0 ... LOGIT_{V-1}
 * (logits as C's strtof reads them, "-inf" included), it writes two lines: the candidates in drawing
 * order with their probabilities, "N id:prob ...", and how often DRAWS seeded picks chose each of them,
 * "counts c_0 ... c_{N-1} outside", outside counting picks that were not candidates. Pick d is made
 * after a history of d + 1 prompt tokens, as the d-th token of a run would be: the plain-temperature
 * draw (base/gumbel.h) depends on the position, not on state carried from pick to pick. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sampler.h"

int main(void) {
  mx_sampling_t p = {.repeat_penalty = 1};
  unsigned long long seed;
  int draws, V;
  while (scanf("%f %d %f %f %llu %d %d", &p.temperature, &p.top_k, &p.top_p, &p.min_p, &seed, &draws, &V) == 7) {
    p.seed = seed;
    mx_status_t st = mx_sampling_validate(&p);
    if (st || V < 1 || draws < 0) {
      fprintf(stderr, "sampler_dump: bad case (%s)\n", st ? mx_status_message(st) : "V or DRAWS");
      return 2;
    }
    float *row = malloc(sizeof *row * (size_t)V), *l = malloc(sizeof *l * (size_t)V);
    int32_t *ids = malloc(sizeof *ids * (size_t)V), *history = calloc((size_t)draws + 1, sizeof *history);
    double *probs = malloc(sizeof *probs * (size_t)V);
    int *count = calloc((size_t)V, sizeof *count), *slot = malloc(sizeof *slot * (size_t)V);
    char word[64];
    for (int i = 0; i < V; i++) {
      if (scanf("%63s", word) != 1) return 2;
      row[i] = strtof(word, NULL);
    }
    mx_sampler_t *s = mx_sampler_create(&p, V);
    memcpy(l, row, sizeof *l * (size_t)V);
    int n = mx_sampler_candidates(s, l, ids, probs, V);
    printf("%d", n);
    for (int i = 0; i < V; i++) slot[i] = -1;
    for (int i = 0; i < n; i++) printf(" %d:%.17g", ids[i], probs[i]), slot[ids[i]] = i;
    int outside = 0;
    for (int d = 0; d < draws; d++) {
      memcpy(l, row, sizeof *l * (size_t)V);
      int32_t got = mx_sampler_pick(s, l, history, d + 1, d + 1); /* no output yet: the penalties see none */
      if (got >= 0 && got < V && slot[got] >= 0)
        count[slot[got]]++;
      else
        outside++;
    }
    printf("\ncounts");
    for (int i = 0; i < n; i++) printf(" %d", count[i]);
    printf(" %d\n", outside);
    mx_sampler_destroy(s);
    free(row), free(l), free(ids), free(probs), free(count), free(slot), free(history);
  }
  return 0;
}
