/* The session's memory estimate and its check (engine/memory): the figures for a graph whose bytes
 * are counted here by hand, the largest buffer's choice, saturation on absurd shapes, MemAvailable
 * parsing, and the refusal's one line with the bytes needed and available. Offline: no IREE. */
#include "testutil.h"

#include "engine/memory.h"
#include "llama_tiny.h"

static mx_llama_graph_t tiny_graph(int slots, int capacity, int score_len, bool expand) {
  mx_llama_graph_options_t o = {.precision = MX_F32, .weight_dtype = MX_F32, .slots = slots, .capacity = capacity,
                                .score_len = score_len, .decode_steps = 1, .expand_kv_groups = expand};
  mx_llama_graph_t g;
  assert_ok(mx_llama_graph_make(&tiny, &o, &g));
  return g;
}

/* tiny: 1 layer, dim 16, 2 heads / 1 KV head of 8, ffn 32, vocab 40, tied embeddings. */
static void estimate_counts_the_graphs_buffers(void **state) {
  (void)state;
  mx_llama_graph_t g = tiny_graph(1, 16, 8, false);
  mx_memory_estimate_t e;
  mx_memory_estimate(&g, &e);
  /* embed 40x16 + final norm 16 + one layer (2 norms of 16, q 16x16, k and v 8x16, o 16x16, gate
   * and up 32x16, down 16x32): 2992 f32 parameters; no LM head (tied). */
  assert_int_equal(e.weights, 2992 * 4);
  /* K and V: 2 x 1 layer x 1 slot x 16 positions x 1 KV head x 8 x 4 bytes. */
  assert_int_equal(e.kv, 2 * 16 * 8 * 4);
  /* The 16-token prefill's scores, 2 heads x 16 x 16 x 4 bytes, tie with its MLP (16 x 32 x 4); the
   * scores, considered first, are named. */
  assert_int_equal(e.activation, 2 * 16 * 16 * 4);
  assert_non_null(strstr(e.activation_what, "16-token prefill's attention scores"));
  assert_int_equal(e.total, e.weights + e.kv + e.activation);

  /* f16 weights halve the parameters; 4 slots multiply the cache. */
  mx_llama_graph_t h = g;
  h.weight_dtype = MX_F16;
  mx_memory_estimate(&h, &e);
  assert_int_equal(e.weights, 2992 * 2);
  g = tiny_graph(4, 16, 0, true);
  mx_memory_estimate(&g, &e);
  assert_int_equal(e.kv, 4 * 2 * 16 * 8 * 4);
  /* Expanded decode attention: the repeated window, 4 slots x 2 heads x 16 x 8 x 4 bytes, is now the
   * largest buffer. */
  assert_int_equal(e.activation, 4 * 2 * 16 * 8 * 4);
  assert_non_null(strstr(e.activation_what, "repeated KV window (4 slots)"));

  /* A score function of 16 positions: its logits, 16 x 40 x 4 = 2560 bytes, beat every scores buffer. */
  g = tiny_graph(1, 16, 16, false);
  mx_memory_estimate(&g, &e);
  assert_int_equal(e.activation, 16 * 40 * 4);
  assert_non_null(strstr(e.activation_what, "score_16's logits"));

  /* Stacks concatenated at load: q, k, v, gate and up (16x16 + 2 x 8x16 + 2 x 32x16 = 1536 f32, 6144
   * bytes) held while the initializer writes the stacks, above every call's buffer here; with the
   * files' views there is no concatenation. */
  g = tiny_graph(1, 16, 0, false);
  g.fuse_products = true;
  mx_memory_estimate(&g, &e);
  assert_int_equal(e.activation, 1536 * 4);
  assert_non_null(strstr(e.activation_what, "stacked weight parts"));
  g.stacked_params = true;
  mx_memory_estimate(&g, &e);
  assert_true(e.activation < 1536 * 4);
}

