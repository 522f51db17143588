/* mlxcel qualify: the device qualification kit (docs/qualification.md). One command runs the phases
 * of the seed's procedure on one device and writes DIR/env.json (phase 0, the machine baseline),
 * DIR/results.json (every gate, the performance figures and the decision), DIR/findings.md (the
 * report a person reads), two SVG plots and DIR/logs/ (each step's raw output and JSON).
 *
 * Each step is an `mlxcel <command> ... --json` child in its own process group with a deadline
 * (qualify/run.h), so a hang is a finding, a crash is a finding, and an interrupt stops the step and
 * the worker it started. results.json is rewritten after every gate: an interrupted or killed run
 * leaves its partial results, marked incomplete. */
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/file.h"
#include "base/strbuf.h"
#include "base/summary.h"
#include "base/toolchain.h"
#include "cli/cli.h"
#include "engine/probe.h"
#include "qualify/baseline.h"
#include "qualify/http.h"
#include "qualify/report.h"
#include "qualify/rules.h"
#include "qualify/run.h"

typedef struct {
  mx_cli_session_args_t s;
  const char *model, *out, *fixture, *prebuilt, *prepare, *note;
  int full, force;
  double soak_minutes;
} qual_opts_t;

static const mx_opt_t qual_rows[] = {
    MX_OPT_ROW(qual_opts_t, model, .name = "--model", .alias = "-m", .metavar = "PATH",
               .help = "HF model directory or GGUF file (default: the default model, once scripts/fetch-model.sh "
                       "has fetched it)"),
    MX_OPT_ROW(qual_opts_t, full, .name = "--quick", .kind = MX_OPT_SWITCH, .set = 2,
               .help = "the short run (the default): smoke 10x, a 0.5-minute soak, 1 measured run after a warm-up, the "
                       "first precision's cold compile timed"),
    MX_OPT_ROW(qual_opts_t, full, .name = "--full", .kind = MX_OPT_SWITCH, .set = 1,
               .help = "the whole procedure: smoke 100x, a 30-minute soak, 3 measured runs after a warm-up, every "
                       "precision's cold compile timed"),
    MX_OPT_ROW(qual_opts_t, soak_minutes, .name = "--soak-minutes", .kind = MX_OPT_FLOAT, .metavar = "M",
               .help = "soak length in minutes (default 0.5 with --quick, 30 with --full); the verdict "
                       "'supported' needs 30"),
    MX_OPT_ROW(qual_opts_t, fixture, .name = "--fixture", .metavar = "FIXTURE.json",
               .help = "the HF oracle fixture for the model (default: the one tests/oracle/fixtures has for it, by "
                       "file name)"),
    MX_OPT_ROW(qual_opts_t, prebuilt, .name = "--prebuilt", .metavar = "DIR", .excludes = "--prepare",
               .help = "modules from `mlxcel qualify --prepare DIR` instead of compiling (hosts without the compiler)"),
    MX_OPT_ROW(qual_opts_t, prepare, .name = "--prepare", .metavar = "DIR",
               .help = "compile every module a --prebuilt run needs into DIR for this device and target, and stop"),
    MX_OPT_ROW(qual_opts_t, out, .name = "--output", .alias = "-o", .metavar = "DIR",
               .help = "where the report goes (default qualify-<device>-<UTC time>); never overwritten without --force"),
    MX_OPT_ROW(qual_opts_t, note, .name = "--note", .metavar = "TEXT",
               .help = "a sentence for the report, e.g. why the soak is shorter than 30 minutes"),
    MX_OPT_ROW(qual_opts_t, force, .name = "--force", .kind = MX_OPT_SWITCH,
               .help = "write into an existing, non-empty --output directory"),
};

static int parse_args(int argc, char **argv, qual_opts_t *a) {
  mx_opt_cmd_t c = {
      .prog = "mlxcel qualify",
      .synopsis = "--device URI [--cuda-target|--rocm-target T] [-m MODEL] [--quick|--full] [-o DIR]",
      .about = "Qualifies a device: phase 0 records the machine baseline (env.json); 1 proves the toolchain (compiler "
               "target, runtime driver, device enumeration against the baseline, the add/matmul smoke); 2 loads the "
               "model and generates; 3 gates correctness and serving (f32 token-exact against the HF oracle, f16 and "
               "bf16 by the low-precision rule, batch reference-exact at B_max 4 and 8, the server's completions and "
               "clean shutdown, a soak); 4 measures compile, load, prefill, decode and batch throughput and device "
               "memory. Writes results.json, findings.md and plots, and a decision by the rules of "
               "docs/qualification.md: supported, conditionally supported, blocked or incomplete. Exit 0 when the "
               "run completed (whatever the verdict), 1 when it could not, 2 on bad usage, 130 when interrupted.",
      .sets = {MX_OPT_SET(qual_rows, a), mx_cli_session_set(&a->s, MX_CLI_DEVICE)},
  };
  return mx_cli_parse(&c, argc, argv);
}

/* ---- the run ----------------------------------------------------------------------------------- */

#define GEN_PROMPT "The capital of France is"
#define GEN_TOKENS 32
#define PERF_TOKENS 64

typedef struct {
  qual_opts_t *o;
  const char *model, *device, *dir;
  char self[MX_PATH_MAX], logs[MX_PATH_MAX], fixture[MX_PATH_MAX], target_label[96];
  mx_target_t target;
  bool full;
  double soak_minutes;
  int smoke_repeat, perf_runs;
  bool compile_timed; /* phase 4 timed a cold compile (a quick run times one) */
  json_t *env; /* phase 0's baseline, completed by phase 1 (env.json) */
  json_t *results, *gates, *commands, *perf;
  int step_no;
  json_t *gen_f32; /* phase 2's generate JSON: the server's answers must match it */
} kit_t;

/* base/name in one of four rotating buffers (so a call's arguments can hold several). */
static const char *in_dir(const char *base, const char *name) {
  static char p[4][MX_PATH_MAX];
  static int i;
  i = (i + 1) % 4;
  snprintf(p[i], sizeof p[i], "%s/%s", base, name);
  return p[i];
}

/* env.json and results.json as they stand, with the decision, and findings.md beside them. */
static void save(kit_t *k) {
  json_object_set_new(k->results, "decision", mx_qual_decide(k->results));
  if (k->env) mx_status_ignore(mx_cli_write_json(in_dir(k->dir, "env.json"), json_incref(k->env)));
  mx_status_ignore(mx_cli_write_json(in_dir(k->dir, "results.json"), json_incref(k->results)));
  mx_status_ignore(mx_qual_write_report(k->dir, k->env, k->results));
}

