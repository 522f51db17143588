/* libFuzzer target: an HF tokenizer.json from untrusted bytes (src/tokenizer/load_hf.c: the byte-level
 * and the SentencePiece-style pipelines, their refusals), then, when it loads, an encode of a fixed text
 * (spaces, an added-token look-alike, a character outside small vocabularies, a decomposed one for NFC)
 * and the decodes of its ids, whole and streamed, which must agree. The input is written to a private
 * folder's tokenizer.json, as the loader reads a model folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tokenizer/tokenizer.h"

static char dir[] = "/tmp/mlxcel-fuzz-tokjson-XXXXXX";
static char path[sizeof dir + 16];

static void cleanup(void) {
  unlink(path);
  rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  if (!mkdtemp(dir)) abort();
  snprintf(path, sizeof path, "%s/tokenizer.json", dir);
  atexit(cleanup);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size) abort();
  fclose(f);
  mx_tokenizer_t *t = NULL;
  mx_status_t st = mx_tokenizer_load_hf(dir, &t);
  if (st) {
    mx_status_free(st);
    return 0;
  }
  static const char text[] = "  Hello world <s>ab\xc3\xa9 12345 e\xcc\x81\n"; /* the last: e + U+0301 (NFC) */
  mx_ids_t ids = {0};
  st = mx_tokenizer_encode(t, text, sizeof text - 1, true, &ids);
  if (!st) {
    mx_strbuf_t whole, streamed;
    mx_strbuf_init(&whole);
    mx_strbuf_init(&streamed);
    mx_detok_stream_t s;
    mx_detok_stream_init(&s);
    st = mx_tokenizer_decode(t, ids.ids, ids.n, false, &whole);
    for (size_t i = 0; !st && i < ids.n; i++) st = mx_detok_stream_push(t, &s, ids.ids[i], false, &streamed);
    mx_detok_stream_finish(&s, &streamed);
    if (!st && (whole.len != streamed.len || (whole.len && memcmp(whole.data, streamed.data, whole.len) != 0))) abort();
    mx_strbuf_free(&whole);
    mx_strbuf_free(&streamed);
  }
  mx_status_free(st);
  mx_ids_free(&ids);
  mx_tokenizer_close(t);
  return 0;
}
