/* The Llama graph (hlo/llama) on the pinned IREE: every function compiles and runs with the weights
 * as parameters, batched slots equal single-sequence runs, and the IREE miscompile the builder works
 * around stays worked around. Needs the IREE compiler and runtime (`make iree`); the graph's text
 * alone is test_llama.c. */
#include "llama_tiny.h"

#include <math.h>
#include <unistd.h>

#include "base/gumbel.h"
#include "base/toolchain.h"
#include "compiler/cache.h"
#include "compiler/compile.h"
#include "device/launch.h"
#include "engine/sampler.h"
#include "hlo/builder.h"
#include "hlo/pick.h"
#include "model/synth.h"
#include "sampler_reference.h"

/* Weights for the tiny config (with `vocab` tokens and an MLP of `ffn`) in dir/model, by mlxcel
 * synth, in f32 as the graph declares them. */
static void tiny_weights_shape(const char *dir, int vocab, int ffn, char *weights, size_t cap) {
  char cfg[256], model[256];
  snprintf(cfg, sizeof cfg, "%s/config.json", dir);
  FILE *f = fopen(cfg, "w");
  assert_non_null(f);
  fprintf(f, "{\"model_type\":\"llama\",\"hidden_size\":16,\"intermediate_size\":%d,\"num_hidden_layers\":1,"
        "\"num_attention_heads\":2,\"num_key_value_heads\":1,\"vocab_size\":%d,\"tie_word_embeddings\":true}", ffn, vocab);
  fclose(f);
  snprintf(model, sizeof model, "%s/model", dir);
  mx_synth_options_t so = {.config_path = cfg, .tokenizer_dir = mx_test_llama3_tokenizer_dir(), .out_dir = model, .dtype = MX_W_F32, .quiet = 1};
  assert_ok(mx_synth_write(&so, NULL, NULL));
  snprintf(weights, cap, "%s/model.safetensors", model);
}

static void tiny_weights_vocab(const char *dir, int vocab, char *weights, size_t cap) {
  tiny_weights_shape(dir, vocab, 32, weights, cap);
}
static void tiny_weights(const char *dir, char *weights, size_t cap) { tiny_weights_vocab(dir, 40, weights, cap); }

/* A device worker on local-task. */
static mx_worker_t *cpu_worker(void) {
  mx_worker_t *w;
  assert_ok(mx_worker_launch(0, &w));
  assert_ok(mx_worker_open(w, "local-task", NULL));
  return w;
}

/* Compiles through the engine's module cache (keyed by the text, the target, its flags and the
 * compiler) and copies the module to `out`. The suite runs twice in `make test`, plainly and under
 * ASan/UBSan; the second run then loads the first's modules instead of compiling them again, which
 * was most of its three minutes (the compiler is a program of its own, not what ASan checks). */
static mx_status_t compile_via_cache(const mx_target_t *t, const char *text, const char *out) {
  mx_vmfb_t v;
  MX_RETURN_IF_ERROR(mx_compile_cached(t, text, "a test graph", &v));
  char cmd[2 * MX_PATH_MAX + 32];
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", v.path, out);
  if (system(cmd) != 0) return mx_status_make(MX_STAGE_IO, NULL, "cannot copy %s to %s", v.path, out);
  return NULL;
}

static void remove_dir(const char *dir) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* `text` compiled for the CPU into dir/name and loaded, with the parameter file `weights` (or none),
 * into a new CPU worker: the module's index in *mod. */
