/* The cache checksum's hash (base/hash64.c): any split of the bytes hashes alike, every one-bit change
 * and every truncation changes it, the value is pinned (a change needs a new MX_CACHE_SUM_VERSION,
 * base/cachefile.h), and it runs well above the 1 GB/s the caches need. */
#include "testutil.h"

/* The speed bound is the optimised build's: a sanitizer instruments every load of the hash loop. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPEED_CHECKED 0
#else
#define SPEED_CHECKED 1
#endif

#include "base/cachefile.h"
#include "base/clock.h"
#include "base/hash64.h"

static void fill(uint8_t *b, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    b[i] = (uint8_t)(seed >> 56);
  }
}

static void any_split_of_the_bytes_hashes_alike(void **state) {
  (void)state;
  uint8_t b[300];
  fill(b, sizeof b, 1);
  for (size_t len = 0; len <= sizeof b; len += 7)
    for (size_t cut = 0; cut <= len; cut++) {
      size_t cut2 = cut + (len - cut) / 3;
      mx_hash64_t h;
      mx_hash64_init(&h, 5);
      mx_hash64_update(&h, b, cut);
      mx_hash64_update(&h, b + cut, cut2 - cut);
      mx_hash64_update(&h, b + cut2, len - cut2);
      assert_true(mx_hash64_final(&h) == mx_hash64(b, len, 5));
    }
}

static void every_flipped_bit_changes_the_hash(void **state) {
  (void)state;
  uint8_t b[257];
  fill(b, sizeof b, 2);
  uint64_t clean = mx_hash64(b, sizeof b, 0);
  for (size_t i = 0; i < sizeof b; i++)
    for (int bit = 0; bit < 8; bit++) {
      b[i] ^= (uint8_t)(1u << bit);
      assert_true(mx_hash64(b, sizeof b, 0) != clean);
      b[i] ^= (uint8_t)(1u << bit);
    }
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Truncations, and zeroed files of every length (a zeroed cache file keeps its size), all differ. */
static void every_prefix_and_every_zero_run_differs(void **state) {
  (void)state;
  enum { N = 512 };
  static uint8_t b[N], zeros[N];
  static uint64_t h[2 * N + 1];
  fill(b, N, 3);
  for (int i = 0; i <= N; i++) h[i] = mx_hash64(b, (size_t)i, 0);
  for (int i = 1; i <= N; i++) h[N + i] = mx_hash64(zeros, (size_t)i, 0); /* (the empty one is above) */
  qsort(h, 2 * N + 1, sizeof h[0], cmp_u64);
  for (int i = 1; i < 2 * N + 1; i++) assert_true(h[i] != h[i - 1]);
}

static void the_value_is_pinned(void **state) {
  (void)state;
  /* Cached files' sidecars hold these hashes: if this changes, bump MX_CACHE_SUM_VERSION so that old
   * sidecars are rejected rather than mistaken for damage. */
  assert_string_equal(MX_CACHE_SUM_VERSION, "mlxcel-cache-sum-v1");
  char got[17];
  snprintf(got, sizeof got, "%016llx", (unsigned long long)mx_hash64("mlxcel cache checksum", 21, 0));
  assert_string_equal(got, "46763b29c83d6ad2");
  assert_true(mx_hash64("a", 1, 0) != mx_hash64("a", 1, 1));
}

/* In memory; the file-reading speed (from the page cache) is test_cachefile.c's. */
static void it_runs_well_above_a_gigabyte_per_second(void **state) {
  (void)state;
  size_t n = 64u << 20;
  uint8_t *b = malloc(n);
  assert_non_null(b);
  fill(b, n, 4);
  double best = 1e9;
  volatile uint64_t sink = 0;
  for (int r = 0; r < 3; r++) {
    double t0 = mx_now_ms();
    sink ^= mx_hash64(b, n, 0);
    double ms = mx_now_ms() - t0;
    if (ms < best) best = ms;
  }
  double gbps = (double)n / 1e9 / (best / 1000);
  printf("hash64 in memory: %.1f GB/s (64 MiB, best of 3)\n", gbps);
  if (SPEED_CHECKED) assert_true(gbps >= 1.0);
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(any_split_of_the_bytes_hashes_alike),
      cmocka_unit_test(every_flipped_bit_changes_the_hash),
      cmocka_unit_test(every_prefix_and_every_zero_run_differs),
      cmocka_unit_test(the_value_is_pinned),
      cmocka_unit_test(it_runs_well_above_a_gigabyte_per_second),
  };
  return cmocka_run_group_tests_name("base/hash64", tests, NULL, NULL);
}
