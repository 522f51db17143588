/* Checked cache files (base/cachefile.c): a sealed file verifies; every kind of damage, a missing or
 * foreign sidecar is logged with the file and the reason, deleted and reported untrusted; temporary
 * files are swept by their writer's pid; hashing stops on an interrupt and keeps up with the page
 * cache (at least 1 GB/s: it runs over 0.5-5 GB at every start). */
#include "testutil.h"

/* The speed bound is the optimised build's: a sanitizer instruments every load of the hash loop. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPEED_CHECKED 0
#else
#define SPEED_CHECKED 1
#endif

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cachefile.h"
#include "base/clock.h"
#include "base/interrupt.h"
#include "fileutil.h"

typedef struct {
  char dir[64], path[128];
  mx_test_log_t log;
} fx_t;

static int setup(void **state) {
  fx_t *fx = calloc(1, sizeof *fx);
  if (mx_test_tmpdir(fx->dir, sizeof fx->dir, "cachefile") != 0) return -1;
  snprintf(fx->path, sizeof fx->path, "%s/module.vmfb", fx->dir);
  mx_test_log_start(&fx->log);
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fx_t *fx = *state;
  mx_test_log_stop(&fx->log);
  mx_interrupt_clear();
  int rc = mx_test_rm_rf(fx->dir);
  free(fx);
  return rc;
}

/* Seals "hello, cache" as fx->path. */
static void seal(fx_t *fx) {
  char tmp[160];
  mx_cache_tmp_path(fx->path, tmp, sizeof tmp);
  mx_test_write_text(tmp, "hello, cache");
  assert_ok(mx_cache_file_seal(tmp, fx->path));
  assert_false(mx_test_exists(tmp, ""));
}

static void a_sealed_file_verifies(void **state) {
  fx_t *fx = *state;
  seal(fx);
  char sum[160], line[256];
  snprintf(sum, sizeof sum, "%s.sum", fx->path);
  FILE *f = fopen(sum, "r");
  assert_non_null(f);
  assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  assert_non_null(strstr(line, "mlxcel-cache-sum-v1 size=12 hash64="));
  bool trusted = false;
  assert_ok(mx_cache_file_verify(fx->path, &trusted));
  assert_true(trusted);
  assert_string_equal(fx->log.text, "");
  assert_listing(fx->dir, "module.vmfb module.vmfb.sum"); /* no temporary file of the sidecar either */
}

/* Each damage and the reason the log line must give. */
static void expect_rejected(fx_t *fx, const char *reason) {
  fx->log.text[0] = '\0';
  bool trusted = true;
  assert_ok(mx_cache_file_verify(fx->path, &trusted));
  assert_false(trusted);
  char want[256];
  snprintf(want, sizeof want, "mlxcel: cache: %s failed verification (", fx->path);
  if (!strstr(fx->log.text, want) || !strstr(fx->log.text, reason) ||
      !strstr(fx->log.text, "; deleting it and rebuilding it")) {
    fprintf(stderr, "expected a line with '%s', got: %s", reason, fx->log.text);
    fail();
  }
  assert_false(mx_test_exists(fx->path, "") || mx_test_exists(fx->path, ".sum")); /* both gone */
}

static void damage_and_bad_sidecars_are_rejected(void **state) {
  fx_t *fx = *state;
  char sum[160];
  snprintf(sum, sizeof sum, "%s.sum", fx->path);
  seal(fx);
  mx_test_write_text(fx->path, "hello, cachf"); /* one byte */
  expect_rejected(fx, "its contents changed");
  seal(fx);
  mx_test_write_text(fx->path, "hello");
  expect_rejected(fx, "it has 5 bytes, its checksum says 12");
  seal(fx);
  mx_test_zero(fx->path, 12); /* zeroed, same size */
  expect_rejected(fx, "its contents changed");
  seal(fx);
  unlink(sum);
  expect_rejected(fx, "no checksum file");
  seal(fx);
  mx_test_write_text(sum, "mlxcel-cache-sum-v0 size=12 hash64=0\n");
  expect_rejected(fx, "its checksum file is not a mlxcel-cache-sum-v1 line");
  seal(fx);
  mx_test_write_text(sum, "");
  expect_rejected(fx, "its checksum file is not a mlxcel-cache-sum-v1 line");
}

static void a_missing_file_is_rebuilt_silently(void **state) {
  fx_t *fx = *state;
  bool trusted = true;
  assert_ok(mx_cache_file_verify(fx->path, &trusted));
  assert_false(trusted);
  assert_string_equal(fx->log.text, "");
}

static void a_failed_seal_leaves_nothing_to_trust(void **state) {
  fx_t *fx = *state;
  char tmp[160];
  snprintf(tmp, sizeof tmp, "%s/never-written.tmp1", fx->dir);
  assert_status(mx_cache_file_seal(tmp, fx->path), MX_STAGE_IO, "cannot open");
  assert_false(mx_test_exists(fx->path, "") || mx_test_exists(fx->path, ".sum"));
  char sum_tmp[192], sum[160];
  snprintf(sum, sizeof sum, "%s.sum", fx->path);
  mx_cache_tmp_path(sum, sum_tmp, sizeof sum_tmp);
  assert_false(mx_test_exists(sum_tmp, ""));
}

