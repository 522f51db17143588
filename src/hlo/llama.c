#include "hlo/llama.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hlo/builder.h"
#include "hlo/pick.h"
#include "model/arch.h"

/* ------------------------------------------------------------------------------------ RoPE */

void mx_llama_inv_freq(const mx_model_config_t *c, float *out) { mx_llama_inv_freq_theta(c, c->rope_theta, out); }

void mx_llama_inv_freq_theta(const mx_model_config_t *c, float theta, float *out) {
  int half = c->head_dim / 2;
  for (int i = 0; i < half; i++) {
    /* transformers: 1.0 / (base ** (arange(0, dim, 2).float() / dim)), all in float32 */
    float expo = (float)(2 * i) / (float)c->head_dim;
    out[i] = 1.0f / powf(theta, expo);
    if (c->has_rope_freq_factors) out[i] /= c->rope_freq_factors[i];
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
  int window; /* the current layer's sliding window (0: none) */
} ctx_t;

static mx_hval_t t1(mx_dtype_t d, int64_t a) { return mx_htype(d, 1, &a); }
static mx_hval_t t2(mx_dtype_t d, int64_t a, int64_t b) {
  int64_t v[2] = {a, b};
  return mx_htype(d, 2, v);
}
static void sym_of(char *out, size_t cap, const char *key) {
  snprintf(out, cap, "w_");
  size_t n = strlen(out);
  for (const char *p = key; *p && n + 1 < cap; p++) out[n++] = (*p == '.') ? '_' : *p;
  out[n] = '\0';
}

/* The parameter of a weight role (its runtime key is the HF name, arch.h), in its stored type and the
 * shape the configuration implies. */
static mx_hval_t weight_type(ctx_t *x, const mx_tensor_spec_t *t) {
  int64_t d[2];
  int rank = mx_arch_shape(t, x->c, d);
  return mx_htype(x->g->weight_dtype, rank, d);
}

static mx_hval_t weight(ctx_t *x, const mx_tensor_spec_t *t, int layer) {
  char key[160], sym[160];
  mx_arch_name(t, layer, false, key, sizeof key);
  sym_of(sym, sizeof sym, key);
  return mx_hlo_load(x->h, sym, weight_type(x, t));
}

/* a [.., K] broadcast-multiplied by v [K] along the last dimension. */
static mx_hval_t mul_last(ctx_t *x, mx_hval_t a, mx_hval_t v) {
  int64_t bd = a.rank - 1;
  return mx_hlo_binary(x->h, "multiply", a, mx_hlo_broadcast(x->h, v, a.rank, a.dims, &bd));
}

/* a [.., N] plus a bias role's vector [N] (Qwen2's q/k/v), in f32 as transformers adds it. */
static mx_hval_t add_bias(ctx_t *x, mx_hval_t a, mx_layer_role_t role, int layer) {
  int64_t bd = a.rank - 1;
  mx_hval_t b = mx_hlo_convert(x->h, weight(x, mx_arch_layer(role), layer), MX_F32);
  return mx_hlo_binary(x->h, "add", a, mx_hlo_broadcast(x->h, b, a.rank, a.dims, &bd));
}

/* Which keys a query sees: key <= query, and with a sliding window (Mistral) also key > query - window,
 * as transformers' sliding-window mask has it. key and query: positions of the same shape, i32. */
static mx_hval_t visible_keys(ctx_t *x, mx_hval_t key, mx_hval_t query) {
  mx_hlo_t *h = x->h;
  mx_hval_t causal = mx_hlo_compare(h, "LE", key, query);
  if (!x->window) return causal;
  mx_hval_t oldest = mx_hlo_binary(h, "subtract", query, mx_hlo_splat(h, mx_htype(MX_I32, query.rank, query.dims), x->window));
  return mx_hlo_binary(h, "and", causal, mx_hlo_compare(h, "GT", key, oldest));
}

/* RMSNorm in f32: x * rsqrt(mean(x^2) + eps) * w. x: [T, dim] f32. */
static mx_hval_t rmsnorm(ctx_t *x, mx_hval_t in, const mx_tensor_spec_t *wt, int layer) {
  mx_hlo_t *h = x->h;
  int64_t T = in.dims[0], D = in.dims[1], one = 1;
  mx_hval_t sq = mx_hlo_binary(h, "multiply", in, in);
  mx_hval_t sum = mx_hlo_reduce(h, sq, MX_REDUCE_SUM, 1, &one); /* [T] */
  mx_hval_t mean = mx_hlo_binary(h, "divide", sum, mx_hlo_splat(h, t1(MX_F32, T), (double)D));
  mx_hval_t inv = mx_hlo_unary(h, "rsqrt", mx_hlo_binary(h, "add", mean, mx_hlo_splat(h, t1(MX_F32, T), x->c->norm_eps)));
  int64_t zero = 0;
  mx_hval_t normed = mx_hlo_binary(h, "multiply", in, mx_hlo_broadcast(h, inv, 2, in.dims, &zero));
  mx_hval_t w = mx_hlo_convert(h, weight(x, wt, layer), MX_F32);
  if (x->c->norm_offset != 0) /* Gemma: x * (1 + w), the sum in f32 as transformers forms it */
    w = mx_hlo_binary(h, "add", mx_hlo_splat(h, mx_htype(MX_F32, w.rank, w.dims), x->c->norm_offset), w);
  return mul_last(x, normed, w);
}

/* The plan's entry for a role (model/packing.h); none when the graph is not packed. */
static mx_pack_t pack_of(ctx_t *x, const mx_tensor_spec_t *t, int layer) {
  if (!x->g->pack) return (mx_pack_t){0};
  for (int r = 0; r < MX_T_GLOBAL_COUNT; r++)
    if (mx_arch_global((mx_global_role_t)r) == t) return x->g->pack[mx_pack_index_global((mx_global_role_t)r)];
  for (int r = 0; r < MX_T_LAYER_COUNT; r++)
    if (mx_arch_layer((mx_layer_role_t)r) == t) return x->g->pack[mx_pack_index_layer(layer, (mx_layer_role_t)r)];
  return (mx_pack_t){0};
}

/* A packed weight's parameters: values [N, K/G, G] (i8 or i4; a 4-bit embedding's as bytes, below),
 * scales and offsets [N, K/G] in the matmul type (offsets only for the affine forms). */
typedef struct {
  mx_hval_t q, scale, offset;
} packed_t;

/* The declared types. A 4-bit embedding table is declared as its bytes, i8 [V, K/G, G/2]: IREE 3.13's
 * CUDA code generation cannot gather i4 rows ("failed to legalize vector.gather" of vector<8xi4>); its
 * rows are gathered as bytes, and its LM-head product reads it as nibbles [V, K/G, G/2, 2]
 * (mx_hlo_bytes_as_nibbles) with no reshape after them: with one, IREE wrote the whole table out as
 * f16 in every decode step instead of fusing it into the product (scripts/xla/fusion_spike.sh). */
static bool packed_as_bytes(const mx_tensor_spec_t *t, mx_pack_t p) {
  return t == mx_arch_global(MX_T_EMBED) && mx_pack_bits(p.kind) == 4;
}

static void packed_types(ctx_t *x, const mx_tensor_spec_t *t, mx_pack_t p, mx_hval_t *q, mx_hval_t *scale) {
  int64_t d[2];
  mx_arch_shape(t, x->c, d);
  int64_t qd[3] = {d[0], d[1] / p.group, p.group}, bd[3] = {d[0], d[1] / p.group, p.group / 2}, sd[2] = {d[0], d[1] / p.group};
  *q = packed_as_bytes(t, p) ? mx_htype(MX_I8, 3, bd) : mx_htype(mx_pack_bits(p.kind) == 8 ? MX_I8 : MX_I4, 3, qd);
  *scale = mx_htype(x->g->matmul, 2, sd);
}

static void packed_syms(const mx_tensor_spec_t *t, int layer, char sym[3][176], char key[3][176]) {
  const char *suffix[3] = {"", MX_PACK_SCALE_SUFFIX, MX_PACK_OFFSET_SUFFIX};
  char base[160];
  mx_arch_name(t, layer, false, base, sizeof base);
  for (int i = 0; i < 3; i++) {
    snprintf(key[i], sizeof key[i], "%s%s", base, suffix[i]);
    sym_of(sym[i], sizeof sym[i], key[i]);
  }
}

static packed_t load_packed(ctx_t *x, const mx_tensor_spec_t *t, int layer, mx_pack_t p) {
  char sym[3][176], key[3][176];
  packed_syms(t, layer, sym, key);
  mx_hval_t qt, st;
  packed_types(x, t, p, &qt, &st);
  packed_t w = {.q = mx_hlo_load(x->h, sym[0], qt), .scale = mx_hlo_load(x->h, sym[1], st)};
  if (mx_pack_affine(p.kind)) w.offset = mx_hlo_load(x->h, sym[2], st);
  return w;
}

/* The weights [R, K/G, G] (or [R, K/G, G/2, 2]) in the matmul type from values of that shape and
 * scales [R, K/G]: the dequantization of model/packing.h, as elementwise operations IREE can fuse into
 * the product that reads them (docs/quantization.md). */
static mx_hval_t dequantize(ctx_t *x, mx_pack_t p, packed_t w) {
  mx_hlo_t *h = x->h;
  int64_t keep[2] = {0, 1};
  mx_hval_t v = mx_hlo_convert(h, w.q, x->g->matmul);
  if (p.kind == MX_PACK_Q4_AFFINE)
    v = mx_hlo_binary(h, "add", v, mx_hlo_splat(h, mx_htype(x->g->matmul, v.rank, v.dims), 8.0));
  v = mx_hlo_binary(h, "multiply", v, mx_hlo_broadcast(h, w.scale, v.rank, v.dims, keep));
  if (mx_pack_affine(p.kind)) v = mx_hlo_binary(h, "add", v, mx_hlo_broadcast(h, w.offset, v.rank, v.dims, keep));
  return v;
}

/* How many chunks a prefill product [T, K] x [N, K]^T splits its reduction into, when the graph
 * splits them (mx_target_split_reduction): IREE 3.13's GPU code generation gives a bf16 product one
 * workgroup per 64 x 64 output tile, so a 128-row product of N = 2048 has 64 workgroups on the
 * H200's 132 SMs. With the reduction in S chunks it has S times as many: 16 layers of the down
 * projection at 128 rows took 2.65 ms whole, 1.01 in 4 chunks; q/o 0.71 and 0.39; gate/up, already
 * 256 workgroups, 1.24 either way (bench/results/2026-12-01-h200-peers/micro/). So: double S while
 * the tiles times S stay under 256 and each chunk keeps at least 512 of K. */
static int64_t reduction_split(int64_t T, int64_t N, int64_t K) {
  int64_t tiles = ((T + 63) / 64) * ((N + 63) / 64), S = 1;
  while (tiles * S < 256 && K % (2 * S) == 0 && K / (2 * S) >= 512) S *= 2;
  return S;
}

/* How many chunks a batched decode step's product [T, K] x [N, K]^T (T of 5..MX_LLAMA_MAX_SLOTS rows)
 * splits its reduction into, when the graph takes it as one product (split_decode_reduction). IREE
 * 3.13 gives such a 16-bit product one workgroup per 16 x 32 output tile. H200, 8 rows, bf16, 16
 * layers each (bench/results/2026-12-03-h200-rows8/): gate/up (N 8192) 0.56 ms whole, 0.39 in 4
 * chunks; down (K 8192) 1.81 whole, 0.46 in 8; q/o 0.57 whole, 0.22 in 8; k/v 0.44 whole, 0.18 in 4
 * or 8; the LM head 0.24 whole, 0.25-0.30 split. So: double S while the tiles times S stay within
 * 1024, S within 8, and each chunk keeps at least 256 of K. */
static int64_t decode_reduction_split(int64_t N, int64_t K) {
  int64_t tiles = (N + 31) / 32, S = 1;
  while (S < 8 && tiles * S * 2 <= 1024 && K % (2 * S) == 0 && K / (2 * S) >= 256) S *= 2;
  return S;
}

/* Whether a batched decode step's product of N outputs over K stays whole where the graph splits the
 * others (whole_decode_products: the target's tuning library configures it, or IREE's own tiles were
 * measured as fast whole; compiler/tuning.c). */
static bool whole_decode(const mx_llama_graph_t *g, int64_t N, int64_t K) {
  for (int i = 0; i < g->n_whole_decode_products; i++)
    if (g->whole_decode_products[i][0] == N && g->whole_decode_products[i][1] == K) return true;
  return false;
}

/* a [R, ...] times a dequantized packed w [N, ...] (the same trailing dimensions) summed over them:
 * [R, N] f32, as one multiply and one reduction, not a dot_general. IREE 3.13 lowers a dot_general to
 * a 2-D product whose weight operand is a reshape of the dequantization, which it does not fuse: the
 * dequantized weight was written to memory and read back in every call. This form becomes one
 * dispatch that reads the packed values (docs/quantization.md). */
static mx_hval_t reduce_product(ctx_t *x, mx_hval_t a, mx_hval_t w) {
  mx_hlo_t *h = x->h;
  int n = w.rank - 1; /* the dimensions summed over */
  int64_t d[MX_MAX_RANK] = {a.dims[0], w.dims[0]}, ak[MX_MAX_RANK] = {0}, wk[MX_MAX_RANK], sum[MX_MAX_RANK];
  for (int i = 0; i < w.rank; i++) wk[i] = i + 1;
  for (int i = 0; i < n; i++) d[2 + i] = w.dims[1 + i], ak[1 + i] = 2 + i, sum[i] = 2 + i;
  mx_hval_t ab = mx_hlo_broadcast(h, mx_hlo_convert(h, a, MX_F32), n + 2, d, ak);
  mx_hval_t wb = mx_hlo_broadcast(h, mx_hlo_convert(h, w, MX_F32), n + 2, d, wk);
  return mx_hlo_reduce(h, mx_hlo_binary(h, "multiply", ab, wb), MX_REDUCE_SUM, n, sum);
}

/* in [T, K] f32 times W^T where W is [N, K] (a PyTorch Linear): [T, N] f32, inputs in matmul type (a:
 * in converted to it, or for a packed rows product in's rows shaped like the dequantized weight). A product of at most MX_LLAMA_MAX_SLOTS rows (a batched decode step: mx_llama_graph_make makes no
 * prefill bucket shorter than 16) and more than the graph's product_rows is computed in products of
 * product_rows rows: IREE 3.13's GPU code generation maps an 8-row product onto 64 workgroups (the
 * f32 down projection read its weight at 0.08 TB/s on the H200) and a 4-row one onto matrix-vector
 * kernels (docs/performance.md). A packed weight is dequantized next to its product: a decode step's
 * as reduce_product, a prefill's as a dequantization then the same dot_general as a float weight. */
static mx_hval_t weight_product(ctx_t *x, mx_hval_t in, mx_hval_t a, mx_hval_t w, bool packed, bool rows_product) {
  mx_hlo_t *h = x->h;
  int64_t lc = 1, rc = 1, T = in.dims[0], K = in.dims[1], R = x->g->product_rows;
  /* A batched decode step (T <= MX_LLAMA_MAX_SLOTS rows: no prefill bucket is that short) in one
   * product with its reduction split (split_decode_reduction, set only for more slots than
   * product_rows): reads each weight once, where products of product_rows rows read it once each. */
  bool decode_split = x->g->split_decode_reduction && !packed && T <= MX_LLAMA_MAX_SLOTS;
  int64_t S = x->g->split_reduction && T > MX_LLAMA_MAX_SLOTS  ? reduction_split(T, w.dims[0], K)
              : decode_split && !whole_decode(x->g, w.dims[0], K) ? decode_reduction_split(w.dims[0], K)
                                                                 : 1;
  if (S > 1) {
    /* [T, S, K/S] . [N, S, K/S] with the chunk as a batch dimension: [S, T, N], summed over S. */
    int64_t ad[3] = {T, S, K / S}, wd[3] = {w.dims[0], S, K / S}, b1 = 1, c2 = 2, zero = 0;
    mx_hval_t parts = mx_hlo_dot(h, mx_hlo_reshape(h, a, 3, ad), mx_hlo_reshape(h, w, 3, wd), 1, &b1, &b1, 1, &c2, &c2, MX_F32);
    return mx_hlo_reduce(h, parts, MX_REDUCE_SUM, 1, &zero);
  }
  if (decode_split || R <= 0 || T <= R || T > MX_LLAMA_MAX_SLOTS)
    return rows_product ? reduce_product(x, a, w) : mx_hlo_dot(h, a, w, 0, NULL, NULL, 1, &lc, &rc, MX_F32);
  mx_hval_t parts[MX_LLAMA_MAX_SLOTS];
  int n = 0;
  for (int64_t r = 0; r < T; r += R) {
    int64_t end = r + R < T ? r + R : T, s0[MX_MAX_RANK] = {r}, s1[MX_MAX_RANK] = {end};
    for (int i = 1; i < a.rank; i++) s1[i] = a.dims[i];
    mx_hval_t rows = mx_hlo_slice(h, a, s0, s1);
    parts[n++] = rows_product ? reduce_product(x, rows, w) : mx_hlo_dot(h, rows, w, 0, NULL, NULL, 1, &lc, &rc, MX_F32);
  }
  return mx_hlo_concat(h, n, parts, 0);
}

/* in [T, K] f32 times the weight of role wt: [T, N] f32 (weight_product). */
static mx_hval_t linear(ctx_t *x, mx_hval_t in, const mx_tensor_spec_t *wt, int layer) {
  mx_hlo_t *h = x->h;
  int64_t T = in.dims[0], K = in.dims[1];
  mx_pack_t p = pack_of(x, wt, layer);
  mx_hval_t a = mx_hlo_convert(h, in, x->g->matmul), w;
  bool rows_product = p.kind && T <= MX_LLAMA_MAX_SLOTS;
  if (!p.kind) {
    w = mx_hlo_convert(h, weight(x, wt, layer), x->g->matmul);
  } else {
    packed_t pw = load_packed(x, wt, layer, p);
    if (packed_as_bytes(wt, p)) pw.q = mx_hlo_bytes_as_nibbles(h, pw.q);
    w = dequantize(x, p, pw); /* [N, K/G, G] or [N, K/G, G/2, 2] */
    int64_t ad[MX_MAX_RANK] = {T}, wd[2] = {w.dims[0], K};
    for (int i = 1; i < w.rank; i++) ad[i] = w.dims[i];
    /* The rows stay f32 (no round trip through the matmul type, which IREE made two more dispatches
     * per product); the weight is the matmul type's. */
    if (rows_product) a = mx_hlo_reshape(h, in, w.rank, ad);
    else w = mx_hlo_reshape(h, w, 2, wd);
  }
  return weight_product(x, in, a, w, p.kind != 0, rows_product);
}

bool mx_llama_stack_fused(const mx_llama_graph_t *g, const mx_fused_spec_t *f, int layer) {
  bool fuse = g->fuse_products;
  for (int p = 0; fuse && g->pack && p < f->n_parts; p++) fuse = !g->pack[mx_pack_index_layer(layer, f->parts[p])].kind;
  return fuse;
}
static bool stack_fused(ctx_t *x, const mx_fused_spec_t *f, int layer) { return mx_llama_stack_fused(x->g, f, layer); }
bool mx_llama_grouped_rows(const mx_llama_graph_t *g) {
  return g->grouped_attention_slots > 0 && g->slots == g->grouped_attention_slots;
}
static void stack_sym(const mx_fused_spec_t *f, int layer, char *key, size_t key_cap, char *sym, size_t sym_cap) {
  snprintf(key, key_cap, f->hf, layer);
  sym_of(sym, sym_cap, key);
}

/* The products of one input with a stack's weights (mx_arch_fused(stack): Q/K/V, gate/up): out[p] is
 * [T, N_p] f32 for each part p. With fuse_products the float weights are stacked along N, and a decode
 * step multiplies them once and splits the result back: one kernel and one read of the input instead
 * of one per part (H200 micro-benchmarks, 16 layers at one row in bf16: q/k/v 0.186 ms as one product
 * against 0.294 as three, gate/up 0.436 against 0.521; bench/results/2026-12-01-h200-peers/; on this
 * project's CPU decode +13%). A prefill chunk keeps a product per part, over the part's rows of the
 * stacked weight (contiguous: no copy): stacked, the CPU's 128-row prefill was ~5% slower, and the
 * GPU's prefill products are tuned per shape (compiler/tuning.c). The stacked weight is
 * the prepared file's view over the parts when the files have one (stacked_params: no copy), else a
 * global that the module's initializer fills with the parts concatenated (emit_stacks), so each weight
 * is held once, at the price of that copy at every load. Packed weights keep a product each. With a
 * pair (not NULL), a decode step's product of two parts of equal size is returned whole there instead
 * of sliced into out (gated_pair reads it in place); pair->rank stays 0 where the step takes no stack. */
static void linears(ctx_t *x, mx_hval_t in, int stack, int layer, mx_hval_t *out, mx_hval_t *pair) {
  mx_hlo_t *h = x->h;
  const mx_fused_spec_t *f = mx_arch_fused(stack);
  if (!stack_fused(x, f, layer)) {
    for (int p = 0; p < f->n_parts; p++) out[p] = linear(x, in, mx_arch_layer(f->parts[p]), layer);
    return;
  }
  int64_t rows[3], total = 0, d[2];
  for (int p = 0; p < f->n_parts; p++) {
    mx_arch_shape(mx_arch_layer(f->parts[p]), x->c, d);
    rows[p] = d[0], total += d[0];
  }
  char key[160], sym[160];
  stack_sym(f, layer, key, sizeof key, sym, sizeof sym);
  mx_hval_t w = mx_hlo_load(h, sym, t2(x->g->weight_dtype, total, d[1])); /* a view or emit_stacks' global */
  mx_hval_t a = mx_hlo_convert(h, in, x->g->matmul);
  int64_t off = 0, T = in.dims[0];
  if (T > MX_LLAMA_MAX_SLOTS) { /* a prefill chunk: a product per part, over its rows of the stack */
    for (int p = 0; p < f->n_parts; p++) {
      int64_t s0[2] = {off, 0}, s1[2] = {off + rows[p], d[1]};
      out[p] = weight_product(x, in, a, mx_hlo_convert(h, mx_hlo_slice(h, w, s0, s1), x->g->matmul), false, false);
      off = s1[0];
    }
    return;
  }
  mx_hval_t y = weight_product(x, in, a, mx_hlo_convert(h, w, x->g->matmul), false, false);
  if (pair && f->n_parts == 2 && rows[0] == rows[1]) { /* the stack's product as it is (gated_pair) */
    *pair = y;
    return;
  }
  for (int p = 0; p < f->n_parts; p++) {
    int64_t s0[2] = {0, off}, s1[2] = {T, off + rows[p]};
    out[p] = mx_hlo_slice(h, y, s0, s1);
    off = s1[1];
  }
}

/* The embedding rows of tokens [T]: [T, dim] f32. A packed table is gathered packed and only the
 * gathered rows are dequantized. */
static mx_hval_t embed_rows(ctx_t *x, mx_hval_t tokens) {
  mx_hlo_t *h = x->h;
  const mx_tensor_spec_t *t = mx_arch_global(MX_T_EMBED);
  mx_pack_t p = pack_of(x, t, 0);
  if (!p.kind) return mx_hlo_convert(h, mx_hlo_gather_rows(h, weight(x, t, 0), tokens), MX_F32);
  packed_t w = load_packed(x, t, 0, p);
  bool bytes = packed_as_bytes(t, p);
  int64_t T = tokens.dims[0], K = x->c->dim, B = K / p.group, G = p.group, flat[2] = {w.q.dims[0], bytes ? K / 2 : K};
  /* Rows of Q8 values or of 4-bit ones' bytes, from the table seen as 2-D. */
  mx_hval_t got = mx_hlo_gather_rows(h, mx_hlo_reshape(h, w.q, 2, flat), tokens);
  int64_t rows[3] = {T, B, bytes ? G / 2 : G};
  got = mx_hlo_reshape(h, got, 3, rows);
  packed_t r = {.q = bytes ? mx_hlo_bytes_as_nibbles(h, got) : got, .scale = mx_hlo_gather_rows(h, w.scale, tokens)};
  if (mx_pack_affine(p.kind)) r.offset = mx_hlo_gather_rows(h, w.offset, tokens);
  int64_t out[2] = {T, B * G};
  /* A barrier keeps the gather and dequantization out of the first norm's reduction: fused, IREE 3.13's
   * CPU code of a 128-token prefill at dim 2048 needed 64 KB of stack, over its 32 KB limit. */
  return mx_hlo_barrier(h, mx_hlo_convert(h, mx_hlo_reshape(h, dequantize(x, p, r), 2, out), MX_F32));
}

/* cos and sin tables [M, head_dim] for the positions pos [M] (HF: emb = cat(freqs, freqs)). */
static mx_hval_t inv_freq_const(ctx_t *x, float theta) {
  float inv[512]; /* head_dim <= 1024 (config validation) */
  mx_llama_inv_freq_theta(x->c, theta, inv);
  return mx_hlo_const_f32(x->h, inv, x->c->head_dim / 2);
}

static void rope_tables(ctx_t *x, mx_hval_t pos, mx_hval_t inv_freq, mx_hval_t *cos_out, mx_hval_t *sin_out) {
  mx_hlo_t *h = x->h;
  int64_t M = pos.dims[0], half = x->c->head_dim / 2, zero = 0, one = 1;
  mx_hval_t posf = mx_hlo_convert(h, pos, MX_F32);
  int64_t dims[2] = {M, half};
  mx_hval_t ang = mx_hlo_binary(h, "multiply", mx_hlo_broadcast(h, posf, 2, dims, &zero),
                                mx_hlo_broadcast(h, inv_freq, 2, dims, &one));
  mx_hval_t both[2] = {ang, ang};
  mx_hval_t emb = mx_hlo_concat(h, 2, both, 1);
  *cos_out = mx_hlo_unary(h, "cosine", emb);
  *sin_out = mx_hlo_unary(h, "sine", emb);
}

/* Rotary embedding of v [M, heads, D] f32 (rotate_half convention). */
static mx_hval_t rope(ctx_t *x, mx_hval_t v, mx_hval_t cosv, mx_hval_t sinv) {
  mx_hlo_t *h = x->h;
  int64_t M = v.dims[0], H = v.dims[1], D = v.dims[2], half = D / 2;
  int64_t s0[3] = {0, 0, 0}, l0[3] = {M, H, half}, s1[3] = {0, 0, half}, l1[3] = {M, H, D};
  mx_hval_t x1 = mx_hlo_slice(h, v, s0, l0), x2 = mx_hlo_slice(h, v, s1, l1);
  mx_hval_t parts[2] = {mx_hlo_unary(h, "negate", x2), x1};
  mx_hval_t rot = mx_hlo_concat(h, 2, parts, 2);
  int64_t bd[2] = {0, 2};
  mx_hval_t c = mx_hlo_broadcast(h, cosv, 3, v.dims, bd), s = mx_hlo_broadcast(h, sinv, 3, v.dims, bd);
  return mx_hlo_binary(h, "add", mx_hlo_binary(h, "multiply", v, c), mx_hlo_binary(h, "multiply", rot, s));
}

/* What one call computes: B sequences of T tokens each (M = B*T rows of hidden state).
 *   prefill/score: B = 1, the sequence in cache slot `slot`, tokens at positions 0..T-1; it
 *     attends to its own T tokens (a prefill always starts a sequence), so nothing is read back;
 *   extend: B = 1, the next chunk of the prompt in slot `slot`, tokens at positions start..start+T-1,
 *     attending to the slot's cache rows [0, pos] within the first `window` rows;
 *   batched decode: B = the module's slots, T = 1, sequence b in slot b at position pos[b],
 *     attending to its cache rows [0, pos[b]] within the first `window` rows. */
typedef struct {
  int64_t B, T;
  mx_hval_t pos;  /* [B*T] i32: every token's position */
  mx_hval_t slot; /* prefill/score/extend: scalar i32 */
  mx_hval_t start; /* extend: scalar i32, the chunk's first position */
  bool decode, extend;
  int64_t window; /* decode and extend: cache rows attended to (>= every position in use + 1) */
} step_t;

/* Writes this call's keys or values new [M, KV, D] into the layer's cache in place. The cache is
 * [slots * KV, C, D]: a [slots, KV, C, D] tensor with the sequence and the KV head first, where the
 * attention contractions want their batch dimensions (so no step transposes it), stored with those
 * two merged so that a decode step's rows are one scatter over the leading dimensions. Decode
 * returns the rows attended to, [slots, KV, window, D], and extend the slot's, [KV, window, D];
 * prefill returns nothing to read (it attends to `new` itself). */
static mx_hval_t cache_write(ctx_t *x, const step_t *st, const char *sym, mx_hval_t new, bool transposed) {
  mx_hlo_t *h = x->h;
  const mx_model_config_t *c = x->c;
  int64_t S = x->g->slots, C = x->g->kv_rows, KV = c->n_kv_heads, D = c->head_dim, W = st->window;
  int64_t cd[3] = {S * KV, transposed ? D : C, transposed ? C : D};
  mx_hval_t cache = mx_hlo_load(h, sym, mx_htype(x->g->kv, 3, cd)), zero = mx_hlo_scalar_i32(h, 0);
  new = mx_hlo_convert(h, new, x->g->kv);
  if (!st->decode) {
    int64_t perm[3] = {1, 0, 2}, perm_t[3] = {1, 2, 0};
    mx_hval_t rows = mx_hlo_transpose(h, new, transposed ? perm_t : perm); /* [KV, T, D] ([KV, D, T]): only the new rows move */
    mx_hval_t first = mx_hlo_binary(h, "multiply", st->slot, mx_hlo_scalar_i32(h, (int32_t)KV));
    mx_hval_t at = st->extend ? st->start : zero, starts[3] = {first, transposed ? zero : at, transposed ? at : zero};
    cache = mx_hlo_dynamic_update_slice(h, cache, rows, starts);
    mx_hlo_store(h, sym, cache);
    if (!st->extend) return (mx_hval_t){.id = -1};
    mx_hval_t from[3] = {first, zero, zero};
    int64_t sizes[3] = {KV, transposed ? D : W, transposed ? W : D};
    return mx_hlo_dynamic_slice(h, cache, from, sizes);
  }
  /* One scatter writes every (slot, KV head) row at the slot's position; a transposed cache takes
   * every (slot, KV head, d) value as a row of one element of [S*KV*D, C, 1] (IREE 3.13 refuses a
   * row scatter into a non-leading dimension, docs/performance.md). */
  int64_t n = S * KV * (transposed ? D : 1), skv[3] = {S, KV, D}, keep0 = 0, rd[2] = {n, transposed ? 1 : D};
  int64_t one[3] = {n, C, 1};
  mx_hval_t at = mx_hlo_reshape(h, mx_hlo_broadcast(h, st->pos, transposed ? 3 : 2, skv, &keep0), 1, &n);
  mx_hval_t target = transposed ? mx_hlo_reshape(h, cache, 3, one) : cache;
  cache = mx_hlo_scatter_rows(h, target, mx_hlo_reshape(h, new, 2, rd), at);
  if (transposed) cache = mx_hlo_reshape(h, cache, 3, cd);
  mx_hlo_store(h, sym, cache);
  int64_t s0[3] = {0, 0, 0}, l0[3] = {S * KV, transposed ? D : W, transposed ? W : D};
  int64_t wd[4] = {S, KV, transposed ? D : W, transposed ? W : D};
  return mx_hlo_reshape(h, W == C ? cache : mx_hlo_slice(h, cache, s0, l0), 4, wd);
}

/* Gemma 2's soft-capping of v (f32): cap * tanh(v / cap), as transformers forms it; v itself when cap is 0. */
static mx_hval_t softcap(ctx_t *x, mx_hval_t v, float cap) {
  if (!(cap > 0)) return v;
  mx_hval_t type = mx_htype(MX_F32, v.rank, v.dims);
  mx_hval_t t = mx_hlo_unary(x->h, "tanh", mx_hlo_binary(x->h, "divide", v, mx_hlo_splat(x->h, type, cap)));
  return mx_hlo_binary(x->h, "multiply", t, mx_hlo_splat(x->h, type, cap));
}

/* Softmax over the last dimension of scores (f32) where `visible` (i1, same shape) holds, scaled
 * by 1/sqrt(D) (or the family's scale) and soft-capped first. */
static mx_hval_t masked_softmax(ctx_t *x, mx_hval_t scores, mx_hval_t visible) {
  mx_hlo_t *h = x->h;
  mx_hval_t type = mx_htype(MX_F32, scores.rank, scores.dims);
  double scale = x->c->attn_scale > 0 ? (double)x->c->attn_scale : 1.0 / sqrt((double)x->c->head_dim);
  scores = softcap(x, mx_hlo_binary(h, "multiply", scores, mx_hlo_splat(h, type, scale)), x->c->attn_softcap);
  scores = mx_hlo_select(h, visible, scores, mx_hlo_splat(h, type, -INFINITY));
  int64_t last = scores.rank - 1, keep[MX_MAX_RANK];
  for (int i = 0; i < last; i++) keep[i] = i;
  mx_hval_t mx = mx_hlo_reduce(h, scores, MX_REDUCE_MAX, 1, &last);
  mx_hval_t e = mx_hlo_unary(h, "exponential", mx_hlo_binary(h, "subtract", scores, mx_hlo_broadcast(h, mx, scores.rank, scores.dims, keep)));
  mx_hval_t den = mx_hlo_reduce(h, e, MX_REDUCE_SUM, 1, &last);
  return mx_hlo_binary(h, "divide", e, mx_hlo_broadcast(h, den, scores.rank, scores.dims, keep));
}

/* Queries q [M, H, D] as [M, KV, G, D] in the KV type: the G query heads that share a KV head together. */
static mx_hval_t group_queries(ctx_t *x, mx_hval_t q) {
  int64_t KV = x->c->n_kv_heads, qg[4] = {q.dims[0], KV, x->c->n_heads / KV, x->c->head_dim};
  return mx_hlo_convert(x->h, mx_hlo_reshape(x->h, q, 4, qg), x->g->kv);
}

/* Causal grouped-query attention of T query tokens, q [T, H, D], to T' keys and values, in one of two
 * layouts: a prefill's own new rows k/v [T', KV, D] (kv_first false; each query at position i sees
 * keys 0..i, so T' = T), or an extend's cache window [KV, W, D] ([KV, D, W] for V where the graph
 * stores values transposed; kv_first true; the query at pos[i]
 * sees rows 0..pos[i]). -> [T, H*D]. G query heads share one KV head. */
static mx_hval_t attend_causal(ctx_t *x, mx_hval_t q, mx_hval_t k, mx_hval_t v, bool kv_first, mx_hval_t pos) {
  mx_hlo_t *h = x->h;
  const mx_model_config_t *c = x->c;
  int64_t T = q.dims[0], KV = c->n_kv_heads, D = c->head_dim, G = c->n_heads / KV, Tk = k.dims[kv_first ? 1 : 0];
  mx_hval_t qq = group_queries(x, q);
  k = mx_hlo_convert(h, k, x->g->kv);
  v = mx_hlo_convert(h, v, x->g->kv);
  /* scores [KV, T, G, T'] */
  int64_t lb = 1, rb = kv_first ? 0 : 1, lc = 3, rc = 2;
  mx_hval_t scores = mx_hlo_dot(h, qq, k, 1, &lb, &rb, 1, &lc, &rc, MX_F32);
  int64_t tt[2] = {T, Tk}, keep0 = 0, bd[2] = {1, 3};
  /* Each query's position (row), then each key's (column): key <= query is visible. */
  mx_hval_t query = kv_first ? mx_hlo_broadcast(h, pos, 2, tt, &keep0) : mx_hlo_iota(h, mx_htype(MX_I32, 2, tt), 0);
  mx_hval_t key = mx_hlo_iota(h, mx_htype(MX_I32, 2, tt), 1);
  mx_hval_t visible = visible_keys(x, key, query);
  mx_hval_t p = masked_softmax(x, scores, mx_hlo_broadcast(h, visible, 4, scores.dims, bd));
  /* out [KV, T, G, D] = p . v over T' */
  int64_t plb = 0, prb = kv_first ? 0 : 1, plc = 3, prc = kv_first ? (x->g->values_transposed ? 2 : 1) : 0;
  mx_hval_t att = mx_hlo_dot(h, mx_hlo_convert(h, p, x->g->kv), v, 1, &plb, &prb, 1, &plc, &prc, MX_F32);
  int64_t perm[4] = {1, 0, 2, 3}, od[2] = {T, KV * G * D};
  return mx_hlo_reshape(h, mx_hlo_transpose(h, att, perm), 2, od);
}

/* Decode scores [.., W] of rank 4, the slot at dimension slot_dim and the window last, as probabilities:
 * each slot sees its rows 0..pos[slot] (and its layer's window), the rest masked out. */
static mx_hval_t decode_softmax(ctx_t *x, const step_t *st, mx_hval_t scores, int64_t slot_dim) {
  mx_hlo_t *h = x->h;
  int64_t sw[2] = {st->pos.dims[0], scores.dims[3]}, keep0 = 0, bd[2] = {slot_dim, 3};
  mx_hval_t visible = visible_keys(x, mx_hlo_iota(h, mx_htype(MX_I32, 2, sw), 1), mx_hlo_broadcast(h, st->pos, 2, sw, &keep0));
  return masked_softmax(x, scores, mx_hlo_broadcast(h, visible, 4, scores.dims, bd));
}

/* The per-head form of attend_decode (mx_target_head_attention_slots): qq [S, KV, G, D] in the KV type
 * against kc [S, KV, W, D] and vc [S, KV, W, D] (or [S, KV, D, W] where values are stored transposed).
 * Each query head g of the group is its own pair of batched matrix-vector products over the (S, KV)
 * batch, the cache operand first ([W, D] . [D] -> [W] and [W, D]^T . [W] -> [D], or [D, W] . [W]), with
 * no repeat of the window: at 8 slots the expanded form's repeat copies 4x the window per layer (234 us
 * per layer on the H200 at W = 512). -> [S, H*D]. */
#define HEAD_ATTENTION_MAX_GROUP 64 /* query heads per KV head; a larger group keeps the other forms */
/* From head_attention_slots slots on every window takes this form, and from head_attention_window rows
 * every slot count: at one slot and W = 4096 it beats the expanded form, whose repeat of the window
 * grows with W (3.0 against 3.9 ms for 16 layers on the H200, bench/results/2026-12-04-h200-attention-w4096/).
 * With (slot, KV head) as one batch dimension it compiles for CUDA up to
 * W = 8192 (the two-batch form failed there, "matvec_like_64x64x8192_f32 ... failed on workgroup
 * distribution verification"), and on the H200 8 steps at 8 slots take 55.7 / 56.4 ms at W = 1024
 * and 90.8 / 90.1 at 2048 against 75.5 / 75.8 and 132 / 133 expanded (docs/performance.md, "Decode
 * windows x2"). */
static mx_hval_t attend_decode_per_head(ctx_t *x, const step_t *st, mx_hval_t qq, mx_hval_t kc, mx_hval_t vc) {
  mx_hlo_t *h = x->h;
  int64_t S = qq.dims[0], KV = qq.dims[1], G = qq.dims[2], D = qq.dims[3], W = kc.dims[2], B = S * KV;
  bool vt = x->g->values_transposed; /* vc [S, KV, D, W]: the P.V reduction runs along a row */
  /* (slot, KV head) as one batch dimension: with two, IREE 3.13 fails the P.V product for CUDA */
  int64_t kd[3] = {B, W, D}, vd[3] = {B, D, W}, qd3[3] = {B, G, D}, batch = 0, d2[2] = {B, D}, w2[2] = {B, W};
  kc = mx_hlo_reshape(h, kc, 3, kd);
  vc = mx_hlo_reshape(h, vc, 3, vt ? vd : kd);
  mx_hval_t qf = mx_hlo_reshape(h, qq, 3, qd3);
  /* The G heads' parts concatenated with the head outermost ([G, S, KV, ...]): each part is then one
   * contiguous block of the result. Concatenated in the head's natural place ([S, KV, G, ...]), each
   * part was a strided block that IREE 3.13 copied in with a slow_memcpy dispatch of its own: 8 per
   * layer, 128 of the 196 copies of an 8-slot step (docs/performance.md). */
  mx_hval_t parts[HEAD_ATTENTION_MAX_GROUP];
  int64_t s4[4] = {1, S, KV, W}, o4[4] = {1, S, KV, D};
  for (int64_t g = 0; g < G; g++) {
    int64_t a0[3] = {0, g, 0}, a1[3] = {B, g + 1, D}, kcd = 2, qd = 1;
    mx_hval_t qg = mx_hlo_reshape(h, mx_hlo_slice(h, qf, a0, a1), 2, d2);
    parts[g] = mx_hlo_reshape(h, mx_hlo_dot(h, kc, qg, 1, &batch, &batch, 1, &kcd, &qd, MX_F32), 4, s4); /* [B, W] */
  }
  mx_hval_t scores = mx_hlo_concat(h, (int)G, parts, 0); /* [G, S, KV, W] */
  int64_t pd3[3] = {G, B, W};
  mx_hval_t p = mx_hlo_convert(h, decode_softmax(x, st, scores, 1), x->g->kv);
  p = mx_hlo_reshape(h, p, 3, pd3);
  for (int64_t g = 0; g < G; g++) {
    int64_t a0[3] = {g, 0, 0}, a1[3] = {g + 1, B, W}, vw = vt ? 2 : 1, pw = 1;
    mx_hval_t pg = mx_hlo_reshape(h, mx_hlo_slice(h, p, a0, a1), 2, w2);
    parts[g] = mx_hlo_reshape(h, mx_hlo_dot(h, vc, pg, 1, &batch, &batch, 1, &vw, &pw, MX_F32), 4, o4); /* [B, D] */
  }
  int64_t heads_inner[4] = {1, 2, 0, 3}, od[2] = {S, KV * G * D};
  return mx_hlo_reshape(h, mx_hlo_transpose(h, mx_hlo_concat(h, (int)G, parts, 0), heads_inner), 2, od);
}

/* The grouped form of attend_decode over one batch dimension (mx_target_grouped_attention_slots): qq
 * [S, KV, G, D] in the KV type against kc [S, KV, W, D] and vc [S, KV, W, D] (or [S, KV, D, W] where
 * values are stored transposed), (slot, KV head) as one batch dimension B = S * KV: two products per
 * layer, [B, G, D] . [B, W, D]^T -> [B, G, W] and [B, G, W] . [B, D, W]^T -> [B, G, D], each reading
 * the window once for the group's G query heads. IREE 3.13 maps such an M = G product onto one thread
 * per 128 outputs by itself; the cuda tuning library (compiler/tuning.c) gives both a warp-per-rows
 * reduction instead, which is why a target takes this form only where its library does. -> [S, H*D]. */
static mx_hval_t attend_decode_grouped_rows(ctx_t *x, const step_t *st, mx_hval_t qq, mx_hval_t kc, mx_hval_t vc) {
  mx_hlo_t *h = x->h;
  int64_t S = qq.dims[0], KV = qq.dims[1], G = qq.dims[2], D = qq.dims[3], W = kc.dims[2], B = S * KV;
  bool vt = x->g->values_transposed;
  int64_t kd[3] = {B, W, D}, vd[3] = {B, D, W}, qd[3] = {B, G, D}, s4[4] = {S, KV, G, W}, pd[3] = {B, G, W};
  kc = mx_hlo_reshape(h, kc, 3, kd);
  vc = mx_hlo_reshape(h, vc, 3, vt ? vd : kd);
  int64_t batch = 0, qc = 2, kcd = 2;
  mx_hval_t scores = mx_hlo_dot(h, mx_hlo_reshape(h, qq, 3, qd), kc, 1, &batch, &batch, 1, &qc, &kcd, MX_F32);
  scores = mx_hlo_reshape(h, scores, 4, s4);
  mx_hval_t p = mx_hlo_convert(h, decode_softmax(x, st, scores, 0), x->g->kv);
  int64_t pw = 2, vw = vt ? 2 : 1, od[2] = {S, KV * G * D};
  mx_hval_t att = mx_hlo_dot(h, mx_hlo_reshape(h, p, 3, pd), vc, 1, &batch, &batch, 1, &pw, &vw, MX_F32); /* [B, G, D] */
  return mx_hlo_reshape(h, att, 2, od);
}

/* Each slot's query q [S, H, D] against its cache rows [0, pos[b]] of kc/vc [S, KV, W, D]:
 * [S, H*D].
 *
 * Two forms of the same contractions, a switch chosen per target by measurement
 * (mx_target_expand_kv_groups, docs/performance.md):
 *   grouped: the G query heads of a KV head are the rows of one small product per (slot, KV head),
 *     [G, D] x [W, D]^T. IREE 3.13's GPU code generation maps that M = G product onto one thread per
 *     128 outputs (TileAndFuse): 286 us per layer at W = 512 on the H200, 80% of the decode step.
 *   expanded: K and V repeated for each query head of the group ([S, KV, G, W, D]), so every query
 *     head is a batch of its own and both products are batched matrix-vector products, which IREE
 *     maps onto its fast reduction kernels; the repeat is a copy of the window (4x its bytes at
 *     G = 4). 7x faster on the H200, 3.5x slower on the CPU, where the grouped form is fine. */
static mx_hval_t attend_decode_per_head(ctx_t *x, const step_t *st, mx_hval_t qq, mx_hval_t kc, mx_hval_t vc);

static mx_hval_t attend_decode(ctx_t *x, const step_t *st, mx_hval_t q, mx_hval_t kc, mx_hval_t vc) {
  mx_hlo_t *h = x->h;
  const mx_model_config_t *c = x->c;
  int64_t S = q.dims[0], KV = c->n_kv_heads, D = c->head_dim, G = c->n_heads / KV, W = kc.dims[2];
  mx_hval_t qq = group_queries(x, q);
  if (mx_llama_grouped_rows(x->g)) return attend_decode_grouped_rows(x, st, qq, kc, vc);
  bool per_head = (x->g->head_attention_slots > 0 && S >= x->g->head_attention_slots) ||
                  (x->g->head_attention_window > 0 && W >= x->g->head_attention_window);
  if (per_head && G <= HEAD_ATTENTION_MAX_GROUP) return attend_decode_per_head(x, st, qq, kc, vc);
  /* Batch dimensions (S, KV), and G as well when expanded; K and V follow them with [W, D]. */
  int64_t rd[5] = {S, KV, G, W, D}, keep[4] = {0, 1, 3, 4}, batch[3] = {0, 1, 2};
  int nb = 2;
  if (x->g->expand_kv_groups) {
    kc = mx_hlo_broadcast(h, kc, 5, rd, keep);
    vc = mx_hlo_broadcast(h, vc, 5, rd, keep);
    nb = 3;
  }
  /* scores [S, KV, G, W] */
  int64_t lc = 3, rc = nb + 1;
  mx_hval_t scores = mx_hlo_dot(h, qq, kc, nb, batch, batch, 1, &lc, &rc, MX_F32);
  mx_hval_t p = decode_softmax(x, st, scores, 0);
  /* out [S, KV, G, D] = p . v over W */
  int64_t plc = 3, prc = nb;
  mx_hval_t att = mx_hlo_dot(h, mx_hlo_convert(h, p, x->g->kv), vc, nb, batch, batch, 1, &plc, &prc, MX_F32);
  int64_t od[2] = {S, KV * G * D};
  return mx_hlo_reshape(h, att, 2, od);
}

static mx_hval_t silu(ctx_t *x, mx_hval_t v) { return mx_hlo_binary(x->h, "multiply", v, mx_hlo_unary(x->h, "logistic", v)); }

/* PyTorch's gelu(approximate="tanh"): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), in f32. */
static mx_hval_t gelu_tanh(ctx_t *x, mx_hval_t v) {
  mx_hlo_t *h = x->h;
  mx_hval_t type = mx_htype(MX_F32, v.rank, v.dims);
  mx_hval_t cube = mx_hlo_binary(h, "multiply", mx_hlo_binary(h, "multiply", v, v), v);
  mx_hval_t inner = mx_hlo_binary(h, "add", v, mx_hlo_binary(h, "multiply", mx_hlo_splat(h, type, 0.044715), cube));
  mx_hval_t t = mx_hlo_unary(h, "tanh", mx_hlo_binary(h, "multiply", mx_hlo_splat(h, type, 0.7978845608028654), inner));
  mx_hval_t half = mx_hlo_binary(h, "multiply", mx_hlo_splat(h, type, 0.5), v);
  return mx_hlo_binary(h, "multiply", half, mx_hlo_binary(h, "add", mx_hlo_splat(h, type, 1.0), t));
}

/* The MLP's gate activation: SiLU, or GELU (tanh) for Gemma. */
static mx_hval_t gated(ctx_t *x, mx_hval_t v) { return x->c->act == MX_ACT_GELU_TANH ? gelu_tanh(x, v) : silu(x, v); }

/* act(gate) * up from a decode step's stacked gate/up product y [M, 2F] (linears' pair): y seen as
 * [M, 2, F], the activation taken where the middle index is 0, then the product over that dimension.
 * The same f32 multiply as act(gate) * up (times an initial 1), in one dispatch that reads y where
 * it is: slices of y were two copies per layer on the GPU (IREE 3.13). */
static mx_hval_t gated_pair(ctx_t *x, mx_hval_t y) {
  mx_hlo_t *h = x->h;
  int64_t M = y.dims[0], F = y.dims[1] / 2, zd[3] = {M, 2, F}, one = 1;
  mx_hval_t z = mx_hlo_reshape(h, y, 3, zd);
  mx_hval_t first = mx_hlo_compare(h, "EQ", mx_hlo_iota(h, mx_htype(MX_I32, 3, zd), 1), mx_hlo_splat(h, mx_htype(MX_I32, 3, zd), 0));
  return mx_hlo_reduce(h, mx_hlo_select(h, first, gated(x, z), z), MX_REDUCE_PROD, 1, &one);
}

/* One decoder layer on x [M, dim]; updates that layer's KV cache. */
static mx_hval_t layer(ctx_t *x, int l, mx_hval_t in, const step_t *st, mx_hval_t cosv, mx_hval_t sinv) {
  mx_hlo_t *h = x->h;
  const mx_model_config_t *c = x->c;
  int64_t M = in.dims[0], H = c->n_heads, KV = c->n_kv_heads, D = c->head_dim;
  char ksym[32], vsym[32];
  x->window = mx_config_layer_window(c, l);
  mx_hval_t hn = rmsnorm(x, in, mx_arch_layer(MX_T_ATTN_NORM), l);
  mx_hval_t qkv[3];
  linears(x, hn, MX_STACK_QKV, l, qkv, NULL);
  mx_hval_t q = qkv[0], k = qkv[1], v = qkv[2];
  if (c->qkv_bias) {
    q = add_bias(x, q, MX_T_Q_BIAS, l);
    k = add_bias(x, k, MX_T_K_BIAS, l);
    v = add_bias(x, v, MX_T_V_BIAS, l);
  }
  if (c->qk_norm) { /* each head's D values normed on their own, before RoPE (Qwen3) */
    int64_t qr[2] = {M * H, D}, kr[2] = {M * KV, D}, qf[2] = {M, H * D}, kf[2] = {M, KV * D};
    q = mx_hlo_reshape(h, rmsnorm(x, mx_hlo_reshape(h, q, 2, qr), mx_arch_layer(MX_T_Q_NORM), l), 2, qf);
    k = mx_hlo_reshape(h, rmsnorm(x, mx_hlo_reshape(h, k, 2, kr), mx_arch_layer(MX_T_K_NORM), l), 2, kf);
  }
  int64_t qd[3] = {M, H, D}, kd[3] = {M, KV, D};
  q = rope(x, mx_hlo_reshape(h, q, 3, qd), cosv, sinv);
  k = rope(x, mx_hlo_reshape(h, k, 3, kd), cosv, sinv);
  v = mx_hlo_reshape(h, v, 3, kd);

  snprintf(ksym, sizeof ksym, "kv_k%d", l);
  snprintf(vsym, sizeof vsym, "kv_v%d", l);
  mx_hval_t kc = cache_write(x, st, ksym, k, false), vc = cache_write(x, st, vsym, v, x->g->values_transposed);
  mx_hval_t att = st->decode   ? attend_decode(x, st, q, kc, vc)
                  : st->extend ? attend_causal(x, q, kc, vc, true, st->pos)
                               : attend_causal(x, q, k, v, false, st->pos);
  mx_hval_t o = linear(x, att, mx_arch_layer(MX_T_O), l);
  if (c->sandwich_norms) o = rmsnorm(x, o, mx_arch_layer(MX_T_POST_ATTN_NORM), l);
  mx_hval_t x1 = mx_hlo_binary(h, "add", in, o);

  /* Gated MLP: SwiGLU, or GeGLU (Gemma). */
  mx_hval_t hn2 = rmsnorm(x, x1, mx_arch_layer(c->sandwich_norms ? MX_T_PRE_FFN_NORM : MX_T_FFN_NORM), l);
  mx_hval_t mlp[2], pair = {0};
  linears(x, hn2, MX_STACK_GATE_UP, l, mlp, &pair);
  mx_hval_t act = pair.rank ? gated_pair(x, pair)
                            : mx_hlo_binary(h, "multiply", gated(x, mlp[0]), mlp[1]);
  mx_hval_t down = linear(x, act, mx_arch_layer(MX_T_DOWN), l);
  if (c->sandwich_norms) down = rmsnorm(x, down, mx_arch_layer(MX_T_POST_FFN_NORM), l);
  return mx_hlo_binary(h, "add", x1, down);
}

/* Hidden states [M, dim] f32 after the final norm, for tokens [M] (the step says where they go). */
static mx_hval_t forward(ctx_t *x, mx_hval_t tokens, const step_t *st) {
  mx_hlo_t *h = x->h;
  const mx_model_config_t *c = x->c;
  mx_hval_t inv0 = inv_freq_const(x, c->rope_theta); /* first, where the graph has always had it */
  mx_hval_t hs = embed_rows(x, tokens);
  if (c->embed_scale > 0) /* Gemma: the embedding times sqrt(dim), in f32 */
    hs = mx_hlo_binary(h, "multiply", hs, mx_hlo_splat(h, mx_htype(MX_F32, hs.rank, hs.dims), c->embed_scale));
  /* One cos/sin table per RoPE theta the layers use (Gemma 3's local layers have their own). */
  mx_hval_t cosv[2], sinv[2];
  float theta[2] = {c->rope_theta, c->rope_theta};
  int n_theta = 1;
  rope_tables(x, st->pos, inv0, &cosv[0], &sinv[0]);
  for (int l = 0; l < c->n_layers; l++) {
    float t = mx_config_layer_theta(c, l);
    int k = t == theta[0] ? 0 : 1;
    if (k == 1 && n_theta == 1) {
      theta[1] = t;
      rope_tables(x, st->pos, inv_freq_const(x, t), &cosv[1], &sinv[1]);
      n_theta = 2;
    }
    hs = layer(x, l, hs, st, cosv[k], sinv[k]);
  }
  return rmsnorm(x, hs, mx_arch_global(MX_T_FINAL_NORM), 0);
}

/* Logits [M, vocab] f32 of normed hidden states [M, dim] (soft-capped where the family says). */
static mx_hval_t lm_head(ctx_t *x, mx_hval_t hn) {
  return softcap(x, linear(x, hn, mx_arch_global(x->c->tied_embeddings ? MX_T_EMBED : MX_T_LM_HEAD), 0), x->c->final_softcap);
}

/* The token picks of hlo/pick.c; several in one function (decode_<W>_steps) fence their iotas. */
static mx_pick_t picker(ctx_t *x) { return (mx_pick_t){.h = x->h, .vocab = x->c->vocab, .fence_iotas = x->g->decode_steps > 1}; }

static mx_hval_t argmax(ctx_t *x, mx_hval_t logits) {
  mx_pick_t p = picker(x);
  return mx_pick_argmax(&p, logits);
}

/* Positions start .. start+T-1 as [T] i32. */
static mx_hval_t positions_from(ctx_t *x, mx_hval_t start, int64_t T) {
  return mx_hlo_binary(x->h, "add", mx_hlo_iota(x->h, t1(MX_I32, T), 0), mx_hlo_broadcast(x->h, start, 1, &T, NULL));
}

/* What a prefill call returns: the next token, the last position's logits, or (embeddings) the sum of
 * the final normed hidden states of its `length` tokens. */
typedef enum { PREFILL_TOKEN, PREFILL_LOGITS, PREFILL_POOLED } prefill_out_t;

/* The rows of hn [N, dim] before `length`, summed: [dim]. A sum, not a mean, so that the chunks of a
 * long prompt add up on the host (the padding rows of the last chunk are left out here). */
static mx_hval_t sum_rows(ctx_t *x, mx_hval_t hn, mx_hval_t length) {
  mx_hlo_t *h = x->h;
  int64_t N = hn.dims[0], keep[1] = {0}, rows = 0;
  mx_hval_t in = mx_hlo_compare(h, "LT", mx_hlo_iota(h, t1(MX_I32, N), 0), mx_hlo_broadcast(h, length, 1, &N, NULL));
  mx_hval_t mask = mx_hlo_broadcast(h, in, 2, hn.dims, keep);
  mx_hval_t kept = mx_hlo_select(h, mask, hn, mx_hlo_splat(h, hn, 0.0));
  return mx_hlo_reduce(h, kept, MX_REDUCE_SUM, 1, &rows);
}

/* prefill_<N>(tokens, length, slot) when W = 0; else extend_<W>(tokens, start, length, slot), a chunk of
 * N tokens from `start` attending to the first W cache rows. */
static void emit_prefill(ctx_t *x, int64_t N, int64_t W, prefill_out_t what) {
  mx_hlo_t *h = x->h;
  static const mx_llama_fn_t prefill_fn[] = {MX_FN_PREFILL, MX_FN_PREFILL_LOGITS, MX_FN_PREFILL_POOLED};
  static const mx_llama_fn_t extend_fn[] = {MX_FN_EXTEND, MX_FN_EXTEND_LOGITS, MX_FN_EXTEND_POOLED};
  char name[48];
  if (W > 0) mx_llama_extend_name(extend_fn[what], (int)W, (int)N, x->g->buckets[x->g->n_buckets - 1], name, sizeof name);
  else mx_llama_fn_name(prefill_fn[what], (int)N, name, sizeof name);
  int n_args = W > 0 ? 4 : 3;
  mx_hval_t scalar = mx_htype(MX_I32, 0, NULL), types[4] = {t1(MX_I32, N), scalar, scalar, scalar}, args[4];
  mx_hlo_func_begin(h, name, n_args, types, args);
  mx_hval_t start = W > 0 ? args[1] : mx_hlo_scalar_i32(h, 0), length = args[n_args - 2];
  step_t st = {.B = 1, .T = N, .pos = positions_from(x, start, N), .slot = args[n_args - 1], .start = start,
               .extend = W > 0, .window = W};
  mx_hval_t hn = forward(x, args[0], &st), out;
  if (what == PREFILL_POOLED) {
    out = sum_rows(x, hn, length);
  } else { /* the row at length-1 */
    int64_t sizes[2] = {1, x->c->dim};
    mx_hval_t starts[2] = {mx_hlo_binary(h, "subtract", length, mx_hlo_scalar_i32(h, 1)), mx_hlo_scalar_i32(h, 0)};
    mx_hval_t lg = lm_head(x, mx_hlo_dynamic_slice(h, hn, starts, sizes)); /* [1, V] */
    int64_t v = x->c->vocab;
    out = what == PREFILL_LOGITS ? mx_hlo_reshape(h, lg, 1, &v) : mx_hlo_reshape(h, argmax(x, lg), 0, NULL);
  }
  mx_hlo_func_end(h, 1, &out);
}

/* decode_<W> / decode_<W>_logits: one step for every slot, attending to the first W cache rows. */
static void emit_decode(ctx_t *x, int64_t W, bool want_logits) {
  mx_hlo_t *h = x->h;
  int64_t S = x->g->slots;
  mx_hval_t types[2] = {t1(MX_I32, S), t1(MX_I32, S)}, args[2];
  char name[48];
  mx_llama_fn_name(want_logits ? MX_FN_DECODE_LOGITS : MX_FN_DECODE, (int)W, name, sizeof name);
  mx_hlo_func_begin(h, name, 2, types, args);
  step_t st = {.B = S, .T = 1, .pos = args[1], .decode = true, .window = W};
  mx_hval_t lg = lm_head(x, forward(x, args[0], &st)); /* [S, V] */
  mx_hval_t out = want_logits ? lg : argmax(x, lg);
  mx_hlo_func_end(h, 1, &out);
}

/* decode_<W>_steps(tokens, pos, temperature, key): decode_steps steps for every slot in one call, each
 * step's token fed to the next at the next position: [K, S] tokens. A slot's token is its argmax at
 * temperature 0, else the seeded Gumbel-max draw of base/gumbel.h (the host sampler's draw). With
 * `cuts`, decode_<W>_cut_steps(tokens, pos, temperature, key, top_k, top_p, min_p) draws among the
 * candidates of each slot's cuts (hlo/pick.h): a function of its own, because the cut rounds add ~130
 * dispatches to every step whatever the inputs (docs/performance.md), which greedy and plain requests
 * should not pay. The host pays one call (one round trip, one readback) per K tokens; a sequence that
 * ends earlier ignores the rest. */
static void emit_decode_steps(ctx_t *x, int64_t W, bool with_cuts) {
  mx_hlo_t *h = x->h;
  int64_t S = x->g->slots, K = x->g->decode_steps;
  int n_args = with_cuts ? 7 : 4;
  mx_hval_t types[7] = {t1(MX_I32, S), t1(MX_I32, S), t1(MX_F32, S), t1(MX_I32, S), t1(MX_I32, S), t1(MX_F32, S), t1(MX_F32, S)};
  mx_hval_t args[7], outs[MX_LLAMA_MAX_DECODE_STEPS];
  char name[48];
  mx_llama_fn_name(with_cuts ? MX_FN_DECODE_CUT_STEPS : MX_FN_DECODE_STEPS, (int)W, name, sizeof name);
  mx_hlo_func_begin(h, name, n_args, types, args);
  mx_pick_t p = picker(x);
  mx_pick_cuts_t cuts = {.top_k = args[4], .top_p = args[5], .min_p = args[6]};
  mx_hval_t tok = args[0], pos = args[1];
  int64_t row[2] = {1, S};
  for (int64_t k = 0; k < K; k++) {
    step_t st = {.B = S, .T = 1, .pos = pos, .decode = true, .window = W};
    tok = mx_pick_draw(&p, lm_head(x, forward(x, tok, &st)), args[2], args[3], pos, with_cuts ? &cuts : NULL);
    outs[k] = mx_hlo_reshape(h, tok, 2, row);
    pos = mx_hlo_binary(h, "add", pos, mx_hlo_splat(h, t1(MX_I32, S), 1));
  }
  mx_hval_t out = mx_hlo_concat(h, (int)K, outs, 0); /* K > 1: emitted only then */
  mx_hlo_func_end(h, 1, &out);
}

/* copy_slot_<W>(src, dst) -> dst: the first W cache rows of slot src, every layer's keys and values,
 * into slot dst. The n choices of one prompt share its prefill: the first choice's rows are copied
 * to the others' slots (before they decode on their own, writing rows from the prompt's end on). */
static void emit_copy_slot(ctx_t *x, int64_t W) {
  mx_hlo_t *h = x->h;
  const mx_model_config_t *c = x->c;
  int64_t KV = c->n_kv_heads, C = x->g->kv_rows, D = c->head_dim;
  char name[48];
  mx_llama_fn_name(MX_FN_COPY_SLOT, (int)W, name, sizeof name);
  mx_hval_t scalar = mx_htype(MX_I32, 0, NULL), types[2] = {scalar, scalar}, args[2];
  mx_hlo_func_begin(h, name, 2, types, args);
  mx_hval_t zero = mx_hlo_scalar_i32(h, 0), heads = mx_hlo_scalar_i32(h, (int32_t)KV);
  mx_hval_t from[3] = {mx_hlo_binary(h, "multiply", args[0], heads), zero, zero};
  mx_hval_t to[3] = {mx_hlo_binary(h, "multiply", args[1], heads), zero, zero};
  for (int l = 0; l < c->n_layers; l++)
    for (int kv = 0; kv < 2; kv++) {
      char sym[32];
      snprintf(sym, sizeof sym, "kv_%c%d", kv ? 'v' : 'k', l);
      bool t = kv && x->g->values_transposed;
      int64_t cd[3] = {x->g->slots * KV, t ? D : C, t ? C : D}, sizes[3] = {KV, t ? D : W, t ? W : D};
      mx_hval_t cache = mx_hlo_load(h, sym, mx_htype(x->g->kv, 3, cd));
      /* The barrier makes the rows a tensor of their own: a copy inside the one buffer became IREE's
       * "slow_memcpy" dispatch, which its CUDA and ROCm code generation fail to translate. */
      mx_hval_t rows = mx_hlo_barrier(h, mx_hlo_dynamic_slice(h, cache, from, sizes));
      mx_hlo_store(h, sym, mx_hlo_dynamic_update_slice(h, cache, rows, to));
    }
  mx_hlo_func_end(h, 1, &args[1]);
}

static void emit_score(ctx_t *x, int64_t S) {
  mx_hlo_t *h = x->h;
  char name[48];
  mx_llama_fn_name(MX_FN_SCORE, (int)S, name, sizeof name);
  mx_hval_t types[1] = {t1(MX_I32, S)}, args[1];
  mx_hlo_func_begin(h, name, 1, types, args);
  mx_hval_t zero = mx_hlo_scalar_i32(h, 0);
  step_t st = {.B = 1, .T = S, .pos = positions_from(x, zero, S), .slot = zero};
  mx_hval_t out = lm_head(x, forward(x, args[0], &st));
  mx_hlo_func_end(h, 1, &out);
}

static void emit_signature(ctx_t *x, const char *sig) {
  int32_t v[MX_LLAMA_SIGNATURE_MAX];
  int64_t n = 0;
  for (const char *p = sig; *p && n < MX_LLAMA_SIGNATURE_MAX; p++) v[n++] = (unsigned char)*p;
  mx_hval_t out;
  mx_hlo_func_begin(x->h, MX_LLAMA_SIGNATURE_FN, 0, NULL, NULL);
  out = mx_hlo_const_i32(x->h, v, n);
  mx_hlo_func_end(x->h, 1, &out);
}

static void declare_param(ctx_t *x, const mx_tensor_spec_t *t, int layer) {
  mx_pack_t p = pack_of(x, t, layer);
  if (p.kind) {
    char sym[3][176], key[3][176];
    packed_syms(t, layer, sym, key);
    mx_hval_t qt, st;
    packed_types(x, t, p, &qt, &st);
    mx_hlo_declare_param(x->h, sym[0], key[0], qt);
    mx_hlo_declare_param(x->h, sym[1], key[1], st);
    if (mx_pack_affine(p.kind)) mx_hlo_declare_param(x->h, sym[2], key[2], st);
    return;
  }
  char key[160], sym[160];
  mx_arch_name(t, layer, false, key, sizeof key);
  sym_of(sym, sizeof sym, key);
  mx_hlo_declare_param(x->h, sym, key, weight_type(x, t));
}

/* The stack whose view in the files holds role's weight in layer (stacked_params), or NULL. */
static const mx_fused_spec_t *stacked_by_view(ctx_t *x, mx_layer_role_t role, int layer) {
  if (!x->g->stacked_params) return NULL;
  for (int s = 0; s < MX_ARCH_STACKS; s++) {
    const mx_fused_spec_t *f = mx_arch_fused(s);
    for (int p = 0; p < f->n_parts; p++)
      if (f->parts[p] == role) return stack_fused(x, f, layer) ? f : NULL;
  }
  return NULL;
}

/* The stacks of fuse_products where the files have no view over them: one global per layer and stack,
 * filled once at load by an initializer that concatenates the parts (which then load as transients,
 * `--compile-to=stream`). Written in each function instead, the concatenation was hoisted by IREE 3.13
 * into one global per function that reads it: 30 copies of each stack in a 2-layer module of 15
 * functions (`--compile-to=flow`), hence the 36.98 GB peak of the 16-layer module on the H100
 * (docs/performance.md, "Stacked products"). */
static void emit_stacks(ctx_t *x) {
  mx_hlo_t *h = x->h;
  if (!x->g->fuse_products || x->g->stacked_params) return;
  bool any = false;
  for (int l = 0; l < x->c->n_layers; l++)
    for (int i = 0; i < MX_ARCH_STACKS; i++) {
      const mx_fused_spec_t *f = mx_arch_fused(i);
      if (!stack_fused(x, f, l)) continue;
      if (!any) mx_hlo_initializer_begin(h);
      any = true;
      char key[160], sym[160];
      stack_sym(f, l, key, sizeof key, sym, sizeof sym);
      mx_hval_t ws[3];
      for (int p = 0; p < f->n_parts; p++) ws[p] = weight(x, mx_arch_layer(f->parts[p]), l);
      mx_hval_t w = mx_hlo_concat(h, f->n_parts, ws, 0);
      mx_hlo_declare_global(h, sym, w);
      mx_hlo_store(h, sym, w);
    }
  if (any) mx_hlo_initializer_end(h);
}

static void declare_globals(ctx_t *x) {
  const mx_model_config_t *c = x->c;
  mx_hlo_t *h = x->h;
  for (int r = 0; r < MX_T_GLOBAL_COUNT; r++)
    if (mx_arch_global_present((mx_global_role_t)r, c)) declare_param(x, mx_arch_global((mx_global_role_t)r), 0);
  for (int l = 0; l < c->n_layers; l++) {
    for (int r = 0; r < MX_T_LAYER_COUNT; r++) {
      if (!mx_arch_layer_present((mx_layer_role_t)r, c)) continue;
      const mx_fused_spec_t *f = stacked_by_view(x, (mx_layer_role_t)r, l);
      if (!f) {
        declare_param(x, mx_arch_layer((mx_layer_role_t)r), l);
      } else if (f->parts[0] == (mx_layer_role_t)r) { /* the view, once, for its parts */
        char key[160], sym[160];
        int64_t d[2], total = 0;
        for (int p = 0; p < f->n_parts; p++) mx_arch_shape(mx_arch_layer(f->parts[p]), c, d), total += d[0];
        stack_sym(f, l, key, sizeof key, sym, sizeof sym);
        mx_hlo_declare_param(h, sym, key, t2(x->g->weight_dtype, total, d[1]));
      }
    }
    char ks[32], vs[32];
    snprintf(ks, sizeof ks, "kv_k%d", l);
    snprintf(vs, sizeof vs, "kv_v%d", l);
    int64_t cd[3] = {(int64_t)x->g->slots * c->n_kv_heads, x->g->kv_rows, c->head_dim};
    int64_t cdt[3] = {cd[0], cd[2], cd[1]}; /* values stored [slots * KV, D, C] */
    mx_hlo_declare_state(h, ks, mx_htype(x->g->kv, 3, cd));
    mx_hlo_declare_state(h, vs, mx_htype(x->g->kv, 3, x->g->values_transposed ? cdt : cd));
  }
}

void mx_llama_fn_name(mx_llama_fn_t fn, int n, char *out, size_t cap) {
  switch (fn) {
    case MX_FN_PREFILL: snprintf(out, cap, "prefill_%d", n); break;
    case MX_FN_PREFILL_LOGITS: snprintf(out, cap, "prefill_%d_logits", n); break;
    case MX_FN_DECODE: snprintf(out, cap, "decode_%d", n); break;
    case MX_FN_DECODE_LOGITS: snprintf(out, cap, "decode_%d_logits", n); break;
    case MX_FN_DECODE_STEPS: snprintf(out, cap, "decode_%d_steps", n); break;
    case MX_FN_DECODE_CUT_STEPS: snprintf(out, cap, "decode_%d_cut_steps", n); break;
    case MX_FN_EXTEND: snprintf(out, cap, "extend_%d", n); break;
    case MX_FN_EXTEND_LOGITS: snprintf(out, cap, "extend_%d_logits", n); break;
    case MX_FN_SCORE: snprintf(out, cap, "score_%d", n); break;
    case MX_FN_PREFILL_POOLED: snprintf(out, cap, "prefill_%d_pooled", n); break;
    case MX_FN_EXTEND_POOLED: snprintf(out, cap, "extend_%d_pooled", n); break;
    case MX_FN_COPY_SLOT: snprintf(out, cap, "copy_slot_%d", n); break;
  }
}

void mx_llama_extend_name(mx_llama_fn_t fn, int window, int width, int chunk, char *out, size_t cap) {
  if (width == chunk) {
    mx_llama_fn_name(fn, window, out, cap);
    return;
  }
  snprintf(out, cap, "extend_%d_t%d%s", window, width,
           fn == MX_FN_EXTEND_LOGITS ? "_logits" : fn == MX_FN_EXTEND_POOLED ? "_pooled" : "");
}

static int default_capacity(const mx_model_config_t *c) {
  return c->max_position < MX_LLAMA_DEFAULT_CONTEXT ? c->max_position : MX_LLAMA_DEFAULT_CONTEXT;
}

mx_status_t mx_llama_graph_make(const mx_model_config_t *c, const mx_llama_graph_options_t *given, mx_llama_graph_t *out) {
  mx_llama_graph_options_t resolved = *given, *o = &resolved;
  if (o->capacity == 0) o->capacity = default_capacity(c);
  if (o->score_len == MX_LLAMA_SCORE_CAPACITY) o->score_len = o->capacity;
  int slots = o->slots > 0 ? o->slots : 1;
  if (slots > MX_LLAMA_MAX_SLOTS)
    return mx_status_make(MX_STAGE_USAGE, "use 1, 4 or 8 slots", "%d slots is more than the %d a module supports", slots,
                          MX_LLAMA_MAX_SLOTS);
  if (o->capacity < 16 || o->capacity > c->max_position)
    return mx_status_make(MX_STAGE_USAGE, "set MLXCEL_XLA_CONTEXT_CAPACITY / --context between 16 and the model's maximum",
                          "context capacity %d is outside 16..%d for this model", o->capacity, c->max_position);
  if (o->score_len < 0 || o->score_len > o->capacity)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "score length %d with capacity %d", o->score_len, o->capacity);
  /* The KV cache and attention are f32 unless asked otherwise, in every precision: a bf16 cache failed
   * the divergence rule on two prompts (docs/engine.md). A low-precision cache is an option of the
   * low-precision modes only: f32 is the exact mode. */
  if (o->kv != MX_F32 && o->kv != MX_F16 && o->kv != MX_BF16)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "KV cache type %s", mx_dtype_name(o->kv));
  if (o->kv != MX_F32 && o->precision == MX_F32)
    return mx_status_make(MX_STAGE_USAGE, "drop --kv-precision, or use --precision f16 or bf16",
                          "a KV cache of %s needs --precision f16 or bf16; f32 keeps an f32 cache", mx_dtype_name(o->kv));
  int steps = o->decode_steps > 0 ? o->decode_steps : 1;
  if (steps > MX_LLAMA_MAX_DECODE_STEPS)
    return mx_status_make(MX_STAGE_USAGE, "use 1 to 16 decode steps per call", "%d decode steps per call", steps);
  if (o->device_cuts_asked > 0 && steps < 2)
    return mx_status_make(MX_STAGE_USAGE, "add --decode-steps 2 or more, or drop --device-cuts on",
                          "--device-cuts on draws in the multi-step calls, and this graph has %d decode step per call", steps);
  *out = (mx_llama_graph_t){.config = c, .matmul = o->precision, .kv = o->kv, .weight_dtype = o->weight_dtype,
                            .slots = slots, .capacity = o->capacity, .score_len = o->score_len, .decode_steps = steps,
                            .device_cuts = steps > 1 && o->device_cuts,
                            .expand_kv_groups = o->expand_kv_groups, .head_attention_slots = o->head_attention_slots,
                            .head_attention_window = o->head_attention_window,
                            .grouped_attention_slots = o->grouped_attention_slots,
                            .values_transposed = o->head_attention_slots > 0 && slots >= o->head_attention_slots &&
                                                 c->n_heads / c->n_kv_heads <= HEAD_ATTENTION_MAX_GROUP,
                            .product_rows = o->product_rows,
                            .split_reduction = o->split_reduction,
                            /* set only where it changes the graph, which the signature then says */
                            .split_decode_reduction = o->split_decode_reduction && o->product_rows > 0 && slots > o->product_rows,
                            .fuse_products = o->fuse_products, .stacked_params = o->fuse_products && o->stacked_params,
                            .window_ratio = o->window_ratio,
                            .pooled = o->pooled, .pack = o->pack};
  out->values_transposed = out->values_transposed || mx_llama_grouped_rows(out);
  if (out->split_decode_reduction) { /* as the split, only where it changes the graph */
    out->n_whole_decode_products = o->n_whole_decode_products;
    memcpy(out->whole_decode_products, o->whole_decode_products, sizeof out->whole_decode_products);
  }
  mx_llama_default_buckets(out);
  return NULL;
}

