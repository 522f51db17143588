/* The Llama graph emitter, the IREE workaround it relies on, and the sampler. (Token-exactness
 * against HF transformers is `mlxcel check`, run by tests/run_tests.sh.) */
#include "testutil.h"

#include <math.h>
#include <unistd.h>

#include "base/toolchain.h"
#include "compiler/compile.h"
#include "device/launch.h"
#include "engine/sampler.h"
#include "engine/session.h"
#include "engine/textout.h"
#include "hlo/builder.h"
#include "hlo/llama.h"
#include "model/synth.h"

static const mx_model_config_t tiny = {.arch = "llama", .n_layers = 1, .dim = 16, .n_heads = 2, .n_kv_heads = 1,
                                       .head_dim = 8, .ffn_dim = 32, .vocab = 40, .max_position = 64,
                                       .rope_theta = 10000, .norm_eps = 1e-5f, .tied_embeddings = true};

static char *emit_tiny_slots(int slots) {
  mx_llama_graph_t g = {.config = &tiny, .matmul = MX_F32, .kv = MX_F32, .weight_dtype = MX_F32, .slots = slots, .capacity = 16,
                        .n_buckets = 2, .buckets = {4, 16}, .score_len = 8};
  char *text;
  assert_ok(mx_llama_emit(&g, &text));
  return text;
}

static char *emit_tiny(void) { return emit_tiny_slots(1); }

/* The emitted text of a tiny config is pinned: any change to the graph shows up here, to be reviewed
 * and accepted with MLXCEL_UPDATE_GOLDEN=1. */
static void llama_graph_matches_golden(void **state) {
  (void)state;
  char *text = emit_tiny();
  const char *path = "tests/unit/golden/llama_tiny.mlir";
  if (getenv("MLXCEL_UPDATE_GOLDEN")) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
  }
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  static char golden[1 << 20];
  size_t n = fread(golden, 1, sizeof golden - 1, f);
  fclose(f);
  golden[n] = '\0';
  assert_string_equal(text, golden);
  free(text);
}

/* IREE 3.13's CUDA backend starts signed-integer min/max reductions from the unsigned identities
 * (-1 for min, 0 for max), so an i32 argmax returned -1 on the H200 (docs/spikes.md,
 * bench/results/2026-11-30-h200-cuda-debug/). The graph must reduce no integer tensor with minimum
 * or maximum; the argmax takes its index minimum in f32. */
static void graph_has_no_integer_min_max_reduction(void **state) {
  (void)state;
  for (int slots = 1; slots <= 3; slots += 2) {
    char *text = emit_tiny_slots(slots);
    int argmin_f32 = 0;
    for (char *line = text; line && *line;) {
      char *end = strchr(line, '\n');
      size_t n = end ? (size_t)(end - line) : strlen(line);
      char buf[512];
      snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf - 1 ? n : sizeof buf - 1), line);
      if (strstr(buf, "\"stablehlo.minimum\"(%rx") || strstr(buf, "\"stablehlo.maximum\"(%rx")) {
        if (strstr(buf, "i32>") || strstr(buf, "i64>")) fail_msg("integer min/max reduction: %s", buf);
        if (strstr(buf, "minimum") && strstr(buf, "f32>")) argmin_f32++;
      }
      line = end ? end + 1 : NULL;
    }
    /* prefill_N and decode for each bucket (2) + decode: the argmax's index minimum, in f32. */
    assert_int_equal(argmin_f32, 3);
    free(text);
  }
}

/* A token outside the vocabulary is an error before it reaches the device (its gather does not
 * clamp) and when it comes back from it (a wrong argmax, as IREE 3.13 computed on CUDA). */
