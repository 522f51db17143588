#include "hlo/llama.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hlo/builder.h"

/* ------------------------------------------------------------------------------------ RoPE */

void mx_llama_inv_freq(const mx_model_config_t *c, float *out) {
  int half = c->head_dim / 2;
  for (int i = 0; i < half; i++) {
    /* transformers: 1.0 / (base ** (arange(0, dim, 2).float() / dim)), all in float32 */
    float expo = (float)(2 * i) / (float)c->head_dim;
    out[i] = 1.0f / powf(c->rope_theta, expo);
  }
  if (c->rope_kind != MX_ROPE_LLAMA3) return;
  const float pi = 3.14159265358979323846f;
  float factor = c->rope_factor, lo = c->rope_low_freq_factor, hi = c->rope_high_freq_factor;
  float old_ctx = (float)c->rope_original_max_position;
  float low_wavelen = old_ctx / lo, high_wavelen = old_ctx / hi;
  for (int i = 0; i < half; i++) {
    float inv = out[i], wavelen = 2.0f * pi / inv;
    float scaled = wavelen > low_wavelen ? inv / factor : inv;
    float smooth = (old_ctx / wavelen - lo) / (hi - lo);
    float smoothed = (1.0f - smooth) * scaled / factor + smooth * scaled;
    bool medium = !(wavelen < high_wavelen) && !(wavelen > low_wavelen);
    out[i] = medium ? smoothed : scaled;
  }
}

/* ------------------------------------------------------------------------------ the graph */

typedef struct {
  mx_hlo_t *h;
  const mx_llama_graph_t *g;
  const mx_model_config_t *c;
  mx_hval_t inv_freq; /* [head_dim/2] f32, per function */
} ctx_t;

static mx_hval_t t1(mx_dtype_t d, int64_t a) { return mx_htype(d, 1, &a); }
static mx_hval_t t2(mx_dtype_t d, int64_t a, int64_t b) {
  int64_t v[2] = {a, b};
  return mx_htype(d, 2, v);
}
static mx_hval_t t3(mx_dtype_t d, int64_t a, int64_t b, int64_t e) {
  int64_t v[3] = {a, b, e};
  return mx_htype(d, 3, v);
}

static void sym_of(char *out, size_t cap, const char *key) {
  snprintf(out, cap, "w_");
  size_t n = strlen(out);
  for (const char *p = key; *p && n + 1 < cap; p++) out[n++] = (*p == '.') ? '_' : *p;
  out[n] = '\0';
}

static mx_hval_t weight(ctx_t *x, const char *key, mx_hval_t type) {
  char sym[160];
  sym_of(sym, sizeof sym, key);
  return mx_hlo_load(x->h, sym, type);
}

/* a [.., K] broadcast-multiplied by v [K] along the last dimension. */
static mx_hval_t mul_last(ctx_t *x, mx_hval_t a, mx_hval_t v) {
  int64_t bd = a.rank - 1;
  return mx_hlo_binary(x->h, "multiply", a, mx_hlo_broadcast(x->h, v, a.rank, a.dims, &bd));
}

/* RMSNorm in f32: x * rsqrt(mean(x^2) + eps) * w. x: [T, dim] f32. */
static mx_hval_t rmsnorm(ctx_t *x, mx_hval_t in, const char *wkey) {
  mx_hlo_t *h = x->h;
  int64_t T = in.dims[0], D = in.dims[1], one = 1;
  mx_hval_t sq = mx_hlo_binary(h, "multiply", in, in);
  mx_hval_t sum = mx_hlo_reduce(h, sq, MX_REDUCE_SUM, 1, &one); /* [T] */
  mx_hval_t mean = mx_hlo_binary(h, "divide", sum, mx_hlo_splat(h, t1(MX_F32, T), (double)D));
  mx_hval_t inv = mx_hlo_unary(h, "rsqrt", mx_hlo_binary(h, "add", mean, mx_hlo_splat(h, t1(MX_F32, T), x->c->norm_eps)));
  int64_t zero = 0;
  mx_hval_t normed = mx_hlo_binary(h, "multiply", in, mx_hlo_broadcast(h, inv, 2, in.dims, &zero));
  mx_hval_t w = mx_hlo_convert(h, weight(x, wkey, t1(x->g->weight_dtype, D)), MX_F32);
  return mul_last(x, normed, w);
}

