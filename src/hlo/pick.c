#include "hlo/pick.h"

#include <math.h>

#include "base/gumbel.h"

static mx_hval_t t2(mx_dtype_t d, int64_t a, int64_t b) {
  int64_t v[2] = {a, b};
  return mx_htype(d, 2, v);
}

/* Per row of logits [R, V] f32, the lowest index of the largest logit, as torch.argmax picks: [R] i32.
 *
 * In two stages when V > 256: the largest value and its lowest index within each chunk of 256
 * logits ([R, V/256, 256], the last chunk padded with -inf), then the same over the chunks. One
 * reduction over 128256 logits ran as one 64-thread workgroup on the H200 (81 us per step,
 * docs/performance.md); the chunked form spreads it over R * V/256 rows.
 *
 * Indices are f32, not i32: IREE 3.13's CUDA backend starts a signed-integer min (max) reduction
 * from -1 (0), the unsigned identities, so an i32 argmax returned -1 for every row and the next
 * step's embedding gather then read out of bounds (docs/spikes.md). Indices below 2^24 are exact in
 * f32; config validation keeps the vocabulary under 2^22.
 *
 * Several argmaxes in one function (decode_<W>_steps) would share one iota after CSE; IREE 3.13 then
 * computes it in the first argmax's dispatch, and its CUDA codegen crashes on that dispatch at O3
 * ("SmallVector unable to grow" in NVPTX instruction selection). A barrier keeps each iota inside its
 * own reduction. */
enum { ARGMAX_CHUNK = 256 };

/* Over the last dimension of v (f32): the smallest of idx where v holds its largest value (elsewhere
 * idx counts as the vocabulary size, above every index), and that value when max_out is not NULL. */
static mx_hval_t max_and_index(const mx_pick_t *p, mx_hval_t v, mx_hval_t idx, mx_hval_t *max_out) {
  mx_hlo_t *h = p->h;
  int64_t last = v.rank - 1, keep[MX_MAX_RANK];
  for (int i = 0; i < last; i++) keep[i] = i;
  mx_hval_t mx = mx_hlo_reduce(h, v, MX_REDUCE_MAX, 1, &last);
  mx_hval_t is_max = mx_hlo_compare(h, "EQ", v, mx_hlo_broadcast(h, mx, v.rank, v.dims, keep));
  mx_hval_t none = mx_hlo_splat(h, mx_htype(MX_F32, v.rank, v.dims), (double)p->vocab);
  if (max_out) *max_out = mx;
  return mx_hlo_reduce(h, mx_hlo_select(h, is_max, idx, none), MX_REDUCE_MIN, 1, &last);
}

static mx_hval_t iota_of(const mx_pick_t *p, mx_dtype_t dtype, int rank, const int64_t *dims, int64_t dim) {
  mx_hval_t iota = mx_hlo_iota(p->h, mx_htype(dtype, rank, dims), dim);
  return p->fence_iotas ? mx_hlo_barrier(p->h, iota) : iota;
}

static mx_hval_t iota_f32(const mx_pick_t *p, int rank, const int64_t *dims, int64_t dim) { return iota_of(p, MX_F32, rank, dims, dim); }

mx_hval_t mx_pick_argmax(const mx_pick_t *p, mx_hval_t logits) {
  mx_hlo_t *h = p->h;
  int64_t R = logits.dims[0], V = logits.dims[1];
  if (V <= ARGMAX_CHUNK) return mx_hlo_convert(h, max_and_index(p, logits, iota_f32(p, 2, logits.dims, 1), NULL), MX_I32);
  int64_t n = (V + ARGMAX_CHUNK - 1) / ARGMAX_CHUNK, pad = n * ARGMAX_CHUNK - V;
  if (pad) {
    mx_hval_t parts[2] = {logits, mx_hlo_splat(h, t2(MX_F32, R, pad), -INFINITY)};
    logits = mx_hlo_concat(h, 2, parts, 1);
  }
  int64_t cd[3] = {R, n, ARGMAX_CHUNK};
  mx_hval_t chunks = mx_hlo_reshape(h, logits, 3, cd), cmax;
  mx_hval_t within = iota_f32(p, 3, cd, 2), first = iota_f32(p, 2, cd, 1); /* [R, n, C] and [R, n] */
  mx_hval_t cidx = max_and_index(p, chunks, within, &cmax);                /* [R, n] each */
  mx_hval_t at = mx_hlo_binary(h, "add", mx_hlo_binary(h, "multiply", first, mx_hlo_splat(h, t2(MX_F32, R, n), ARGMAX_CHUNK)), cidx);
  return mx_hlo_convert(h, max_and_index(p, cmax, at, NULL), MX_I32);
}