static void token_ids_outside_the_vocabulary_are_refused(void **state) {
  (void)state;
  int32_t ok[3] = {0, 17, 39}, neg[2] = {5, -1}, big[1] = {40};
  assert_ok(mx_check_token_ids("decode", ok, 3, 40, false));
  assert_ok(mx_check_token_ids("decode", ok, 3, 40, true));
  mx_status_t st = mx_check_token_ids("prefill_32", neg, 2, 40, true);
  assert_non_null(st);
  assert_int_equal(mx_status_stage(st), MX_STAGE_CALL);
  assert_non_null(strstr(mx_status_message(st), "prefill_32 returned token -1 (row 1), outside the vocabulary 0..39"));
  mx_status_free(st);
  st = mx_check_token_ids("decode", big, 1, 40, false);
  assert_non_null(st);
  assert_int_equal(mx_status_stage(st), MX_STAGE_USAGE);
  mx_status_free(st);
}

/* Weights for the tiny config in dir/model, by mlxcel synth, in f32 as the graph declares them. */
static void tiny_weights(const char *dir, char *weights, size_t cap) {
  char cfg[256], model[256];
  snprintf(cfg, sizeof cfg, "%s/config.json", dir);
  FILE *f = fopen(cfg, "w");
  assert_non_null(f);
  fputs("{\"model_type\":\"llama\",\"hidden_size\":16,\"intermediate_size\":32,\"num_hidden_layers\":1,"
        "\"num_attention_heads\":2,\"num_key_value_heads\":1,\"vocab_size\":40,\"tie_word_embeddings\":true}", f);
  fclose(f);
  snprintf(model, sizeof model, "%s/model", dir);
  mx_synth_options_t so = {.config_path = cfg, .tokenizer_dir = mx_test_llama3_tokenizer_dir(), .out_dir = model, .dtype = MX_W_F32, .quiet = 1};
  assert_ok(mx_synth_write(&so, NULL, NULL));
  snprintf(weights, cap, "%s/model.safetensors", model);
}

/* Every function the engine calls compiles, loads with the weights as parameters, and runs. */
static void llama_graph_compiles_and_runs_every_function(void **state) {
  (void)state;
  char *text = emit_tiny();
  char compiler[MX_PATH_MAX], dir[] = "/tmp/mlxcel-test-llama-XXXXXX";
  char out[256], weights[300];
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  assert_non_null(mkdtemp(dir));
  snprintf(out, sizeof out, "%s/tiny.vmfb", dir);
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  assert_ok(mx_compile_mlir(compiler, &t, text, out, NULL));
  free(text);
  tiny_weights(dir, weights, sizeof weights);
  mx_worker_t *w;
  assert_ok(mx_worker_launch(0, &w));
  assert_ok(mx_worker_open(w, "local-task", NULL));
  int mod, n;
  assert_status(mx_worker_load(w, out, NULL, 0, &mod), MX_STAGE_MODULE_LOAD, "io_parameters"); /* weights are required */
  const char *params[1] = {weights};
  assert_ok(mx_worker_load(w, out, params, 1, &mod));
  int32_t toks[16] = {1, 2, 3}, len = 3, slot = 0, tok = 5, pos = 3;
  int64_t s4 = 4, s16 = 16, s8 = 8, s1 = 1;
  mx_tensor_t res;
  struct {
    const char *fn;
    mx_tensor_t in[3];
    int n_in;
    mx_dtype_t dtype;
    int64_t count;
  } calls[] = {
      {"prefill_4", {mx_tensor_host(MX_I32, 1, &s4, toks), mx_tensor_host(MX_I32, 0, NULL, &len), mx_tensor_host(MX_I32, 0, NULL, &slot)}, 3, MX_I32, 1},
      {"prefill_16_logits", {mx_tensor_host(MX_I32, 1, &s16, toks), mx_tensor_host(MX_I32, 0, NULL, &len), mx_tensor_host(MX_I32, 0, NULL, &slot)}, 3, MX_F32, 40},
      {"decode", {mx_tensor_host(MX_I32, 1, &s1, &tok), mx_tensor_host(MX_I32, 1, &s1, &pos)}, 2, MX_I32, 1},
      {"decode_logits", {mx_tensor_host(MX_I32, 1, &s1, &tok), mx_tensor_host(MX_I32, 1, &s1, &pos)}, 2, MX_F32, 40},
      {"score_8", {mx_tensor_host(MX_I32, 1, &s8, toks)}, 1, MX_F32, 8 * 40},
  };
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    assert_ok(mx_worker_call(w, mod, calls[i].fn, calls[i].in, calls[i].n_in, 0, &res, 1, &n));
    assert_int_equal(res.dtype, calls[i].dtype);
    assert_int_equal(mx_tensor_count(&res), calls[i].count);
    if (res.dtype == MX_I32) assert_true(*(int32_t *)res.data >= 0 && *(int32_t *)res.data < 40);
    else
      for (int64_t k = 0; k < calls[i].count; k++) assert_true(isfinite(((float *)res.data)[k]));
    mx_tensor_release(&res);
  }
  mx_worker_destroy(w);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* ---- batched decode: each slot is its own sequence ---------------------------------------------- */

