/* mlxcel smoke: the command line of the device smoke test (engine/probe.h runs it). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/summary.h"
#include "cli/cli.h"
#include "engine/probe.h"


typedef struct {
  mx_cli_session_args_t s;
  long repeat;
  int keep;
  const char *compile_only, *prebuilt, *json;
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
    MX_OPT_ROW(smoke_opts_t, json, .name = "--json", .metavar = "PATH",
               .help = "also write the report as JSON (the format: docs/qualification.md)"),
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

static mx_status_t parse_args(int argc, char **argv, mx_smoke_options_t *a, int *keep_dir, int *want_help,
                              const char **json) {
  smoke_opts_t o = {0};
  mx_opt_cmd_t c = smoke_cmd(&o);
  bool help = false;
  MX_RETURN_IF_ERROR(mx_opt_parse(&c, argc, argv, &help));
  *want_help = help;
  *a = (mx_smoke_options_t){.device = o.s.device, .repeat = o.repeat, .target = mx_cli_target(&o.s),
                             .compile_only = o.compile_only, .prebuilt = o.prebuilt};
  *keep_dir = o.keep;
  *json = o.json;
  return NULL;
}

static void print_report(const mx_smoke_options_t *a, mx_smoke_case_t cases[2], const mx_smoke_run_t *run) {
  const mx_target_t *target = &run->target;
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

/* The report as JSON: what print_report shows. */
static json_t *report_json(const mx_smoke_options_t *a, mx_smoke_case_t cases[2], const mx_smoke_run_t *run, int passed) {
  json_t *fns = json_array();
  for (int i = 0; i < 2; i++) {
    mx_summary_t s = mx_summarize(cases[i].call_ms, (int)a->repeat);
    json_array_append_new(fns, json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f}", "name", cases[i].name, "compile_ms",
                                         a->prebuilt ? 0.0 : cases[i].compile_ms, "load_ms", cases[i].load_ms,
                                         "call_ms_median", s.median, "call_ms_min", s.min, "call_ms_max", s.max,
                                         "max_rel_err", cases[i].max_rel_err));
  }
  return json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:b, s:o, s:I, s:b}", "command", "smoke", "device", run->dev.uri, "arch",
                   run->dev.arch, "target", run->target.arch, "runtime", run->runtime, "repeat", (json_int_t)a->repeat,
                   "prebuilt", a->prebuilt != NULL, "functions", fns, "peak_device_bytes",
                   (json_int_t)run->stats.device_bytes_peak, "pass", passed != 0);
}

int mx_cmd_smoke(int argc, char **argv) {
  mx_smoke_options_t a = {0};
  int keep_dir = 0;
  int want_help;
  const char *json = NULL;
  mx_status_t st = parse_args(argc, argv, &a, &keep_dir, &want_help, &json);
  if (st) return mx_cli_report(st);
  if (want_help) {
    help();
    return 0;
  }
  mx_smoke_case_t cases[2] = {{.name = "add"}, {.name = "matmul"}};
  for (int i = 0; i < 2; i++) cases[i].call_ms = calloc((size_t)a.repeat, sizeof(double));
  char dir[MX_PATH_MAX] = "";
  int passed = 0;
  mx_smoke_run_t run = {.ping_ms = calloc((size_t)a.repeat, sizeof(double)), .empty_ms = calloc((size_t)a.repeat, sizeof(double))};
  if (!cases[0].call_ms || !cases[1].call_ms) st = mx_status_oom();
  else st = mx_smoke_run(&a, cases, dir, &run, &passed);
  if (!st && a.compile_only)
    for (int i = 0; i < 2; i++) printf("%s  (compiled in %.1f ms)\n", cases[i].vmfb, cases[i].compile_ms);
  else if (!st) print_report(&a, cases, &run);
  if (!st && !a.compile_only && json) st = mx_cli_write_json(json, report_json(&a, cases, &run, passed));
  free(run.ping_ms);
  free(run.empty_ms);
  if (dir[0]) {
    /* After a failure a non-empty directory holds the evidence (MLIR, compiler log): keep it. */
    if (keep_dir || (st && rmdir(dir) != 0)) fprintf(stderr, "mlxcel smoke: work directory kept: %s\n", dir);
    else if (!st) mx_smoke_remove_work_dir(dir, cases, 2);
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
  if (!passed) fprintf(stderr, "mlxcel: check: max relative error at or above %.0e\n", MX_SMOKE_MAX_REL_ERR);
  return passed ? 0 : MX_EXIT_FAIL;
}
