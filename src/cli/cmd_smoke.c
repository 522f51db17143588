/* mlxcel smoke: the smallest end-to-end proof of a device path.
 *
 * Emits an f32 add (2x3) and matmul (64x128 by 128x32), compiles each for the selected device,
 * runs both through the worker N times on random inputs and compares every result with a plain C
 * reference computed in double. It also measures what one bridge round trip costs (a ping, and a
 * call of an empty function), since every decode step will pay it. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/summary.h"
#include "base/toolchain.h"
#include "cli/cli.h"
#include "compiler/compile.h"
#include "compiler/target.h"
#include "device/launch.h"
#include "hlo/smoke.h"

#define MAX_REL_ERR 1e-5

typedef struct {
  const char *device;
  long repeat;
  mx_target_options_t target;
  int keep_dir;
  const char *compile_only; /* compile into this directory and stop */
  const char *prebuilt;     /* load add.vmfb and matmul.vmfb from here instead of compiling */
} smoke_args_t;

typedef struct {
  const char *name;
  char *mlir;
  char vmfb[MX_PATH_MAX];
  double compile_ms, load_ms;
  int module;
  double *call_ms;
  double max_rel_err;
} smoke_case_t;

typedef struct {
  mx_cli_session_args_t s;
  long repeat;
  int keep;
  const char *compile_only, *prebuilt;
} smoke_opts_t;

static const mx_opt_t smoke_rows[] = {
    MX_OPT_ROW(smoke_opts_t, repeat, .name = "--repeat", .kind = MX_OPT_INT, .metavar = "N", .lo = 1, .hi = 100000,
               .def = "1", .help = "calls per function"),
    MX_OPT_ROW(smoke_opts_t, keep, .name = "--keep", .kind = MX_OPT_SWITCH,
               .help = "keep the work directory (MLIR, VMFB, compiler logs) and print its path"),
    MX_OPT_ROW(smoke_opts_t, compile_only, .name = "--compile-only", .metavar = "DIR", .excludes = "--prebuilt",
               .help = "compile add.vmfb and matmul.vmfb for the device into DIR and stop (no device needed): for "
                       "hosts without the compiler, such as a GPU machine"),
    MX_OPT_ROW(smoke_opts_t, prebuilt, .name = "--prebuilt", .metavar = "DIR",
               .help = "load DIR/add.vmfb and DIR/matmul.vmfb instead of compiling"),
};

static mx_opt_cmd_t smoke_cmd(smoke_opts_t *o) {
  return (mx_opt_cmd_t){
      .prog = "mlxcel smoke",
      .synopsis = "[--device URI] [--repeat N] [options]",
      .about = "Compiles a StableHLO f32 add (2x3) and matmul (64x128 by 128x32) for the device, runs each N times "
               "through the device worker on random inputs, and checks every result against a C reference (max "
               "relative error = max|y - ref| / max|ref| must stay below 1e-5). Prints per-stage timings, the "
               "bridge's round-trip cost, and PASS or FAIL (exit 1).",
      .sets = {mx_cli_session_set(&o->s, MX_CLI_DEVICE), MX_OPT_SET(smoke_rows, o)},
  };
}

static void help(void) {
  smoke_opts_t o;
  mx_opt_cmd_t c = smoke_cmd(&o);
  mx_opt_help(&c, stdout);
}