static void tiny_prefill(mx_worker_t *w, int mod, const int32_t *ids, int32_t len, int32_t slot, float *logits) {
  int32_t padded[16] = {0};
  memcpy(padded, ids, sizeof(int32_t) * (size_t)len);
  int64_t s16 = 16;
  mx_tensor_t in[3] = {mx_tensor_host(MX_I32, 1, &s16, padded), mx_tensor_host(MX_I32, 0, NULL, &len),
                       mx_tensor_host(MX_I32, 0, NULL, &slot)}, res;
  int n;
  assert_ok(mx_worker_call(w, mod, "prefill_16_logits", in, 3, 0, &res, 1, &n));
  memcpy(logits, res.data, sizeof(float) * 40);
  mx_tensor_release(&res);
}

static void tiny_decode(mx_worker_t *w, int mod, int64_t slots, int32_t *tokens, int32_t *pos, float *logits) {
  mx_tensor_t in[2] = {mx_tensor_host(MX_I32, 1, &slots, tokens), mx_tensor_host(MX_I32, 1, &slots, pos)}, res;
  int n;
  assert_ok(mx_worker_call(w, mod, "decode_logits", in, 2, 0, &res, 1, &n));
  assert_int_equal(mx_tensor_count(&res), slots * 40);
  memcpy(logits, res.data, sizeof(float) * (size_t)slots * 40);
  mx_tensor_release(&res);
}

static int32_t argmax40(const float *l) {
  int32_t best = 0;
  for (int i = 1; i < 40; i++)
    if (l[i] > l[best]) best = i;
  return best;
}

/* Three sequences in a 3-slot module — one admitted while the others are mid-generation, an idle
 * slot decoded with junk — give the logits each gives alone in a single-slot module. */
