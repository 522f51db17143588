/* The tiny Llama config the hlo/llama tests emit and run (test_llama.c, test_llama_iree.c): one
 * layer, dim 16, a vocabulary of 40. tests/unit/golden/llama_tiny.mlir pins its graph. */
#ifndef MX_TESTS_LLAMA_TINY_H
#define MX_TESTS_LLAMA_TINY_H

#include "testutil.h"

#include "hlo/llama.h"

static const mx_model_config_t tiny = {.arch = "llama", .n_layers = 1, .dim = 16, .n_heads = 2, .n_kv_heads = 1,
                                       .head_dim = 8, .ffn_dim = 32, .vocab = 40, .max_position = 64,
                                       .rope_theta = 10000, .norm_eps = 1e-5f, .tied_embeddings = true};

/* Capacity 16: prefill buckets 4 and 16, decode windows 8 and 16, a score function of 8; `steps` > 1
 * adds the multi-step decode; `expand` picks the expanded decode attention (attend_decode), `rows`
 * > 0 splits a batched step's weight products into products of that many rows (linear). */
/* `grouped_slots` > 0: the grouped-rows decode attention at that many slots, its values stored
 * transposed as mx_llama_graph_make stores them for it. */
static inline char *emit_config_form_grouped(const mx_model_config_t *c, int slots, int steps, bool expand, int rows, int head_slots,
                                             int head_window, int grouped_slots) {
  mx_llama_graph_t g = {.config = c, .matmul = MX_F32, .kv = MX_F32, .weight_dtype = MX_F32, .slots = slots, .capacity = 16, .kv_rows = 16,
                        .n_buckets = 2, .buckets = {4, 16}, .score_len = 8, .n_windows = 2, .windows = {8, 16},
                        .decode_steps = steps, .expand_kv_groups = expand, .head_attention_slots = head_slots, .head_attention_window = head_window,
                        .grouped_attention_slots = grouped_slots, .product_rows = rows};
  g.values_transposed = mx_llama_grouped_rows(&g);
  char *text;
  assert_ok(mx_llama_emit(&g, &text));
  return text;
}
static inline char *emit_config_form_window(const mx_model_config_t *c, int slots, int steps, bool expand, int rows, int head_slots,
                                            int head_window) {
  return emit_config_form_grouped(c, slots, steps, expand, rows, head_slots, head_window, 0);
}
static inline char *emit_config_form(const mx_model_config_t *c, int slots, int steps, bool expand, int rows, int head_slots) {
  return emit_config_form_window(c, slots, steps, expand, rows, head_slots, 0);
}

/* `head_slots` > 0: the per-head decode attention from that many slots on (attend_decode). */
static inline char *emit_tiny_form_heads(int slots, int steps, bool expand, int rows, int head_slots) {
  return emit_config_form(&tiny, slots, steps, expand, rows, head_slots);
}
static inline char *emit_tiny_form(int slots, int steps, bool expand, int rows) { return emit_tiny_form_heads(slots, steps, expand, rows, 0); }

static inline char *emit_tiny_graph(int slots, int steps) { return emit_tiny_form(slots, steps, false, 0); }
static inline char *emit_tiny_slots(int slots) { return emit_tiny_graph(slots, 1); }
static inline char *emit_tiny(void) { return emit_tiny_slots(1); }

#endif
