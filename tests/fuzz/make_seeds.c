/* Writes seed inputs for the fuzzers into DIR/fuzz_gguf/: a valid tiny GGUF (so the GGUF fuzzer
 * starts from a file that reaches the tensor and tokenizer code) and one holding a tensor of every
 * block type (so it reaches each dequantizer with bytes of that type's size), and a SentencePiece
 * vocabulary of architecture gemma3. */
#include <stdio.h>
#include <stdlib.h>

#include "../unit/gguf_writer.h"

static uint8_t *block_types_gguf(size_t *size) {
  static const struct {
    uint32_t ggml;
    mx_wtype_t wt;
  } types[] = {{2, MX_W_Q4_0}, {3, MX_W_Q4_1}, {6, MX_W_Q5_0},  {7, MX_W_Q5_1},   {8, MX_W_Q8_0},   {10, MX_W_Q2_K},
               {11, MX_W_Q3_K}, {12, MX_W_Q4_K}, {13, MX_W_Q5_K}, {14, MX_W_Q6_K}, {20, MX_W_IQ4_NL}, {23, MX_W_IQ4_XS}};
  int nt = (int)(sizeof types / sizeof types[0]);
  gw_buf_t b = {0};
  gw_put(&b, "GGUF", 4);
  gw_u32(&b, 3);
  gw_u64(&b, (uint64_t)nt);
  gw_u64(&b, 1);
  gw_kv_str(&b, "general.architecture", "llama");
  uint64_t off = 0;
  for (int i = 0; i < nt; i++) {
    char name[32];
    snprintf(name, sizeof name, "t%d.weight", i);
    gw_str(&b, name);
    gw_u32(&b, 2);
    gw_u64(&b, 256);
    gw_u64(&b, 2);
    gw_u32(&b, types[i].ggml);
    gw_u64(&b, off);
    uint64_t nbytes;
    mx_wtype_nbytes(types[i].wt, 512, &nbytes);
    off += (nbytes + 31) / 32 * 32;
  }
  while (b.len % 32) gw_put(&b, "", 1);
  for (uint64_t i = 0; i < off; i++) {
    uint8_t v = (uint8_t)(i * 73u + 11u);
    gw_put(&b, &v, 1);
  }
  *size = b.len;
  return b.buf;
}

static int write_seed(const char *dir, const char *name, uint8_t *b, size_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/fuzz_gguf/%s", dir, name);
  FILE *f = fopen(path, "wb");
  int rc = f && fwrite(b, 1, n, f) == n ? 0 : 1;
  if (f) fclose(f);
  free(b);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  size_t n, m;
  uint8_t *tiny = gw_tiny_llama(&n), *blocks = block_types_gguf(&m);
  int rc = write_seed(argv[1], "tiny.gguf", tiny, n) | write_seed(argv[1], "block-types.gguf", blocks, m);
  size_t k;
  uint8_t *spm = gw_spm_vocab("gemma3", &k); /* reaches the SentencePiece loader (load_spm.c) */
  return rc | write_seed(argv[1], "spm.gguf", spm, k);
}