static void batched_slots_match_single_sequence_runs(void **state) {
  (void)state;
  char compiler[MX_PATH_MAX], dir[] = "/tmp/mlxcel-test-batch-XXXXXX", single[256], batched[256], weights[300];
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  assert_non_null(mkdtemp(dir));
  tiny_weights(dir, weights, sizeof weights);
  snprintf(single, sizeof single, "%s/s1.vmfb", dir);
  snprintf(batched, sizeof batched, "%s/s3.vmfb", dir);
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  char *text = emit_tiny_slots(1);
  assert_ok(mx_compile_mlir(compiler, &t, text, single, NULL));
  free(text);
  text = emit_tiny_slots(3);
  assert_ok(mx_compile_mlir(compiler, &t, text, batched, NULL));
  free(text);
  mx_worker_t *w;
  assert_ok(mx_worker_launch(0, &w));
  assert_ok(mx_worker_open(w, "local-task", NULL));
  const char *params[1] = {weights};
  int m1, m3;
  assert_ok(mx_worker_load(w, single, params, 1, &m1));
  assert_ok(mx_worker_load(w, batched, params, 1, &m3));

  enum { STEPS = 5 };
  const int32_t seq[3][5] = {{1, 2, 3}, {9}, {4, 5, 6, 7, 8}};
  const int32_t len[3] = {3, 1, 5};
  float want[3][STEPS + 1][40], got[3][STEPS + 1][40];
  /* Alone: prefill, then STEPS greedy decodes. */
  for (int q = 0; q < 3; q++) {
    tiny_prefill(w, m1, seq[q], len[q], 0, want[q][0]);
    for (int k = 1; k <= STEPS; k++) {
      int32_t tok = argmax40(want[q][k - 1]), pos = len[q] + k - 1;
      tiny_decode(w, m1, 1, &tok, &pos, want[q][k]);
    }
  }
  /* Together: sequences 0 and 2 start in slots 0 and 2; sequence 1 joins slot 1 after two steps. */
  int step[3] = {0, 0, 0};
  tiny_prefill(w, m3, seq[0], len[0], 0, got[0][0]);
  tiny_prefill(w, m3, seq[2], len[2], 2, got[2][0]);
  float all[3 * 40];
  for (int round = 0; round < STEPS + 2; round++) {
    if (round == 2) tiny_prefill(w, m3, seq[1], len[1], 1, got[1][0]);
    int32_t tokens[3] = {7, 7, 7}, pos[3] = {11, 11, 11}; /* idle: junk, within the capacity */
    bool live[3] = {false, false, false};
    for (int q = 0; q < 3; q++) {
      live[q] = step[q] < STEPS && (q != 1 || round >= 2);
      if (!live[q]) continue;
      tokens[q] = argmax40(got[q][step[q]]);
      pos[q] = len[q] + step[q];
    }
    tiny_decode(w, m3, 3, tokens, pos, all);
    for (int q = 0; q < 3; q++)
      if (live[q]) memcpy(got[q][++step[q]], all + q * 40, sizeof(float) * 40);
  }
  for (int q = 0; q < 3; q++) {
    assert_int_equal(step[q], STEPS);
    for (int k = 0; k <= STEPS; k++) {
      assert_int_equal(argmax40(got[q][k]), argmax40(want[q][k]));
      for (int v = 0; v < 40; v++) assert_true(fabsf(got[q][k][v] - want[q][k][v]) <= 1e-5f);
    }
  }
  mx_worker_destroy(w);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* Regression test for the IREE 3.13 miscompile in docs/spikes.md: two mutable globals updated in
 * place and then read must not share storage. Built with our builder, so it checks the workaround. */
static void state_globals_do_not_alias(void **state) {
  (void)state;
  mx_hlo_t *h = mx_hlo_create();
  int64_t cd[2] = {8, 4}, ud[2] = {2, 4};
  mx_hval_t ct = mx_htype(MX_F32, 2, cd), ut = mx_htype(MX_F32, 2, ud);
  mx_hlo_declare_state(h, "a", ct);
  mx_hlo_declare_state(h, "b", ct);
  mx_hval_t types[2] = {ut, ut}, args[2];
  mx_hlo_func_begin(h, "f", 2, types, args);
  mx_hval_t z = mx_hlo_scalar_i32(h, 0), starts[2] = {z, z};
  mx_hval_t a = mx_hlo_dynamic_update_slice(h, mx_hlo_load(h, "a", ct), args[0], starts);
  mx_hval_t b = mx_hlo_dynamic_update_slice(h, mx_hlo_load(h, "b", ct), args[1], starts);
  mx_hlo_store(h, "a", a);
  mx_hlo_store(h, "b", b);
  int64_t lc = 0, rc = 0;
  mx_hval_t out = mx_hlo_dot(h, a, b, 0, NULL, NULL, 1, &lc, &rc, MX_F32); /* a^T b: [4, 4] */
  mx_hlo_func_end(h, 1, &out);
  char *text;
  assert_ok(mx_hlo_finish(h, &text));
  mx_hlo_destroy(h);
  char compiler[MX_PATH_MAX], path[] = "/tmp/mlxcel-test-alias-XXXXXX";
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  int fd = mkstemp(path);
  close(fd);
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  assert_ok(mx_compile_mlir(compiler, &t, text, path, NULL));
  free(text);
  mx_worker_t *w;
  assert_ok(mx_worker_launch(0, &w));
  assert_ok(mx_worker_open(w, "local-task", NULL));
  int mod, n;
  assert_ok(mx_worker_load(w, path, NULL, 0, &mod));
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8] = {-1, 0.5f, 2, 0, 3, -2, 1, 1};
  mx_tensor_t in[2] = {mx_tensor_host(MX_F32, 2, ud, x), mx_tensor_host(MX_F32, 2, ud, y)}, res;
  assert_ok(mx_worker_call(w, mod, "f", in, 2, 0, &res, 1, &n));
  /* Rows 2..7 of both states hold their (tiny) initial values, so a^T b is x^T y to within 1e-20. */
  const float *r = res.data;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      float want = x[i] * y[j] + x[4 + i] * y[4 + j];
      assert_true(fabsf(r[i * 4 + j] - want) < 1e-5f);
    }
  mx_tensor_release(&res);
  mx_worker_destroy(w);
  unlink(path);
  char side[64];
  snprintf(side, sizeof side, "%s.mlir", path);
  unlink(side);
  snprintf(side, sizeof side, "%s.log", path);
  unlink(side);
}