/* --quant packed: each weight as the plan carries it (model/packing.h), the norms in the weight type. */
static void packed_weights_count_as_the_plan_carries_them(void **state) {
  (void)state;
  mx_pack_t plan[MX_T_GLOBAL_COUNT + MX_T_LAYER_COUNT];
  for (int i = 0; i < MX_T_GLOBAL_COUNT + MX_T_LAYER_COUNT; i++) plan[i] = (mx_pack_t){MX_PACK_Q4_AFFINE, 8};
  plan[mx_pack_index_global(MX_T_FINAL_NORM)] = plan[mx_pack_index_layer(0, MX_T_ATTN_NORM)] =
      plan[mx_pack_index_layer(0, MX_T_FFN_NORM)] = (mx_pack_t){MX_PACK_NONE, 0};
  mx_llama_graph_t g = tiny_graph(1, 16, 0, false);
  g.pack = plan;
  mx_memory_estimate_t e;
  mx_memory_estimate(&g, &e);
  /* 2944 matrix elements (embed 640, q 256, k and v 128, o 256, gate, up and down 512): half a byte
   * each, plus a scale and an offset of 4 bytes per 8; the 48 norm values in f32. */
  assert_int_equal(e.weights, 2944 / 2 + 2 * (2944 / 8) * 4 + 48 * 4);
}

/* SmolLM2-135M's shapes at the CLI's largest context: the prefill's scores are what cannot fit. */
static void estimate_grows_with_the_context(void **state) {
  (void)state;
  mx_model_config_t c = {.arch = "llama", .n_layers = 30, .dim = 576, .n_heads = 9, .n_kv_heads = 3, .head_dim = 64,
                         .ffn_dim = 1536, .vocab = 49152, .max_position = 1 << 20, .rope_theta = 100000,
                         .norm_eps = 1e-5f, .tied_embeddings = true};
  mx_llama_graph_options_t o = {.precision = MX_F32, .weight_dtype = MX_F32, .slots = 1, .capacity = 512};
  mx_llama_graph_t g;
  assert_ok(mx_llama_graph_make(&c, &o, &g));
  mx_memory_estimate_t small, big;
  mx_memory_estimate(&g, &small);
  assert_true(small.weights > 500u << 20 && small.weights < 600u << 20); /* 134.5 M parameters x 4 */
  assert_int_equal(small.kv, 2ull * 30 * 512 * 3 * 64 * 4);
  assert_true(small.total < 1ull << 30);
  o.capacity = 1 << 20;
  assert_ok(mx_llama_graph_make(&c, &o, &g));
  mx_memory_estimate(&g, &big);
  assert_int_equal(big.kv, 2ull * 30 * (1 << 20) * 3 * 64 * 4);
  /* The prompt is prefilled in chunks of 512: the scores grow with the capacity, not its square. */
  assert_int_equal(big.activation, 9ull * 512 * (1ull << 20) * 4);
  assert_non_null(strstr(big.activation_what, "512-token chunk's attention scores over the capacity"));
  /* A capacity that is not a multiple of the chunk has cache rows for a padded last chunk. */
  o.capacity = 1000;
  assert_ok(mx_llama_graph_make(&c, &o, &g));
  assert_int_equal(g.kv_rows, 1024);
  mx_memory_estimate(&g, &big);
  assert_int_equal(big.kv, 2ull * 30 * 1024 * 3 * 64 * 4);
  /* Llama-3.2-1B's cache at 8 slots of 1048576 positions: over the GPU bound as well as any host. */
  c.n_layers = 16, c.n_heads = 32, c.n_kv_heads = 8, c.dim = 2048;
  o.capacity = 1 << 20, o.slots = 8;
  assert_ok(mx_llama_graph_make(&c, &o, &g));
  mx_memory_estimate(&g, &big);
  assert_true(big.total > MX_GPU_MEMORY_BOUND);
  o.slots = 1;
  /* Shapes no file should have saturate instead of wrapping around to a small figure. */
  c.n_heads = c.n_kv_heads = 1024;
  c.head_dim = 1024;
  c.n_layers = 1 << 20;
  c.max_position = 1 << 30;
  o.capacity = 1 << 30;
  assert_ok(mx_llama_graph_make(&c, &o, &g));
  mx_memory_estimate(&g, &big);
  assert_true(big.total == UINT64_MAX);
}

