/* libFuzzer target: the safetensors header parser on arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>

#include "format/safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mx_weight_t *w = NULL;
  int n = 0;
  mx_status_t st = mx_safetensors_parse(data, size, "fuzz.safetensors", 0, &w, &n);
  if (!st) {
    /* Every accepted tensor must lie inside the input. */
    for (int i = 0; i < n; i++)
      if (w[i].data < data || w[i].data + w[i].nbytes > data + size) abort();
  }
  mx_status_free(st);
  free(w);
  return 0;
}