void mx_llama_default_buckets(mx_llama_graph_t *g) {
  int chunk = g->capacity < MX_LLAMA_PREFILL_CHUNK ? g->capacity : MX_LLAMA_PREFILL_CHUNK;
  g->n_buckets = 0;
  for (int b = 32; b < chunk && g->n_buckets < MX_LLAMA_MAX_BUCKETS - 1; b *= 4) g->buckets[g->n_buckets++] = b;
  g->buckets[g->n_buckets++] = chunk;
  g->kv_rows = (g->capacity + chunk - 1) / chunk * chunk;
  /* Decode attends to the first W rows, W the smallest window that holds every slot's position: a
   * step costs what the longest sequence uses, not the capacity, within the ratio of one window to
   * the next (each window is a set of functions to compile). */
  g->window_ratio = g->window_ratio == 2 ? 2 : 4;
  g->n_windows = 0;
  for (int w = 128; w < g->capacity && g->n_windows < MX_LLAMA_MAX_BUCKETS - 1; w *= g->window_ratio) g->windows[g->n_windows++] = w;
  g->windows[g->n_windows++] = g->capacity;
}

bool mx_llama_window_has_extend(const mx_llama_graph_t *g, int i) {
  if (i < 0 || i >= g->n_windows || g->windows[i] <= g->buckets[g->n_buckets - 1]) return false;
  if (i == g->n_windows - 1 || g->window_ratio != 2) return true;
  int w = g->windows[i], first = g->windows[0];
  if (w % first) return false;
  for (w /= first; w % 4 == 0; w /= 4) {}
  return w == 1;
}

