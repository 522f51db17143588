#ifndef MX_BASE_SUMMARY_H
#define MX_BASE_SUMMARY_H
/* Median, min and max of repeated timings. Sorts xs in place. */
typedef struct {
  double median, min, max;
  int n;
} mx_summary_t;
mx_summary_t mx_summarize(double *xs, int n);
#endif
