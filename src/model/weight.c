#include "model/weight.h"

int64_t mx_weight_count(const mx_weight_t *w) {
  int64_t n = 1;
  for (int i = 0; i < w->rank; i++) n *= w->shape[i];
  return n;
}
