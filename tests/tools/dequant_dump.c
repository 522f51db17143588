/* tests/oracle/dequant_parity.py's view of format/wtype.c: dequantizes a file of raw GGUF blocks of
 * one type to raw little-endian f32.   dequant_dump TYPE IN.bin OUT.f32   (TYPE as mx_wtype_name) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/wtype.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: dequant_dump TYPE IN.bin OUT.f32\n");
    return 2;
  }
  int t = 0;
  while (t < MX_W_COUNT && strcmp(mx_wtype_name((mx_wtype_t)t), argv[1]) != 0) t++;
  if (t == MX_W_COUNT || mx_wtype_block_elems((mx_wtype_t)t) < 2) {
    fprintf(stderr, "dequant_dump: '%s' is not a block type\n", argv[1]);
    return 2;
  }
  FILE *f = fopen(argv[2], "rb");
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *in = malloc((size_t)n + 1);
  if (!in || fread(in, 1, (size_t)n, f) != (size_t)n) return 1;
  fclose(f);
  int bb = mx_wtype_block_bytes((mx_wtype_t)t), be = mx_wtype_block_elems((mx_wtype_t)t);
  if (n % bb) {
    fprintf(stderr, "dequant_dump: %ld bytes is not a whole number of %d-byte blocks\n", n, bb);
    return 2;
  }
  uint64_t count = (uint64_t)(n / bb) * (uint64_t)be;
  float *out = malloc(sizeof(float) * (size_t)count + 1);
  if (!out) return 1;
  mx_wtype_to_f32((mx_wtype_t)t, in, count, out);
  FILE *o = fopen(argv[3], "wb");
  if (!o || fwrite(out, sizeof(float), (size_t)count, o) != (size_t)count || fclose(o) != 0) return 1;
  free(in);
  free(out);
  return 0;
}