/* in [T, K] f32 times W^T where W is [N, K] (a PyTorch Linear): [T, N] f32, inputs in matmul type. */
static mx_hval_t linear(ctx_t *x, mx_hval_t in, const char *wkey, int64_t N) {
  mx_hlo_t *h = x->h;
  int64_t K = in.dims[1], lc = 1, rc = 1;
  mx_hval_t w = mx_hlo_convert(h, weight(x, wkey, t2(x->g->weight_dtype, N, K)), x->g->matmul);
  mx_hval_t a = mx_hlo_convert(h, in, x->g->matmul);
  return mx_hlo_dot(h, a, w, 0, NULL, NULL, 1, &lc, &rc, MX_F32);
}

/* cos and sin tables [T, head_dim] for positions start + t (HF: emb = cat(freqs, freqs)). */
static void rope_tables(ctx_t *x, mx_hval_t start, int64_t T, mx_hval_t *cos_out, mx_hval_t *sin_out) {
  mx_hlo_t *h = x->h;
  int64_t half = x->c->head_dim / 2, zero = 0, one = 1;
  mx_hval_t pos = mx_hlo_binary(h, "add", mx_hlo_iota(h, t1(MX_I32, T), 0), mx_hlo_broadcast(h, start, 1, &T, NULL));
  mx_hval_t posf = mx_hlo_convert(h, pos, MX_F32);
  int64_t dims[2] = {T, half};
  mx_hval_t ang = mx_hlo_binary(h, "multiply", mx_hlo_broadcast(h, posf, 2, dims, &zero),
                                mx_hlo_broadcast(h, x->inv_freq, 2, dims, &one));
  mx_hval_t both[2] = {ang, ang};
  mx_hval_t emb = mx_hlo_concat(h, 2, both, 1);
  *cos_out = mx_hlo_unary(h, "cosine", emb);
  *sin_out = mx_hlo_unary(h, "sine", emb);
}

/* Rotary embedding of v [T, heads, D] f32 (rotate_half convention). */
static mx_hval_t rope(ctx_t *x, mx_hval_t v, mx_hval_t cosv, mx_hval_t sinv) {
  mx_hlo_t *h = x->h;
  int64_t T = v.dims[0], H = v.dims[1], D = v.dims[2], half = D / 2;
  int64_t s0[3] = {0, 0, 0}, l0[3] = {T, H, half}, s1[3] = {0, 0, half}, l1[3] = {T, H, D};
  mx_hval_t x1 = mx_hlo_slice(h, v, s0, l0), x2 = mx_hlo_slice(h, v, s1, l1);
  mx_hval_t parts[2] = {mx_hlo_unary(h, "negate", x2), x1};
  mx_hval_t rot = mx_hlo_concat(h, 2, parts, 2);
  int64_t bd[2] = {0, 2};
  mx_hval_t c = mx_hlo_broadcast(h, cosv, 3, v.dims, bd), s = mx_hlo_broadcast(h, sinv, 3, v.dims, bd);
  return mx_hlo_binary(h, "add", mx_hlo_binary(h, "multiply", v, c), mx_hlo_binary(h, "multiply", rot, s));
}