static void llama3_rope_scaling_keeps_high_frequencies(void **state) {
  (void)state;
  mx_model_config_t c = tiny;
  c.head_dim = 64;
  c.rope_theta = 500000;
  float plain[32], scaled[32];
  mx_llama_inv_freq(&c, plain);
  c.rope_kind = MX_ROPE_LLAMA3;
  c.rope_factor = 32, c.rope_low_freq_factor = 1, c.rope_high_freq_factor = 4, c.rope_original_max_position = 8192;
  mx_llama_inv_freq(&c, scaled);
  assert_true(plain[0] == 1.0f && scaled[0] == 1.0f);          /* high frequency: unchanged */
  assert_true(fabsf(scaled[31] - plain[31] / 32) < 1e-12f);   /* low frequency: divided by the factor */
  for (int i = 1; i < 32; i++) assert_true(scaled[i] <= plain[i] && scaled[i] < scaled[i - 1]);
}

static void sampler_behaves(void **state) {
  (void)state;
  float base[6] = {1.0f, 3.0f, 2.5f, -1.0f, 3.0f, 0.0f}, l[6];
  mx_sampling_t greedy = {.temperature = 0, .top_p = 1, .repeat_penalty = 1};
  assert_ok(mx_sampling_validate(&greedy));
  assert_true(mx_sampling_is_greedy(&greedy));
  mx_sampler_t *s = mx_sampler_create(&greedy, 6);
  memcpy(l, base, sizeof l);
  assert_int_equal(mx_sampler_pick(s, l, NULL, 0), 1); /* ties: the lower id, as argmax */
  mx_sampler_destroy(s);
  mx_sampling_t topk1 = {.temperature = 1, .top_k = 1, .top_p = 1, .repeat_penalty = 1, .seed = 5};
  s = mx_sampler_create(&topk1, 6);
  for (int i = 0; i < 20; i++) {
    memcpy(l, base, sizeof l);
    assert_int_equal(mx_sampler_pick(s, l, NULL, 0), 1);
  }
  mx_sampler_destroy(s);
  /* Same seed, same draws; the draws only come from the top-p nucleus. */
  mx_sampling_t nucleus = {.temperature = 1, .top_p = 0.5f, .repeat_penalty = 1, .seed = 9};
  mx_sampler_t *s1 = mx_sampler_create(&nucleus, 6), *s2 = mx_sampler_create(&nucleus, 6);
  for (int i = 0; i < 50; i++) {
    float l1[6], l2[6];
    memcpy(l1, base, sizeof l1);
    memcpy(l2, base, sizeof l2);
    int32_t a = mx_sampler_pick(s1, l1, NULL, 0), b = mx_sampler_pick(s2, l2, NULL, 0);
    assert_int_equal(a, b);
    assert_true(a == 1 || a == 4);
  }
  mx_sampler_destroy(s1);
  mx_sampler_destroy(s2);
  /* Repetition penalty: a seen token with the top logit loses to the next one. */
  mx_sampling_t rep = {.temperature = 0, .top_p = 1, .repeat_penalty = 2};
  s = mx_sampler_create(&rep, 6);
  memcpy(l, base, sizeof l);
  int32_t hist[2] = {1, 4};
  assert_int_equal(mx_sampler_pick(s, l, hist, 2), 2);
  mx_sampler_destroy(s);
  mx_sampling_t bad = {.temperature = -1, .top_p = 1, .repeat_penalty = 1};
  assert_status(mx_sampling_validate(&bad), MX_STAGE_USAGE, "temperature");
  bad = (mx_sampling_t){.temperature = 1, .top_p = 0, .repeat_penalty = 1};
  assert_status(mx_sampling_validate(&bad), MX_STAGE_USAGE, "top-p");
}


