#include "base/hash64.h"

#include <string.h>

/* Odd 64-bit constants (multiplication by an odd number is a bijection mod 2^64) with well-spread
 * bits: the golden ratio's and two from splitmix64's finaliser. */
#define K0 0x9e3779b97f4a7c15ULL
#define K1 0xbf58476d1ce4e5b9ULL
#define K2 0x94d049bb133111ebULL

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t load64(const uint8_t *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w); /* one unaligned load on x86-64 and arm64 */
  return w;
}

/* One word into one lane: bijective in the word for a fixed lane and in the lane for a fixed word. */
static inline uint64_t mix(uint64_t lane, uint64_t w) { return rotl(lane ^ (w * K1), 29) * K0; }

/* splitmix64's finaliser: every input bit reaches every output bit. */
static inline uint64_t avalanche(uint64_t x) {
  x = (x ^ (x >> 30)) * K1;
  x = (x ^ (x >> 27)) * K2;
  return x ^ (x >> 31);
}

static void blocks(uint64_t lane[4], const uint8_t *p, size_t n_blocks) {
  uint64_t a = lane[0], b = lane[1], c = lane[2], d = lane[3];
  for (size_t i = 0; i < n_blocks; i++, p += 32) {
    a = mix(a, load64(p));
    b = mix(b, load64(p + 8));
    c = mix(c, load64(p + 16));
    d = mix(d, load64(p + 24));
  }
  lane[0] = a, lane[1] = b, lane[2] = c, lane[3] = d;
}

void mx_hash64_init(mx_hash64_t *h, uint64_t seed) {
  memset(h, 0, sizeof *h);
  for (int i = 0; i < 4; i++) h->lane[i] = avalanche(seed + (uint64_t)(i + 1) * K0);
}

void mx_hash64_update(mx_hash64_t *h, const void *data, size_t n) {
  const uint8_t *p = data;
  if (n == 0) return; /* data may be NULL then */
  h->total += n;
  if (h->buffered) { /* finish the partial block first */
    size_t take = 32 - h->buffered < n ? 32 - h->buffered : n;
    memcpy(h->buf + h->buffered, p, take);
    h->buffered += take;
    p += take;
    n -= take;
    if (h->buffered < 32) return;
    blocks(h->lane, h->buf, 1);
    h->buffered = 0;
  }
  blocks(h->lane, p, n / 32);
  p += n / 32 * 32;
  n %= 32;
  memcpy(h->buf, p, n);
  h->buffered = n;
}

uint64_t mx_hash64_final(const mx_hash64_t *h) {
  uint64_t lane[4] = {h->lane[0], h->lane[1], h->lane[2], h->lane[3]};
  /* The tail: whole words into the lanes in order, then the last bytes zero-padded into one word
   * (the length below tells "ab" from "ab\0"). */
  size_t i = 0;
  for (; i + 8 <= h->buffered; i += 8) lane[i / 8] = mix(lane[i / 8], load64(h->buf + i));
  if (i < h->buffered) {
    uint8_t last[8] = {0};
    memcpy(last, h->buf + i, h->buffered - i);
    lane[i / 8] = mix(lane[i / 8], load64(last));
  }
  uint64_t x = avalanche(h->total ^ K2);
  for (int k = 0; k < 4; k++) x = rotl(x ^ avalanche(lane[k]), 23) * K0;
  return avalanche(x);
}

uint64_t mx_hash64(const void *data, size_t n, uint64_t seed) {
  mx_hash64_t h;
  mx_hash64_init(&h, seed);
  mx_hash64_update(&h, data, n);
  return mx_hash64_final(&h);
}
