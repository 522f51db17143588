/* Writes seed inputs for the fuzzers: a valid tiny GGUF (so the GGUF fuzzer starts from a file that
 * reaches the tensor and tokenizer code) into DIR/fuzz_gguf/. */
#include <stdio.h>
#include <stdlib.h>

#include "../unit/gguf_writer.h"

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  size_t n;
  uint8_t *b = gw_tiny_llama(&n);
  char path[4096];
  snprintf(path, sizeof path, "%s/fuzz_gguf/tiny.gguf", argv[1]);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(b, 1, n, f) != n) return 1;
  fclose(f);
  free(b);
  return 0;
}
