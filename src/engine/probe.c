#include "engine/probe.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/log.h"
#include "compiler/compile.h"
#include "device/launch.h"
#include "hlo/smoke.h"

/* xorshift64*: a fixed generator so every run sees the same inputs. Values in [-1, 1). */
static void fill_random(float *x, size_t n, uint64_t seed) {
  uint64_t s = seed ? seed : 1;
  for (size_t i = 0; i < n; i++) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    uint64_t r = s * 0x2545F4914F6CDD1DULL;
    x[i] = (float)((double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0);
  }
}

/* max|y - ref| / max|ref|: relative to the result's scale, so entries near zero (common in a
 * matmul of signed inputs) do not turn rounding noise into huge per-element ratios. */
static double rel_err(const float *y, const double *ref, size_t n) {
  double num = 0, den = 0;
  for (size_t i = 0; i < n; i++) {
    double e = fabs((double)y[i] - ref[i]);
    if (!(e <= num)) num = e; /* also catches NaN */
    if (fabs(ref[i]) > den) den = fabs(ref[i]);
  }
  return den > 0 ? num / den : num;
}

/* Runs one function `repeat` times and checks every output against ref. */
static mx_status_t run_case(mx_worker_t *w, mx_smoke_case_t *c, const char *fn, mx_tensor_t *in, int n_in,
                            const double *ref, size_t n_out, long repeat) {
  for (long r = 0; r < repeat; r++) {
    mx_tensor_t out;
    int n = 0;
    double t0 = mx_now_ms();
    MX_RETURN_IF_ERROR(mx_worker_call(w, c->module, fn, in, n_in, 0, &out, 1, &n));
    c->call_ms[r] = mx_now_ms() - t0;
    mx_status_t st = NULL;
    if (n != 1 || out.dtype != MX_F32 || (size_t)mx_tensor_count(&out) != n_out)
      st = mx_status_make(MX_STAGE_CHECK, "this is a compiler or runtime bug; keep the work dir with --keep",
                          "%s returned %d outputs of an unexpected type or size", fn, n);
    else {
      double e = rel_err(out.data, ref, n_out);
      if (!(e <= c->max_rel_err)) c->max_rel_err = e;
    }
    if (n == 1) mx_tensor_release(&out);
    if (st) return st;
  }
  return NULL;
}

static mx_status_t compile_case(const char *compiler, const mx_target_t *t, const char *dir, mx_smoke_case_t *c) {
  snprintf(c->vmfb, sizeof c->vmfb, "%s/%s.vmfb", dir, c->name);
  char label[96];
  mx_target_label(t, label, sizeof label);
  mx_log(MX_LOG_INFO, "mlxcel smoke: compiling %s for %s ...", c->name, label);
  return mx_compile_mlir(compiler, t, c->mlir, c->vmfb, &c->compile_ms);
}

/* Paths are built from `dir` alone, so prebuilt VMFBs elsewhere are never touched. */
void mx_smoke_remove_work_dir(const char *dir, mx_smoke_case_t *cases, int n) {
  static const char *const suffixes[] = {".vmfb", ".vmfb.mlir", ".vmfb.log"};
  char path[MX_PATH_MAX + 32];
  for (int i = 0; i < n; i++)
    for (size_t k = 0; k < 3; k++) {
      snprintf(path, sizeof path, "%s/%s%s", dir, cases[i].name, suffixes[k]);
      unlink(path);
    }
  rmdir(dir);
}

/* Puts add.vmfb and matmul.vmfb in place: compiled into `dir` now, or taken from --prebuilt. */
static mx_status_t prepare_vmfbs(const mx_smoke_options_t *a, const mx_target_t *target, mx_smoke_case_t cases[2],
                                 const char *dir) {
  if (a->prebuilt) {
    for (int i = 0; i < 2; i++) {
      snprintf(cases[i].vmfb, sizeof cases[i].vmfb, "%s/%s.vmfb", a->prebuilt, cases[i].name);
      if (access(cases[i].vmfb, R_OK) != 0)
        return mx_status_make(MX_STAGE_IO, "make them with `mlxcel smoke --compile-only DIR` for this device",
                              "prebuilt VMFB %s is missing", cases[i].vmfb);
    }
    return NULL;
  }
  char compiler[MX_PATH_MAX];
  MX_RETURN_IF_ERROR(mx_toolchain_compiler(compiler, sizeof compiler));
  MX_RETURN_IF_ERROR(mx_hlo_smoke_add(&cases[0].mlir));
  MX_RETURN_IF_ERROR(mx_hlo_smoke_matmul(&cases[1].mlir));
  for (int i = 0; i < 2; i++) MX_RETURN_IF_ERROR(compile_case(compiler, target, dir, &cases[i]));
  return NULL;
}