/* One decoder layer on x [T, dim] at positions start.. ; updates that layer's KV cache. */
static mx_hval_t layer(ctx_t *x, int l, mx_hval_t in, mx_hval_t start, mx_hval_t cosv, mx_hval_t sinv) {
  mx_hlo_t *h = x->h;
  const mx_model_config_t *c = x->c;
  int64_t T = in.dims[0], H = c->n_heads, KV = c->n_kv_heads, D = c->head_dim, G = H / KV, C = x->g->capacity;
  char key[160], ksym[32], vsym[32];
  snprintf(key, sizeof key, "model.layers.%d.input_layernorm.weight", l);
  mx_hval_t hn = rmsnorm(x, in, key);
  snprintf(key, sizeof key, "model.layers.%d.self_attn.q_proj.weight", l);
  mx_hval_t q = linear(x, hn, key, H * D);
  snprintf(key, sizeof key, "model.layers.%d.self_attn.k_proj.weight", l);
  mx_hval_t k = linear(x, hn, key, KV * D);
  snprintf(key, sizeof key, "model.layers.%d.self_attn.v_proj.weight", l);
  mx_hval_t v = linear(x, hn, key, KV * D);
  int64_t qd[3] = {T, H, D}, kd[3] = {T, KV, D};
  q = rope(x, mx_hlo_reshape(h, q, 3, qd), cosv, sinv);
  k = rope(x, mx_hlo_reshape(h, k, 3, kd), cosv, sinv);
  v = mx_hlo_reshape(h, v, 3, kd);

  /* Write this step's keys and values into the cache, in place. */
  snprintf(ksym, sizeof ksym, "kv_k%d", l);
  snprintf(vsym, sizeof vsym, "kv_v%d", l);
  mx_hval_t cache_t = t3(x->g->kv, C, KV, D), zero = mx_hlo_scalar_i32(h, 0);
  mx_hval_t starts[3] = {start, zero, zero};
  mx_hval_t kc = mx_hlo_dynamic_update_slice(h, mx_hlo_load(h, ksym, cache_t), mx_hlo_convert(h, k, x->g->kv), starts);
  mx_hval_t vc = mx_hlo_dynamic_update_slice(h, mx_hlo_load(h, vsym, cache_t), mx_hlo_convert(h, v, x->g->kv), starts);
  mx_hlo_store(h, ksym, kc);
  mx_hlo_store(h, vsym, vc);

  /* Scores [KV, T, G, C] = q . k over D, grouped-query: G query heads share one KV head. */
  int64_t qg[4] = {T, KV, G, D};
  mx_hval_t qq = mx_hlo_convert(h, mx_hlo_reshape(h, q, 4, qg), x->g->kv);
  int64_t lb = 1, rb = 1, lc = 3, rc = 2;
  mx_hval_t scores = mx_hlo_dot(h, qq, kc, 1, &lb, &rb, 1, &lc, &rc, MX_F32);
  int64_t sd[4] = {KV, T, G, C};
  scores = mx_hlo_binary(h, "multiply", scores, mx_hlo_splat(h, mx_htype(MX_F32, 4, sd), 1.0 / sqrt((double)D)));
  /* Causal mask: key j is visible to query t when j <= start + t. */
  int64_t tc[2] = {T, C}, z = 0;
  mx_hval_t qpos = mx_hlo_binary(h, "add", mx_hlo_iota(h, t1(MX_I32, T), 0), mx_hlo_broadcast(h, start, 1, &T, NULL));
  mx_hval_t kpos = mx_hlo_iota(h, mx_htype(MX_I32, 2, tc), 1);
  mx_hval_t visible = mx_hlo_compare(h, "LE", kpos, mx_hlo_broadcast(h, qpos, 2, tc, &z));
  int64_t md[2] = {1, 3};
  mx_hval_t vis4 = mx_hlo_broadcast(h, visible, 4, sd, md);
  scores = mx_hlo_select(h, vis4, scores, mx_hlo_splat(h, mx_htype(MX_F32, 4, sd), -INFINITY));
  /* Softmax over C in f32. */
  int64_t last = 3, keep[3] = {0, 1, 2};
  mx_hval_t mx = mx_hlo_reduce(h, scores, MX_REDUCE_MAX, 1, &last);
  mx_hval_t e = mx_hlo_unary(h, "exponential", mx_hlo_binary(h, "subtract", scores, mx_hlo_broadcast(h, mx, 4, sd, keep)));
  mx_hval_t den = mx_hlo_reduce(h, e, MX_REDUCE_SUM, 1, &last);
  mx_hval_t p = mx_hlo_binary(h, "divide", e, mx_hlo_broadcast(h, den, 4, sd, keep));
  /* out [KV, T, G, D] = p . v over C */
  int64_t plb = 0, prb = 1, plc = 3, prc = 0;
  mx_hval_t att = mx_hlo_dot(h, mx_hlo_convert(h, p, x->g->kv), vc, 1, &plb, &prb, 1, &plc, &prc, MX_F32);
  int64_t perm[4] = {1, 0, 2, 3}, od[2] = {T, H * D};
  att = mx_hlo_reshape(h, mx_hlo_transpose(h, att, perm), 2, od);
  snprintf(key, sizeof key, "model.layers.%d.self_attn.o_proj.weight", l);
  mx_hval_t x1 = mx_hlo_binary(h, "add", in, linear(x, att, key, c->dim));

  /* SwiGLU MLP. */
  snprintf(key, sizeof key, "model.layers.%d.post_attention_layernorm.weight", l);
  mx_hval_t hn2 = rmsnorm(x, x1, key);
  snprintf(key, sizeof key, "model.layers.%d.mlp.gate_proj.weight", l);
  mx_hval_t gate = linear(x, hn2, key, c->ffn_dim);
  snprintf(key, sizeof key, "model.layers.%d.mlp.up_proj.weight", l);
  mx_hval_t up = linear(x, hn2, key, c->ffn_dim);
  mx_hval_t act = mx_hlo_binary(h, "multiply", mx_hlo_binary(h, "multiply", gate, mx_hlo_unary(h, "logistic", gate)), up);
  snprintf(key, sizeof key, "model.layers.%d.mlp.down_proj.weight", l);
  return mx_hlo_binary(h, "add", x1, linear(x, act, key, c->dim));
}

