/* Two small open-addressing hash maps for the tokenizer's hot paths: byte strings to ids, and
 * 64-bit keys (a pair of ids) to 64-bit values. Insert-only; sized once, grown by doubling. */
#ifndef MX_BASE_HASHMAP_H
#define MX_BASE_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  const char **keys; /* borrowed: the caller keeps the bytes alive */
  uint32_t *lens;
  int32_t *vals;
  size_t cap, count; /* cap is a power of two */
} mx_strmap_t;

bool mx_strmap_init(mx_strmap_t *m, size_t expected);
void mx_strmap_free(mx_strmap_t *m);
/* Inserts or keeps the existing value (first insert wins); false on allocation failure. */
bool mx_strmap_put(mx_strmap_t *m, const char *key, size_t len, int32_t val);
/* The value, or -1 when absent. */
int32_t mx_strmap_get(const mx_strmap_t *m, const char *key, size_t len);

typedef struct {
  uint64_t *keys, *vals;
  uint8_t *used;
  size_t cap, count;
} mx_u64map_t;

bool mx_u64map_init(mx_u64map_t *m, size_t expected);
void mx_u64map_free(mx_u64map_t *m);
bool mx_u64map_put(mx_u64map_t *m, uint64_t key, uint64_t val); /* first insert wins */
bool mx_u64map_get(const mx_u64map_t *m, uint64_t key, uint64_t *val);

#endif
