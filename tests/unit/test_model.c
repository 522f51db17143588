/* Model files: parsing valid ones, and refusing every kind of corruption with a clear error. */
#include "testutil.h"

#include <math.h>

#include <sys/stat.h>
#include <unistd.h>

#include "gguf_writer.h"
#include "format/gguf.h"
#include "model/model.h"
#include "format/safetensors.h"
#include "model/synth.h"

/* --------------------------------------------------------------------------------- safetensors */

static uint8_t *make_safetensors(const char *header, size_t data_len, size_t *size) {
  size_t h = strlen(header);
  uint8_t *b = calloc(1, 8 + h + data_len);
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)((uint64_t)h >> (8 * i));
  memcpy(b + 8, header, h);
  *size = 8 + h + data_len;
  return b;
}

static void safetensors_valid(void **state) {
  (void)state;
  size_t n;
  uint8_t *b = make_safetensors(
      "{\"__metadata__\":{\"format\":\"pt\"},\"a\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]},"
      "\"b\":{\"dtype\":\"BF16\",\"shape\":[4],\"data_offsets\":[24,32]}}",
      32, &n);
  mx_weight_t *w;
  int count;
  assert_ok(mx_safetensors_parse(b, n, "t.safetensors", 0, &w, &count));
  assert_int_equal(count, 2);
  assert_string_equal(w[0].name, "a");
  assert_int_equal(w[0].shape[1], 3);
  assert_int_equal(w[1].type, MX_W_BF16);
  assert_ptr_equal(w[1].data, b + n - 8);
  free(w);
  free(b);
}

static void safetensors_corruptions_are_refused(void **state) {
  (void)state;
  struct {
    const char *header;
    size_t data;
    const char *needle;
  } cases[] = {
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,48]}}", 24, "outside"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,20]}}", 24, "needs 24"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
       16, "overlap"},
      {"{\"a\":{\"dtype\":\"I64\",\"shape\":[1],\"data_offsets\":[0,8]}}", 8, "unsupported dtype I64"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,8]}}", 8, "invalid or absurd dimension"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,4294967296],\"data_offsets\":[0,8]}}", 8, "absurd"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}", 8, "data_offsets"},
      {"[1,2,3]", 0, "not a JSON object"},
      {"{\"a\": {", 0, "not a JSON object"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t n;
    uint8_t *b = make_safetensors(cases[i].header, cases[i].data, &n);
    mx_weight_t *w;
    int count;
    assert_status(mx_safetensors_parse(b, n, "bad.safetensors", 0, &w, &count), MX_STAGE_IO, cases[i].needle);
    free(b);
  }
  /* Header length past the end, and a file too short to have one. */
  uint8_t b[16] = {0xff, 0xff, 0, 0, 0, 0, 0, 0};
  mx_weight_t *w;
  int count;
  assert_status(mx_safetensors_parse(b, sizeof b, "bad.safetensors", 0, &w, &count), MX_STAGE_IO, "does not fit");
  assert_status(mx_safetensors_parse(b, 5, "bad.safetensors", 0, &w, &count), MX_STAGE_IO, "too short");
}

/* ---------------------------------------------------------------------------------------- GGUF */

static void gguf_tiny_model_parses(void **state) {
  (void)state;
  size_t n;
  uint8_t *b = gw_tiny_llama(&n);
  mx_gguf_t *g;
  assert_ok(mx_gguf_parse(b, n, "tiny.gguf", 0, &g));
  assert_int_equal(g->version, 3);
  assert_int_equal(g->n_tensors, 11);
  uint32_t v;
  assert_true(mx_gguf_get_u32(g, "llama.embedding_length", &v));
  assert_int_equal(v, 64);
  assert_int_equal(g->tensors[0].shape[0], 258); /* outermost first: [vocab, dim] */
  assert_int_equal(g->tensors[0].shape[1], 64);
  assert_int_equal(g->tensors[0].type, MX_W_Q8_0);
  mx_gguf_free(g);
  free(b);
}