static mx_status_t parse_args(int argc, char **argv, smoke_args_t *a, int *want_help) {
  smoke_opts_t o = {0};
  mx_opt_cmd_t c = smoke_cmd(&o);
  bool help = false;
  MX_RETURN_IF_ERROR(mx_opt_parse(&c, argc, argv, &help));
  *want_help = help;
  a->device = o.s.device;
  a->target = mx_cli_target(&o.s);
  a->repeat = o.repeat;
  a->keep_dir = o.keep;
  a->compile_only = o.compile_only;
  a->prebuilt = o.prebuilt;
  return NULL;
}

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
static mx_status_t run_case(mx_worker_t *w, smoke_case_t *c, const char *fn, mx_tensor_t *in, int n_in,
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

static mx_status_t compile_case(const char *compiler, const mx_target_t *t, const char *dir, smoke_case_t *c) {
  snprintf(c->vmfb, sizeof c->vmfb, "%s/%s.vmfb", dir, c->name);
  char label[96];
  mx_target_label(t, label, sizeof label);
  fprintf(stderr, "mlxcel smoke: compiling %s for %s ...\n", c->name, label);
  return mx_compile_mlir(compiler, t, c->mlir, c->vmfb, &c->compile_ms);
}

/* Removes what the smoke wrote into its work directory, and the directory. Paths are built from
 * `dir` alone, so prebuilt VMFBs elsewhere are never touched. */
static void remove_work_dir(const char *dir, smoke_case_t *cases, int n) {
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
static mx_status_t prepare_vmfbs(const smoke_args_t *a, const mx_target_t *target, smoke_case_t cases[2],
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

typedef struct {
  double spawn_ms, open_ms;
  mx_device_desc_t dev;
  char runtime[32];
  double *ping_ms, *empty_ms;
  mx_alloc_stats_t stats;
} smoke_run_t;

/* Everything that needs the device: open, load, the checked calls, the bridge round trips. */
static mx_status_t run_on_device(const smoke_args_t *a, const mx_target_t *target, smoke_case_t cases[2],
                                 const char *dir, smoke_run_t *run) {
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
  if (!st && (!ma || !mb || !mm_ref)) st = mx_status_make(MX_STAGE_IO, NULL, "out of memory");
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

static void print_report(const smoke_args_t *a, const mx_target_t *target, smoke_case_t cases[2], smoke_run_t *run) {
  printf("mlxcel smoke: device %s (%s), target %s:%s, IREE %s, %ld call(s) per function\n", run->dev.uri,
         run->dev.arch[0] ? run->dev.arch : "arch unknown", target->backend, target->arch, run->runtime, a->repeat);
  printf("  worker start %.1f ms, device open %.1f ms%s\n", run->spawn_ms, run->open_ms,
         a->prebuilt ? ", prebuilt VMFBs (no compile)" : "");
  printf("  %-8s %12s %10s %14s %14s %14s %12s\n", "function", "compile ms", "load ms", "call ms med", "call ms min",
         "call ms max", "max rel err");
  for (int i = 0; i < 2; i++) {
    mx_summary_t s = mx_summarize(cases[i].call_ms, (int)a->repeat);
    char compile[32] = "-";
    if (!a->prebuilt) snprintf(compile, sizeof compile, "%.1f", cases[i].compile_ms);
    printf("  %-8s %12s %10.2f %14.3f %14.3f %14.3f %12.2e\n", cases[i].name, compile, cases[i].load_ms, s.median,
           s.min, s.max, cases[i].max_rel_err);
  }
  mx_summary_t sp = mx_summarize(run->ping_ms, (int)a->repeat), se = mx_summarize(run->empty_ms, (int)a->repeat);
  printf("  bridge round trip (median of %ld, min..max): ping %.3f ms (%.3f..%.3f), empty call %.3f ms (%.3f..%.3f)\n",
         a->repeat, sp.median, sp.min, sp.max, se.median, se.min, se.max);
  printf("  peak device bytes %lld\n", (long long)run->stats.device_bytes_peak);
}

static mx_status_t smoke(const smoke_args_t *a, smoke_case_t cases[2], char *dir, int *passed) {
  mx_target_t target = {.backend = "prebuilt", .arch = "as compiled"};
  /* Prebuilt VMFBs carry their target; the runtime refuses them on a device they do not fit. */
  if (!a->prebuilt) MX_RETURN_IF_ERROR(mx_target_for_device(a->device, &a->target, &target));
  if (a->compile_only) {
    if (mkdir(a->compile_only, 0755) != 0 && errno != EEXIST)
      return mx_status_make(MX_STAGE_IO, "pass a writable directory", "cannot create %s: %s", a->compile_only,
                            strerror(errno));
    MX_RETURN_IF_ERROR(prepare_vmfbs(a, &target, cases, a->compile_only));
    for (int i = 0; i < 2; i++) printf("%s  (compiled in %.1f ms)\n", cases[i].vmfb, cases[i].compile_ms);
    *passed = 1;
    return NULL;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, MX_PATH_MAX, "%s/mlxcel-smoke-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    dir[0] = '\0';
    return mx_status_make(MX_STAGE_IO, "set TMPDIR to a writable directory", "cannot create a work directory");
  }
  smoke_run_t run = {.ping_ms = calloc((size_t)a->repeat, sizeof(double)),
                     .empty_ms = calloc((size_t)a->repeat, sizeof(double))};
  mx_status_t st = run.ping_ms && run.empty_ms ? run_on_device(a, &target, cases, dir, &run)
                                               : mx_status_make(MX_STAGE_IO, NULL, "out of memory");
  if (!st) {
    print_report(a, &target, cases, &run);
    *passed = cases[0].max_rel_err < MAX_REL_ERR && cases[1].max_rel_err < MAX_REL_ERR;
  }
  free(run.ping_ms);
  free(run.empty_ms);
  return st;
}

int mx_cmd_smoke(int argc, char **argv) {
  smoke_args_t a = {0};
  int want_help;
  mx_status_t st = parse_args(argc, argv, &a, &want_help);
  if (st) return mx_cli_report(st);
  if (want_help) {
    help();
    return 0;
  }
  smoke_case_t cases[2] = {{.name = "add"}, {.name = "matmul"}};
  for (int i = 0; i < 2; i++) cases[i].call_ms = calloc((size_t)a.repeat, sizeof(double));
  char dir[MX_PATH_MAX] = "";
  int passed = 0;
  if (!cases[0].call_ms || !cases[1].call_ms) st = mx_status_make(MX_STAGE_IO, NULL, "out of memory");
  else st = smoke(&a, cases, dir, &passed);
  if (dir[0]) {
    /* After a failure a non-empty directory holds the evidence (MLIR, compiler log): keep it. */
    if (a.keep_dir || (st && rmdir(dir) != 0)) fprintf(stderr, "mlxcel smoke: work directory kept: %s\n", dir);
    else if (!st) remove_work_dir(dir, cases, 2);
  }
  for (int i = 0; i < 2; i++) {
    free(cases[i].mlir);
    free(cases[i].call_ms);
  }
  if (st) {
    int code = mx_cli_report(st);
    printf("FAIL\n");
    return code;
  }
  printf("%s\n", passed ? "PASS" : "FAIL");
  if (!passed) fprintf(stderr, "mlxcel: check: max relative error at or above %.0e\n", MAX_REL_ERR);
  return passed ? 0 : MX_EXIT_FAIL;
}