/* murmur3's finalizer on i32 bits (mx_gumbel_fmix): the multiplies wrap, the shifts are logical. */
static mx_hval_t fmix_i32(const mx_pick_t *p, mx_hval_t v) {
  mx_hlo_t *h = p->h;
  static const int shift[3] = {MX_GUMBEL_SHIFT1, MX_GUMBEL_SHIFT2, MX_GUMBEL_SHIFT3};
  static const uint32_t mul[2] = {MX_GUMBEL_MUL1, MX_GUMBEL_MUL2};
  mx_hval_t type = mx_htype(MX_I32, v.rank, v.dims);
  for (int i = 0; i < 3; i++) {
    v = mx_hlo_binary(h, "xor", v, mx_hlo_binary(h, "shift_right_logical", v, mx_hlo_splat(h, type, shift[i])));
    if (i < 2) v = mx_hlo_binary(h, "multiply", v, mx_hlo_splat(h, type, (int32_t)mul[i]));
  }
  return v;
}

/* The scores whose argmax is the seeded draw of base/gumbel.h: logits [S, V] + temperature * g, g
 * the Gumbel noise of (key, pos, id) per slot ([S] each). A slot at temperature 0 keeps its logits
 * exactly (0 * g is 0 for the finite g), so its argmax is the greedy token. */
mx_hval_t mx_pick_gumbel_scores(const mx_pick_t *p, mx_hval_t logits, mx_hval_t temperature, mx_hval_t key, mx_hval_t pos) {
  mx_hlo_t *h = p->h;
  int64_t keep0[1] = {0};
  mx_hval_t row = fmix_i32(p, mx_hlo_binary(h, "xor", pos, fmix_i32(p, key))); /* [S] */
  mx_hval_t ids = iota_of(p, MX_I32, 2, logits.dims, 1);
  mx_hval_t bits = fmix_i32(p, mx_hlo_binary(h, "xor", ids, mx_hlo_broadcast(h, row, 2, logits.dims, keep0)));
  mx_hval_t top = mx_hlo_binary(h, "shift_right_logical", bits, mx_hlo_splat(h, ids, MX_GUMBEL_DROP));
  mx_hval_t u = mx_hlo_binary(h, "multiply", mx_hlo_binary(h, "add", mx_hlo_convert(h, top, MX_F32), mx_hlo_splat(h, logits, 0.5)),
                              mx_hlo_splat(h, logits, 0x1p-23)); /* exact: below 2^23 levels */
  mx_hval_t g = mx_hlo_unary(h, "negate", mx_hlo_unary(h, "log", mx_hlo_unary(h, "negate", mx_hlo_unary(h, "log", u))));
  mx_hval_t t = mx_hlo_broadcast(h, temperature, 2, logits.dims, keep0);
  return mx_hlo_binary(h, "add", logits, mx_hlo_binary(h, "multiply", t, g));
}


/* ---------------------------------------------------------------------------------- the cuts
 * The host sampler's candidates are a prefix of the order "z descending, ties by the lower id", z =
 * logit / temperature: top-k its first k tokens, top-p the shortest prefix whose weights exp(z - max z)
 * reach top_p of the top-k's, min-p the tokens of weight >= min_p. A prefix ends at a boundary (t, j):
 * every token whose order key (the host's rank_key, as a signed i32: smaller for a larger z) is below
 * t, and those of key t up to id j. The device finds a boundary without a sort, a digit at a time
 * from the top: the key's 32 bits, then the id's, CUT_DIGIT_BITS bits per round. A round sums (a
 * count, or the weights) what lies before each of the digit's CUT_STARTS bucket starts; the digit is
 * the number of starts before which the sum stays under the want. At V = 128256, 8 + 5 rounds, each a
 * chunked sum over [S, V, 15]: no loop (a stablehlo.while waits on the host for its condition, 2.6-2.9
 * ms for a 32-step bisection on the H100, docs/performance.md) and small enough to write out. */