static void gate(kit_t *k, const char *id, int phase, const char *status, const char *log, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void gate(kit_t *k, const char *id, int phase, const char *status, const char *log, const char *fmt, ...) {
  char detail[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  json_array_append_new(k->gates, json_pack("{s:s, s:i, s:s, s:s, s:s?}", "id", id, "phase", phase, "status", status,
                                            "detail", detail, "log", log));
  fprintf(stderr, "mlxcel qualify: %-26s %-13s %s\n", id, status, detail);
  save(k);
}

/* The shell form of a command, for the reproduction list. */
static void shell_words(mx_strbuf_t *b, char *const argv[]) {
  for (int i = 0; argv[i]; i++) {
    const char *w = argv[i];
    bool plain = w[0] && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%") == strlen(w);
    if (i) mx_strbuf_append(b, " ", 1);
    if (i == 0) w = "mlxcel";
    if (plain || i == 0) {
      mx_strbuf_printf(b, "%s", w);
      continue;
    }
    mx_strbuf_append(b, "'", 1);
    for (const char *c = w; *c; c++) *c == '\'' ? mx_strbuf_printf(b, "'\\''") : mx_strbuf_append(b, c, 1);
    mx_strbuf_append(b, "'", 1);
  }
}

typedef struct {
  char log[MX_PATH_MAX], json[MX_PATH_MAX], rel_log[160];
  mx_qrun_result_t r;
  char how[200];
  json_t *out; /* the step's --json, when it wrote one */
} step_t;

/* Starts `mlxcel ARGS... [--json PATH]` as step `name`: its log begins with the command, which the
 * reproduction list records too. On a spawn failure s->how says why and *pid is 0. */
static void step_start(kit_t *k, const char *name, const char *const *args, bool json, step_t *s, pid_t *pid) {
  *s = (step_t){0};
  *pid = 0;
  snprintf(s->rel_log, sizeof s->rel_log, "logs/%02d-%s.log", ++k->step_no, name);
  snprintf(s->log, sizeof s->log, "%s/%s", k->dir, s->rel_log);
  snprintf(s->json, sizeof s->json, "%s/logs/%02d-%s.json", k->dir, k->step_no, name);
  char *argv[64] = {k->self};
  int n = 1;
  for (; args[n - 1] && n < 60; n++) argv[n] = (char *)args[n - 1];
  if (json) {
    argv[n++] = "--json";
    argv[n++] = s->json;
  }
  argv[n] = NULL;
  mx_strbuf_t cmd;
  mx_strbuf_init(&cmd);
  shell_words(&cmd, argv);
  json_array_append_new(k->commands, json_pack("{s:s, s:s, s:s}", "step", name, "command", cmd.data ? cmd.data : "",
                                               "log", s->rel_log));
  FILE *f = fopen(s->log, "w");
  if (f) {
    fprintf(f, "$ %s\n", cmd.data ? cmd.data : "");
    fclose(f);
  }
  mx_strbuf_free(&cmd);
  mx_status_t st = mx_qrun_spawn(argv, NULL, s->log, pid);
  if (st) {
    snprintf(s->how, sizeof s->how, "%s", mx_status_message(st));
    mx_status_free(st);
    s->r.exit_code = -1;
  }
}

/* Runs step `name` (step_start) to its end or its deadline; reads its --json. */
static void step(kit_t *k, const char *name, const char *const *args, bool json, double timeout_s, step_t *s) {
  pid_t pid;
  step_start(k, name, args, json, s, &pid);
  if (!pid) return;
  mx_qrun_wait(pid, timeout_s, &s->r);
  mx_qrun_describe(&s->r, s->how, sizeof s->how);
  if (json && mx_file_exists(s->json)) s->out = json_load_file(s->json, 0, NULL);
}

static void step_free(step_t *s) { json_decref(s->out); }

/* The last line of a log that names a stage ("mlxcel: <stage>: ..."), for a gate's detail. */
static void last_error(const char *log, char *out, size_t cap) {
  char *text = NULL;
  out[0] = 0;
  mx_status_ignore(mx_read_file(log, 64u << 20, &text, NULL));
  if (!text) return;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
    if (!strncmp(line, "mlxcel: ", 8) && strstr(line, "remedy")) snprintf(out, cap, "%s", line + 8);
  free(text);
}

/* A failed step's detail: how it ended and its last error line. */
static void failure(const step_t *s, char *out, size_t cap) {
  char err[600];
  last_error(s->log, err, sizeof err);
  snprintf(out, cap, "%s%s%s", s->how, err[0] ? ": " : "", err);
}

static const char *prebuilt(const kit_t *k, const char *name) { return in_dir(k->o->prebuilt, name); }

/* Appends the device rows (and --vmfb for module `name` when prebuilt) to args at *n. */
static void device_args(const kit_t *k, const char **args, int *n) {
  args[(*n)++] = "--device";
  args[(*n)++] = k->device;
  if (k->o->s.cuda_target) args[(*n)++] = "--cuda-target", args[(*n)++] = k->o->s.cuda_target;
  if (k->o->s.rocm_target) args[(*n)++] = "--rocm-target", args[(*n)++] = k->o->s.rocm_target;
  if (k->o->s.vulkan_target) args[(*n)++] = "--vulkan-target", args[(*n)++] = k->o->s.vulkan_target;
}

/* The module files of a --prebuilt directory, by what uses them. */
static void module_name(char *out, size_t cap, const char *use, const char *precision, int slots) {
  if (slots) snprintf(out, cap, "%s-%s/s%d.vmfb", use, precision, slots);
  else snprintf(out, cap, "%s-%s.vmfb", use, precision);
}

/* ---- phase 1: toolchain ------------------------------------------------------------------------ */

/* "sm_89" -> 89; 0 if not an sm name. */
static int sm_number(const char *arch) { return arch && !strncmp(arch, "sm_", 3) ? atoi(arch + 3) : 0; }

static void phase_toolchain(kit_t *k) {
  json_t *env = k->env;
  /* The compiler target. */
  if (k->o->prebuilt) {
    bool ok = mx_is_dir(prebuilt(k, "smoke")) && mx_file_exists(prebuilt(k, "smoke/add.vmfb"));
    gate(k, "toolchain.compiler_target", 1, ok ? "pass" : "fail", NULL,
         ok ? "prebuilt modules from %s (compiled elsewhere for %s; no compiler needed here)"
            : "%s has no smoke/add.vmfb: make it with `mlxcel qualify --prepare DIR` on a host with the compiler (%s)",
         k->o->prebuilt, k->target_label);
  } else {
    char compiler[MX_PATH_MAX], log[MX_PATH_MAX];
    mx_status_t st = mx_toolchain_compiler(compiler, sizeof compiler);
    if (st) {
      gate(k, "toolchain.compiler_target", 1, "fail", NULL, "%s", mx_status_message(st));
      mx_status_free(st);
    } else {
      snprintf(log, sizeof log, "%s/logs/compiler-targets.txt", k->dir);
      char *argv[] = {compiler, "--iree-hal-list-target-backends", NULL};
      mx_qrun_result_t r;
      char *text = NULL;
      mx_status_free(mx_qrun_capture(argv, log, 60, &r, &text));
      json_t *list = text ? mx_qual_parse_target_backends(text) : json_array();
      bool found = false;
      size_t i;
      json_t *v;
      json_array_foreach(list, i, v) found = found || !strcmp(json_string_value(v), k->target.backend);
      json_object_set(json_object_get(env, "iree"), "compiler_targets", list);
      gate(k, "toolchain.compiler_target", 1, found ? "pass" : "fail", "logs/compiler-targets.txt",
           found ? "iree-compile lists the %s backend" : "iree-compile does not list the %s backend", k->target.backend);
      json_decref(list);
      free(text);
    }
  }
  /* The runtime driver and the device, against the baseline. */
  mx_driver_desc_t drivers[16];
  int nd = 0;
  char runtime[32] = "";
  mx_status_t st = mx_probe_devices(drivers, 16, &nd, runtime, sizeof runtime);
  json_t *jdrivers = json_array();
  const mx_driver_desc_t *drv = NULL;
  for (int i = 0; !st && i < nd; i++) {
    json_t *devs = json_array();
    for (int j = 0; j < drivers[i].n_devices; j++)
      json_array_append_new(devs, json_pack("{s:s, s:s, s:s}", "uri", drivers[i].devices[j].uri, "name",
                                            drivers[i].devices[j].name, "arch", drivers[i].devices[j].arch));
    json_array_append_new(jdrivers, json_pack("{s:s, s:b, s:s, s:o}", "name", drivers[i].name, "available",
                                              drivers[i].available, "error", drivers[i].error, "devices", devs));
    if (!strcmp(drivers[i].name, k->target.driver)) drv = &drivers[i];
  }
  json_object_set_new(env, "runtime", json_pack("{s:s, s:o}", "version", runtime, "drivers", jdrivers));
  if (st) {
    gate(k, "toolchain.runtime_driver", 1, "fail", NULL, "%s", mx_status_message(st));
    mx_status_free(st);
    return;
  }
  if (!drv || !drv->available) {
    gate(k, "toolchain.runtime_driver", 1, "fail", NULL, "the IREE runtime %s has no usable '%s' driver: %s%s%s", runtime,
         k->target.driver, drv ? drv->error : "not in this runtime", drv && drv->remedy[0] ? "; remedy: " : "",
         drv ? drv->remedy : "");
    return;
  }
  gate(k, "toolchain.runtime_driver", 1, "pass", NULL, "IREE runtime %s, driver %s with %d device(s)", runtime, drv->name,
       drv->n_devices);
  char drv_name[32];
  int index = -1;
  mx_status_ignore(mx_device_uri_parse(k->device, drv_name, sizeof drv_name, &index));
  if (index < 0) index = 0;
  if (index >= drv->n_devices) {
    gate(k, "toolchain.enumeration", 1, "fail", NULL, "%s: the %s driver lists %d device(s); there is no index %d", k->device,
         drv->name, drv->n_devices, index);
    return;
  }
  const mx_device_desc_t *dev = &drv->devices[index];
  /* The baseline's own view of the same device, by the vendor's tool. */
  const char *tool_arch = NULL;
  json_t *gpus = json_object_get(json_object_get(env, "nvidia"), "gpus");
  if (!strcmp(drv->name, "cuda") && json_array_size(gpus) > (size_t)index)
    tool_arch = json_string_value(json_object_get(json_array_get(gpus, (size_t)index), "arch"));
  json_t *amd = json_object_get(env, "amd"), *agents = json_object_get(amd, "rocminfo_gpus");
  if (!strcmp(drv->name, "hip") && json_array_size(agents) > (size_t)index)
    tool_arch = json_string_value(json_object_get(json_array_get(agents, (size_t)index), "name"));
  json_object_set_new(json_object_get(env, "selected"), "runtime_device",
                      json_pack("{s:s, s:s, s:s, s:s?}", "uri", dev->uri, "name", dev->name, "arch", dev->arch, "tool_arch", tool_arch));
  bool agree = !tool_arch || !dev->arch[0] || !strncmp(tool_arch, dev->arch, strlen(tool_arch));
  st = mx_target_check_device(&k->target, dev->uri, dev->arch);
  int tsm = sm_number(k->target.arch), dsm = sm_number(dev->arch);
  if (!st && tsm && dsm && tsm > dsm)
    st = mx_status_make(MX_STAGE_USAGE, "compile for the device's architecture or an older one (PTX runs forward only)",
                        "CUDA target %s is newer than the device %s (%s)", k->target.arch, dev->uri, dev->arch);
  if (!agree)
    gate(k, "toolchain.enumeration", 1, "fail", NULL, "the runtime reports %s as %s, the vendor tool as %s", dev->uri,
         dev->arch, tool_arch);
  else if (st)
    gate(k, "toolchain.enumeration", 1, "fail", NULL, "%s", mx_status_message(st));
  else
    gate(k, "toolchain.enumeration", 1, "pass", NULL, "%s is %s (%s)%s%s; target %s%s", dev->uri, dev->name,
         dev->arch[0] ? dev->arch : "arch not reported", tool_arch ? ", as the vendor tool says: " : "",
         tool_arch ? tool_arch : "", k->target_label,
         tsm && dsm && tsm < dsm ? " (PTX for an older architecture, JIT-compiled by the driver)" : "");
  mx_status_free(st);
  /* The smoke, repeated. */
  char rep[16];
  snprintf(rep, sizeof rep, "%d", k->smoke_repeat);
  const char *args[24] = {"smoke", "--repeat", rep};
  int n = 3;
  device_args(k, args, &n);
  if (k->o->prebuilt) args[n++] = "--prebuilt", args[n++] = prebuilt(k, "smoke");
  args[n] = NULL;
  step_t s;
  step(k, "smoke", args, true, 600, &s);
  char why[1024];
  if (mx_qrun_ok(&s.r) && s.out) {
    json_t *fns = json_object_get(s.out, "functions");
    double e0 = json_number_value(json_object_get(json_array_get(fns, 0), "max_rel_err"));
    double e1 = json_number_value(json_object_get(json_array_get(fns, 1), "max_rel_err"));
    gate(k, "toolchain.smoke", 1, "pass", s.rel_log, "add and matmul %d times each, max relative error %.1e / %.1e",
         k->smoke_repeat, e0, e1);
  } else {
    failure(&s, why, sizeof why);
    /* The reproducer: one call of each op with the work directory (MLIR, VMFB, compiler log) kept. */
    const char *kargs[24] = {"smoke", "--repeat", "1", "--keep"};
    int kn = 4;
    device_args(k, kargs, &kn);
    if (k->o->prebuilt) kargs[kn++] = "--prebuilt", kargs[kn++] = prebuilt(k, "smoke");
    kargs[kn] = NULL;
    step_t kept;
    step(k, "smoke-reproducer", kargs, false, 600, &kept);
    step_free(&kept);
    gate(k, "toolchain.smoke", 1, "fail", s.rel_log, "%s (reproducer: %s, its work directory kept)", why, kept.rel_log);
  }
  step_free(&s);
}

/* ---- phases 2 and 3 ------------------------------------------------------------------------------ */

static bool passed(const kit_t *k, const char *id) {
  size_t i;
  json_t *g;
  json_array_foreach(k->gates, i, g) if (!strcmp(json_string_value(json_object_get(g, "id")), id)) return !strcmp(
      json_string_value(json_object_get(g, "status")), "pass");
  return false;
}

/* `generate` once: the greedy answer to GEN_PROMPT (n tokens) at a precision. */
static void generate(kit_t *k, const char *name, const char *precision, int n_tokens, step_t *s) {
  char nt[16], mod[96];
  snprintf(nt, sizeof nt, "%d", n_tokens);
  const char *args[32] = {"generate", "-m", k->model, "-p", GEN_PROMPT, "--no-chat", "-n", nt, "--precision", precision};
  int n = 10;
  device_args(k, args, &n);
  if (k->o->prebuilt) {
    module_name(mod, sizeof mod, "generate", precision, 0);
    args[n++] = "--vmfb", args[n++] = prebuilt(k, mod);
  }
  args[n] = NULL;
  step(k, name, args, true, 1800, s);
}

static void phase_engine(kit_t *k) {
  step_t s;
  generate(k, "generate-f32", "f32", GEN_TOKENS, &s);
  char why[1024];
  json_int_t got = json_integer_value(json_object_get(s.out, "generated_tokens"));
  if (mx_qrun_ok(&s.r) && s.out && got > 0) {
    gate(k, "engine.generate", 2, "pass", s.rel_log, "f32: loaded, %s prefill and decode, %lld tokens at %.1f tok/s",
         json_is_true(json_object_get(s.out, "compile_cache_hit")) ? "cached" : (k->o->prebuilt ? "prebuilt" : "compiled"),
         (long long)got, json_number_value(json_object_get(s.out, "decode_tok_per_s")));
    k->gen_f32 = json_incref(s.out);
  } else {
    failure(&s, why, sizeof why);
    /* The reproducer: the StableHLO the engine compiles, for iree-compile by hand. */
    char mlir[MX_PATH_MAX];
    snprintf(mlir, sizeof mlir, "%s/logs/graph-f32.mlir", k->dir);
    if (!k->o->prebuilt) {
      const char *cargs[24] = {"compile", "-m", k->model, "--precision", "f32", "--mlir", mlir};
      int cn = 7;
      device_args(k, cargs, &cn);
      cargs[cn] = NULL;
      step_t c;
      step(k, "compile-reproducer", cargs, false, 3600, &c);
      step_free(&c);
    }
    gate(k, "engine.generate", 2, "fail", s.rel_log, "%s%s", why,
         mx_file_exists(mlir) ? " (reproducer: logs/graph-f32.mlir, the StableHLO the engine compiles)" : "");
  }
  step_free(&s);
}

/* Whether the engine refuses this precision on the target by design; the guard's words in why. */
static bool guarded(const kit_t *k, const char *precision, char *why, size_t cap) {
  mx_status_t st = mx_target_check_precision(&k->target, precision);
  if (!st) return false;
  snprintf(why, cap, "%s", mx_status_message(st));
  mx_status_free(st);
  return true;
}

static void check_gate(kit_t *k, const char *precision) {
  char id[32], why[1024], mod[96], ref[96];
  bool low = strcmp(precision, "f32") != 0;
  snprintf(id, sizeof id, "%s.%s", precision, low ? "lowprec" : "oracle");
  if (guarded(k, precision, why, sizeof why)) {
    gate(k, id, 3, "guarded", NULL, "%s", why);
    return;
  }
  if (!k->fixture[0]) {
    gate(k, id, 3, "not_run", NULL, "no HF oracle fixture for this model: pass --fixture (tests/oracle/hf_trajectory.py makes one)");
    return;
  }
  const char *args[32] = {"check", "-m", k->model, "--fixture", k->fixture, "--precision", precision};
  int n = 7;
  device_args(k, args, &n);
  if (k->o->prebuilt) {
    module_name(mod, sizeof mod, low ? "score" : "check", precision, 0);
    args[n++] = "--vmfb", args[n++] = prebuilt(k, mod);
    if (low) {
      module_name(ref, sizeof ref, "score", "f32", 0);
      args[n++] = "--ref-vmfb", args[n++] = prebuilt(k, ref);
    }
  }
  args[n] = NULL;
  step_t s;
  step(k, id, args, true, 3600, &s);
  if (!s.out) {
    failure(&s, why, sizeof why);
    gate(k, id, 3, "fail", s.rel_log, "%s", why);
    step_free(&s);
    return;
  }
  json_t *prompts = json_object_get(s.out, "prompts");
  size_t i, n_ok = 0, n_all = json_array_size(prompts);
  json_t *p;
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  double kl_max = 0, ppl_worst = 1, sigma_max = 0;
  long steps = 0, flips = 0, counted = 0;
  json_array_foreach(prompts, i, p) {
    n_ok += json_is_true(json_object_get(p, "pass"));
    if (low) {
      steps += json_integer_value(json_object_get(p, "steps"));
      flips += json_integer_value(json_object_get(p, "flips"));
      counted += json_integer_value(json_object_get(p, "counted_flips"));
      double kl = json_number_value(json_object_get(p, "kl_mean")), ppl = json_number_value(json_object_get(p, "ppl_ratio"));
      double sg = json_number_value(json_object_get(p, "sigma"));
      if (kl > kl_max) kl_max = kl;
      if (fabs(ppl - 1) > fabs(ppl_worst - 1)) ppl_worst = ppl;
      if (sg > sigma_max) sigma_max = sg;
    } else if (!json_is_true(json_object_get(p, "pass"))) {
      mx_strbuf_printf(&b, "; %s diverges at step %lld (oracle margin %.4f)", json_string_value(json_object_get(p, "name")),
                       (long long)json_integer_value(json_object_get(p, "first_div")),
                       json_number_value(json_object_get(p, "oracle_margin")));
    }
  }
  bool ok = mx_qrun_ok(&s.r) && json_is_true(json_object_get(s.out, "pass"));
  if (low)
    gate(k, id, 3, ok ? "pass" : "fail", s.rel_log,
         "%zu/%zu prompts pass the low-precision rule; %ld steps, %ld flips (%ld counted, above 4 sigma), pooled "
         "agreement %.2f%%, max mean KL %.1e, worst ppl ratio %.5f, max sigma %.4f",
         n_ok, n_all, steps, flips, counted, 100.0 * json_number_value(json_object_get(s.out, "pooled_agreement")), kl_max,
         ppl_worst, sigma_max);
  else
    gate(k, id, 3, ok ? "pass" : "fail", s.rel_log, "%zu/%zu prompts token-exact with HF fp32 over %lld steps%s", n_ok,
         n_all, (long long)json_integer_value(json_object_get(s.out, "steps")), b.data ? b.data : "");
  mx_strbuf_free(&b);
  step_free(&s);
}

/* Whether the model's weight products are GGUF blocks (any block type; layer 0's Q projection stands
 * for them): then --quant packed carries the very values the HF oracle dequantized, and the exact
 * rule applies. */
static bool block_quantized(const char *model) {
  mx_model_t *m;
  mx_status_t st = mx_model_open(model, &m);
  if (st) {
    mx_status_free(st);
    return false;
  }
  const mx_weight_t *w = mx_model_layer(m, 0, MX_T_Q);
  bool q = w && mx_wtype_block_elems(w->type) > 1;
  mx_model_close(m);
  return q;
}

/* Packed quantization (model/packing.h), its own row: f32 with the weights packed on the device,
 * token-exact against the HF fixture of the same GGUF (transformers dequantizes it as we do). */
static void packed_gate(kit_t *k) {
  char why[1024];
  if (k->o->prebuilt) {
    gate(k, "packed", 4, "not_run", NULL, "no prebuilt packed module is made for --prebuilt runs; run packed where the compiler is");
    return;
  }
  if (!k->fixture[0] || !block_quantized(k->model)) {
    gate(k, "packed", 4, "not_run", NULL,
         "the packed gate needs a GGUF with block-quantized weights and its HF fixture (a float model would be quantized "
         "on the host, which the oracle's weights are not)");
    return;
  }
  const char *args[32] = {"check", "-m", k->model, "--fixture", k->fixture, "--precision", "f32", "--quant", "packed"};
  int n = 9;
  device_args(k, args, &n);
  args[n] = NULL;
  step_t s;
  step(k, "packed", args, true, 3600, &s);
  if (!s.out) {
    failure(&s, why, sizeof why);
    gate(k, "packed", 4, "fail", s.rel_log, "%s", why);
    step_free(&s);
    return;
  }
  json_t *prompts = json_object_get(s.out, "prompts"), *p;
  size_t i, n_ok = 0;
  json_array_foreach(prompts, i, p) n_ok += json_is_true(json_object_get(p, "pass"));
  bool ok = mx_qrun_ok(&s.r) && json_is_true(json_object_get(s.out, "pass"));
  gate(k, "packed", 4, ok ? "pass" : "fail", s.rel_log,
       "--quant packed, f32: %zu/%zu prompts token-exact with HF fp32 over %lld steps (weights packed on the device)", n_ok,
       json_array_size(prompts), (long long)json_integer_value(json_object_get(s.out, "steps")));
  step_free(&s);
}

/* The batch gate at a precision for B_max 4 and 8 (4 only when !both); the throughputs go to perf. */
static void batch_gate(kit_t *k, const char *precision, bool both, int runs) {
  char why[1024], id[32];
  if (guarded(k, precision, why, sizeof why)) {
    for (int b = 4; b <= (both ? 8 : 4); b += 4) {
      snprintf(id, sizeof id, "%s.batch%d", precision, b);
      gate(k, id, 3, "guarded", NULL, "%s", why);
    }
    return;
  }
  json_t *tps = json_object();
  for (int run = 0; run < runs; run++) {
    const char *args[32] = {"batch-bench", "-m", k->model, "--slots", both ? "4,8" : "4", "--precision", precision};
    int n = 7;
    device_args(k, args, &n);
    char dir[96];
    snprintf(dir, sizeof dir, "batch-%s", precision);
    if (k->o->prebuilt) args[n++] = "--vmfb-dir", args[n++] = prebuilt(k, dir);
    args[n] = NULL;
    char name[48];
    if (run) snprintf(name, sizeof name, "batch-%s-run%d", precision, run + 1);
    else snprintf(name, sizeof name, "batch-%s", precision);
    step_t s;
    step(k, name, args, true, 3600, &s);
    json_t *configs = json_object_get(s.out, "configs");
    if (run == 0) {
      failure(&s, why, sizeof why);
      for (int b = 4; b <= (both ? 8 : 4); b += 4) {
        snprintf(id, sizeof id, "%s.batch%d", precision, b);
        json_t *c = NULL, *x;
        size_t i;
        json_array_foreach(configs, i, x) if (json_integer_value(json_object_get(x, "slots")) == b) c = x;
        if (!c) {
          gate(k, id, 3, "fail", s.rel_log, "%s", why);
          continue;
        }
        bool ok = json_is_true(json_object_get(c, "pass"));
        mx_strbuf_t d;
        mx_strbuf_init(&d);
        size_t j;
        json_t *df;
        json_array_foreach(json_object_get(c, "differs"), j, df)
          mx_strbuf_printf(&d, "%s request %lld at token %lld", j ? "," : "; differing:",
                           (long long)json_integer_value(json_object_get(df, "request")),
                           (long long)json_integer_value(json_object_get(df, "token")));
        gate(k, id, 3, ok ? "pass" : "fail", s.rel_log,
             "%lld/%lld streams equal their single runs, %lld tokens, %lld admitted mid-generation%s",
             (long long)json_integer_value(json_object_get(c, "exact")), (long long)json_integer_value(json_object_get(c, "requests")),
             (long long)json_integer_value(json_object_get(c, "tokens")),
             (long long)json_integer_value(json_object_get(c, "admitted_mid")), d.data ? d.data : "");
        mx_strbuf_free(&d);
      }
    }
    json_t *x;
    size_t i;
    json_array_foreach(configs, i, x) {
      char key[8];
      snprintf(key, sizeof key, "b%lld", (long long)json_integer_value(json_object_get(x, "slots")));
      if (!json_object_get(tps, key)) json_object_set_new(tps, key, json_array());
      json_array_append_new(json_object_get(tps, key), json_real(json_number_value(json_object_get(x, "tok_per_s"))));
    }
    if (s.out && run == 0) {
      json_object_set_new(tps, "b1", json_array());
      json_array_append_new(json_object_get(tps, "b1"), json_real(json_number_value(json_object_get(s.out, "sequential_tok_per_s"))));
    }
    step_free(&s);
    if (mx_qrun_interrupted()) break;
  }
  json_t *pp = json_object_get(k->perf, precision);
  if (!pp) json_object_set_new(k->perf, precision, pp = json_object());
  json_object_set_new(pp, "batch_tok_per_s", tps);
}

/* ---- the server and the soak ------------------------------------------------------------------- */

static const char *soak_prompts[] = {"The capital of France is", "Once upon a time", "def fibonacci(n):",
                                     "The three primary colors are", "Water boils at"};
#define SOAK_TOKENS 24
#define SERVED_NAME "mlxcel-qualify"

typedef struct {
  int port;
  const char *prompt;
  int max_tokens;
  bool stream;
  mx_status_t st;
  mx_http_reply_t reply;
} completion_t;

static void *completion_thread(void *arg) {
  completion_t *c = arg;
  json_t *req = json_pack("{s:s, s:s, s:i, s:f, s:b}", "model", SERVED_NAME, "prompt", c->prompt, "max_tokens", c->max_tokens,
                          "temperature", 0.0, "stream", c->stream);
  char *body = json_dumps(req, 0);
  json_decref(req);
  c->st = mx_http_request(c->port, "POST", "/v1/completions", body, 600, &c->reply);
  free(body);
  return NULL;
}

/* A non-streaming answer's text, finish reason and usage; false if it is not one. */
static bool parse_completion(const char *body, char *text, size_t cap, char *finish, size_t fcap, json_int_t usage[3]) {
  json_t *j = json_loads(body, 0, NULL), *ch = json_array_get(json_object_get(j, "choices"), 0);
  const char *t = json_string_value(json_object_get(ch, "text")), *f = json_string_value(json_object_get(ch, "finish_reason"));
  json_t *u = json_object_get(j, "usage");
  bool ok = t && f && u;
  if (ok) {
    snprintf(text, cap, "%s", t);
    snprintf(finish, fcap, "%s", f);
    usage[0] = json_integer_value(json_object_get(u, "prompt_tokens"));
    usage[1] = json_integer_value(json_object_get(u, "completion_tokens"));
    usage[2] = json_integer_value(json_object_get(u, "total_tokens"));
  }
  json_decref(j);
  return ok;
}

/* A streamed answer (SSE): the concatenated text, the last finish reason, and whether [DONE] ended it. */
static bool parse_stream(const char *body, char *text, size_t cap, char *finish, size_t fcap) {
  size_t len = 0;
  bool done = false;
  text[0] = finish[0] = 0;
  const char *p = body;
  while ((p = strstr(p, "data: ")) != NULL) {
    p += 6;
    const char *e = strstr(p, "\n");
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n >= 6 && !strncmp(p, "[DONE]", 6)) {
      done = true;
      break;
    }
    json_t *j = json_loadb(p, n, 0, NULL), *ch = json_array_get(json_object_get(j, "choices"), 0);
    const char *t = json_string_value(json_object_get(ch, "text")), *f = json_string_value(json_object_get(ch, "finish_reason"));
    if (t && len + strlen(t) < cap) {
      memcpy(text + len, t, strlen(t) + 1);
      len += strlen(t);
    }
    if (f) snprintf(finish, fcap, "%s", f);
    json_decref(j);
    p += n;
  }
  return done;
}

/* A gauge of /metrics summed over devices, or -1. */
static double metric(int port, const char *name) {
  mx_http_reply_t r;
  mx_status_t st = mx_http_request(port, "GET", "/metrics", NULL, 30, &r);
  if (st) {
    mx_status_free(st);
    return -1;
  }
  double sum = -1;
  size_t n = strlen(name);
  for (char *line = strtok(r.body, "\n"); line; line = strtok(NULL, "\n"))
    if (!strncmp(line, name, n) && (line[n] == ' ' || line[n] == '{')) {
      const char *v = strrchr(line, ' ');
      sum = (sum < 0 ? 0 : sum) + (v ? atof(v + 1) : 0);
    }
  free(r.body);
  return sum;
}

/* Resident memory of the server's children (the device workers), in bytes; -1 if unknown. */
static double worker_rss(pid_t server) {
  char p[64], *kids = NULL;
  snprintf(p, sizeof p, "/proc/%d/task/%d/children", (int)server, (int)server);
  mx_status_ignore(mx_read_stream(p, 1 << 16, &kids));
  if (!kids) return -1;
  double sum = 0;
  for (char *t = strtok(kids, " \n"); t; t = strtok(NULL, " \n")) {
    char sp[64], *status = NULL;
    snprintf(sp, sizeof sp, "/proc/%s/status", t);
    mx_status_ignore(mx_read_stream(sp, 1 << 16, &status));
    const char *v = status ? strstr(status, "VmRSS:") : NULL;
    if (v) sum += atof(v + 6) * 1024;
    free(status);
  }
  free(kids);
  return sum;
}

/* GPU memory in use on the device's index by nvidia-smi (bytes), or -1. */
static double gpu_used(const kit_t *k) {
  if (strcmp(k->target.driver, "cuda") != 0) return -1;
  char log[MX_PATH_MAX], exe[] = "/usr/bin/nvidia-smi", q[] = "--query-gpu=index,memory.used",
                          f[] = "--format=csv,noheader,nounits";
  if (access(exe, X_OK) != 0) return -1;
  snprintf(log, sizeof log, "%s/logs/nvidia-smi-memory.txt", k->dir);
  char *argv[] = {exe, q, f, NULL};
  mx_qrun_result_t r;
  char *text = NULL;
  mx_status_free(mx_qrun_capture(argv, log, 20, &r, &text));
  double used = -1;
  char drv[32];
  int index = 0;
  mx_status_ignore(mx_device_uri_parse(k->device, drv, sizeof drv, &index));
  if (index < 0) index = 0;
  for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n"))
    if (atoi(line) == index && strchr(line, ',')) used = atof(strchr(line, ',') + 1) * 1024 * 1024;
  free(text);
  return used;
}

/* Least-squares growth over the rounds of a series (slope x (n - 1)); 0 with fewer than 2 points. */
static double growth(const double *y, int n) {
  if (n < 2) return 0;
  double mx = (n - 1) / 2.0, my = 0, sxy = 0, sxx = 0;
  for (int i = 0; i < n; i++) my += y[i] / n;
  for (int i = 0; i < n; i++) sxy += (i - mx) * (y[i] - my), sxx += (i - mx) * (i - mx);
  return sxx > 0 ? sxy / sxx * (n - 1) : 0;
}

/* The soak's memory rule: growth above max(32 MiB, 5% of the first reading) fails. */
static bool grows(const double *y, int n, double *g) {
  *g = growth(y, n);
  return y[0] >= 0 && *g > fmax(32.0 * 1024 * 1024, 0.05 * y[0]);
}

#define SOAK_MAX_ROUNDS 100000
#define N_SOAK ((int)(sizeof soak_prompts / sizeof soak_prompts[0]))

static void phase_serve_and_soak(kit_t *k) {
  int port = 0;
  char why[1024], mod[96];
  mx_status_t st = mx_http_free_port(&port);
  if (st) {
    gate(k, "server", 3, "fail", NULL, "%s", mx_status_message(st));
    mx_status_free(st);
    gate(k, "soak", 3, "not_run", NULL, "the server did not start");
    return;
  }
  char ports[16];
  snprintf(ports, sizeof ports, "%d", port);
  const char *args[32] = {"serve", "-m", k->model, "--model-name", SERVED_NAME, "--port", ports, "--slots", "4",
                          "--timeout", "600", "--quiet"};
  int n = 12;
  device_args(k, args, &n);
  if (k->o->prebuilt) {
    module_name(mod, sizeof mod, "serve", "f32", 4);
    args[n++] = "--vmfb", args[n++] = prebuilt(k, mod);
  }
  args[n] = NULL;
  double before_start = gpu_used(k);
  step_t srv;
  pid_t pid;
  step_start(k, "serve", args, false, &srv, &pid);
  const char *rel = srv.rel_log;
  if (!pid) {
    gate(k, "server", 3, "fail", rel, "%s", srv.how);
    gate(k, "soak", 3, "not_run", NULL, "the server did not start");
    return;
  }
  /* Ready when /health answers 200 (the module compiles or loads first). */
  double t0 = mx_now_ms();
  bool ready = false;
  while (!ready && mx_now_ms() - t0 < 1800e3 && !mx_qrun_interrupted() && kill(pid, 0) == 0) {
    mx_http_reply_t r;
    mx_status_t hs = mx_http_request(port, "GET", "/health", NULL, 5, &r);
    if (!hs) ready = r.status == 200, free(r.body);
    mx_status_free(hs);
    if (!ready) usleep(200000);
  }
  char fails[2048] = "";
  size_t fl = 0;
#define FAIL(...) (fl += (size_t)snprintf(fails + fl, fl < sizeof fails ? sizeof fails - fl : 0, __VA_ARGS__))
  if (!ready) FAIL("not ready within %.0f s; ", (mx_now_ms() - t0) / 1000);
  /* Non-streaming and streaming completions, against phase 2's greedy answer to the same prompt. */
  const char *want = json_string_value(json_object_get(k->gen_f32, "text"));
  json_int_t want_prompt = json_integer_value(json_object_get(k->gen_f32, "prompt_tokens"));
  json_int_t want_gen = json_integer_value(json_object_get(k->gen_f32, "generated_tokens"));
  bool want_eos = json_is_true(json_object_get(k->gen_f32, "eos"));
  char text[8192], finish[32], stext[8192], sfinish[32];
  json_int_t usage[3] = {0};
  if (ready) {
    completion_t c = {.port = port, .prompt = GEN_PROMPT, .max_tokens = GEN_TOKENS};
    completion_thread(&c);
    if (c.st || c.reply.status != 200 || !parse_completion(c.reply.body, text, sizeof text, finish, sizeof finish, usage))
      FAIL("non-streaming completion failed (%s, HTTP %d); ", c.st ? mx_status_message(c.st) : "bad answer", c.reply.status);
    else {
      if (want && strcmp(text, want)) FAIL("non-streaming text differs from `generate`'s; ");
      if (strcmp(finish, want_eos ? "stop" : "length")) FAIL("finish_reason %s, expected %s; ", finish, want_eos ? "stop" : "length");
      /* The server counts the end-of-sequence token it generated; `generate` prints the text without it. */
      json_int_t want_usage = want_gen + (want_eos ? 1 : 0);
      if (usage[0] != want_prompt || usage[1] != want_usage || usage[2] != usage[0] + usage[1])
        FAIL("usage %lld+%lld=%lld, expected %lld prompt and %lld completion tokens; ", (long long)usage[0],
             (long long)usage[1], (long long)usage[2], (long long)want_prompt, (long long)want_usage);
    }
    mx_status_free(c.st);
    free(c.reply.body);
    completion_t sc = {.port = port, .prompt = GEN_PROMPT, .max_tokens = GEN_TOKENS, .stream = true};
    completion_thread(&sc);
    if (sc.st || sc.reply.status != 200 || !parse_stream(sc.reply.body, stext, sizeof stext, sfinish, sizeof sfinish))
      FAIL("streaming completion failed or did not end with [DONE]; ");
    else {
      if (strcmp(stext, text)) FAIL("streamed text differs from the non-streaming text; ");
      if (strcmp(sfinish, finish)) FAIL("streamed finish_reason %s, non-streaming %s; ", sfinish, finish);
    }
    mx_status_free(sc.st);
    free(sc.reply.body);
  }
  bool server_ok = fails[0] == 0;
  /* The soak: rounds of one request alone and N_SOAK at once, until the time is up. */
  double soak_ms = k->soak_minutes * 60e3, s0 = mx_now_ms();
  static double dev_mem[SOAK_MAX_ROUNDS], rss[SOAK_MAX_ROUNDS], gpu[SOAK_MAX_ROUNDS];
  static char first[N_SOAK + 1][2048];
  int rounds = 0;
  char soak_fail[1024] = "";
  json_t *series = json_array();
  while (ready && rounds < SOAK_MAX_ROUNDS && !soak_fail[0] && !mx_qrun_interrupted() && (mx_now_ms() - s0 < soak_ms || rounds < 3)) {
    completion_t cs[N_SOAK + 1];
    pthread_t th[N_SOAK + 1];
    for (int i = 0; i <= N_SOAK; i++)
      cs[i] = (completion_t){.port = port, .prompt = soak_prompts[i ? i - 1 : 0], .max_tokens = SOAK_TOKENS};
    completion_thread(&cs[0]); /* alone: a single-sequence round */
    for (int i = 1; i <= N_SOAK; i++) pthread_create(&th[i], NULL, completion_thread, &cs[i]);
    for (int i = 1; i <= N_SOAK; i++) pthread_join(th[i], NULL);
    for (int i = 0; i <= N_SOAK; i++) {
      char t[2048], f[32];
      json_int_t u[3];
      if (!soak_fail[0] && (cs[i].st || cs[i].reply.status != 200 || !parse_completion(cs[i].reply.body, t, sizeof t, f, sizeof f, u)))
        snprintf(soak_fail, sizeof soak_fail, "round %d request %d failed (%s, HTTP %d)", rounds + 1, i,
                 cs[i].st ? mx_status_message(cs[i].st) : "bad answer", cs[i].reply.status);
      else if (!soak_fail[0] && rounds == 0) snprintf(first[i], sizeof first[i], "%s", t);
      else if (!soak_fail[0] && strcmp(first[i], t))
        snprintf(soak_fail, sizeof soak_fail, "round %d request %d: the text differs from round 1", rounds + 1, i);
      mx_status_free(cs[i].st);
      free(cs[i].reply.body);
    }
    if (kill(pid, 0) != 0) snprintf(soak_fail, sizeof soak_fail, "the server died in round %d", rounds + 1);
    dev_mem[rounds] = metric(port, "mlxcel_device_memory_bytes");
    rss[rounds] = worker_rss(pid);
    gpu[rounds] = gpu_used(k);
    json_array_append_new(series, json_pack("{s:i, s:f, s:f, s:f, s:f}", "round", rounds + 1, "t_s",
                                            (mx_now_ms() - s0) / 1000, "device_bytes", dev_mem[rounds], "worker_rss_bytes",
                                            rss[rounds], "gpu_used_bytes", gpu[rounds]));
    rounds++;
  }
  double soak_min = (mx_now_ms() - s0) / 60e3;
  double g_dev = 0, g_rss = 0, g_gpu = 0;
  if (!soak_fail[0] && ready) {
    if (grows(dev_mem, rounds, &g_dev)) snprintf(soak_fail, sizeof soak_fail, "device memory grows %.1f MiB over %d rounds", g_dev / 1048576, rounds);
    else if (grows(rss, rounds, &g_rss)) snprintf(soak_fail, sizeof soak_fail, "the worker's resident memory grows %.1f MiB over %d rounds", g_rss / 1048576, rounds);
    else if (grows(gpu, rounds, &g_gpu)) snprintf(soak_fail, sizeof soak_fail, "GPU memory in use grows %.1f MiB over %d rounds", g_gpu / 1048576, rounds);
  }
  double before_stop = gpu_used(k);
  /* Clean shutdown: SIGTERM, exit 0, nothing left of its process group. */
  mx_qrun_result_t r;
  mx_qrun_stop(pid, 60, &r);
  char how[200];
  mx_qrun_describe(&r, how, sizeof how);
  if (!mx_qrun_ok(&r)) FAIL("shutdown: %s; ", how);
  double after_stop = gpu_used(k);
  /* Device state left behind: GPU memory in use after the server stopped, above what it was before
   * it started (64 MiB of slack for the driver's own bookkeeping). */
  if (!soak_fail[0] && before_start >= 0 && after_stop > before_start + 64.0 * 1024 * 1024)
    snprintf(soak_fail, sizeof soak_fail, "%.0f MiB of GPU memory still in use after the server stopped (%.0f before it started)",
             after_stop / 1048576, before_start / 1048576);
  json_t *soak = json_pack("{s:i, s:f, s:f, s:f, s:f, s:o, s:f, s:f}", "rounds", rounds, "minutes", soak_min,
                           "device_growth_bytes", g_dev, "worker_rss_growth_bytes", g_rss, "gpu_growth_bytes", g_gpu,
                           "series", series, "gpu_used_before_stop", before_stop, "gpu_used_after_stop", after_stop);
  json_object_set_new(soak, "gpu_used_before_start", json_real(before_start));
  json_object_set_new(k->results, "soak", soak);
  json_object_set_new(k->results, "soak_minutes", json_real(soak_min));
  if (server_ok && fails[0]) server_ok = false;
  if (fails[0]) fails[strlen(fails) - 2] = 0;
  if (server_ok)
    gate(k, "server", 3, "pass", rel,
         "/v1/completions: non-streaming text equals `generate`'s (%lld tokens, finish %s, usage %lld+%lld=%lld%s), "
         "streaming equals it and ends with [DONE]; SIGTERM: %s",
         (long long)want_gen, finish, (long long)usage[0], (long long)usage[1], (long long)usage[2],
         want_eos ? ", the end-of-sequence token counted" : "", how);
  else
    gate(k, "server", 3, "fail", rel, "%s", fails);
  if (!ready)
    gate(k, "soak", 3, "not_run", NULL, "the server did not become ready");
  else if (mx_qrun_interrupted())
    gate(k, "soak", 3, "not_run", rel, "interrupted after %d rounds", rounds);
  else if (soak_fail[0])
    gate(k, "soak", 3, "fail", rel, "%s", soak_fail);
  else
    gate(k, "soak", 3, "pass", rel,
         "%d rounds in %.1f min (1 request alone, then %d at once, each round equal to round 1); growth by a "
         "least-squares fit: device allocator %.1f MiB, worker RSS %.1f MiB%s",
         rounds, soak_min, N_SOAK, g_dev / 1048576, g_rss / 1048576, gpu[0] >= 0 ? ", GPU memory in use (nvidia-smi) in results.json" : "");
  (void)why;
#undef FAIL
}

/* ---- phase 4: characterisation ----------------------------------------------------------------- */

static json_t *summary(double *v, int n) {
  mx_summary_t m = mx_summarize(v, n);
  return json_pack("{s:f, s:f, s:f, s:i}", "median", n ? m.median : 0.0, "min", n ? m.min : 0.0, "max", n ? m.max : 0.0, "runs", n);
}

static void phase_perf(kit_t *k, const char *precision) {
  char why[256];
  if (guarded(k, precision, why, sizeof why)) return;
  json_t *pp = json_object_get(k->perf, precision);
  if (!pp) json_object_set_new(k->perf, precision, pp = json_object());
  /* Cold compile: the whole module, no cache (the compile command never reads it). A quick run times the
   * first precision's only: each is a few minutes of a small machine's cores, and --full times them all. */
  if (!k->o->prebuilt && (k->full || !k->compile_timed)) {
    k->compile_timed = true;
    const char *args[24] = {"compile", "-m", k->model, "--precision", precision};
    int n = 5;
    device_args(k, args, &n);
    args[n] = NULL;
    step_t s;
    char name[32];
    snprintf(name, sizeof name, "compile-%s", precision);
    step(k, name, args, false, 3600, &s);
    char *text = NULL;
    mx_status_ignore(mx_read_file(s.log, 1 << 20, &text, NULL));
    const char *in = text ? strstr(text, " in ") : NULL;
    if (mx_qrun_ok(&s.r) && in) json_object_set_new(pp, "cold_compile_s", json_real(atof(in + 4)));
    free(text);
    step_free(&s);
  }
  double prefill[16], decode[16], load[16], peak = 0;
  int runs = 0;
  for (int i = 0; i <= k->perf_runs && !mx_qrun_interrupted(); i++) {
    step_t s;
    char name[48];
    snprintf(name, sizeof name, "perf-%s-%s%d", precision, i ? "run" : "warmup", i);
    generate(k, name, precision, PERF_TOKENS, &s);
    if (mx_qrun_ok(&s.r) && s.out && i > 0) {
      prefill[runs] = json_number_value(json_object_get(s.out, "prefill_ms"));
      decode[runs] = json_number_value(json_object_get(s.out, "decode_tok_per_s"));
      load[runs] = json_number_value(json_object_get(s.out, "load_ms"));
      double p = (double)json_integer_value(json_object_get(s.out, "peak_device_bytes"));
      if (p > peak) peak = p;
      if (!json_object_get(pp, "prompt_tokens"))
        json_object_set_new(pp, "prompt_tokens", json_integer(json_integer_value(json_object_get(s.out, "prompt_tokens"))));
      runs++;
    }
    step_free(&s);
  }
  json_object_set_new(pp, "prefill_ms", summary(prefill, runs));
  json_object_set_new(pp, "decode_tok_per_s", summary(decode, runs));
  json_object_set_new(pp, "warm_load_ms", summary(load, runs));
  json_object_set_new(pp, "peak_device_bytes", json_real(peak));
  json_object_set_new(pp, "new_tokens", json_integer(PERF_TOKENS));
  save(k);
}

/* ---- --prepare: the modules a --prebuilt run loads ---------------------------------------------- */

static int prepare(kit_t *k) {
  const char *dir = k->o->prepare;
  char p[MX_PATH_MAX];
  mx_status_t st = mx_mkdirs(dir);
  if (st) return mx_cli_report(st);
  snprintf(p, sizeof p, "%s/smoke", dir);
  struct {
    const char *use, *precision, *context;
    int slots;
    bool score;
  } mods[] = {
      {"check", "f32", "128", 0, false}, {"score", "f32", "128", 0, true}, {"score", "f16", "128", 0, true},
      {"score", "bf16", "128", 0, true}, {"generate", "f32", "512", 0, false}, {"generate", "f16", "512", 0, false},
      {"generate", "bf16", "512", 0, false}, {"serve", "f32", "512", 4, false}, {"batch", "f32", "256", 1, false},
      {"batch", "f32", "256", 4, false}, {"batch", "f32", "256", 8, false}, {"batch", "f16", "256", 1, false},
      {"batch", "f16", "256", 4, false}, {"batch", "f16", "256", 8, false}, {"batch", "bf16", "256", 1, false},
      {"batch", "bf16", "256", 4, false},
  };
  const char *sargs[24] = {"smoke", "--compile-only", p};
  int n = 3;
  device_args(k, sargs, &n);
  sargs[n] = NULL;
  step_t s;
  step(k, "prepare-smoke", sargs, false, 600, &s);
  int failed = !mx_qrun_ok(&s.r);
  step_free(&s);
  for (size_t i = 0; i < sizeof mods / sizeof mods[0] && !mx_qrun_interrupted(); i++) {
    char why[256], mod[96], out[MX_PATH_MAX], slots[8];
    if (guarded(k, mods[i].precision, why, sizeof why)) continue;
    module_name(mod, sizeof mod, mods[i].use, mods[i].precision, mods[i].slots);
    snprintf(out, sizeof out, "%s/%s", dir, mod);
    char *slash = strrchr(out, '/');
    *slash = 0;
    mx_status_ignore(mx_mkdirs(out));
    *slash = '/';
    snprintf(slots, sizeof slots, "%d", mods[i].slots ? mods[i].slots : 1);
    const char *args[32] = {"compile", "-m", k->model, "--precision", mods[i].precision, "--context", mods[i].context,
                            "--slots", slots, "-o", out};
    n = 11;
    if (mods[i].score) args[n++] = "--score";
    device_args(k, args, &n);
    args[n] = NULL;
    fprintf(stderr, "mlxcel qualify: compiling %s\n", mod);
    step(k, "prepare", args, false, 3600, &s);
    failed += !mx_qrun_ok(&s.r);
    if (!mx_qrun_ok(&s.r)) fprintf(stderr, "mlxcel qualify: %s failed: %s (log %s)\n", mod, s.how, s.log);
    step_free(&s);
  }
  printf("mlxcel qualify: modules for %s in %s (%d failed); run `mlxcel qualify --prebuilt %s ...` on the device's host\n",
         k->target_label, dir, failed, dir);
  return failed ? MX_EXIT_FAIL : 0;
}

/* ---- the command ------------------------------------------------------------------------------- */

/* The HF oracle fixture the project ships for a model, by the model's file name. */
static void default_fixture(const char *model, char *out, size_t cap) {
  out[0] = 0;
  char self[MX_PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return;
  self[n] = 0;
  const char *base = strrchr(model, '/');
  base = base ? base + 1 : model;
  if (!base[0]) return; /* a directory given with a trailing slash: no guess */
  static const struct {
    const char *name, *fixture;
  } known[] = {{"SmolLM2-135M-Instruct.Q4_1.gguf", "smollm2.json"}, {"llama-3.2-1b-synth", "llama32-1b-synth.json"}};
  /* The binary sits in BUILD/ of the checkout; the fixtures in tests/oracle/fixtures/ beside it. */
  char *slash = strrchr(self, '/');
  if (slash) *slash = 0;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (!strcmp(base, known[i].name)) {
      char rel[MX_PATH_MAX + 64];
      snprintf(rel, sizeof rel, "%s/../tests/oracle/fixtures/%s", self, known[i].fixture);
      char *abs = realpath(rel, NULL);
      snprintf(out, cap, "%s", abs ? abs : "");
      free(abs);
    }
}

static bool dir_nonempty(const char *d) {
  if (!mx_is_dir(d)) return false;
  DIR *x = opendir(d);
  struct dirent *e;
  bool any = false;
  while (x && (e = readdir(x)) != NULL) any = any || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
  if (x) closedir(x);
  return any;
}

int mx_cmd_qualify(int argc, char **argv) {
  qual_opts_t o = {0};
  int code = parse_args(argc, argv, &o);
  if (code >= 0) return code;
  kit_t k = {.o = &o, .device = o.s.device, .full = o.full == 1};
  k.soak_minutes = o.soak_minutes > 0 ? o.soak_minutes : (k.full ? MX_QUAL_FULL_SOAK_MINUTES : 0.5);
  k.smoke_repeat = k.full ? 100 : 10;
  k.perf_runs = k.full ? 3 : 1;
  mx_status_t st = NULL;
  if (o.soak_minutes < 0 || o.soak_minutes > 24 * 60)
    st = mx_status_make(MX_STAGE_USAGE, "give --soak-minutes between 0 and 1440", "bad --soak-minutes %g", o.soak_minutes);
  mx_target_options_t to = mx_cli_target(&o.s);
  if (!st) st = mx_target_for_device(k.device, &to, &k.target);
  if (!st) mx_target_label(&k.target, k.target_label, sizeof k.target_label);
  /* The model: the one given, else the default model if it has been fetched. */
  char model[MX_PATH_MAX];
  if (!st && !o.model) {
    char root[MX_PATH_MAX];
    st = mx_cache_root(root, sizeof root);
    snprintf(model, sizeof model, "%s/models/SmolLM2-135M-Instruct.Q4_1.gguf", root);
    if (!st && !mx_file_exists(model))
      st = mx_status_make(MX_STAGE_USAGE, "pass -m MODEL, or fetch the default model with scripts/fetch-model.sh",
                          "no model: none given and the default model is not in %s/models", root);
    k.model = model;
  } else {
    k.model = o.model;
  }
  if (!st && !mx_file_exists(k.model) && !mx_is_dir(k.model))
    st = mx_status_make(MX_STAGE_USAGE, "pass an HF model directory or a GGUF file", "no model at %s", k.model);
  if (!st && o.prebuilt && !mx_is_dir(o.prebuilt))
    st = mx_status_make(MX_STAGE_USAGE, "make it with `mlxcel qualify --prepare DIR` where the compiler is",
                        "--prebuilt %s is not a directory", o.prebuilt);
  ssize_t sn = readlink("/proc/self/exe", k.self, sizeof k.self - 1);
  if (!st && sn <= 0) st = mx_status_make(MX_STAGE_IO, "run mlxcel from a readable path", "cannot find my own executable");
  if (sn > 0) k.self[sn] = 0;
  if (st) return mx_cli_report(st);
  if (o.fixture) snprintf(k.fixture, sizeof k.fixture, "%s", o.fixture);
  else default_fixture(k.model, k.fixture, sizeof k.fixture);
  if (o.fixture && !mx_file_exists(o.fixture))
    return mx_cli_report(mx_status_make(MX_STAGE_USAGE, "pass an existing fixture", "no fixture at %s", o.fixture));

  /* The output directory: never someone else's results. */
  char out[MX_PATH_MAX];
  if (o.out) {
    snprintf(out, sizeof out, "%s", o.out);
  } else {
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char dev[64];
    snprintf(dev, sizeof dev, "%s", k.device);
    for (char *c = dev; *c; c++)
      if (*c == ':' || *c == '/') *c = '-';
    snprintf(out, sizeof out, "qualify-%s-%04d%02d%02dT%02d%02d%02dZ", dev, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, tm.tm_sec);
  }
  if (o.prepare) snprintf(out, sizeof out, "%s/.prepare-logs", o.prepare);
  if (!o.prepare && dir_nonempty(out) && !o.force)
    return mx_cli_report(mx_status_make(MX_STAGE_USAGE, "choose another -o DIR, or add --force to write into it",
                                        "%s already holds results", out));
  k.dir = out;
  snprintf(k.logs, sizeof k.logs, "%s/logs", out);
  st = mx_mkdirs(k.logs);
  if (st) return mx_cli_report(st);
  mx_qrun_install_interrupt_handler();
  k.results = json_object();
  k.gates = json_array();
  k.commands = json_array();
  k.perf = json_object();
  if (o.prepare) {
    code = prepare(&k);
    json_decref(k.results);
    json_decref(k.gates);
    json_decref(k.commands);
    json_decref(k.perf);
    return mx_qrun_interrupted() ? 130 : code;
  }
  json_object_set_new(k.results, "schema", json_string("mlxcel-qualify-results"));
  json_object_set_new(k.results, "version", json_integer(1));
  json_object_set_new(k.results, "complete", json_false());
  json_object_set_new(k.results, "interrupted", json_false());
  json_object_set_new(k.results, "mode", json_string(k.full ? "full" : "quick"));
  json_object_set_new(k.results, "device", json_string(k.device));
  json_object_set_new(k.results, "target", json_string(k.target_label));
  json_object_set_new(k.results, "model", json_string(k.model));
  json_object_set_new(k.results, "fixture", k.fixture[0] ? json_string(k.fixture) : json_null());
  json_object_set_new(k.results, "prebuilt", o.prebuilt ? json_string(o.prebuilt) : json_null());
  json_object_set_new(k.results, "soak_minutes_requested", json_real(k.soak_minutes));
  if (o.note) json_object_set_new(k.results, "note", json_string(o.note));
  json_object_set(k.results, "gates", k.gates);
  json_object_set(k.results, "commands", k.commands);
  json_object_set(k.results, "performance", k.perf);
  double t0 = mx_now_ms();
  fprintf(stderr, "mlxcel qualify: %s (%s), model %s, %s run, writing %s\n", k.device, k.target_label, k.model,
          k.full ? "full" : "quick", out);

  /* Phase 0. */
  fprintf(stderr, "mlxcel qualify: phase 0: the machine baseline (hashing the model) ...\n");
  char baseline_logs[MX_PATH_MAX];
  snprintf(baseline_logs, sizeof baseline_logs, "%s/logs/baseline", out);
  st = mx_qual_baseline(baseline_logs, k.model, k.device, k.target_label, &k.env);
  if (st) return mx_cli_report(st);
  save(&k);

  /* Phases 1-4, each only where what it needs passed. */
  phase_toolchain(&k);
  bool tool_ok = passed(&k, "toolchain.compiler_target") && passed(&k, "toolchain.runtime_driver") &&
                 passed(&k, "toolchain.enumeration") && passed(&k, "toolchain.smoke");
  if (tool_ok && !mx_qrun_interrupted()) phase_engine(&k);
  bool engine_ok = tool_ok && passed(&k, "engine.generate");
  if (engine_ok && !mx_qrun_interrupted()) check_gate(&k, "f32");
  if (engine_ok && !mx_qrun_interrupted()) batch_gate(&k, "f32", true, k.perf_runs);
  if (engine_ok && !mx_qrun_interrupted()) check_gate(&k, "f16");
  if (engine_ok && !mx_qrun_interrupted()) batch_gate(&k, "f16", true, k.perf_runs);
  if (engine_ok && !mx_qrun_interrupted()) phase_serve_and_soak(&k);
  if (engine_ok && !mx_qrun_interrupted()) check_gate(&k, "bf16");
  if (engine_ok && !mx_qrun_interrupted()) batch_gate(&k, "bf16", false, 1);
  if (engine_ok && !mx_qrun_interrupted()) packed_gate(&k);
  static const char *precisions[] = {"f32", "f16", "bf16"};
  for (int i = 0; engine_ok && i < 3 && !mx_qrun_interrupted(); i++) phase_perf(&k, precisions[i]);

  bool interrupted = mx_qrun_interrupted();
  json_object_set_new(k.results, "interrupted", json_boolean(interrupted));
  json_object_set_new(k.results, "complete", json_boolean(!interrupted));
  json_object_set_new(k.results, "wall_minutes", json_real((mx_now_ms() - t0) / 60e3));
  save(&k);
  json_t *d = json_object_get(k.results, "decision");
  printf("mlxcel qualify: %s: %s\n  %s\n  report: %s/findings.md\n", k.device,
         json_string_value(json_object_get(d, "verdict")), json_string_value(json_object_get(d, "boundary")), out);
  json_decref(k.env);
  json_decref(k.gen_f32);
  json_decref(k.results);
  json_decref(k.gates);
  json_decref(k.commands);
  json_decref(k.perf);
  if (interrupted) {
    fprintf(stderr, "mlxcel qualify: interrupted; the partial results in %s are marked incomplete\n", out);
    return 130;
  }
  return 0;
}
