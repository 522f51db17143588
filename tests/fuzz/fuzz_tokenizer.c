/* libFuzzer target: the tokenizer on untrusted input. The first byte picks the mode:
 *   even: encode the rest as text (invalid UTF-8 must be refused, valid text must round-trip);
 *   odd:  decode the rest as little-endian 16-bit token ids, streaming and whole, which must agree.
 * The tokenizer is the model's named by MLXCEL_FUZZ_MODEL (e.g. Gemma 3's SentencePiece one), else the
 * SmolLM2 GGUF's when the default model is in the cache, else a tiny byte-level vocabulary built in
 * memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/gguf_writer.h"
#include "base/utf8.h"
#include "tokenizer/tokenizer.h"

static mx_tokenizer_t *tok;
static bool all_bytes;  /* every byte has a single-byte token */
static bool space_mark; /* SentencePiece: U+2581 in the text decodes as a space, as in HF */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  const char *path = getenv("MLXCEL_FUZZ_MODEL");
  char def[4096];
  if (!path && getenv("HOME")) {
    snprintf(def, sizeof def, "%s/.cache/mlxcel/models/SmolLM2-135M-Instruct.Q4_1.gguf", getenv("HOME"));
    FILE *f = fopen(def, "rb");
    if (f) fclose(f), path = def;
  }
  mx_status_t st;
  if (path) {
    st = mx_tokenizer_open(path, &tok);
  } else {
    size_t n;
    uint8_t *b = gw_tiny_llama(&n);
    mx_gguf_t *g;
    st = mx_gguf_parse(b, n, "tiny.gguf", 0, &g);
    if (!st) st = mx_tokenizer_load_gguf(g, "tiny.gguf", &tok);
    mx_gguf_free(g);
    free(b);
  }
  if (st) {
    mx_status_print(stderr, st);
    abort();
  }
  bool have[256] = {false};
  for (int32_t id = 0; id < mx_tokenizer_vocab_size(tok); id++) {
    size_t len;
    const char *t = mx_tokenizer_token_bytes(tok, id, &len);
    if (t && len == 1) have[(uint8_t)t[0]] = true;
  }
  all_bytes = true;
  for (int b = 0; b < 256; b++) all_bytes = all_bytes && have[b];
  mx_ids_t ids = {0};
  mx_strbuf_t out;
  mx_strbuf_init(&out);
  if (!mx_tokenizer_encode(tok, "\xe2\x96\x81", 3, false, &ids) && !mx_tokenizer_decode(tok, ids.ids, ids.n, false, &out))
    space_mark = out.len == 1 && out.data[0] == ' ';
  mx_strbuf_free(&out);
  mx_ids_free(&ids);
  fprintf(stderr, "fuzz_tokenizer: vocabulary of %d tokens from %s\n", mx_tokenizer_vocab_size(tok), path ? path : "memory");
  return 0;
}

static void check_encode(const uint8_t *p, size_t n) {
  mx_ids_t ids = {0};
  mx_status_t st = mx_tokenizer_encode(tok, (const char *)p, n, false, &ids);
  bool valid = mx_utf8_valid_prefix(p, n) == n;
  if ((st != NULL) == valid) abort(); /* refused exactly when invalid */
  if (!st) {
    mx_strbuf_t out;
    mx_strbuf_init(&out);
    if (mx_tokenizer_decode(tok, ids.ids, ids.n, false, &out)) abort();
    /* Round trip, unless the vocabulary cannot spell some byte (HF drops such bytes too); a SentencePiece
     * vocabulary gives U+2581 back as a space. */
    mx_strbuf_t want;
    mx_strbuf_init(&want);
    for (size_t i = 0; i < n;) {
      bool mark = space_mark && n - i >= 3 && !memcmp(p + i, "\xe2\x96\x81", 3);
      mx_strbuf_append(&want, mark ? " " : (const char *)p + i, 1);
      i += mark ? 3 : 1;
    }
    if (all_bytes && (out.len != want.len || (want.len && memcmp(out.data, want.data, want.len)))) abort();
    mx_strbuf_free(&want);
    mx_strbuf_free(&out);
  }
  mx_status_free(st);
  mx_ids_free(&ids);
}

static void check_decode(const uint8_t *p, size_t n) {
  size_t count = n / 2;
  int32_t *ids = malloc((count + 1) * sizeof *ids);
  for (size_t i = 0; i < count; i++) ids[i] = (int32_t)(p[2 * i] | (p[2 * i + 1] << 8)) % (mx_tokenizer_vocab_size(tok) + 8);
  mx_strbuf_t whole, streamed;
  mx_strbuf_init(&whole);
  mx_strbuf_init(&streamed);
  mx_status_t st = mx_tokenizer_decode(tok, ids, count, false, &whole);
  if (!st) {
    mx_detok_stream_t s;
    mx_detok_stream_init(&s);
    for (size_t i = 0; i < count; i++)
      if (mx_detok_stream_push(tok, &s, ids[i], false, &streamed)) abort();
    mx_detok_stream_finish(&s, &streamed);
    if (streamed.len != whole.len || (whole.len && memcmp(streamed.data, whole.data, whole.len))) abort();
  }
  mx_status_free(st);
  mx_strbuf_free(&whole);
  mx_strbuf_free(&streamed);
  free(ids);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) check_encode(data + 1, size - 1);
  else check_decode(data + 1, size - 1);
  return 0;
}
