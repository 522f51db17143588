#include "base/summary.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

mx_summary_t mx_summarize(double *xs, int n) {
  mx_summary_t s = {0, 0, 0, n};
  if (n <= 0) return s;
  qsort(xs, (size_t)n, sizeof *xs, cmp_double);
  s.min = xs[0];
  s.max = xs[n - 1];
  s.median = n % 2 ? xs[n / 2] : 0.5 * (xs[n / 2 - 1] + xs[n / 2]);
  return s;
}