enum { CUT_DIGIT_BITS = 4, CUT_STARTS = (1 << CUT_DIGIT_BITS) - 1 };

typedef struct {
  const mx_pick_t *p;
  int64_t S, n;      /* slots; chunks of ARGMAX_CHUNK tokens */
  mx_hval_t key, id; /* [S, n, C] i32: the order key (the padding's that of -inf) and the token id */
  int id_bits;       /* the ids' bits, a multiple of CUT_DIGIT_BITS */
} cut_rows_t;

/* v [S, n, C, ...] summed over the chunk, then over the chunks: [S, ...]. */
static mx_hval_t row_sum(mx_hlo_t *h, mx_hval_t v) {
  int64_t within = 2, chunks = 1;
  return mx_hlo_reduce(h, mx_hlo_reduce(h, v, MX_REDUCE_SUM, 1, &within), MX_REDUCE_SUM, 1, &chunks);
}

/* One digit of a boundary: lo [S] i32 is where the bucket of the digits found so far starts (the key's
 * when t is NULL, else the id's within key *t); returns lo + digit << shift. The sums before the bucket's
 * starts grow with the digit, so the digit is how many of them stay below want. i32 arithmetic wraps:
 * the key's buckets start at INT32_MIN and every start lies inside the range. */
static mx_hval_t next_digit(const cut_rows_t *r, mx_hval_t val, mx_hval_t want, mx_hval_t lo, int shift, const mx_hval_t *t) {
  mx_hlo_t *h = r->p->h;
  int64_t D = CUT_STARTS, d4[4] = {r->S, r->n, ARGMAX_CHUNK, D}, sd[2] = {r->S, D};
  int64_t k0[1] = {0}, k1[1] = {1}, k03[2] = {0, 3}, k012[3] = {0, 1, 2}, last = 1;
  int32_t step[CUT_STARTS];
  for (int d = 0; d < D; d++) step[d] = (int32_t)((uint32_t)(d + 1) << shift);
  mx_hval_t starts = mx_hlo_binary(h, "add", mx_hlo_broadcast(h, lo, 2, sd, k0), mx_hlo_broadcast(h, mx_hlo_const_i32(h, step, D), 2, sd, k1));
  mx_hval_t s4 = mx_hlo_broadcast(h, starts, 4, d4, k03), key4 = mx_hlo_broadcast(h, r->key, 4, d4, k012), before;
  if (!t) {
    before = mx_hlo_compare(h, "LT", key4, s4);
  } else {
    mx_hval_t t4 = mx_hlo_broadcast(h, *t, 4, d4, k0), id4 = mx_hlo_broadcast(h, r->id, 4, d4, k012);
    before = mx_hlo_binary(h, "or", mx_hlo_compare(h, "LT", key4, t4),
                           mx_hlo_binary(h, "and", mx_hlo_compare(h, "EQ", key4, t4), mx_hlo_compare(h, "LT", id4, s4)));
  }
  mx_hval_t v4 = mx_hlo_broadcast(h, val, 4, d4, k012);
  mx_hval_t below = row_sum(h, mx_hlo_select(h, before, v4, mx_hlo_splat(h, v4, 0.0))); /* [S, D] */
  mx_hval_t one = mx_htype(MX_F32, 2, sd);
  mx_hval_t under = mx_hlo_select(h, mx_hlo_compare(h, "LT", below, mx_hlo_broadcast(h, want, 2, sd, k0)), mx_hlo_splat(h, one, 1.0),
                                  mx_hlo_splat(h, one, 0.0));
  mx_hval_t digit = mx_hlo_convert(h, mx_hlo_reduce(h, under, MX_REDUCE_SUM, 1, &last), MX_I32); /* f32: exact, 0..15 */
  return mx_hlo_binary(h, "add", lo, mx_hlo_binary(h, "multiply", digit, mx_hlo_splat(h, lo, (int32_t)(1u << shift))));
}