bool mx_llama_has_extends(const mx_llama_graph_t *g) {
  for (int i = 0; i < g->n_windows; i++)
    if (mx_llama_window_has_extend(g, i)) return true;
  return false;
}

int mx_llama_window_for(const mx_llama_graph_t *g, int last, bool extend) {
  for (int i = 0; i < g->n_windows; i++)
    if (g->windows[i] > last && (!extend || mx_llama_window_has_extend(g, i))) return g->windows[i];
  return -1;
}

mx_status_t mx_llama_emit(const mx_llama_graph_t *g, char **text_out) {
  *text_out = NULL;
  if (g->slots < 1 || g->slots > MX_LLAMA_MAX_SLOTS)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "a graph of %d slots (1..%d)", g->slots, MX_LLAMA_MAX_SLOTS);
  if (g->capacity < 1 || g->n_buckets < 1 || g->n_buckets > MX_LLAMA_MAX_BUCKETS)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "graph needs a capacity and 1..%d prefill buckets", MX_LLAMA_MAX_BUCKETS);
  for (int i = 0; i < g->n_buckets; i++)
    if (g->buckets[i] < 1 || g->buckets[i] > g->capacity || (i && g->buckets[i] <= g->buckets[i - 1]))
      return mx_status_make(MX_STAGE_INTERNAL, NULL, "prefill bucket %d is not ascending within the capacity", g->buckets[i]);
  if (g->n_windows < 1 || g->n_windows > MX_LLAMA_MAX_BUCKETS || g->windows[g->n_windows - 1] != g->capacity ||
      g->decode_steps < 1 || g->decode_steps > MX_LLAMA_MAX_DECODE_STEPS)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "graph needs decode windows ending at the capacity and 1..%d decode steps",
                          MX_LLAMA_MAX_DECODE_STEPS);
  for (int i = 1; i < g->n_windows; i++)
    if (g->windows[i] <= g->windows[i - 1])
      return mx_status_make(MX_STAGE_INTERNAL, NULL, "decode window %d is not ascending", g->windows[i]);
  int chunk = g->buckets[g->n_buckets - 1];
  if (g->kv_rows < g->capacity || (chunk < g->capacity && g->kv_rows % chunk != 0))
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "%d KV rows for capacity %d in chunks of %d", g->kv_rows, g->capacity,
                          chunk);
  mx_hlo_t *h = mx_hlo_create();
  if (!h) return mx_status_oom();
  ctx_t x = {.h = h, .g = g, .c = g->config};
  declare_globals(&x);
  emit_stacks(&x);
  int n_kinds = g->pooled ? 3 : 2;
  for (int i = 0; i < g->n_buckets; i++)
    for (int k = 0; k < n_kinds; k++) emit_prefill(&x, g->buckets[i], 0, (prefill_out_t)k);
  /* Each extend window takes a full chunk, and a last chunk of each smaller bucket: a prompt's tail of
   * a few tokens would otherwise pay the chunk's products and its chunk x W attention. */
  for (int i = 0; i < g->n_windows; i++)
    for (int b = 0; b < g->n_buckets && mx_llama_window_has_extend(g, i); b++)
      for (int k = 0; k < n_kinds; k++) emit_prefill(&x, g->buckets[b], g->windows[i], (prefill_out_t)k);
  for (int i = 0; i < g->n_windows; i++) {
    emit_decode(&x, g->windows[i], false);
    emit_decode(&x, g->windows[i], true);
    if (g->decode_steps > 1) emit_decode_steps(&x, g->windows[i], false);
    if (g->decode_steps > 1 && g->device_cuts) emit_decode_steps(&x, g->windows[i], true);
    if (g->slots > 1) emit_copy_slot(&x, g->windows[i]);
  }
  if (g->score_len > 0) emit_score(&x, g->score_len);
  if (g->signature) emit_signature(&x, g->signature);
  mx_status_t st = mx_hlo_finish(h, text_out);
  mx_hlo_destroy(h);
  return st;
}