static void meminfo_available(void **state) {
  (void)state;
  assert_int_equal(mx_meminfo_available("MemTotal:       24577144 kB\nMemFree:        18836724 kB\n"
                                        "MemAvailable:   24115292 kB\nBuffers:          123 kB\n"),
                   24115292LL * 1024);
  assert_int_equal(mx_meminfo_available("MemAvailable: 4096 kB"), 4096LL * 1024); /* no newline at the end */
  assert_int_equal(mx_meminfo_available("MemTotal: 1 kB\nMemFree: 2 kB\n"), -1);  /* kernels before 3.14 */
  assert_int_equal(mx_meminfo_available("MemAvailable: x kB\n"), -1);
  assert_int_equal(mx_meminfo_available(""), -1);
}

static void refusal_names_the_bytes(void **state) {
  (void)state;
  mx_llama_graph_t g = tiny_graph(1, 16, 8, false);
  mx_memory_estimate_t e;
  mx_memory_estimate(&g, &e);
  assert_int_equal(e.total, 15040);
  assert_ok(mx_memory_fits(&e, 15040, "local-task has", "the host's MemAvailable"));
  mx_status_t st = mx_memory_fits(&e, 15039, "local-task has", "the host's MemAvailable");
  assert_non_null(st);
  const char *m = mx_status_message(st);
  assert_non_null(strstr(m, "needs at least 15040 bytes (14.7 KiB: weights 11.7 KiB, KV cache 1.0 KiB, largest "
                            "activation 2.0 KiB, the 16-token prefill's attention scores)"));
  assert_non_null(strstr(m, "but local-task has 15039 bytes (14.7 KiB, the host's MemAvailable)"));
  assert_non_null(strstr(mx_status_remedy(st), "--context"));
  assert_status(st, MX_STAGE_USAGE, "needs at least"); /* one line, usage (exit 2) */

  /* The session's check: a GPU against the documented bound, which the tiny graph is far below and
   * 1048576 positions of SmolLM2 far above; the CPU against MemAvailable, where the tiny graph fits. */
  mx_target_t cuda, cpu;
  mx_target_options_t to = {.cuda_target = "sm_80"};
  assert_ok(mx_target_for_device("cuda", &to, &cuda));
  assert_ok(mx_target_for_device("local-task", NULL, &cpu));
  assert_ok(mx_memory_check(&g, &cuda, "cuda"));
  assert_ok(mx_memory_check(&g, &cpu, "local-task"));
  mx_model_config_t c = tiny;
  c.max_position = 1 << 20;
  c.n_layers = 64, c.n_kv_heads = c.n_heads = 8, c.head_dim = 64; /* a cache of 8 slots x 1048576 x 256 KiB */
  mx_llama_graph_options_t o = {.precision = MX_F32, .weight_dtype = MX_F32, .slots = 8, .capacity = 1 << 20};
  assert_ok(mx_llama_graph_make(&c, &o, &g));
  assert_status(mx_memory_check(&g, &cuda, "cuda://1"), MX_STAGE_USAGE, "but cuda://1 can have at most 549755813888 bytes");
  assert_status(mx_memory_check(&g, &cpu, "local-task"), MX_STAGE_USAGE, "MemAvailable");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(estimate_counts_the_graphs_buffers),
      cmocka_unit_test(packed_weights_count_as_the_plan_carries_them),
      cmocka_unit_test(estimate_grows_with_the_context),
      cmocka_unit_test(meminfo_available),
      cmocka_unit_test(refusal_names_the_bytes),
  };
  return cmocka_run_group_tests_name("engine/memory", tests, NULL, NULL);
}