/* Where the prefix whose sum of val first reaches want [S] ends: (t, j) [S] i32 each. A want above the
 * whole row's sum (+inf: the cut is off) ends it after the last token. */
static void boundary(const cut_rows_t *r, mx_hval_t val, mx_hval_t want, mx_hval_t *t, mx_hval_t *j) {
  mx_hval_t s1 = mx_htype(MX_I32, 1, &r->S);
  mx_hval_t at = mx_hlo_splat(r->p->h, s1, INT32_MIN);
  for (int shift = 32 - CUT_DIGIT_BITS; shift >= 0; shift -= CUT_DIGIT_BITS) at = next_digit(r, val, want, at, shift, NULL);
  *t = at;
  at = mx_hlo_splat(r->p->h, s1, 0);
  for (int shift = r->id_bits - CUT_DIGIT_BITS; shift >= 0; shift -= CUT_DIGIT_BITS) at = next_digit(r, val, want, at, shift, t);
  *j = at;
}

/* The tokens up to the boundary (t, j): [S, n, C] i1. */
static mx_hval_t in_prefix(const cut_rows_t *r, mx_hval_t t, mx_hval_t j) {
  mx_hlo_t *h = r->p->h;
  int64_t k0[1] = {0};
  mx_hval_t t3 = mx_hlo_broadcast(h, t, 3, r->key.dims, k0), j3 = mx_hlo_broadcast(h, j, 3, r->key.dims, k0);
  return mx_hlo_binary(h, "or", mx_hlo_compare(h, "LT", r->key, t3),
                       mx_hlo_binary(h, "and", mx_hlo_compare(h, "EQ", r->key, t3), mx_hlo_compare(h, "LE", r->id, j3)));
}

/* want where on, else +inf (off: every token): [S] f32. */
static mx_hval_t want_or_all(mx_hlo_t *h, mx_hval_t on, mx_hval_t want) {
  return mx_hlo_select(h, on, want, mx_hlo_splat(h, want, INFINITY));
}