/* Everything that needs the device: open, load, the checked calls, the bridge round trips. */
static mx_status_t run_on_device(const mx_smoke_options_t *a, const mx_target_t *target, mx_smoke_case_t cases[2],
                                 const char *dir, mx_smoke_run_t *run) {
  mx_worker_t *w;
  double t0 = mx_now_ms();
  MX_RETURN_IF_ERROR(mx_worker_launch(0, &w));
  run->spawn_ms = mx_now_ms() - t0;
  snprintf(run->runtime, sizeof run->runtime, "%s", mx_worker_runtime_version(w));
  /* The device first: a missing driver or device should fail in a second, not after compiling. */
  t0 = mx_now_ms();
  mx_status_t st = mx_worker_open(w, a->device, &run->dev);
  run->open_ms = mx_now_ms() - t0;
  if (!st && !a->prebuilt) st = mx_target_check_device(target, run->dev.uri, run->dev.arch);
  if (!st) st = prepare_vmfbs(a, target, cases, dir);
  for (int i = 0; !st && i < 2; i++) {
    t0 = mx_now_ms();
    st = mx_worker_load(w, cases[i].vmfb, NULL, 0, &cases[i].module);
    cases[i].load_ms = mx_now_ms() - t0;
  }

  /* Inputs and double-precision references. */
  enum { AR = MX_SMOKE_ADD_ROWS, AC = MX_SMOKE_ADD_COLS, M = MX_SMOKE_MM_M, K = MX_SMOKE_MM_K, N = MX_SMOKE_MM_N };
  float x[AR * AC], y[AR * AC];
  double add_ref[AR * AC];
  float *ma = malloc(sizeof(float) * M * K), *mb = malloc(sizeof(float) * K * N);
  double *mm_ref = calloc((size_t)M * N, sizeof(double));
  if (!st && (!ma || !mb || !mm_ref)) st = mx_status_oom();
  if (!st) {
    fill_random(x, AR * AC, 1);
    fill_random(y, AR * AC, 2);
    for (int i = 0; i < AR * AC; i++) add_ref[i] = (double)x[i] + (double)y[i];
    fill_random(ma, (size_t)M * K, 3);
    fill_random(mb, (size_t)K * N, 4);
    for (int i = 0; i < M; i++)
      for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) mm_ref[i * N + j] += (double)ma[i * K + k] * (double)mb[k * N + j];
    int64_t sa[2] = {AR, AC}, sma[2] = {M, K}, smb[2] = {K, N};
    mx_tensor_t add_in[2] = {mx_tensor_host(MX_F32, 2, sa, x), mx_tensor_host(MX_F32, 2, sa, y)};
    mx_tensor_t mm_in[2] = {mx_tensor_host(MX_F32, 2, sma, ma), mx_tensor_host(MX_F32, 2, smb, mb)};
    st = run_case(w, &cases[0], "add", add_in, 2, add_ref, AR * AC, a->repeat);
    if (!st) st = run_case(w, &cases[1], "matmul", mm_in, 2, mm_ref, (size_t)M * N, a->repeat);
  }
  for (long r = 0; !st && r < a->repeat; r++) {
    int n;
    t0 = mx_now_ms();
    st = mx_worker_ping(w);
    run->ping_ms[r] = mx_now_ms() - t0;
    t0 = mx_now_ms();
    if (!st) st = mx_worker_call(w, cases[0].module, "empty", NULL, 0, 0, NULL, 0, &n);
    run->empty_ms[r] = mx_now_ms() - t0;
  }
  if (!st) st = mx_worker_stats(w, &run->stats);
  free(ma);
  free(mb);
  free(mm_ref);
  mx_worker_destroy(w);
  return st;
}

mx_status_t mx_smoke_run(const mx_smoke_options_t *a, mx_smoke_case_t cases[2], char *dir, mx_smoke_run_t *run, int *passed) {
  mx_target_t target = {.backend = "prebuilt", .arch = "as compiled"};
  /* Prebuilt VMFBs carry their target; the runtime refuses them on a device they do not fit. */
  if (!a->prebuilt) MX_RETURN_IF_ERROR(mx_target_for_device(a->device, &a->target, &target));
  if (a->compile_only) {
    if (mkdir(a->compile_only, 0755) != 0 && errno != EEXIST)
      return mx_status_make(MX_STAGE_IO, "pass a writable directory", "cannot create %s: %s", a->compile_only,
                            strerror(errno));
    MX_RETURN_IF_ERROR(prepare_vmfbs(a, &target, cases, a->compile_only));
    *passed = 1;
    return NULL;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, MX_PATH_MAX, "%s/mlxcel-smoke-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    dir[0] = '\0';
    return mx_status_make(MX_STAGE_IO, "set TMPDIR to a writable directory", "cannot create a work directory");
  }
  run->target = target;
  mx_status_t st = run->ping_ms && run->empty_ms ? run_on_device(a, &target, cases, dir, run)
                                                 : mx_status_oom();
  if (!st) *passed = cases[0].max_rel_err < MX_SMOKE_MAX_REL_ERR && cases[1].max_rel_err < MX_SMOKE_MAX_REL_ERR;
  return st;
}

mx_status_t mx_probe_devices(mx_driver_desc_t *drivers, int cap, int *n, char *runtime, size_t runtime_cap) {
  mx_worker_t *w;
  MX_RETURN_IF_ERROR(mx_worker_launch(0, &w));
  snprintf(runtime, runtime_cap, "%s", mx_worker_runtime_version(w));
  mx_status_t st = mx_worker_list(w, drivers, cap, n);
  mx_worker_destroy(w);
  return st;
}
