/* libFuzzer target: GGUF metadata and tensor-info parsing, then every typed getter the model and
 * tokenizer loaders use, on arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>

#include "format/gguf.h"
#include "tokenizer/tokenizer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mx_gguf_t *g = NULL;
  mx_status_t st = mx_gguf_parse(data, size, "fuzz.gguf", 0, &g);
  if (!st) {
    for (int i = 0; i < g->n_tensors; i++)
      if (g->tensors[i].data < data || g->tensors[i].data + g->tensors[i].nbytes > data + size) abort();
    uint32_t u;
    float f;
    bool b;
    const char *s;
    size_t len;
    mx_gguf_get_u32(g, "llama.block_count", &u);
    mx_gguf_get_f32(g, "llama.rope.freq_base", &f);
    mx_gguf_get_bool(g, "tokenizer.ggml.add_bos_token", &b);
    mx_gguf_get_str(g, "general.architecture", &s, &len);
    mx_tokenizer_t *t = NULL;
    mx_status_free(mx_tokenizer_load_gguf(g, "fuzz.gguf", &t));
    mx_tokenizer_close(t);
    mx_gguf_free(g);
  }
  mx_status_free(st);
  return 0;
}