/* Text is released as it becomes final: the tail that could grow into a stop string is held back,
 * a stop string ends the text before it, and characters split across tokens come out whole. */
static void textout_holds_back_stop_prefixes(void **state) {
  (void)state;
  mx_tokenizer_t *tok;
  assert_ok(mx_tokenizer_load_hf(mx_test_llama3_tokenizer_dir(), &tok));
  const char *text = "Hello wor\xc3\xa9ld, then END here and more";
  mx_ids_t ids = {0};
  assert_ok(mx_tokenizer_encode(tok, text, strlen(text), false, &ids));
  const char *stops[2] = {"END", "never appears"};
  mx_textout_t o;
  mx_textout_init(&o, tok, stops, 2);
  mx_strbuf_t got;
  mx_strbuf_init(&got);
  size_t i = 0;
  for (; i < ids.n && !o.stopped; i++) {
    assert_ok(mx_textout_push(&o, ids.ids[i]));
    const char *p;
    size_t n = mx_textout_take(&o, &p);
    mx_strbuf_append(&got, p, n);
    /* Never more than the text before the stop string, and the held tail is at most 12 bytes. */
    assert_true(got.len <= strlen("Hello wor\xc3\xa9ld, then "));
    assert_true(o.text.len - got.len <= strlen("never appears") - 1 + 4 || o.stopped);
  }
  assert_true(o.stopped);
  mx_textout_finish(&o);
  const char *p;
  size_t n = mx_textout_take(&o, &p);
  mx_strbuf_append(&got, p, n);
  assert_string_equal(got.data, "Hello wor\xc3\xa9ld, then ");
  mx_textout_free(&o);
  /* Without stop strings, finish releases everything, equal to a whole decode. */
  mx_textout_init(&o, tok, NULL, 0);
  mx_strbuf_t all;
  mx_strbuf_init(&all);
  for (i = 0; i < ids.n; i++) {
    assert_ok(mx_textout_push(&o, ids.ids[i]));
    n = mx_textout_take(&o, &p);
    mx_strbuf_append(&all, p, n);
  }
  mx_textout_finish(&o);
  n = mx_textout_take(&o, &p);
  mx_strbuf_append(&all, p, n);
  assert_string_equal(all.data, text);
  mx_textout_free(&o);
  mx_strbuf_free(&all);
  mx_strbuf_free(&got);
  mx_ids_free(&ids);
  mx_tokenizer_free(tok);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(llama_graph_matches_golden),
      cmocka_unit_test(llama_graph_compiles_and_runs_every_function),
      cmocka_unit_test(batched_slots_match_single_sequence_runs),
      cmocka_unit_test(state_globals_do_not_alias), cmocka_unit_test(graph_has_no_integer_min_max_reduction),
      cmocka_unit_test(token_ids_outside_the_vocabulary_are_refused),
      cmocka_unit_test(llama3_rope_scaling_keeps_high_frequencies),
      cmocka_unit_test(sampler_behaves),
      cmocka_unit_test(textout_holds_back_stop_prefixes),
  };
  return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