mx_hval_t mx_pick_candidates(const mx_pick_t *p, mx_hval_t logits, mx_hval_t temperature, const mx_pick_cuts_t *cuts) {
  mx_hlo_t *h = p->h;
  int64_t S = logits.dims[0], V = logits.dims[1], C = ARGMAX_CHUNK, n = (V + C - 1) / C, pad = n * C - V;
  int64_t k0[1] = {0}, cd[3] = {S, n, C}, within = 2, chunks = 1;
  /* z = logits / temperature, as the host divides (a slot at temperature 0 keeps every token: its z
   * is taken at 1 so that nothing below turns NaN), with -0 as +0 */
  mx_hval_t sf = mx_htype(MX_F32, 1, &S);
  mx_hval_t warm = mx_hlo_compare(h, "GT", temperature, mx_hlo_splat(h, sf, 0.0));
  mx_hval_t tz = mx_hlo_select(h, warm, temperature, mx_hlo_splat(h, sf, 1.0));
  mx_hval_t z = mx_hlo_binary(h, "divide", logits, mx_hlo_broadcast(h, tz, 2, logits.dims, k0));
  z = mx_hlo_select(h, mx_hlo_compare(h, "EQ", z, mx_hlo_splat(h, z, 0.0)), mx_hlo_splat(h, z, 0.0), z);
  if (pad) {
    mx_hval_t parts[2] = {z, mx_hlo_splat(h, t2(MX_F32, S, pad), -INFINITY)};
    z = mx_hlo_concat(h, 2, parts, 1);
  }
  z = mx_hlo_reshape(h, z, 3, cd);
  mx_hval_t top = mx_hlo_reduce(h, mx_hlo_reduce(h, z, MX_REDUCE_MAX, 1, &within), MX_REDUCE_MAX, 1, &chunks); /* [S] */
  /* The weights and the keys are read by every round: behind barriers they are computed once, in
   * dispatches of their own. Fused into a round's reduction, which then also stored them, IREE 3.13's
   * CUDA code generation failed ("failed to distribute", a reduction_501x256 with a second result). */
  mx_hval_t w = mx_hlo_barrier(h, mx_hlo_unary(h, "exponential", mx_hlo_binary(h, "subtract", z, mx_hlo_broadcast(h, top, 3, cd, k0))));
  /* rank_key: the bits of a negative z as they are, of the others inverted, as unsigned; then the
   * sign bit flipped, so that signed i32 order is that order */
  mx_hval_t bits = mx_hlo_bitcast(h, z, MX_I32), i3 = mx_htype(MX_I32, 3, cd);
  mx_hval_t neg = mx_hlo_compare(h, "LT", bits, mx_hlo_splat(h, i3, 0));
  cut_rows_t r = {.p = p, .S = S, .n = n};
  r.key = mx_hlo_barrier(h, mx_hlo_select(h, neg, mx_hlo_binary(h, "xor", bits, mx_hlo_splat(h, i3, INT32_MIN)),
                                          mx_hlo_binary(h, "xor", bits, mx_hlo_splat(h, i3, -1))));
  r.id = mx_hlo_binary(h, "add", mx_hlo_binary(h, "multiply", iota_of(p, MX_I32, 3, cd, 1), mx_hlo_splat(h, i3, C)), iota_of(p, MX_I32, 3, cd, 2));
  while ((int64_t)1 << r.id_bits < n * C) r.id_bits += CUT_DIGIT_BITS;
  /* top-k: the first k tokens (a count, exact in f32 below 2^24) */
  mx_hval_t k = cuts->top_k, si = mx_htype(MX_I32, 1, &S), tk, jk, tp, jp;
  mx_hval_t k_on = mx_hlo_binary(h, "and", mx_hlo_compare(h, "GT", k, mx_hlo_splat(h, si, 0)), mx_hlo_compare(h, "LT", k, mx_hlo_splat(h, si, V)));
  boundary(&r, mx_hlo_splat(h, w, 1.0), want_or_all(h, k_on, mx_hlo_convert(h, k, MX_F32)), &tk, &jk);
  mx_hval_t keep = in_prefix(&r, tk, jk);
  /* top-p: of the top-k's weight */
  mx_hval_t kept = row_sum(h, mx_hlo_select(h, keep, w, mx_hlo_splat(h, w, 0.0)));
  mx_hval_t p_on = mx_hlo_compare(h, "LT", cuts->top_p, mx_hlo_splat(h, sf, 1.0));
  boundary(&r, w, want_or_all(h, p_on, mx_hlo_binary(h, "multiply", cuts->top_p, kept)), &tp, &jp);
  keep = mx_hlo_binary(h, "and", keep, in_prefix(&r, tp, jp));
  /* min-p: weight >= min_p (the largest weighs 1) */
  mx_hval_t floor = mx_hlo_broadcast(h, cuts->min_p, 3, cd, k0);
  keep = mx_hlo_binary(h, "and", keep, mx_hlo_binary(h, "or", mx_hlo_compare(h, "GE", w, floor), mx_hlo_compare(h, "LE", floor, mx_hlo_splat(h, w, 0.0))));
  int64_t flat[2] = {S, n * C}, from[2] = {0, 0}, to[2] = {S, V};
  return mx_hlo_slice(h, mx_hlo_reshape(h, keep, 2, flat), from, to);
}

mx_hval_t mx_pick_draw(const mx_pick_t *p, mx_hval_t logits, mx_hval_t temperature, mx_hval_t key, mx_hval_t pos,
                       const mx_pick_cuts_t *cuts) {
  mx_hval_t scores = mx_pick_gumbel_scores(p, logits, temperature, key, pos);
  if (cuts)
    scores = mx_hlo_select(p->h, mx_pick_candidates(p, logits, temperature, cuts), scores, mx_hlo_splat(p->h, scores, -INFINITY));
  return mx_pick_argmax(p, scores);
}