static void gguf_truncations_never_crash(void **state) {
  (void)state;
  size_t n;
  uint8_t *b = gw_tiny_llama(&n);
  /* Every prefix of the file is refused cleanly (the sanitizer build checks the reads). */
  for (size_t cut = 0; cut < n; cut += (cut < 4096 ? 1 : 997)) {
    uint8_t *copy = malloc(cut ? cut : 1);
    memcpy(copy, b, cut);
    mx_gguf_t *g = NULL;
    mx_status_t st = mx_gguf_parse(copy, cut, "cut.gguf", 0, &g);
    assert_non_null(st);
    assert_null(g);
    assert_int_equal(mx_status_stage(st), MX_STAGE_IO);
    mx_status_free(st);
    free(copy);
  }
  free(b);
}

static void gguf_corruptions_are_named(void **state) {
  (void)state;
  size_t n;
  uint8_t *b = gw_tiny_llama(&n);
  mx_gguf_t *g;
  b[0] = 'X';
  assert_status(mx_gguf_parse(b, n, "x.gguf", 0, &g), MX_STAGE_IO, "not a GGUF file");
  b[0] = 'G';
  b[4] = 9; /* version */
  assert_status(mx_gguf_parse(b, n, "x.gguf", 0, &g), MX_STAGE_IO, "version 9");
  b[4] = 3;
  memset(b + 8, 0xff, 8); /* tensor count */
  assert_status(mx_gguf_parse(b, n, "x.gguf", 0, &g), MX_STAGE_IO, "absurd counts");
  free(b);
}

/* Rewrites the ggml type of the first tensor in a tiny file: to one the loader does not take (IQ2_XXS =
 * 16), named; and to a K-quant (Q4_K = 12), whose 256-element super-blocks a 64-wide row cannot hold. */
static void gguf_unsupported_type_is_named(void **state) {
  (void)state;
  size_t n;
  uint8_t *b = gw_tiny_llama(&n);
  const char *name = "token_embd.weight";
  uint8_t *p = memmem(b, n, name, strlen(name));
  assert_non_null(p);
  uint8_t *type = p + strlen(name) + 4 + 8 * 2; /* n_dims, two dims */
  type[0] = 16;
  mx_gguf_t *g;
  assert_status(mx_gguf_parse(b, n, "x.gguf", 0, &g), MX_STAGE_IO, "unsupported type IQ2_XXS");
  type[0] = 12;
  assert_status(mx_gguf_parse(b, n, "x.gguf", 0, &g), MX_STAGE_IO, "Q4_K");
  free(b);
}

/* ------------------------------------------------------------------------------------ models */

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, n, f), n);
  fclose(f);
}

static const char *tiny_config =
    "{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":128,\"num_hidden_layers\":2,"
    "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"vocab_size\":258,\"rms_norm_eps\":1e-5,"
    "\"rope_theta\":10000.0,\"max_position_embeddings\":256,\"tie_word_embeddings\":false,"
    "\"bos_token_id\":0,\"eos_token_id\":[1]}";

