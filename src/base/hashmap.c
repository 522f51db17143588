#include "base/hashmap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_bytes(const char *p, size_t n) {
  uint64_t h = 1469598103934665603ULL; /* FNV-1a, then a final mix for the low bits we index by */
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)p[i]) * 1099511628211ULL;
  h ^= h >> 29;
  return h * 0xBF58476D1CE4E5B9ULL;
}

static uint64_t hash_u64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

static size_t pow2_at_least(size_t n) {
  size_t c = 16;
  while (c < n) c <<= 1;
  return c;
}

bool mx_strmap_init(mx_strmap_t *m, size_t expected) {
  memset(m, 0, sizeof *m);
  m->cap = pow2_at_least(expected * 2);
  m->keys = calloc(m->cap, sizeof *m->keys);
  m->lens = calloc(m->cap, sizeof *m->lens);
  m->vals = calloc(m->cap, sizeof *m->vals);
  if (!m->keys || !m->lens || !m->vals) {
    mx_strmap_free(m);
    return false;
  }
  return true;
}

void mx_strmap_free(mx_strmap_t *m) {
  free(m->keys);
  free(m->lens);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

static bool strmap_grow(mx_strmap_t *m) {
  mx_strmap_t bigger;
  if (!mx_strmap_init(&bigger, m->cap)) return false;
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) mx_strmap_put(&bigger, m->keys[i], m->lens[i], m->vals[i]);
  mx_strmap_free(m);
  *m = bigger;
  return true;
}

bool mx_strmap_put(mx_strmap_t *m, const char *key, size_t len, int32_t val) {
  if ((m->count + 1) * 2 > m->cap && !strmap_grow(m)) return false;
  size_t i = hash_bytes(key, len) & (m->cap - 1);
  while (m->keys[i]) {
    if (m->lens[i] == len && memcmp(m->keys[i], key, len) == 0) return true;
    i = (i + 1) & (m->cap - 1);
  }
  m->keys[i] = key ? key : "";
  m->lens[i] = (uint32_t)len;
  m->vals[i] = val;
  m->count++;
  return true;
}

int32_t mx_strmap_get(const mx_strmap_t *m, const char *key, size_t len) {
  if (!m->cap) return -1;
  size_t i = hash_bytes(key, len) & (m->cap - 1);
  while (m->keys[i]) {
    if (m->lens[i] == len && memcmp(m->keys[i], key, len) == 0) return m->vals[i];
    i = (i + 1) & (m->cap - 1);
  }
  return -1;
}

bool mx_u64map_init(mx_u64map_t *m, size_t expected) {
  memset(m, 0, sizeof *m);
  m->cap = pow2_at_least(expected * 2);
  m->keys = malloc(m->cap * sizeof *m->keys);
  m->vals = malloc(m->cap * sizeof *m->vals);
  m->used = calloc(m->cap, 1);
  if (!m->keys || !m->vals || !m->used) {
    mx_u64map_free(m);
    return false;
  }
  return true;
}

void mx_u64map_free(mx_u64map_t *m) {
  free(m->keys);
  free(m->vals);
  free(m->used);
  memset(m, 0, sizeof *m);
}

static bool u64map_grow(mx_u64map_t *m) {
  mx_u64map_t bigger;
  if (!mx_u64map_init(&bigger, m->cap)) return false;
  for (size_t i = 0; i < m->cap; i++)
    if (m->used[i]) mx_u64map_put(&bigger, m->keys[i], m->vals[i]);
  mx_u64map_free(m);
  *m = bigger;
  return true;
}

bool mx_u64map_put(mx_u64map_t *m, uint64_t key, uint64_t val) {
  if ((m->count + 1) * 2 > m->cap && !u64map_grow(m)) return false;
  size_t i = hash_u64(key) & (m->cap - 1);
  while (m->used[i]) {
    if (m->keys[i] == key) return true;
    i = (i + 1) & (m->cap - 1);
  }
  m->used[i] = 1;
  m->keys[i] = key;
  m->vals[i] = val;
  m->count++;
  return true;
}

bool mx_u64map_get(const mx_u64map_t *m, uint64_t key, uint64_t *val) {
  if (!m->cap) return false;
  size_t i = hash_u64(key) & (m->cap - 1);
  while (m->used[i]) {
    if (m->keys[i] == key) {
      *val = m->vals[i];
      return true;
    }
    i = (i + 1) & (m->cap - 1);
  }
  return false;
}