/* Hidden states [T, dim] f32 after the final norm, for tokens [T] at positions start.. */
static mx_hval_t forward(ctx_t *x, mx_hval_t tokens, mx_hval_t start) {
  mx_hlo_t *h = x->h;
  const mx_model_config_t *c = x->c;
  int64_t T = tokens.dims[0];
  float inv[512]; /* head_dim <= 1024 (config validation) */
  mx_llama_inv_freq(c, inv);
  x->inv_freq = mx_hlo_const_f32(h, inv, c->head_dim / 2);
  mx_hval_t embed = weight(x, "model.embed_tokens.weight", t2(x->g->weight_dtype, c->vocab, c->dim));
  mx_hval_t hs = mx_hlo_convert(h, mx_hlo_gather_rows(h, embed, tokens), MX_F32);
  mx_hval_t cosv, sinv;
  rope_tables(x, start, T, &cosv, &sinv);
  for (int l = 0; l < c->n_layers; l++) hs = layer(x, l, hs, start, cosv, sinv);
  return rmsnorm(x, hs, "model.norm.weight");
}

/* Logits [T, vocab] f32 of normed hidden states [T, dim]. */
static mx_hval_t lm_head(ctx_t *x, mx_hval_t hn) {
  const char *key = x->c->tied_embeddings ? "model.embed_tokens.weight" : "lm_head.weight";
  return linear(x, hn, key, x->c->vocab);
}

/* The lowest index of the largest logit, as torch.argmax picks. logits: [V] f32 -> i32 scalar. */
static mx_hval_t argmax(ctx_t *x, mx_hval_t logits) {
  mx_hlo_t *h = x->h;
  int64_t V = logits.dims[0], zero = 0;
  mx_hval_t mx = mx_hlo_reduce(h, logits, MX_REDUCE_MAX, 1, &zero);
  mx_hval_t is_max = mx_hlo_compare(h, "EQ", logits, mx_hlo_broadcast(h, mx, 1, &V, NULL));
  mx_hval_t idx = mx_hlo_select(h, is_max, mx_hlo_iota(h, t1(MX_I32, V), 0), mx_hlo_splat(h, t1(MX_I32, V), (double)V));
  return mx_hlo_reduce(h, idx, MX_REDUCE_MIN, 1, &zero);
}

/* The logits at row `row` (a scalar i32) of normed hidden states [T, dim]: [vocab]. */
static mx_hval_t logits_at(ctx_t *x, mx_hval_t hn, mx_hval_t row) {
  mx_hlo_t *h = x->h;
  int64_t sizes[2] = {1, x->c->dim};
  mx_hval_t starts[2] = {row, mx_hlo_scalar_i32(h, 0)};
  mx_hval_t r = mx_hlo_dynamic_slice(h, hn, starts, sizes);
  mx_hval_t lg = lm_head(x, r);
  int64_t v = x->c->vocab;
  return mx_hlo_reshape(h, lg, 1, &v);
}

static void emit_prefill(ctx_t *x, int64_t N, bool want_logits) {
  mx_hlo_t *h = x->h;
  char name[48];
  snprintf(name, sizeof name, "prefill_%lld%s", (long long)N, want_logits ? "_logits" : "");
  mx_hval_t types[2] = {t1(MX_I32, N), mx_htype(MX_I32, 0, NULL)}, args[2];
  mx_hlo_func_begin(h, name, 2, types, args);
  mx_hval_t hn = forward(x, args[0], mx_hlo_scalar_i32(h, 0));
  mx_hval_t row = mx_hlo_binary(h, "subtract", args[1], mx_hlo_scalar_i32(h, 1));
  mx_hval_t lg = logits_at(x, hn, row);
  mx_hval_t out = want_logits ? lg : argmax(x, lg);
  mx_hlo_func_end(h, 1, &out);
}

static void emit_decode(ctx_t *x, bool want_logits) {
  mx_hlo_t *h = x->h;
  mx_hval_t types[2] = {mx_htype(MX_I32, 0, NULL), mx_htype(MX_I32, 0, NULL)}, args[2];
  mx_hlo_func_begin(h, want_logits ? "decode_logits" : "decode", 2, types, args);
  int64_t one = 1;
  mx_hval_t tok = mx_hlo_reshape(h, args[0], 1, &one);
  mx_hval_t hn = forward(x, tok, args[1]);
  mx_hval_t lg = logits_at(x, hn, mx_hlo_scalar_i32(h, 0));
  mx_hval_t out = want_logits ? lg : argmax(x, lg);
  mx_hlo_func_end(h, 1, &out);
}