static void temporary_names_carry_the_writer_pid(void **state) {
  (void)state;
  assert_int_equal(mx_cache_tmp_pid("abc.vmfb.tmp123"), 123);
  assert_int_equal(mx_cache_tmp_pid("abc.vmfb.tmp123.mlir"), 123);
  assert_int_equal(mx_cache_tmp_pid("abc.vmfb.tmp123.log"), 123);
  assert_int_equal(mx_cache_tmp_pid("abc-f32.safetensors.sum.tmp77"), 77);
  assert_int_equal(mx_cache_tmp_pid("abc.vmfb"), 0);
  assert_int_equal(mx_cache_tmp_pid("abc.vmfb.sum"), 0);
  assert_int_equal(mx_cache_tmp_pid("abc.tmp"), 0);
  assert_int_equal(mx_cache_tmp_pid("abc.tmp12x"), 0);
  assert_int_equal(mx_cache_tmp_pid("abc.tmp12.txt"), 0);
  assert_int_equal(mx_cache_tmp_pid(".tmp9.tmp10"), 10);
  char mine[64];
  mx_cache_tmp_path("x.vmfb", mine, sizeof mine);
  assert_int_equal(mx_cache_tmp_pid(mine), getpid());
}

static void the_sweep_removes_only_dead_writers_files(void **state) {
  fx_t *fx = *state;
  pid_t dead = mx_test_dead_pid();
  char p[192];
  const char *dead_names[] = {"a.vmfb.tmp%d", "a.vmfb.tmp%d.mlir", "w-f32.safetensors.tmp%d"};
  for (int i = 0; i < 3; i++) {
    char name[64];
    snprintf(name, sizeof name, dead_names[i], (int)dead);
    mx_test_write_in(fx->dir, name, "litter");
  }
  snprintf(p, sizeof p, "%s/b.vmfb.tmp%d", fx->dir, (int)getpid());
  mx_test_write_text(p, "mine, in progress");
  snprintf(p, sizeof p, "%s/keep.vmfb", fx->dir);
  mx_test_write_text(p, "a cache file");
  snprintf(p, sizeof p, "%s/dir.tmp%d", fx->dir, (int)dead);
  assert_int_equal(mkdir(p, 0755), 0); /* not a file: left alone */
  assert_int_equal(mx_cache_sweep(fx->dir), 3);
  assert_int_equal(mx_cache_sweep(fx->dir), 0);
  snprintf(p, sizeof p, "%s/b.vmfb.tmp%d", fx->dir, (int)getpid());
  assert_true(mx_test_exists(p, ""));
  snprintf(p, sizeof p, "%s/keep.vmfb", fx->dir);
  assert_true(mx_test_exists(p, ""));
  assert_non_null(strstr(fx->log.text, "which is gone"));
  assert_int_equal(mx_cache_sweep("/nonexistent/dir"), 0);
}

static void an_interrupt_stops_the_check_and_keeps_the_file(void **state) {
  fx_t *fx = *state;
  seal(fx);
  mx_interrupt_raise(SIGTERM);
  bool trusted = true;
  assert_status(mx_cache_file_verify(fx->path, &trusted), MX_STAGE_BUSY, "SIGTERM while checking a cache file");
  assert_false(trusted);
  assert_true(mx_test_exists(fx->path, "") && mx_test_exists(fx->path, ".sum")); /* it may be fine: not deleted */
}

/* The figure in docs/engine.md ("The caches") comes from a 540 MB file; this one is smaller. */
static void hashing_a_file_from_the_page_cache_beats_a_gigabyte_per_second(void **state) {
  fx_t *fx = *state;
  size_t chunk = 1 << 20, n = 64;
  char *b = malloc(chunk);
  for (size_t i = 0; i < chunk; i++) b[i] = (char)(i * 131 + (i >> 9));
  FILE *f = fopen(fx->path, "wb");
  assert_non_null(f);
  for (size_t i = 0; i < n; i++) assert_int_equal(fwrite(b, 1, chunk, f), chunk);
  fclose(f);
  free(b);
  uint64_t size, hash, first = 0;
  double best = 1e9;
  for (int r = 0; r < 4; r++) { /* the first read may come from the disk */
    double t0 = mx_now_ms();
    assert_ok(mx_cache_file_hash(fx->path, &size, &hash));
    double ms = mx_now_ms() - t0;
    if (r > 0 && ms < best) best = ms;
    if (r == 0) first = hash;
    assert_true(size == n * chunk && hash == first);
  }
  double gbps = (double)(n * chunk) / 1e9 / (best / 1000);
  printf("mx_cache_file_hash from the page cache: %.1f GB/s (64 MiB, best of 3)\n", gbps);
  if (SPEED_CHECKED) assert_true(gbps >= 1.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(a_sealed_file_verifies, setup, teardown),
      cmocka_unit_test_setup_teardown(damage_and_bad_sidecars_are_rejected, setup, teardown),
      cmocka_unit_test_setup_teardown(a_missing_file_is_rebuilt_silently, setup, teardown),
      cmocka_unit_test_setup_teardown(a_failed_seal_leaves_nothing_to_trust, setup, teardown),
      cmocka_unit_test(temporary_names_carry_the_writer_pid),
      cmocka_unit_test_setup_teardown(the_sweep_removes_only_dead_writers_files, setup, teardown),
      cmocka_unit_test_setup_teardown(an_interrupt_stops_the_check_and_keeps_the_file, setup, teardown),
      cmocka_unit_test_setup_teardown(hashing_a_file_from_the_page_cache_beats_a_gigabyte_per_second, setup, teardown),
  };
  return cmocka_run_group_tests_name("base/cachefile", tests, NULL, NULL);
}