static void synth_then_open_hf_directory(void **state) {
  (void)state;
  char dir[] = "/tmp/mlxcel-test-model-XXXXXX", path[256], out[300];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/config.json", dir);
  write_file(path, tiny_config, strlen(tiny_config));
  snprintf(out, sizeof out, "%s/out", dir);
  mx_synth_options_t o = {.config_path = path, .tokenizer_dir = mx_test_llama3_tokenizer_dir(), .out_dir = out,
                          .seed = 7, .dtype = MX_W_F32, .quiet = 1};
  uint64_t params, bytes;
  assert_ok(mx_synth_write(&o, &params, &bytes));
  assert_int_equal(params, 2 * 258 * 64 + 64 + 2 * (2 * 64 + 2 * 4 * 16 * 64 + 2 * 2 * 16 * 64 + 3 * 64 * 128));
  mx_model_t *m;
  assert_ok(mx_model_open(out, &m));
  const mx_model_config_t *c = mx_model_config(m);
  assert_int_equal(c->head_dim, 16);
  assert_int_equal(c->n_kv_heads, 2);
  assert_false(c->tied_embeddings);
  assert_non_null(mx_model_global(m, MX_T_LM_HEAD));
  const mx_weight_t *norm = mx_model_layer(m, 1, MX_T_FFN_NORM);
  for (int i = 0; i < 64; i++) {
    float v = ((const float *)norm->data)[i];
    assert_true(v >= 0.9f && v <= 1.1f); /* norms near 1 */
  }
  mx_model_close(m);
  /* Same seed, same weights; a second synth into the same place is refused. */
  assert_status(mx_synth_write(&o, &params, &bytes), MX_STAGE_USAGE, "already holds a model");
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

static void config_shape_mismatch_is_refused(void **state) {
  (void)state;
  char dir[] = "/tmp/mlxcel-test-model-XXXXXX", path[256], out[300];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/config.json", dir);
  write_file(path, tiny_config, strlen(tiny_config));
  snprintf(out, sizeof out, "%s/out", dir);
  mx_synth_options_t o = {.config_path = path, .tokenizer_dir = mx_test_llama3_tokenizer_dir(), .out_dir = out,
                          .dtype = MX_W_BF16, .quiet = 1};
  uint64_t params, bytes;
  assert_ok(mx_synth_write(&o, &params, &bytes));
  /* The weights were made for ffn 128; a config claiming 256 must be refused at load. */
  char cfg[400];
  snprintf(cfg, sizeof cfg, "%s/config.json", out);
  const char *lie = "{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":256,\"num_hidden_layers\":2,"
                    "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"vocab_size\":258}";
  write_file(cfg, lie, strlen(lie));
  mx_model_t *m;
  assert_status(mx_model_open(out, &m), MX_STAGE_IO, "the config implies 256x64");
  const char *fewer = "{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":128,\"num_hidden_layers\":1,"
                      "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"vocab_size\":258}";
  write_file(cfg, fewer, strlen(fewer));
  assert_status(mx_model_open(out, &m), MX_STAGE_IO, "beyond its 1 layers");
  const char *other = "{\"model_type\":\"phi2\"}";
  write_file(cfg, other, strlen(other));
  assert_status(mx_model_open(out, &m), MX_STAGE_IO, "model_type 'phi2' is not supported");
  /* A Qwen2 config over these (bias-free) weights: the first bias is named as missing. */
  const char *qwen2 = "{\"model_type\":\"qwen2\",\"hidden_size\":64,\"intermediate_size\":128,\"num_hidden_layers\":2,"
                      "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"vocab_size\":258}";
  write_file(cfg, qwen2, strlen(qwen2));
  assert_status(mx_model_open(out, &m), MX_STAGE_IO, "tensor 'model.layers.0.self_attn.q_proj.bias' is missing");
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* Each family's switches from its config.json, and the roles they add bound with their shapes. */
static void families_bind_their_roles(void **state) {
  (void)state;
  const char *shape = "\"hidden_size\":64,\"intermediate_size\":128,\"num_hidden_layers\":2,\"num_attention_heads\":4,"
                      "\"num_key_value_heads\":2,\"vocab_size\":258,\"head_dim\":32";
  struct {
    const char *type, *extra;
    bool bias, norm;
    int window;
  } fams[] = {{"qwen2", "", true, false, 0}, {"qwen3", "", false, true, 0}, {"mistral", ",\"sliding_window\":16", false, false, 16},
              {"mistral", ",\"sliding_window\":null", false, false, 0}};
  for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++) {
    char dir[] = "/tmp/mlxcel-test-model-XXXXXX", path[256], out[300], cfg[512], cmd[400];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/config.json", dir);
    snprintf(cfg, sizeof cfg, "{\"model_type\":\"%s\",%s%s}", fams[f].type, shape, fams[f].extra);
    write_file(path, cfg, strlen(cfg));
    snprintf(out, sizeof out, "%s/out", dir);
    mx_synth_options_t o = {.config_path = path, .tokenizer_dir = mx_test_llama3_tokenizer_dir(), .out_dir = out, .dtype = MX_W_F32, .quiet = 1};
    uint64_t params, bytes;
    assert_ok(mx_synth_write(&o, &params, &bytes));
    mx_model_t *m;
    assert_ok(mx_model_open(out, &m));
    const mx_model_config_t *c = mx_model_config(m);
    assert_string_equal(c->arch, fams[f].type);
    assert_int_equal(c->qkv_bias, fams[f].bias);
    assert_int_equal(c->qk_norm, fams[f].norm);
    assert_int_equal(c->sliding_window, fams[f].window);
    assert_int_equal(c->head_dim, 32); /* from head_dim, not hidden / heads (16) */
    for (int l = 0; l < 2; l++) {
      const mx_weight_t *qb = mx_model_layer(m, l, MX_T_Q_BIAS), *kb = mx_model_layer(m, l, MX_T_V_BIAS), *qn = mx_model_layer(m, l, MX_T_K_NORM);
      assert_int_equal(qb != NULL, fams[f].bias);
      assert_int_equal(qn != NULL, fams[f].norm);
      if (qb) assert_int_equal(qb->shape[0], 4 * 32);
      if (kb) assert_int_equal(kb->shape[0], 2 * 32);
      if (qn) assert_int_equal(qn->shape[0], 32);
    }
    assert_false(mx_model_qk_interleaved(m)); /* an HF directory */
    mx_model_close(m);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
  }
  /* Qwen's sliding-window layers are refused by name, in either spelling. */
  const char *bad[] = {"{\"model_type\":\"qwen2\",\"use_sliding_window\":true,",
                       "{\"model_type\":\"qwen3\",\"layer_types\":[\"full_attention\",\"sliding_attention\"],"};
  for (int i = 0; i < 2; i++) {
    char text[512];
    snprintf(text, sizeof text, "%s%s}", bad[i], shape);
    mx_model_config_t c;
    assert_status(mx_config_from_hf_json(text, NULL, "config.json", &c), MX_STAGE_IO, "sliding-window layers");
  }
}

/* Gemma 3's config.json, in transformers 5's spelling (layer_types, rope_parameters per layer type)
 * and 4.x's (sliding_window_pattern, rope_local_base_freq), and what is refused by name. */
static void gemma3_config_from_hf(void **state) {
  (void)state;
  const char *base = "{\"model_type\":\"gemma3_text\",\"hidden_size\":640,\"intermediate_size\":2048,\"num_hidden_layers\":4,"
                     "\"num_attention_heads\":4,\"num_key_value_heads\":1,\"head_dim\":256,\"vocab_size\":1000,"
                     "\"hidden_activation\":\"gelu_pytorch_tanh\",\"query_pre_attn_scalar\":64,\"sliding_window\":512";
  char text[1024];
  mx_model_config_t c;
  snprintf(text, sizeof text, "%s,\"layer_types\":[\"sliding_attention\",\"full_attention\",\"sliding_attention\",\"full_attention\"],"
           "\"rope_parameters\":{\"full_attention\":{\"rope_type\":\"default\",\"rope_theta\":1000000.0},"
           "\"sliding_attention\":{\"rope_type\":\"default\",\"rope_theta\":10000.0}}}", base);
  assert_ok(mx_config_from_hf_json(text, NULL, "config.json", &c));
  assert_true(c.family == MX_FAMILY_GEMMA3 && c.qk_norm && c.sandwich_norms && c.tied_embeddings && c.norm_offset == 1.0f);
  assert_true(c.attn_scale == 0.125f && fabsf(c.embed_scale - sqrtf(640.0f)) < 1e-6f);
  int windows[4] = {512, 0, 512, 0};
  for (int l = 0; l < 4; l++) {
    assert_int_equal(mx_config_layer_window(&c, l), windows[l]);
    assert_true(mx_config_layer_theta(&c, l) == (windows[l] ? 10000.0f : 1000000.0f));
  }
  snprintf(text, sizeof text, "%s,\"sliding_window_pattern\":2,\"rope_theta\":500000.0,\"rope_local_base_freq\":5000.0}", base);
  assert_ok(mx_config_from_hf_json(text, NULL, "config.json", &c));
  for (int l = 0; l < 4; l++) assert_true(mx_config_layer_theta(&c, l) == (l % 2 ? 500000.0f : 5000.0f));
  const char *refused[][2] = {{",\"use_bidirectional_attention\":true}", "use_bidirectional_attention"},
                              {",\"rope_scaling\":{\"rope_type\":\"linear\",\"factor\":8.0}}", "rope_scaling"},
                              {",\"layer_types\":[\"chunked_attention\"]}", "layer_types[0]"}};
  for (int i = 0; i < 3; i++) {
    snprintf(text, sizeof text, "%s%s", base, refused[i][0]);
    assert_status(mx_config_from_hf_json(text, NULL, "config.json", &c), MX_STAGE_IO, refused[i][1]);
  }
  assert_status(mx_config_from_hf_json("{\"model_type\":\"gemma3\"}", NULL, "config.json", &c), MX_STAGE_IO, "multimodal");
}

/* Gemma 2: soft-capping (transformers' defaults, a value, null for none), the alternating layers, one
 * RoPE theta; Phi-3: fused projections, the window on every layer, its variants refused by name. */
static void gemma2_and_phi3_configs_from_hf(void **state) {
  (void)state;
  const char *g2 = "{\"model_type\":\"gemma2\",\"hidden_size\":1152,\"intermediate_size\":4608,\"num_hidden_layers\":4,"
                   "\"num_attention_heads\":8,\"num_key_value_heads\":4,\"head_dim\":256,\"vocab_size\":1000,\"sliding_window\":32";
  char text[1024];
  mx_model_config_t c;
  snprintf(text, sizeof text, "%s}", g2);
  assert_ok(mx_config_from_hf_json(text, NULL, "config.json", &c));
  assert_true(c.family == MX_FAMILY_GEMMA2 && !c.qk_norm && c.sandwich_norms && c.tied_embeddings && c.norm_offset == 1.0f);
  assert_true(c.attn_softcap == 50.0f && c.final_softcap == 30.0f && c.attn_scale == 1.0f / 16.0f && c.rope_theta == 10000.0f);
  for (int l = 0; l < 4; l++) {
    assert_int_equal(mx_config_layer_window(&c, l), l % 2 ? 0 : 32);
    assert_true(mx_config_layer_theta(&c, l) == 10000.0f);
  }
  snprintf(text, sizeof text, "%s,\"attn_logit_softcapping\":null,\"final_logit_softcapping\":20.5,\"rope_theta\":20000.0}", g2);
  assert_ok(mx_config_from_hf_json(text, NULL, "config.json", &c));
  assert_true(c.attn_softcap == 0.0f && c.final_softcap == 20.5f && mx_config_layer_theta(&c, 0) == 20000.0f);
  snprintf(text, sizeof text, "%s,\"final_logit_softcapping\":-1}", g2);
  assert_status(mx_config_from_hf_json(text, NULL, "config.json", &c), MX_STAGE_IO, "final_logit_softcapping");

  const char *phi = "{\"model_type\":\"phi3\",\"hidden_size\":768,\"intermediate_size\":2048,\"num_hidden_layers\":2,"
                    "\"num_attention_heads\":8,\"vocab_size\":1000,\"sliding_window\":2047";
  snprintf(text, sizeof text, "%s,\"rope_scaling\":null}", phi);
  assert_ok(mx_config_from_hf_json(text, NULL, "config.json", &c));
  assert_true(c.family == MX_FAMILY_PHI3 && c.fused_projections && c.head_dim == 96 && c.n_kv_heads == 8);
  assert_int_equal(mx_config_layer_window(&c, 1), 2047);
  assert_int_equal(mx_arch_fused_count(&c), 2);
  assert_ptr_equal(mx_arch_fused_of(MX_T_UP, &c), mx_arch_fused(1));
  assert_null(mx_arch_fused_of(MX_T_O, &c));
  const char *refused[][2] = {{",\"partial_rotary_factor\":0.75}", "partial_rotary_factor"},
                              {",\"rope_scaling\":{\"type\":\"longrope\",\"long_factor\":[1],\"short_factor\":[1]}}", "longrope"}};
  for (int i = 0; i < 2; i++) {
    snprintf(text, sizeof text, "%s%s", phi, refused[i][0]);
    assert_status(mx_config_from_hf_json(text, NULL, "config.json", &c), MX_STAGE_IO, refused[i][1]);
  }
}

/* GGUF architectures qwen2, qwen3, gemma3, gemma2 and phi3: their metadata prefix, their extra tensors,
 * HF's Q/K row order (llama.cpp permutes Llama's rows only), Phi-3's fused tensors split into views. */
static void gguf_qwen_architectures_open(void **state) {
  (void)state;
  const char *archs[] = {"llama", "qwen2", "qwen3", "gemma3", "phi2", "gemma2", "phi3"};
  for (int a = 0; a < 7; a++) {
    size_t n;
    uint8_t *b = gw_tiny_model(archs[a], &n);
    char path[] = "/tmp/mlxcel-test-tiny-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, b, n), (ssize_t)n);
    close(fd);
    free(b);
    mx_model_t *m = NULL;
    if (a == 4) {
      assert_status(mx_model_open(path, &m), MX_STAGE_IO, "architecture 'phi2' is not supported");
    } else {
      assert_ok(mx_model_open(path, &m));
      const mx_model_config_t *c = mx_model_config(m);
      assert_string_equal(c->arch, archs[a]);
      assert_int_equal(c->n_layers, 1);
      assert_int_equal(c->dim, 64);
      assert_int_equal(mx_model_qk_interleaved(m), a == 0);
      assert_int_equal(mx_model_layer(m, 0, MX_T_K_BIAS) != NULL, a == 1);
      assert_int_equal(mx_model_layer(m, 0, MX_T_Q_NORM) != NULL, a == 2 || a == 3);
      /* Gemma: the norms after attention and the MLP; ffn_norm is the MLP's input norm; llama.cpp
       * stored its norms as 1 + w, so no offset; the embedding scaled by sqrt(dim). */
      bool gemma = a == 3 || a == 5;
      assert_int_equal(mx_model_layer(m, 0, MX_T_POST_FFN_NORM) != NULL, gemma);
      assert_int_equal(mx_model_layer(m, 0, MX_T_PRE_FFN_NORM) != NULL, gemma);
      assert_int_equal(mx_model_layer(m, 0, MX_T_FFN_NORM) != NULL, !gemma);
      if (gemma) {
        assert_true(c->norm_offset == 0.0f && c->embed_scale == 8.0f && c->act == MX_ACT_GELU_TANH);
        assert_int_equal(mx_config_layer_window(c, 0), 4096); /* no window in the file: transformers' default */
        /* Gemma 2: every second layer global, soft-capping at transformers' defaults (none in the file) */
        assert_int_equal(mx_config_layer_window(c, 1), a == 5 ? 0 : 4096);
        assert_true(c->attn_softcap == (a == 5 ? 50.0f : 0.0f) && c->final_softcap == (a == 5 ? 30.0f : 0.0f));
      }
      if (a == 6) { /* Phi-3: views of attn_qkv's rows (Q4_1: 20 bytes per 32 values) and of ffn_up's halves */
        const mx_weight_t *q = mx_model_layer(m, 0, MX_T_Q), *k = mx_model_layer(m, 0, MX_T_K), *v = mx_model_layer(m, 0, MX_T_V);
        assert_true(q->shape[0] == 64 && k->shape[0] == 32 && v->shape[0] == 32 && q->type == MX_W_Q4_1);
        assert_true(q->nbytes == 64 * 2 * 20 && k->data == q->data + q->nbytes && v->data == k->data + k->nbytes);
        const mx_weight_t *gate = mx_model_layer(m, 0, MX_T_GATE), *up = mx_model_layer(m, 0, MX_T_UP);
        assert_true(gate->shape[0] == 128 && up->shape[0] == 128 && up->data == gate->data + 128 * 64 * 4);
        assert_string_equal(up->name, "blk.0.ffn_up.weight");
      }
      mx_model_close(m);
    }
    unlink(path);
  }
}

static void gguf_model_opens_with_tied_embeddings(void **state) {
  (void)state;
  size_t n;
  uint8_t *b = gw_tiny_llama(&n);
  char path[] = "/tmp/mlxcel-test-tiny-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, b, n), (ssize_t)n);
  close(fd);
  mx_model_t *m;
  assert_ok(mx_model_open(path, &m));
  assert_true(mx_model_config(m)->tied_embeddings);
  assert_null(mx_model_global(m, MX_T_LM_HEAD));
  assert_true(mx_model_qk_interleaved(m));
  assert_int_equal(mx_model_layer(m, 0, MX_T_GATE)->type, MX_W_BF16);
  mx_model_close(m);
  unlink(path);
  free(b);
  assert_status(mx_model_open("/nonexistent/model.gguf", &m), MX_STAGE_IO, "does not exist");
}

static void dequantization_matches_block_formulas(void **state) {
  (void)state;
  /* One Q4_1 block: d = 0.5, m = -1, nibbles 0..15 twice. */
  uint8_t q41[20] = {0};
  uint16_t d = mx_f32_to_f16(0.5f), mn = mx_f32_to_f16(-1.0f);
  memcpy(q41, &d, 2);
  memcpy(q41 + 2, &mn, 2);
  for (int i = 0; i < 16; i++) q41[4 + i] = (uint8_t)(i | ((15 - i) << 4));
  float out[32];
  mx_wtype_to_f32(MX_W_Q4_1, q41, 32, out);
  for (int i = 0; i < 16; i++) {
    assert_true(out[i] == 0.5f * (float)i - 1.0f);
    assert_true(out[16 + i] == 0.5f * (float)(15 - i) - 1.0f);
  }
  uint8_t q8[34];
  memcpy(q8, &d, 2);
  for (int i = 0; i < 32; i++) q8[2 + i] = (uint8_t)(int8_t)(i - 16);
  mx_wtype_to_f32(MX_W_Q8_0, q8, 32, out);
  for (int i = 0; i < 32; i++) assert_true(out[i] == 0.5f * (float)(i - 16));
  /* f16 and bf16 round trips of representable values, and round-to-nearest-even. */
  assert_true(mx_f16_to_f32(mx_f32_to_f16(1.5f)) == 1.5f);
  assert_true(mx_bf16_to_f32(mx_f32_to_bf16(-3.25f)) == -3.25f);
  assert_true(mx_f16_to_f32(mx_f32_to_f16(65504.0f)) == 65504.0f);
  assert_true(mx_f16_to_f32(mx_f32_to_f16(5.9604645e-8f)) == 5.9604645e-8f); /* smallest subnormal */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(safetensors_valid),
      cmocka_unit_test(safetensors_corruptions_are_refused),
      cmocka_unit_test(gguf_tiny_model_parses),
      cmocka_unit_test(gguf_truncations_never_crash),
      cmocka_unit_test(gguf_corruptions_are_named),
      cmocka_unit_test(gguf_unsupported_type_is_named),
      cmocka_unit_test(synth_then_open_hf_directory),
      cmocka_unit_test(config_shape_mismatch_is_refused),
      cmocka_unit_test(gguf_model_opens_with_tied_embeddings),
      cmocka_unit_test(families_bind_their_roles),
      cmocka_unit_test(gemma3_config_from_hf),
      cmocka_unit_test(gemma2_and_phi3_configs_from_hf),
      cmocka_unit_test(gguf_qwen_architectures_open),
      cmocka_unit_test(dequantization_matches_block_formulas),
  };
  return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