static void emit_score(ctx_t *x, int64_t S) {
  mx_hlo_t *h = x->h;
  char name[48];
  snprintf(name, sizeof name, "score_%lld", (long long)S);
  mx_hval_t types[1] = {t1(MX_I32, S)}, args[1];
  mx_hlo_func_begin(h, name, 1, types, args);
  mx_hval_t hn = forward(x, args[0], mx_hlo_scalar_i32(h, 0));
  mx_hval_t out = lm_head(x, hn);
  mx_hlo_func_end(h, 1, &out);
}

static void declare_globals(ctx_t *x) {
  const mx_model_config_t *c = x->c;
  mx_hlo_t *h = x->h;
  char sym[160], key[160];
  mx_dtype_t wd = x->g->weight_dtype;
  int64_t q = (int64_t)c->n_heads * c->head_dim, kv = (int64_t)c->n_kv_heads * c->head_dim;
#define PARAM(k, type) (snprintf(key, sizeof key, "%s", k), sym_of(sym, sizeof sym, key), mx_hlo_declare_param(h, sym, key, type))
  PARAM("model.embed_tokens.weight", t2(wd, c->vocab, c->dim));
  PARAM("model.norm.weight", t1(wd, c->dim));
  if (!c->tied_embeddings) PARAM("lm_head.weight", t2(wd, c->vocab, c->dim));
  for (int l = 0; l < c->n_layers; l++) {
    char k[160];
#define LP(fmt, type) (snprintf(k, sizeof k, fmt, l), PARAM(k, type))
    LP("model.layers.%d.input_layernorm.weight", t1(wd, c->dim));
    LP("model.layers.%d.self_attn.q_proj.weight", t2(wd, q, c->dim));
    LP("model.layers.%d.self_attn.k_proj.weight", t2(wd, kv, c->dim));
    LP("model.layers.%d.self_attn.v_proj.weight", t2(wd, kv, c->dim));
    LP("model.layers.%d.self_attn.o_proj.weight", t2(wd, c->dim, q));
    LP("model.layers.%d.post_attention_layernorm.weight", t1(wd, c->dim));
    LP("model.layers.%d.mlp.gate_proj.weight", t2(wd, c->ffn_dim, c->dim));
    LP("model.layers.%d.mlp.up_proj.weight", t2(wd, c->ffn_dim, c->dim));
    LP("model.layers.%d.mlp.down_proj.weight", t2(wd, c->dim, c->ffn_dim));
#undef LP
    char ks[32], vs[32];
    snprintf(ks, sizeof ks, "kv_k%d", l);
    snprintf(vs, sizeof vs, "kv_v%d", l);
    mx_hlo_declare_state(h, ks, t3(x->g->kv, x->g->capacity, c->n_kv_heads, c->head_dim));
    mx_hlo_declare_state(h, vs, t3(x->g->kv, x->g->capacity, c->n_kv_heads, c->head_dim));
  }
#undef PARAM
}

void mx_llama_default_buckets(mx_llama_graph_t *g) {
  g->n_buckets = 0;
  for (int b = 32; b < g->capacity && g->n_buckets < MX_LLAMA_MAX_BUCKETS - 1; b *= 4) g->buckets[g->n_buckets++] = b;
  g->buckets[g->n_buckets++] = g->capacity;
}

mx_status_t mx_llama_emit(const mx_llama_graph_t *g, char **text_out) {
  *text_out = NULL;
  if (g->capacity < 1 || g->n_buckets < 1 || g->n_buckets > MX_LLAMA_MAX_BUCKETS)
    return mx_status_make(MX_STAGE_USAGE, "this is an engine bug", "graph needs a capacity and 1..%d prefill buckets", MX_LLAMA_MAX_BUCKETS);
  for (int i = 0; i < g->n_buckets; i++)
    if (g->buckets[i] < 1 || g->buckets[i] > g->capacity || (i && g->buckets[i] <= g->buckets[i - 1]))
      return mx_status_make(MX_STAGE_USAGE, "this is an engine bug", "prefill bucket %d is not ascending within the capacity", g->buckets[i]);
  mx_hlo_t *h = mx_hlo_create();
  if (!h) return mx_status_make(MX_STAGE_IO, NULL, "out of memory");
  ctx_t x = {.h = h, .g = g, .c = g->config};
  declare_globals(&x);
  for (int i = 0; i < g->n_buckets; i++) {
    emit_prefill(&x, g->buckets[i], false);
    emit_prefill(&x, g->buckets[i], true);
  }
  emit_decode(&x, false);
  emit_decode(&x, true);
  if (g->score_len > 0) emit_score(&x, g->score_len);
  mx_status_t st = mx_hlo_finish(h, text_out);
  mx_hlo_destroy(h);
  return st;
}
