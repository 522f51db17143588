/* The seeded draw that the device graph (hlo/llama.c, decode_<W>_steps) and the host sampler
 * (engine/sampler.c, plain-temperature picks) share, so that a seed picks the same tokens whichever
 * path a step takes (up to a last-bit difference between the device's log and the C library's).
 *
 * A Gumbel-max draw: the token is the argmax over ids of logit + T * g(id), with
 * g = -log(-log(u)) and u a uniform number made from a hash of (seed, position, id). The argmax of
 * logit / T + g is a draw from softmax(logit / T); multiplying by T > 0 does not move the argmax, and
 * T = 0 leaves the logits as they are: the greedy argmax, exactly. No state is carried from one
 * token to the next, so a device call can draw K tokens in a row and a host pick can follow it.
 *
 * The hash is murmur3's 32-bit finalizer (bijective, so two ids of one row never share a u):
 * row = fmix(pos ^ fmix(key)), u = ((fmix(id ^ row) >> 9) + 0.5) * 2^-23. 23 bits keep u inside
 * (0, 1) in f32 and every step exact (the sum and the product need no rounding), so the device and
 * the host start the logs from the same u. The noise is therefore quantized to 2^23 levels and
 * bounded by MX_GUMBEL_NOISE_MAX: a token's probability departs from the softmax's by an amount of
 * the order of 2^-23 of it. `pos` is the position of the token fed to the step that makes the pick
 * (the last one of the history). */
#ifndef MX_BASE_GUMBEL_H
#define MX_BASE_GUMBEL_H

#include <math.h>
#include <stdint.h>

#define MX_GUMBEL_MUL1 0x85EBCA6Bu
#define MX_GUMBEL_MUL2 0xC2B2AE35u
#define MX_GUMBEL_SHIFT1 16
#define MX_GUMBEL_SHIFT2 13
#define MX_GUMBEL_SHIFT3 16
/* u keeps the hash's top 32 - MX_GUMBEL_DROP bits. */
#define MX_GUMBEL_DROP 9

static inline uint32_t mx_gumbel_fmix(uint32_t x) {
  x ^= x >> MX_GUMBEL_SHIFT1;
  x *= MX_GUMBEL_MUL1;
  x ^= x >> MX_GUMBEL_SHIFT2;
  x *= MX_GUMBEL_MUL2;
  x ^= x >> MX_GUMBEL_SHIFT3;
  return x;
}

/* A request's 64-bit seed as the 32-bit key the device takes. */
static inline uint32_t mx_gumbel_key(uint64_t seed) { return (uint32_t)seed ^ (uint32_t)(seed >> 32); }

/* What every id of one pick's row is hashed with. */
static inline uint32_t mx_gumbel_row(uint32_t key, int32_t pos) { return mx_gumbel_fmix((uint32_t)pos ^ mx_gumbel_fmix(key)); }

/* u in (0, 1) as f32, each step exact. */
static inline float mx_gumbel_uniform_bits(uint32_t top) { return ((float)top + 0.5f) * 0x1p-23f; }

static inline float mx_gumbel_noise(uint32_t row, int32_t id) {
  float u = mx_gumbel_uniform_bits(mx_gumbel_fmix((uint32_t)id ^ row) >> MX_GUMBEL_DROP);
  return -logf(-logf(u));
}

/* The largest noise any id can get (u at its top level): a bound that lets the host skip the ids
 * whose logit cannot win. */
static inline float mx_gumbel_noise_max(void) {
  return -logf(-logf(mx_gumbel_uniform_bits((1u << (32 - MX_GUMBEL_DROP)) - 1)));
}

#endif
