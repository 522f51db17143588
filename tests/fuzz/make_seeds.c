/* Writes seed inputs for the fuzzers into DIR/fuzz_gguf/: a valid tiny GGUF (so the GGUF fuzzer
 * starts from a file that reaches the tensor and tokenizer code) and one holding a tensor of every
 * block type (so it reaches each dequantizer with bytes of that type's size), and SentencePiece
 * vocabularies of architectures gemma3 and llama (position- and score-ranked merges); into
 * DIR/fuzz_tokenizer_json/: a SentencePiece-style tokenizer.json and a byte-level one. */
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

static int write_seed_in(const char *dir, const char *target, const char *name, uint8_t *b, size_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s/%s", dir, target, name);
  FILE *f = fopen(path, "wb");
  int rc = f && fwrite(b, 1, n, f) == n ? 0 : 1;
  if (f) fclose(f);
  free(b);
  return rc;
}

static int write_seed(const char *dir, const char *name, uint8_t *b, size_t n) { return write_seed_in(dir, "fuzz_gguf", name, b, n); }

/* A tokenizer.json with the 256 byte tokens (SentencePiece: <0xXX>; byte-level: GPT-2's characters), a
 * few pieces and merges, and a pipeline. */
static uint8_t *tokenizer_json(bool spm, size_t *size) {
  size_t cap = 16384, n = 0;
  char *s = malloc(cap);
  if (!s) abort();
  n += (size_t)snprintf(s + n, cap - n, "{\"model\":{\"type\":\"BPE\",\"byte_fallback\":%s,\"vocab\":{\"<s>\":0", spm ? "true" : "false");
  for (int b = 0; b < 256; b++) {
    if (spm) n += (size_t)snprintf(s + n, cap - n, ",\"<0x%02X>\":%d", b, 1 + b);
    else { /* GPT-2's character for the byte, escaped for JSON where it is a quote or a backslash */
      char u[4];
      int len = mx_utf8_encode(mx_bytelevel_char((uint8_t)b), u);
      n += (size_t)snprintf(s + n, cap - n, ",\"%s%.*s\":%d", b == '"' || b == '\\' ? "\\" : "", len, u, 1 + b);
    }
  }
  if (spm)
    n += (size_t)snprintf(s + n, cap - n, ",\"\\u2581\":300,\"a\":301,\"b\":302,\"\\u2581a\":303,\"ab\":304},\"merges\":[\"\\u2581 a\",\"a b\"]},"
                         "\"normalizer\":null,\"pre_tokenizer\":{\"type\":\"Metaspace\",\"replacement\":\"\\u2581\",\"prepend_scheme\":\"first\","
                         "\"split\":true},\"decoder\":{\"type\":\"Sequence\",\"decoders\":[{\"type\":\"Replace\",\"pattern\":{\"String\":"
                         "\"\\u2581\"},\"content\":\" \"},{\"type\":\"ByteFallback\"},{\"type\":\"Fuse\"},{\"type\":\"Strip\",\"content\":\" \","
                         "\"start\":1,\"stop\":0}]},");
  else
    n += (size_t)snprintf(s + n, cap - n, ",\"ab\":300},\"merges\":[[\"a\",\"b\"]]},\"normalizer\":{\"type\":\"NFC\"},"
                         "\"pre_tokenizer\":{\"type\":\"ByteLevel\","
                         "\"add_prefix_space\":false},\"decoder\":{\"type\":\"ByteLevel\"},");
  n += (size_t)snprintf(s + n, cap - n, "\"added_tokens\":[{\"id\":0,\"content\":\"<s>\",\"special\":true}]}");
  *size = n;
  return (uint8_t *)s;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  size_t n, m;
  uint8_t *tiny = gw_tiny_llama(&n), *blocks = block_types_gguf(&m);
  int rc = write_seed(argv[1], "tiny.gguf", tiny, n) | write_seed(argv[1], "block-types.gguf", blocks, m);
  size_t k;
  uint8_t *spm = gw_spm_vocab("gemma3", &k); /* reaches the SentencePiece loader (load_spm.c) */
  rc |= write_seed(argv[1], "spm.gguf", spm, k);
  spm = gw_spm_vocab("llama", &k);
  rc |= write_seed(argv[1], "spm-llama.gguf", spm, k);
  uint8_t *tj = tokenizer_json(true, &k);
  rc |= write_seed_in(argv[1], "fuzz_tokenizer_json", "spm.json", tj, k);
  tj = tokenizer_json(false, &k);
  return rc | write_seed_in(argv[1], "fuzz_tokenizer_json", "bytelevel.json", tj, k);
}