static mx_worker_t *cpu_module(const char *text, const char *dir, const char *name, const char *weights, int *mod) {
  char vmfb[MX_PATH_MAX];
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  snprintf(vmfb, sizeof vmfb, "%s/%s", dir, name);
  assert_ok(compile_via_cache(&t, text, vmfb));
  mx_worker_t *w = cpu_worker();
  const char *params[1] = {weights};
  assert_ok(mx_worker_load(w, vmfb, params, weights ? 1 : 0, mod));
  return w;
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
  assert_ok(compile_via_cache(&t, text, out));
  free(text);
  tiny_weights(dir, weights, sizeof weights);
  mx_worker_t *w = cpu_worker();
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
      {"decode_8", {mx_tensor_host(MX_I32, 1, &s1, &tok), mx_tensor_host(MX_I32, 1, &s1, &pos)}, 2, MX_I32, 1},
      {"decode_16", {mx_tensor_host(MX_I32, 1, &s1, &tok), mx_tensor_host(MX_I32, 1, &s1, &pos)}, 2, MX_I32, 1},
      {"decode_8_logits", {mx_tensor_host(MX_I32, 1, &s1, &tok), mx_tensor_host(MX_I32, 1, &s1, &pos)}, 2, MX_F32, 40},
      {"decode_16_logits", {mx_tensor_host(MX_I32, 1, &s1, &tok), mx_tensor_host(MX_I32, 1, &s1, &pos)}, 2, MX_F32, 40},
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
  remove_dir(dir);
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

/* One decode step in the smallest window (8 or 16) that holds every slot's position, as the session
 * picks it: a single run and a batched run of the same sequence may use different windows. */
static void tiny_decode(mx_worker_t *w, int mod, int64_t slots, int32_t *tokens, int32_t *pos, float *logits) {
  mx_tensor_t in[2] = {mx_tensor_host(MX_I32, 1, &slots, tokens), mx_tensor_host(MX_I32, 1, &slots, pos)}, res;
  int n, last = 0;
  for (int b = 0; b < slots; b++)
    if (pos[b] > last) last = pos[b];
  assert_ok(mx_worker_call(w, mod, last < 8 ? "decode_8_logits" : "decode_16_logits", in, 2, 0, &res, 1, &n));
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
  assert_ok(compile_via_cache(&t, text, single));
  free(text);
  text = emit_tiny_slots(3);
  assert_ok(compile_via_cache(&t, text, batched));
  free(text);
  mx_worker_t *w = cpu_worker();
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
  remove_dir(dir);
}

/* The host sampler's pick (the Gumbel-max draw of base/gumbel.h, among the candidates of the cuts sp
 * asks for) from one row of logits, for the token fed at position `pos`. */
static int32_t host_pick(const float *row, int vocab, const mx_sampling_t *sp, int pos) {
  assert_true(mx_sampling_is_cut_only(sp));
  mx_sampler_t *smp = mx_sampler_create(sp, vocab);
  float *l = malloc(sizeof *l * (size_t)vocab);
  int32_t *history = calloc((size_t)pos + 1, sizeof *history); /* the draw reads its length: pos + 1 */
  assert_non_null(smp), assert_non_null(l), assert_non_null(history);
  memcpy(l, row, sizeof *l * (size_t)vocab);
  int32_t id = mx_sampler_pick(smp, l, history, pos + 1, 1);
  free(history), free(l);
  mx_sampler_destroy(smp);
  return id;
}

static int32_t host_draw(const float *row, int vocab, float temperature, uint64_t seed, int pos) {
  mx_sampling_t sp = {.temperature = temperature, .top_p = 1, .repeat_penalty = 1, .seed = seed};
  assert_true(mx_sampling_is_plain(&sp, vocab));
  return host_pick(row, vocab, &sp, pos);
}

/* decode_<W>_steps(tokens, pos, temperature, key[, top_k, top_p, min_p]) in one call, for two
 * sequences in slots 0 and 2 of 3 (slot 1 idle) prefilled with a and b: K x 3 tokens into got. The
 * cuts go in when `cuts` (a module with device cuts). */
static void tiny_steps_call(mx_worker_t *w, int mod, const int32_t start[3], const mx_sampling_t sp[3], bool cuts, int K, int32_t *got) {
  int32_t t0[3] = {start[0], start[1], start[2]}, p0[3] = {3, 0, 6}, k0[3], tk[3];
  float tt[3], tp[3], mp[3];
  for (int b = 0; b < 3; b++)
    tt[b] = sp[b].temperature, k0[b] = (int32_t)mx_gumbel_key(sp[b].seed), tk[b] = sp[b].top_k, tp[b] = sp[b].top_p, mp[b] = sp[b].min_p;
  int64_t s3 = 3;
  mx_tensor_t in[7] = {mx_tensor_host(MX_I32, 1, &s3, t0), mx_tensor_host(MX_I32, 1, &s3, p0), mx_tensor_host(MX_F32, 1, &s3, tt),
                       mx_tensor_host(MX_I32, 1, &s3, k0), mx_tensor_host(MX_I32, 1, &s3, tk), mx_tensor_host(MX_F32, 1, &s3, tp),
                       mx_tensor_host(MX_F32, 1, &s3, mp)}, res;
  int n;
  assert_ok(mx_worker_call(w, mod, cuts ? "decode_16_cut_steps" : "decode_16_steps", in, cuts ? 7 : 4, 0, &res, 1, &n));
  assert_int_equal(res.dtype, MX_I32);
  assert_int_equal(res.rank, 2);
  assert_int_equal(res.shape[0], K);
  assert_int_equal(res.shape[1], 3);
  memcpy(got, res.data, sizeof *got * (size_t)K * 3);
  mx_tensor_release(&res);
}

/* decode_<W>_steps feeds each step's token to the next: its K x slots tokens equal K single steps of
 * the same two sequences (one of them in a slot of its own, one beside an idle slot), each step's
 * token picked on the host from its logits: the argmax at temperature 0, and at a temperature the
 * host sampler's seeded draw, which the device must make too (base/gumbel.h); with `cuts`, a module
 * with device cuts and draws under top-p, top-k and min-p (hlo/pick.h). */
static void multi_step_case(bool cuts) {
  enum { K = 3, ROUNDS = 4 };
  char compiler[MX_PATH_MAX], dir[] = "/tmp/mlxcel-test-steps-XXXXXX", vmfb[256], weights[300];
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  assert_non_null(mkdtemp(dir));
  tiny_weights(dir, weights, sizeof weights);
  snprintf(vmfb, sizeof vmfb, "%s/k.vmfb", dir);
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  mx_llama_graph_t g = {.config = &tiny, .matmul = MX_F32, .kv = MX_F32, .weight_dtype = MX_F32, .slots = 3, .capacity = 16, .kv_rows = 16,
                        .n_buckets = 2, .buckets = {4, 16}, .score_len = 8, .n_windows = 2, .windows = {8, 16},
                        .decode_steps = K, .device_cuts = cuts};
  char *text;
  assert_ok(mx_llama_emit(&g, &text));
  assert_ok(compile_via_cache(&t, text, vmfb));
  free(text);
  mx_worker_t *w = cpu_worker();
  const char *params[1] = {weights};
  int mod;
  assert_ok(mx_worker_load(w, vmfb, params, 1, &mod));
  const int32_t a[3] = {1, 2, 3}, b[6] = {4, 5, 6, 7, 8, 9};
  /* Round 0 greedy in both slots; then slot 0 draws at 0.8 and slot 2 at 1.5 (slot 1, idle, at 3), a
   * new key each round; with cuts, slot 0 under top-p 0.9 and slot 2 under top-k 5 and min-p 0.05. */
  int drawn_not_argmax = 0;
  for (int round = 0; round < ROUNDS; round++) {
    mx_sampling_t sp[3];
    const float temperature[3] = {round ? 0.8f : 0, round ? 3.0f : 0, round ? 1.5f : 0};
    const uint64_t seed[3] = {(uint64_t)round * 0x9E3779B9u, 77, (uint64_t)round * 12345u + 0x80000000u};
    for (int q = 0; q < 3; q++) sp[q] = (mx_sampling_t){.temperature = temperature[q], .top_p = 1, .repeat_penalty = 1, .seed = seed[q]};
    if (cuts && round) sp[0].top_p = 0.9f, sp[2].top_k = 5, sp[2].min_p = 0.05f;
    float la[40], lb[40], all[3 * 40];
    /* K single steps for both, slot 1 idle. */
    int32_t want[K][2];
    tiny_prefill(w, mod, a, 3, 0, la);
    tiny_prefill(w, mod, b, 6, 2, lb);
    int32_t first_a = argmax40(la), first_b = argmax40(lb);
    int32_t tokens[3] = {first_a, 0, first_b}, pos[3] = {3, 0, 6};
    for (int k = 0; k < K; k++) {
      tiny_decode(w, mod, 3, tokens, pos, all);
      for (int q = 0; q < 2; q++) {
        const float *row = all + 80 * q;
        int slot = 2 * q;
        int32_t id = temperature[slot] > 0 ? host_pick(row, 40, &sp[slot], pos[slot]) : argmax40(row);
        drawn_not_argmax += id != argmax40(row);
        want[k][q] = tokens[slot] = id;
        pos[slot]++;
      }
    }
    /* The same again in one call (the prefills rewrite the rows the single steps wrote). */
    tiny_prefill(w, mod, a, 3, 0, la);
    tiny_prefill(w, mod, b, 6, 2, lb);
    int32_t got[K * 3], start[3] = {first_a, 0, first_b};
    tiny_steps_call(w, mod, start, sp, cuts && round > 0, K, got); /* round 0: the plain function of the same module */
    for (int k = 0; k < K; k++) {
      assert_int_equal(got[k * 3 + 0], want[k][0]);
      assert_int_equal(got[k * 3 + 2], want[k][1]);
    }
  }
  assert_true(drawn_not_argmax >= 3); /* the draws are not the argmax in disguise */
  mx_worker_destroy(w);
  remove_dir(dir);
}

static void multi_step_decode_equals_single_steps(void **state) {
  (void)state;
  multi_step_case(false);
}

static void multi_step_decode_under_cuts_equals_single_steps(void **state) {
  (void)state;
  multi_step_case(true);
}

/* Two sequences in a 3-slot module (slot 1 idle, decoded with junk): prompts of 3 and 6 tokens
 * prefilled into slots 0 and 2, then `n` greedy batched steps from positions 3 and 6; each step's
 * logits for the 3 slots in steps[k]. */
static void two_sequences_decode(mx_worker_t *w, int mod, int n, float steps[][3 * 40]) {
  const int32_t a[3] = {1, 2, 3}, b[6] = {4, 5, 6, 7, 8, 9};
  float first[2][40];
  tiny_prefill(w, mod, a, 3, 0, first[0]);
  tiny_prefill(w, mod, b, 6, 2, first[1]);
  int32_t tokens[3] = {argmax40(first[0]), 7, argmax40(first[1])}, pos[3] = {3, 11, 6};
  for (int k = 0; k < n; k++) {
    tiny_decode(w, mod, 3, tokens, pos, steps[k]);
    tokens[0] = argmax40(steps[k]), tokens[2] = argmax40(steps[k] + 80);
    pos[0]++, pos[2]++;
  }
}

/* The GPU targets' graph forms — the expanded decode attention (K/V repeated per query head), the
 * per-head decode attention (one product per query head of the group) and weight products split into
 * row groups (here 2 + 1 rows of 3 slots), the per-head form from a window on below its slot count
 * (expanded at window 8, per head at 16), and the grouped-rows form over one (slot, KV head) batch
 * dimension with values stored transposed (before the expanded form it replaces) — compute what the
 * CPU's forms compute: the same logits for two sequences in a 3-slot module, through both windows. */
/* The decode steps of gpu_graph_forms_equal_cpu_forms in each form, for the tiny config `c`. */
static void forms_decode(const mx_model_config_t *c, float steps[5][9][3 * 40]) {
  char compiler[MX_PATH_MAX], dir[] = "/tmp/mlxcel-test-expand-XXXXXX", vm[5][256], weights[300];
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  assert_non_null(mkdtemp(dir));
  tiny_weights(dir, weights, sizeof weights);
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  mx_worker_t *w = cpu_worker();
  const char *params[1] = {weights};
  int mod[5];
  /* 0: the CPU's forms; 1: expanded, rows split; 2: per head (and expanded below 3 slots); 3: expanded at
   * window 8, per head from window 16; 4: grouped rows from 3 slots, values transposed */
  for (int e = 0; e < 5; e++) {
    snprintf(vm[e], sizeof vm[e], "%s/e%d.vmfb", dir, e);
    char *text = emit_config_form_grouped(c, 3, 1, e >= 1, e == 1 ? 2 : 0, e == 2 ? 3 : 0, e == 3 ? 16 : 0, e == 4 ? 3 : 0);
    assert_true((strstr(text, "x2x16x8xf32>") != NULL) == (e == 1)); /* [S, KV, G, W, D] only when expanded */
    assert_true((strstr(text, "3x1x2x8x8xf32>") != NULL) == (e == 1 || e == 3)); /* expanded at W = 8 */
    assert_true((strstr(text, "(tensor<3x16xf32>) -> tensor<2x16xf32>") != NULL) == (e == 1)); /* 2 of 3 rows */
    /* per head: [S*KV, W, D] . [S*KV, D] -> [S*KV, W] */
    assert_true((strstr(text, "(tensor<3x16x8xf32>, tensor<3x8xf32>) -> tensor<3x16xf32>") != NULL) == (e == 2 || e == 3));
    assert_true((strstr(text, "(tensor<3x8x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>") != NULL) == (e == 2));
    /* grouped rows: [S*KV, G, D] . [S*KV, W, D] -> [S*KV, G, W], then [S*KV, G, W] . [S*KV, D, W] -> [S*KV, G, D] */
    assert_true((strstr(text, "(tensor<3x2x8xf32>, tensor<3x16x8xf32>) -> tensor<3x2x16xf32>") != NULL) == (e == 4));
    assert_true((strstr(text, "(tensor<3x2x16xf32>, tensor<3x8x16xf32>) -> tensor<3x2x8xf32>") != NULL) == (e == 4));
    assert_ok(compile_via_cache(&t, text, vm[e]));
    free(text);
    assert_ok(mx_worker_load(w, vm[e], params, 1, &mod[e]));
  }
  for (int e = 0; e < 5; e++) /* positions 3..11 and 6..14: windows 8, then 16 */
    two_sequences_decode(w, mod[e], 9, steps[e]);
  mx_worker_destroy(w);
  remove_dir(dir);
}

/* The GPU targets' decode attention forms give the CPU form's logits, with and without a sliding
 * window (Mistral's, here 4 positions: the steps run at positions 3..14), and the window matters. */
static void gpu_graph_forms_equal_cpu_forms(void **state) {
  (void)state;
  static float steps[2][5][9][3 * 40];
  mx_model_config_t windowed = tiny;
  windowed.family = MX_FAMILY_MISTRAL;
  windowed.sliding_window = 4;
  forms_decode(&tiny, steps[0]);
  forms_decode(&windowed, steps[1]);
  float window_effect = 0;
  for (int c = 0; c < 2; c++)
    for (int k = 0; k < 9; k++)
      for (int v = 0; v < 3 * 40; v++) {
        if (v >= 40 && v < 80) continue; /* slot 1 is idle */
        assert_true(fabsf(steps[c][1][k][v] - steps[c][0][k][v]) <= 1e-5f);
        assert_true(fabsf(steps[c][2][k][v] - steps[c][0][k][v]) <= 1e-5f);
        assert_true(fabsf(steps[c][3][k][v] - steps[c][0][k][v]) <= 1e-5f);
        assert_true(fabsf(steps[c][4][k][v] - steps[c][0][k][v]) <= 1e-5f);
        if (c == 1) window_effect = fmaxf(window_effect, fabsf(steps[1][0][k][v] - steps[0][0][k][v]));
      }
  assert_true(window_effect > 1e-3f);
}

/* The device argmax over more logits than one chunk (two stages, the last chunk padded) picks what the
 * host picks from the same call's logits: 600 tokens = 2 chunks of 256 and one of 88, for prefill,
 * single-step and multi-step decode; and the multi-step decode's seeded draw at temperature 1 over
 * the chunks is the host sampler's draw from those logits. */
static void chunked_argmax_equals_host_argmax(void **state) {
  (void)state;
  enum { V = 600 };
  char compiler[MX_PATH_MAX], dir[] = "/tmp/mlxcel-test-argmax-XXXXXX", weights[300];
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  assert_non_null(mkdtemp(dir));
  tiny_weights_vocab(dir, V, weights, sizeof weights);
  mx_model_config_t c = tiny;
  c.vocab = V;
  mx_llama_graph_t g = {.config = &c, .matmul = MX_F32, .kv = MX_F32, .weight_dtype = MX_F32, .slots = 1, .capacity = 16, .kv_rows = 16,
                        .n_buckets = 1, .buckets = {16}, .n_windows = 1, .windows = {16}, .decode_steps = 2};
  char *text;
  assert_ok(mx_llama_emit(&g, &text));
  assert_non_null(strstr(text, "x3x256xf32>")); /* the chunked form */
  int mod, n;
  mx_worker_t *w = cpu_module(text, dir, "a.vmfb", weights, &mod);
  free(text);
  int64_t s16 = 16, s1 = 1;
  int drawn_not_argmax = 0;
  for (int32_t seed = 0; seed < 6; seed++) {
    int32_t ids[16] = {0}, len = 3 + seed, slot = 0;
    for (int i = 0; i < len; i++) ids[i] = (seed * 97 + i * 31) % V;
    mx_tensor_t in[3] = {mx_tensor_host(MX_I32, 1, &s16, ids), mx_tensor_host(MX_I32, 0, NULL, &len),
                         mx_tensor_host(MX_I32, 0, NULL, &slot)}, lg, tok;
    assert_ok(mx_worker_call(w, mod, "prefill_16_logits", in, 3, 0, &lg, 1, &n));
    assert_ok(mx_worker_call(w, mod, "prefill_16", in, 3, 0, &tok, 1, &n));
    const float *l = lg.data;
    int32_t best = 0;
    for (int v = 1; v < V; v++)
      if (l[v] > l[best]) best = v;
    assert_int_equal(*(int32_t *)tok.data, best);
    mx_tensor_release(&lg);
    mx_tensor_release(&tok);
    /* one step with logits, then the same step in the 2-step form */
    int32_t pos = len, key = seed * 1000003;
    float greedy = 0, one = 1;
    mx_tensor_t din[4] = {mx_tensor_host(MX_I32, 1, &s1, &best), mx_tensor_host(MX_I32, 1, &s1, &pos),
                          mx_tensor_host(MX_F32, 1, &s1, &greedy), mx_tensor_host(MX_I32, 1, &s1, &key)}, dl, ds;
    assert_ok(mx_worker_call(w, mod, "decode_16_logits", din, 2, 0, &dl, 1, &n));
    l = dl.data;
    int32_t next = 0;
    for (int v = 1; v < V; v++)
      if (l[v] > l[next]) next = v;
    assert_ok(mx_worker_call(w, mod, "decode_16_steps", din, 4, 0, &ds, 1, &n));
    assert_int_equal(((int32_t *)ds.data)[0], next);
    mx_tensor_release(&ds);
    din[2] = mx_tensor_host(MX_F32, 1, &s1, &one);
    assert_ok(mx_worker_call(w, mod, "decode_16_steps", din, 4, 0, &ds, 1, &n));
    int32_t drawn = ((int32_t *)ds.data)[0];
    assert_int_equal(drawn, host_draw(l, V, 1, (uint32_t)key, pos));
    drawn_not_argmax += drawn != next;
    mx_tensor_release(&dl);
    mx_tensor_release(&ds);
  }
  assert_true(drawn_not_argmax >= 2);
  mx_worker_destroy(w);
  remove_dir(dir);
}

/* The device's draw under the cuts (hlo/pick.h) is the host sampler's pick, token for token, and its
 * candidates are the host's: rows of 600 logits (three chunks, the last padded) of every reference
 * shape (ties among them, and -inf entries), through one module of 4 slots with top-k, top-p and min-p
 * alone and together, the cuts off, a slot at temperature 0, seeds and positions varied. */
static void device_cuts_equal_host_cuts(void **state) {
  (void)state;
  enum { S = 4, V = 600, CALLS = 12 };
  static const struct {
    float temperature, top_p, min_p;
    int top_k;
  } set[] = {{1, 1, 0, 40}, {0.7f, 0.9f, 0, 0}, {1.3f, 1, 0.05f, 0}, {0.8f, 0.95f, 0.02f, 50}, {1, 1, 0, 1}, {2, 0.5f, 0, 0},
             {0.5f, 0.99f, 0, 599}, {1, 1, 0, 0}, {0, 1, 0, 0}, {1, 0.3f, 0.2f, 7}, {3, 0.6f, 0, 300}};
  enum { SETS = sizeof set / sizeof *set };
  char compiler[MX_PATH_MAX], dir[] = "/tmp/mlxcel-test-cuts-XXXXXX";
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  assert_non_null(mkdtemp(dir));
  mx_hlo_t *h = mx_hlo_create();
  int64_t sv[2] = {S, V}, s1 = S;
  mx_hval_t fi = mx_htype(MX_F32, 1, &s1), ii = mx_htype(MX_I32, 1, &s1), args[7];
  mx_hval_t types[7] = {mx_htype(MX_F32, 2, sv), fi, ii, ii, ii, fi, fi};
  mx_hlo_func_begin(h, "pick", 7, types, args);
  mx_pick_t p = {.h = h, .vocab = V, .fence_iotas = true};
  mx_pick_cuts_t cuts = {.top_k = args[4], .top_p = args[5], .min_p = args[6]};
  mx_hval_t mask = mx_pick_candidates(&p, args[0], args[1], &cuts);
  mx_hval_t out[2] = {mx_pick_draw(&p, args[0], args[1], args[2], args[3], &cuts),
                      mx_hlo_select(h, mask, mx_hlo_splat(h, mx_htype(MX_I32, 2, sv), 1), mx_hlo_splat(h, mx_htype(MX_I32, 2, sv), 0))};
  mx_hlo_func_end(h, 2, out);
  char *text;
  assert_ok(mx_hlo_finish(h, &text));
  mx_hlo_destroy(h);
  int mod, n;
  mx_worker_t *w = cpu_module(text, dir, "cuts.vmfb", NULL, &mod);
  free(text);
  static float rows[S * V], l[V];
  static int32_t history[4000], ids[V];
  static double probs[V];
  ref_rng_t rng = {2026};
  int drawn_not_argmax = 0, cut_somewhere = 0;
  for (int call = 0; call < CALLS; call++) {
    float temperature[S], top_p[S], min_p[S];
    int32_t key[S], pos[S], top_k[S];
    mx_sampling_t sp[S];
    for (int b = 0; b < S; b++) {
      int k = (call * S + b) % SETS;
      ref_row((call + b) % REF_SHAPES, rows + b * V, V, &rng);
      temperature[b] = set[k].temperature, top_k[b] = set[k].top_k, top_p[b] = set[k].top_p, min_p[b] = set[k].min_p;
      pos[b] = (call * 337 + b * 91) % 4000;
      sp[b] = (mx_sampling_t){.temperature = temperature[b], .top_k = top_k[b], .top_p = top_p[b], .min_p = min_p[b],
                              .repeat_penalty = 1, .seed = (uint64_t)call * 0x100000001ULL + (uint64_t)b};
      key[b] = (int32_t)mx_gumbel_key(sp[b].seed);
    }
    mx_tensor_t in[7] = {mx_tensor_host(MX_F32, 2, sv, rows), mx_tensor_host(MX_F32, 1, &s1, temperature),
                         mx_tensor_host(MX_I32, 1, &s1, key), mx_tensor_host(MX_I32, 1, &s1, pos),
                         mx_tensor_host(MX_I32, 1, &s1, top_k), mx_tensor_host(MX_F32, 1, &s1, top_p),
                         mx_tensor_host(MX_F32, 1, &s1, min_p)}, res[2];
    assert_ok(mx_worker_call(w, mod, "pick", in, 7, 0, res, 2, &n));
    const int32_t *drawn = res[0].data, *kept = res[1].data;
    for (int b = 0; b < S; b++) {
      const float *row = rows + b * V;
      mx_sampler_t *smp = mx_sampler_create(&sp[b], V);
      assert_non_null(smp);
      memcpy(l, row, sizeof l);
      int32_t want = mx_sampler_pick(smp, l, history, pos[b] + 1, pos[b] + 1);
      if (drawn[b] != want)
        fprintf(stderr, "call %d slot %d (T %g, top-k %d, top-p %g, min-p %g): device %d, host %d\n", call, b, temperature[b],
                top_k[b], top_p[b], min_p[b], drawn[b], want);
      assert_int_equal(drawn[b], want);
      /* the host's candidates (those of nonzero weight) all kept on the device, and of the tokens
       * within 30 of the largest z, no other */
      memcpy(l, row, sizeof l);
      int c = mx_sampler_candidates(smp, l, ids, probs, V), on_device = 0;
      mx_sampler_destroy(smp);
      static bool host[V];
      memset(host, 0, sizeof host);
      for (int i = 0; i < c; i++) host[ids[i]] = true, assert_int_equal(kept[b * V + ids[i]], 1);
      float top = -INFINITY, tz = temperature[b] > 0 ? temperature[b] : 1;
      for (int i = 0; i < V; i++) top = fmaxf(top, row[i] / tz);
      for (int i = 0; temperature[b] > 0 && i < V; i++)
        if (row[i] / tz > top - 30) assert_int_equal(kept[b * V + i], host[i]);
      for (int i = 0; i < V; i++) on_device += kept[b * V + i];
      cut_somewhere += on_device < V;
      int32_t best = 0;
      for (int i = 1; i < V; i++)
        if (row[i] > row[best]) best = i;
      drawn_not_argmax += drawn[b] != best;
    }
    mx_tensor_release(&res[0]);
    mx_tensor_release(&res[1]);
  }
  assert_true(drawn_not_argmax >= CALLS); /* draws, not the argmax in disguise */
  assert_true(cut_somewhere >= CALLS);    /* and cuts that left tokens out */
  mx_worker_destroy(w);
  remove_dir(dir);
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
  assert_ok(compile_via_cache(&t, text, path));
  free(text);
  mx_worker_t *w = cpu_worker();
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

/* ---- chunked prefill: a long prompt in chunks equals it in one call -------------------------------- */

static int load_graph(mx_worker_t *w, const mx_llama_graph_t *g, const char *dir, const char *name, const char *weights) {
  char compiler[MX_PATH_MAX], vmfb[300], *text;
  assert_ok(mx_toolchain_compiler(compiler, sizeof compiler));
  assert_ok(mx_llama_emit(g, &text));
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  snprintf(vmfb, sizeof vmfb, "%s/%s.vmfb", dir, name);
  assert_ok(compile_via_cache(&t, text, vmfb));
  free(text);
  const char *params[1] = {weights};
  int mod;
  assert_ok(mx_worker_load(w, vmfb, params, 1, &mod));
  return mod;
}

static void call_logits(mx_worker_t *w, int mod, const char *fn, mx_tensor_t *in, int n_in, float *logits) {
  mx_tensor_t res;
  int n;
  assert_ok(mx_worker_call(w, mod, fn, in, n_in, 0, &res, 1, &n));
  assert_int_equal(mx_tensor_count(&res), 40);
  memcpy(logits, res.data, sizeof(float) * 40);
  mx_tensor_release(&res);
}

/* Capacity 30 in chunks of 8 (kv_rows 32, extend_16 and extend_30): a 21-token prompt as prefill_8,
 * extend_16 from 8 and a padded extend_30 from 16 gives the logits of one prefill_32 call of a
 * capacity-32 module, and so does the decode step after it (the chunks wrote the same cache rows).
 * With head_slots = 2 (grouped_slots = 2) the chunked module takes the per-head (grouped-rows) decode
 * form and stores its values transposed ([slots * KV, D, rows]), which every write, extend window and
 * slot copy must follow: a 20-token prompt copied from slot 0 to slot 1 then decodes the same logits
 * in both slots, and those of the one-call module. */
static void chunked_prefill_case(int head_slots, int grouped_slots) {
  char dir[] = "/tmp/mlxcel-test-chunks-XXXXXX", weights[300];
  assert_non_null(mkdtemp(dir));
  tiny_weights(dir, weights, sizeof weights);
  mx_llama_graph_options_t o = {.precision = MX_F32, .weight_dtype = MX_F32, .slots = 2, .capacity = 30,
                                .head_attention_slots = head_slots, .grouped_attention_slots = grouped_slots};
  mx_llama_graph_t chunked, whole;
  assert_ok(mx_llama_graph_make(&tiny, &o, &chunked));
  bool transposed = head_slots > 0 || grouped_slots > 0;
  assert_true(chunked.values_transposed == transposed);
  o.head_attention_slots = 0, o.grouped_attention_slots = 0;
  chunked.n_buckets = 2, chunked.buckets[0] = 4, chunked.buckets[1] = 8, chunked.kv_rows = 32;
  chunked.n_windows = 3, chunked.windows[0] = 8, chunked.windows[1] = 16, chunked.windows[2] = 30;
  o.capacity = 32;
  assert_ok(mx_llama_graph_make(&tiny, &o, &whole));
  whole.n_buckets = 1, whole.buckets[0] = 32, whole.n_windows = 1, whole.windows[0] = 32;
  char *text;
  assert_ok(mx_llama_emit(&chunked, &text));
  assert_non_null(strstr(text, "@extend_16_logits("));
  assert_non_null(strstr(text, "@extend_30("));
  assert_null(strstr(text, "@extend_8")); /* windows up to the chunk need none */
  assert_non_null(strstr(text, "@extend_30_t4_logits(")); /* a last chunk of the smaller bucket */
  assert_null(strstr(text, "@extend_30_t8")); /* the chunk's own width keeps the plain name */
  /* the V cache's declared type: [slots * KV, D, rows] when transposed */
  assert_true((strstr(text, "@kv_v0 : tensor<2x8x32xf32>") != NULL) == transposed);
  /* the grouped rows at the last window: [S*KV, G, D] . [S*KV, W, D] -> [S*KV, G, W] */
  assert_true((strstr(text, "(tensor<2x2x8xf32>, tensor<2x30x8xf32>) -> tensor<2x2x30xf32>") != NULL) == (grouped_slots > 0));
  free(text);
  mx_worker_t *w = cpu_worker();
  int mc = load_graph(w, &chunked, dir, "chunked", weights), mw = load_graph(w, &whole, dir, "whole", weights);
  int32_t ids[32] = {0}, n = 21, slot = 1;
  for (int i = 0; i < n; i++) ids[i] = (i * 7 + 3) % 40;
  float a[40], b[40];
  int64_t s8 = 8, s32 = 32, s2 = 2;
  int32_t len8 = 8, start8 = 8, start16 = 16, len5 = n - 16, tail[8] = {0};
  memcpy(tail, ids + 16, sizeof(int32_t) * (size_t)len5);
  mx_tensor_t first[3] = {mx_tensor_host(MX_I32, 1, &s8, ids), mx_tensor_host(MX_I32, 0, NULL, &len8),
                          mx_tensor_host(MX_I32, 0, NULL, &slot)};
  mx_tensor_t second[4] = {mx_tensor_host(MX_I32, 1, &s8, ids + 8), mx_tensor_host(MX_I32, 0, NULL, &start8),
                           mx_tensor_host(MX_I32, 0, NULL, &len8), mx_tensor_host(MX_I32, 0, NULL, &slot)};
  mx_tensor_t third[4] = {mx_tensor_host(MX_I32, 1, &s8, tail), mx_tensor_host(MX_I32, 0, NULL, &start16),
                          mx_tensor_host(MX_I32, 0, NULL, &len5), mx_tensor_host(MX_I32, 0, NULL, &slot)};
  call_logits(w, mc, "prefill_8_logits", first, 3, a);
  call_logits(w, mc, "extend_16_logits", second, 4, a);
  call_logits(w, mc, "extend_30_logits", third, 4, a);
  mx_tensor_t one[3] = {mx_tensor_host(MX_I32, 1, &s32, ids), mx_tensor_host(MX_I32, 0, NULL, &n),
                        mx_tensor_host(MX_I32, 0, NULL, &slot)};
  call_logits(w, mw, "prefill_32_logits", one, 3, b);
  for (int i = 0; i < 40; i++) assert_true(fabsf(a[i] - b[i]) <= 1e-4f * (1 + fabsf(b[i])));
  /* The next token at position 21 in slot 1 (slot 0 idle at position 0). */
  int32_t tok[2] = {0, argmax40(b)}, pos[2] = {0, n};
  float da[80], db[80];
  mx_tensor_t din[2] = {mx_tensor_host(MX_I32, 1, &s2, tok), mx_tensor_host(MX_I32, 1, &s2, pos)}, res;
  int k;
  assert_ok(mx_worker_call(w, mc, "decode_30_logits", din, 2, 0, &res, 1, &k));
  memcpy(da, res.data, sizeof da);
  mx_tensor_release(&res);
  assert_ok(mx_worker_call(w, mw, "decode_32_logits", din, 2, 0, &res, 1, &k));
  memcpy(db, res.data, sizeof db);
  mx_tensor_release(&res);
  for (int i = 40; i < 80; i++) assert_true(fabsf(da[i] - db[i]) <= 1e-4f * (1 + fabsf(db[i])));
  /* A last chunk of at most 4 tokens takes the 4-token extend_30_t4: a 20-token prompt in slot 0 as
   * prefill_8, extend_16 and extend_30_t4 gives prefill_32's logits of it. */
  int64_t s4 = 4;
  int32_t n20 = 20, len4 = 4;
  slot = 0;
  mx_tensor_t short_tail[4] = {mx_tensor_host(MX_I32, 1, &s4, ids + 16), mx_tensor_host(MX_I32, 0, NULL, &start16),
                               mx_tensor_host(MX_I32, 0, NULL, &len4), mx_tensor_host(MX_I32, 0, NULL, &slot)};
  call_logits(w, mc, "prefill_8_logits", first, 3, a);
  call_logits(w, mc, "extend_16_logits", second, 4, a);
  call_logits(w, mc, "extend_30_t4_logits", short_tail, 4, a);
  one[1] = mx_tensor_host(MX_I32, 0, NULL, &n20);
  call_logits(w, mw, "prefill_32_logits", one, 3, b);
  for (int i = 0; i < 40; i++) assert_true(fabsf(a[i] - b[i]) <= 1e-4f * (1 + fabsf(b[i])));
  /* Slot 0's 20 rows copied to slot 1 (overwriting the 21-token prompt there); one step of both. */
  int32_t from = 0, to = 1, back = -1;
  mx_tensor_t cin[2] = {mx_tensor_host(MX_I32, 0, NULL, &from), mx_tensor_host(MX_I32, 0, NULL, &to)};
  assert_ok(mx_worker_call(w, mc, "copy_slot_30", cin, 2, 0, &res, 1, &k));
  memcpy(&back, res.data, sizeof back);
  mx_tensor_release(&res);
  assert_int_equal(back, 1);
  int32_t tok2[2] = {argmax40(b), argmax40(b)}, pos2[2] = {n20, n20};
  din[0] = mx_tensor_host(MX_I32, 1, &s2, tok2), din[1] = mx_tensor_host(MX_I32, 1, &s2, pos2);
  assert_ok(mx_worker_call(w, mc, "decode_30_logits", din, 2, 0, &res, 1, &k));
  memcpy(da, res.data, sizeof da);
  mx_tensor_release(&res);
  int32_t tok1 = argmax40(b), pos1 = n20; /* the one-call module: slot 0 holds the 20-token prompt */
  int32_t tokw[2] = {tok1, 0}, posw[2] = {pos1, 0};
  din[0] = mx_tensor_host(MX_I32, 1, &s2, tokw), din[1] = mx_tensor_host(MX_I32, 1, &s2, posw);
  assert_ok(mx_worker_call(w, mw, "decode_32_logits", din, 2, 0, &res, 1, &k));
  memcpy(db, res.data, sizeof db);
  mx_tensor_release(&res);
  for (int i = 0; i < 40; i++) {
    assert_true(da[i] == da[40 + i]);
    assert_true(fabsf(da[i] - db[i]) <= 1e-4f * (1 + fabsf(db[i])));
  }
  mx_worker_destroy(w);
  remove_dir(dir);
}

static void chunked_prefill_equals_one_call(void **state) {
  (void)state;
  chunked_prefill_case(0, 0);
  chunked_prefill_case(2, 0);
  chunked_prefill_case(0, 2);
}

/* The tiny config with an MLP of 1024 (products long enough to split), its weights in dir, a worker. */
static mx_worker_t *wide_mlp_setup(char *dir, char *weights, size_t cap, mx_model_config_t *c) {
  assert_non_null(mkdtemp(dir));
  tiny_weights_shape(dir, 40, 1024, weights, cap);
  *c = tiny;
  c->ffn_dim = 1024;
  return cpu_worker();
}

/* The GPU targets' split reduction (a prefill product's K in chunks, summed): with an MLP of 1024 the
 * 16-row down projection splits in 2 (chunks of 512) and gives the single product's logits. */
static void split_reduction_equals_one_product(void **state) {
  (void)state;
  char dir[] = "/tmp/mlxcel-test-split-XXXXXX", weights[300];
  mx_model_config_t c;
  mx_worker_t *w = wide_mlp_setup(dir, weights, sizeof weights, &c);
  float logits[2][40];
  for (int e = 0; e < 2; e++) {
    mx_llama_graph_t g = {.config = &c, .matmul = MX_F32, .kv = MX_F32, .weight_dtype = MX_F32, .slots = 1, .capacity = 16,
                          .kv_rows = 16, .n_buckets = 1, .buckets = {16}, .n_windows = 1, .windows = {16},
                          .decode_steps = 1, .split_reduction = e == 1};
    char *text;
    assert_ok(mx_llama_emit(&g, &text));
    assert_true((strstr(text, "tensor<2x16x16xf32>") != NULL) == (e == 1)); /* [S, T, N] partial sums */
    free(text);
    int mod = load_graph(w, &g, dir, e ? "split" : "whole", weights);
    int32_t ids[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3}, len = 10, slot = 0;
    int64_t s16 = 16;
    mx_tensor_t in[3] = {mx_tensor_host(MX_I32, 1, &s16, ids), mx_tensor_host(MX_I32, 0, NULL, &len),
                         mx_tensor_host(MX_I32, 0, NULL, &slot)};
    call_logits(w, mod, "prefill_16_logits", in, 3, logits[e]);
  }
  for (int i = 0; i < 40; i++) assert_true(fabsf(logits[1][i] - logits[0][i]) <= 1e-5f * (1 + fabsf(logits[0][i])));
  mx_worker_destroy(w);
  remove_dir(dir);
}

/* Two sequences (slots 0 and 2 of 3) decode 6 steps in mod[0] and mod[1] with the same logits (within
 * 1e-5); then the worker and dir go. */
static void two_forms_decode_alike(mx_worker_t *w, const int mod[2], const char *dir) {
  static float steps[2][6][3 * 40];
  for (int e = 0; e < 2; e++) two_sequences_decode(w, mod[e], 6, steps[e]);
  for (int k = 0; k < 6; k++)
    for (int v = 0; v < 3 * 40; v++)
      if (v < 40 || v >= 80) assert_true(fabsf(steps[1][k][v] - steps[0][k][v]) <= 1e-5f * (1 + fabsf(steps[0][k][v])));
  mx_worker_destroy(w);
  remove_dir(dir);
}

/* The GPU targets' batched decode products in one product with the reduction split
 * (split_decode_reduction): with an MLP of 1024 the 3-row down projection splits in 4 (chunks of 256),
 * the other products stay whole, and two sequences decode with the logits of the CPU's form; so they
 * do with the down projection named whole (whole_decode_products), which then is one 3-row product. */
static void split_decode_reduction_equals_cpu_form(void **state) {
  (void)state;
  char dir[] = "/tmp/mlxcel-test-dsplit-XXXXXX", weights[300];
  mx_model_config_t c;
  mx_worker_t *w = wide_mlp_setup(dir, weights, sizeof weights, &c);
  int mod[3];
  for (int e = 0; e < 3; e++) {
    /* e = 2: the same split graph with the down projection ([16, 1024]) whole, as a target's tuning
     * library may name it (whole_decode_products) */
    mx_llama_graph_t g = {.config = &c, .matmul = MX_F32, .kv = MX_F32, .weight_dtype = MX_F32, .slots = 3, .capacity = 16,
                          .kv_rows = 16, .n_buckets = 2, .buckets = {4, 16}, .n_windows = 2, .windows = {8, 16},
                          .decode_steps = 1, .product_rows = e ? 2 : 0, .split_decode_reduction = e > 0,
                          .n_whole_decode_products = e == 2, .whole_decode_products = {{16, 1024}}};
    char *text;
    assert_ok(mx_llama_emit(&g, &text));
    assert_true((strstr(text, "-> tensor<4x3x16xf32>") != NULL) == (e == 1));      /* [S, T, N] partial sums */
    assert_null(strstr(text, "(tensor<3x16xf32>) -> tensor<2x16xf32>"));           /* no 2-row products */
    assert_true((strstr(text, "tensor<16x1024xf32>) -> tensor<3x16xf32>") != NULL) == (e != 1)); /* one 3-row product */
    free(text);
    mod[e] = load_graph(w, &g, dir, e == 2 ? "dwhole" : e ? "dsplit" : "cpu", weights);
  }
  static float whole[2][6][3 * 40];
  for (int e = 0; e < 2; e++) two_sequences_decode(w, mod[e * 2], 6, whole[e]);
  for (int k = 0; k < 6; k++)
    for (int v = 0; v < 3 * 40; v++)
      if (v < 40 || v >= 80) assert_true(fabsf(whole[1][k][v] - whole[0][k][v]) <= 1e-5f * (1 + fabsf(whole[0][k][v])));
  two_forms_decode_alike(w, mod, dir);
}

/* How often `what` occurs in text. */
static int count_of(const char *text, const char *what) {
  int n = 0;
  for (const char *p = strstr(text, what); p; p = strstr(p + 1, what)) n++;
  return n;
}

/* Q/K/V and gate/up each as one product over their weights stacked (fuse_products), with the batched
 * products in rows of 2 as the GPU targets take them: two sequences in a 3-slot module decode with
 * the logits of separate products (the CPU's form); the stacks are concatenated once, in the module's
 * initializer, and a decode step's activation reads the gate/up product as a pair (gated_pair). */
static void fused_products_equal_separate_products(void **state) {
  (void)state;
  char dir[] = "/tmp/mlxcel-test-fused-XXXXXX", weights[300];
  assert_non_null(mkdtemp(dir));
  tiny_weights(dir, weights, sizeof weights);
  mx_worker_t *w = cpu_worker();
  int mod[2];
  for (int e = 0; e < 2; e++) {
    mx_llama_graph_t g = {.config = &tiny, .matmul = MX_F32, .kv = MX_F32, .weight_dtype = MX_F32, .slots = 3, .capacity = 16,
                          .kv_rows = 16, .n_buckets = 2, .buckets = {4, 16}, .n_windows = 2, .windows = {8, 16},
                          .decode_steps = 1, .product_rows = e ? 2 : 0, .fuse_products = e == 1};
    char *text;
    assert_ok(mx_llama_emit(&g, &text));
    /* q [16, 16], k and v [8, 16] stacked; gate and up [32, 16] stacked */
    assert_true((strstr(text, "tensor<8x16xf32>) -> tensor<32x16xf32>") != NULL) == (e == 1));
    assert_true((strstr(text, "tensor<32x16xf32>) -> tensor<64x16xf32>") != NULL) == (e == 1));
    /* concatenated once, in the module's initializer, not in each function that reads the stack */
    assert_int_equal(count_of(text, "tensor<8x16xf32>) -> tensor<32x16xf32>"), e == 1);
    assert_int_equal(count_of(text, "util.initializer"), e == 1);
    /* a decode step's gate/up product read in place, [3, 2, 32], its activation times up one product */
    assert_true((strstr(text, "tensor<3x2x32xf32>") != NULL) == (e == 1));
    free(text);
    mod[e] = load_graph(w, &g, dir, e ? "fused" : "separate", weights);
  }
  two_forms_decode_alike(w, mod, dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(llama_graph_compiles_and_runs_every_function),
      cmocka_unit_test(batched_slots_match_single_sequence_runs),
      cmocka_unit_test(multi_step_decode_equals_single_steps),
      cmocka_unit_test(multi_step_decode_under_cuts_equals_single_steps),
      cmocka_unit_test(gpu_graph_forms_equal_cpu_forms),
      cmocka_unit_test(chunked_argmax_equals_host_argmax),
      cmocka_unit_test(device_cuts_equal_host_cuts),
      cmocka_unit_test(state_globals_do_not_alias),
      cmocka_unit_test(chunked_prefill_equals_one_call),
      cmocka_unit_test(split_reduction_equals_one_product),
      cmocka_unit_test(split_decode_reduction_equals_cpu_form),
      cmocka_unit_test(fused_products_equal_separate_products),
  };
  return cmocka_run_group_tests_name("hlo/llama on IREE", tests, NULL, NULL);
}
