/* A fast 64-bit hash for the cache checksums (base/cachefile.h): it runs over every cached VMFB and
 * prepared weights file (0.5-5 GB) at every start, so it has to keep up with the page cache.
 *
 * Not cryptographic: whoever can rewrite a cache file can rewrite its checksum too. What it catches is
 * accidental damage — a zeroed, truncated, partly written or bit-flipped file. Word at a time: four
 * independent lanes each mix one 64-bit word per step (multiply, xor, rotate, multiply), so the
 * multiplies of neighbouring words overlap in the pipeline. Each step is a bijection of the lane for a
 * fixed word and of the word for a fixed lane, and the final combination is a bijection of each lane
 * for fixed others, so a change confined to one aligned 8-byte word (any one flipped byte) always
 * changes the hash; the length is mixed in, so a truncation does too. Words are read little-endian
 * as the machine stores them (memcpy): the hash of a file is the same on every x86-64 and arm64 host.
 * Speed: docs/engine.md ("The caches"). */
#ifndef MX_BASE_HASH64_H
#define MX_BASE_HASH64_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t lane[4];
  uint64_t total;    /* bytes hashed so far */
  uint8_t buf[32];   /* a partial 32-byte block between updates */
  size_t buffered;
} mx_hash64_t;

void mx_hash64_init(mx_hash64_t *h, uint64_t seed);
void mx_hash64_update(mx_hash64_t *h, const void *data, size_t n);
/* The hash of everything given so far; h is left as it was (more updates may follow). */
uint64_t mx_hash64_final(const mx_hash64_t *h);
/* One call: init, update, final. Equal to any split of the same bytes over several updates. */
uint64_t mx_hash64(const void *data, size_t n, uint64_t seed);

#endif
