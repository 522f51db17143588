/* libFuzzer target: GGUF metadata and tensor-info parsing, then every typed getter the model and
 * tokenizer loaders use, and the dequantization of each tensor's first blocks (every block type's
 * decoder, format/wtype.c), on arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>

#include "format/gguf.h"
#include "format/wtype.h"
#include "tokenizer/tokenizer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mx_gguf_t *g = NULL;
  mx_status_t st = mx_gguf_parse(data, size, "fuzz.gguf", 0, &g);
  if (!st) {
    for (int i = 0; i < g->n_tensors; i++)
      if (g->tensors[i].data < data || g->tensors[i].data + g->tensors[i].nbytes > data + size) abort();
    for (int i = 0; i < g->n_tensors; i++) { /* up to 512 elements of whole blocks, within the tensor's bytes */
      const mx_weight_t *w = &g->tensors[i];
      uint64_t be = (uint64_t)mx_wtype_block_elems(w->type), bb = (uint64_t)mx_wtype_block_bytes(w->type), n = 0;
      while (n + be <= 512 && (n / be + 1) * bb <= w->nbytes) n += be;
      static float out[512];
      if (n) mx_wtype_to_f32(w->type, w->data, n, out);
    }
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
