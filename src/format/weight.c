#include "format/weight.h"

#include <stdlib.h>

int64_t mx_weight_count(const mx_weight_t *w) {
  int64_t n = 1;
  for (int i = 0; i < w->rank; i++) n *= w->shape[i];
  return n;
}

static int cmp_span(const void *a, const void *b) {
  const mx_span_t *x = a, *y = b;
  return (x->begin > y->begin) - (x->begin < y->begin);
}

int mx_spans_first_overlap(mx_span_t *spans, int n) {
  if (n < 2) return -1;
  qsort(spans, (size_t)n, sizeof *spans, cmp_span);
  for (int i = 1; i < n; i++)
    if (spans[i].begin < spans[i - 1].end) return i;
  return -1;
}
