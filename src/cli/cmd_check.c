/* mlxcel check: our greedy trajectories against an oracle fixture (HF transformers fp32, made by
 * tests/oracle/hf_trajectory.py), and a low precision against our own f32 (the low-precision rule,
 * engine/divergence.h). --json writes what the table shows, for `mlxcel qualify`. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/file.h"
#include "cli/cli.h"
#include "engine/divergence.h"
#include "engine/sequence.h"
#include "engine/session.h"

typedef struct {
  const char *name;
  int32_t *prompt, *ref;
  double *margins;
  int n_prompt, n_ref;
} case_t;

/* The command line as the option table reads it. */
typedef struct {
  mx_cli_session_args_t s;
  const char *fixture, *json, *ref_vmfb;
  long steps;
} check_opts_t;

static const mx_opt_t check_rows[] = {
    MX_OPT_ROW(check_opts_t, fixture, .name = "--fixture", .metavar = "FIXTURE.json", .flags = MX_OPT_REQUIRED,
               .help = "an oracle fixture (tests/oracle/fixtures/*.json, made by tests/oracle/hf_trajectory.py)"),
    MX_OPT_ROW(check_opts_t, steps, .name = "--steps", .kind = MX_OPT_INT, .metavar = "N", .lo = 1, .hi = 4096,
               .def = "64", .help = "greedy steps per prompt (at most the fixture's)"),
    MX_OPT_ROW(check_opts_t, ref_vmfb, .name = "--ref-vmfb", .metavar = "PATH",
               .help = "with --precision f16|bf16 and --vmfb: the f32 reference module (both from `mlxcel compile "
                       "--score`)"),
    MX_OPT_ROW(check_opts_t, json, .name = "--json", .metavar = "PATH",
               .help = "also write the results as JSON (the format: docs/qualification.md)"),
};

/* The fixtures' prompts and trajectories are short: a small graph compiles and runs faster. */
static const mx_opt_default_t check_defaults[] = {{"--context", "128", "the fixtures are short"}, {NULL}};

/* -1 when the check should run, else the exit code (after --help or a usage error). */
static int parse_args(int argc, char **argv, check_opts_t *a) {
  mx_opt_cmd_t c = {
      .prog = "mlxcel check",
      .synopsis = "-m MODEL --fixture FIXTURE.json [options]",
      .about = "Runs every prompt of an oracle fixture (prompt ids, the HF fp32 greedy trajectory and its top-2 "
               "margins) through the engine and prints, per prompt, whether our greedy trajectory is token-exact and "
               "otherwise the first divergent step and the oracle's margin there. With --precision f16/bf16 it also "
               "runs f32 and applies the low-precision rule (docs/engine.md): teacher-forced along the f32 "
               "trajectory, no top-1 flip where the f32 margin exceeds 4 sigma of the precision's own measured gap "
               "noise, perplexity within 1%, mean KL below 0.001 nats, and top-1 agreement >= 98% pooled over all "
               "steps. Exit 0 when every prompt passes, 1 otherwise.",
      .sets = {mx_cli_session_set(&a->s, MX_CLI_MODEL), MX_OPT_SET(check_rows, a),
               mx_cli_session_set(&a->s, MX_CLI_DEVICE | MX_CLI_GRAPH | MX_CLI_VMFB)},
      .defaults = check_defaults,
  };
  return mx_cli_parse(&c, argc, argv);
}

static int32_t *ids_of(json_t *a, int *n) {
  *n = (int)json_array_size(a);
  int32_t *v = calloc((size_t)*n + 1, sizeof *v);
  for (int i = 0; v && i < *n; i++) v[i] = (int32_t)json_integer_value(json_array_get(a, (size_t)i));
  return v;
}

static mx_status_t load_fixture(const char *path, json_t **root, case_t **cases, int *n) {
  char *text;
  MX_RETURN_IF_ERROR(mx_read_file(path, 64u << 20, &text, NULL));
  json_error_t jerr;
  *root = json_loads(text, 0, &jerr);
  free(text);
  json_t *prompts = json_object_get(*root, "prompts");
  if (!json_is_array(prompts) || json_array_size(prompts) == 0)
    return mx_status_make(MX_STAGE_USAGE, "pass a fixture made by tests/oracle/hf_trajectory.py", "%s has no prompts", path);
  *n = (int)json_array_size(prompts);
  *cases = calloc((size_t)*n, sizeof **cases);
  for (int i = 0; i < *n; i++) {
    json_t *p = json_array_get(prompts, (size_t)i);
    case_t *c = &(*cases)[i];
    c->name = json_string_value(json_object_get(p, "name"));
    c->prompt = ids_of(json_object_get(p, "prompt_ids"), &c->n_prompt);
    c->ref = ids_of(json_object_get(p, "greedy_ids"), &c->n_ref);
    json_t *m = json_object_get(p, "margins");
    c->margins = calloc((size_t)c->n_ref + 1, sizeof *c->margins);
    for (int k = 0; k < c->n_ref && c->margins; k++) c->margins[k] = json_number_value(json_array_get(m, (size_t)k));
    if (!c->name || c->n_prompt < 1 || c->n_ref < 1) return mx_status_make(MX_STAGE_USAGE, "pass a fixture made by tests/oracle/hf_trajectory.py", "%s: prompt %d is incomplete", path, i);
  }
  return NULL;
}

/* Greedy trajectory of `steps` tokens after the prompt (end-of-sequence tokens do not stop it). */
static mx_status_t greedy(mx_session_t *s, const case_t *c, int steps, int32_t *out, double *ms_per_token) {
  mx_seq_t q;
  mx_seq_params_t p = {.max_tokens = steps, .sampling = {.top_p = 1, .repeat_penalty = 1}, .ignore_eos = true};
  MX_RETURN_IF_ERROR(mx_seq_init(&q, s, c->prompt, c->n_prompt, &p));
  mx_seq_timing_t t;
  mx_status_t st = mx_seq_generate(s, &q, NULL, NULL, &t);
  if (!st) memcpy(out, mx_seq_tokens(&q), sizeof *out * (size_t)steps);
  *ms_per_token = steps > 1 ? t.decode_ms / (steps - 1) : 0;
  mx_seq_free(&q);
  return st;
}

/* Low precision against our own f32: the low-precision rule per prompt, then pooled. */
static mx_status_t check_low_precision(mx_session_t *ref_s, mx_session_t *low_s, case_t *cases, int n, int steps,
                                       int *passed, bool *all_pass, double *pooled, json_t *rows) {
  int32_t *ref = calloc((size_t)steps + 1, sizeof *ref), *low = calloc((size_t)steps + 1, sizeof *low);
  mx_lowprec_t *r = calloc((size_t)n, sizeof *r);
  if (!ref || !low || !r) {
    free(ref);
    free(low);
    free(r);
    return mx_status_oom();
  }
  printf("  %-14s %9s %8s %7s %12s %9s %10s %10s %9s %6s\n", "prompt", "free div", "margin", "sigma", "flips/counted",
         "agree", "mean KL", "ppl ratio", "min cnt", "rule");
  mx_status_t st = NULL;
  for (int i = 0; !st && i < n; i++) {
    double ms;
    st = greedy(ref_s, &cases[i], steps, ref, &ms);
    if (!st) st = greedy(low_s, &cases[i], steps, low, &ms);
    if (!st) st = mx_lowprec_measure(ref_s, low_s, cases[i].prompt, cases[i].n_prompt, ref, low, steps, &r[i]);
    if (st) break;
    bool ok = mx_lowprec_prompt_passes(&r[i]);
    *passed += ok;
    char div[16] = "-", margin[16] = "-", cnt[16] = "-";
    if (r[i].free_div >= 0) {
      snprintf(div, sizeof div, "%d", r[i].free_div);
      snprintf(margin, sizeof margin, "%.4f", r[i].free_margin);
    }
    if (r[i].counted_flips) snprintf(cnt, sizeof cnt, "%.4f", r[i].min_counted_margin);
    char flips[24];
    snprintf(flips, sizeof flips, "%d/%d", r[i].flips, r[i].counted_flips);
    printf("  %-14s %9s %8s %7.4f %12s %8.1f%% %10.2e %10.5f %9s %6s\n", cases[i].name, div, margin, r[i].sigma, flips,
           100 * r[i].agreement, r[i].kl_mean, r[i].ppl_ratio, cnt, ok ? "PASS" : "FAIL");
    json_array_append_new(rows, json_pack("{s:s, s:i, s:i, s:f, s:f, s:i, s:i, s:f, s:f, s:f, s:b}", "name", cases[i].name,
                                          "steps", r[i].steps, "free_div", r[i].free_div, "free_margin", r[i].free_margin,
                                          "sigma", r[i].sigma, "flips", r[i].flips, "counted_flips", r[i].counted_flips,
                                          "agreement", r[i].agreement, "kl_mean", r[i].kl_mean, "ppl_ratio",
                                          r[i].ppl_ratio, "pass", ok));
  }
  if (!st) {
    *all_pass = mx_lowprec_passes(r, n, pooled);
    printf("  pooled top-1 agreement %.2f%% (bound %.0f%%): the precision %s the low-precision rule\n", 100 * *pooled,
           100 * MX_LOWPREC_AGREEMENT, *all_pass ? "PASSES" : "FAILS");
  }
  free(ref);
  free(low);
  free(r);
  return st;
}

int mx_cmd_check(int argc, char **argv) {
  check_opts_t a = {0};
  int code = parse_args(argc, argv, &a);
  if (code >= 0) return code;
  const char *model = a.s.model, *fixture = a.fixture, *vmfb = a.s.vmfb;
  mx_session_options_t o;
  mx_status_t st = mx_cli_session_options(&a.s, &o);
  long steps = a.steps;
  json_t *root = NULL;
  case_t *cases = NULL;
  int n = 0;
  if (!st) st = load_fixture(fixture, &root, &cases, &n);
  mx_session_t *s = NULL, *ref_s = NULL;
  bool low = !st && o.precision != MX_F32;
  if (!st && low && (vmfb != NULL) != (a.ref_vmfb != NULL))
    st = mx_status_make(MX_STAGE_USAGE, "give both --vmfb and --ref-vmfb (from `mlxcel compile --score`), or neither",
                        "a low-precision check from prebuilt modules needs the f32 reference module too");
  if (!st && !low && a.ref_vmfb)
    st = mx_status_make(MX_STAGE_USAGE, "drop --ref-vmfb", "--ref-vmfb is for --precision f16|bf16");
  if (low) o.score_len = MX_LLAMA_SCORE_CAPACITY; /* teacher forcing scores prompt + trajectory in one call */
  if (!st) st = mx_session_open(&o, &s);
  if (!st && low) {
    mx_session_options_t ro = o;
    ro.precision = MX_F32;
    ro.kv = MX_F32; /* the reference is the exact mode */
    ro.vmfb = a.ref_vmfb;
    st = mx_session_open(&ro, &ref_s);
    if (!st) st = mx_session_start(ref_s);
  }
  for (int i = 0; !st && i < n; i++) {
    if (cases[i].n_ref < steps) steps = cases[i].n_ref;
    if (cases[i].n_prompt + steps > mx_session_capacity(s)) /* the session's: --context 0 is resolved there */
      st = mx_status_make(MX_STAGE_USAGE, "raise --context", "prompt %s needs %ld positions; the context capacity is %d",
                          cases[i].name, cases[i].n_prompt + steps, mx_session_capacity(s));
  }
  if (!st) st = mx_session_start(s);
  int passed = 0;
  int32_t *ours = calloc((size_t)steps + 1, sizeof *ours);
  if (!st) {
    const mx_session_timings_t *t = mx_session_timings(s);
    printf("mlxcel check: %s on %s, %s, %ld greedy steps per prompt, fixture %s\n", model, o.device, mx_dtype_name(o.precision),
           steps, fixture);
    printf("  compile %s %.1f s, load %.1f s\n", t->compile_hit ? "(cache hit)" : "", t->compile_ms / 1000, t->load_ms / 1000);
    if (!low) printf("  %-14s %8s %8s %10s %12s %10s\n", "prompt", "tokens", "result", "first div", "oracle margin", "ms/token");
  }
  json_t *rows = json_array();
  bool low_pass = false;
  double pooled = 0;
  if (!st && low) {
    printf("  against our own f32, teacher-forced along its trajectory (the low-precision rule: a top-1 flip counts\n"
           "  where the f32 margin exceeds %.0f sigma; pass: none counted, |ppl ratio - 1| <= %.2f, mean KL < %.0e;\n"
           "  pooled agreement >= %.0f%%)\n",
           MX_LOWPREC_SIGMAS, MX_LOWPREC_PPL_TOLERANCE, MX_LOWPREC_KL_BOUND, 100 * MX_LOWPREC_AGREEMENT);
    st = check_low_precision(ref_s, s, cases, n, (int)steps, &passed, &low_pass, &pooled, rows);
  }
  for (int i = 0; !st && !low && i < n; i++) {
    double ms;
    st = greedy(s, &cases[i], (int)steps, ours, &ms);
    if (st) break;
    int div = -1;
    for (int k = 0; k < steps && div < 0; k++)
      if (ours[k] != cases[i].ref[k]) div = k;
    json_array_append_new(rows, json_pack("{s:s, s:i, s:i, s:f, s:f, s:b}", "name", cases[i].name, "prompt_tokens",
                                          cases[i].n_prompt, "first_div", div, "oracle_margin",
                                          div < 0 ? 0.0 : cases[i].margins[div], "ms_per_token", ms, "pass", div < 0));
    if (div < 0) {
      passed++;
      printf("  %-14s %8d %8s %10s %12s %10.1f\n", cases[i].name, cases[i].n_prompt, "exact", "-", "-", ms);
    } else {
      printf("  %-14s %8d %8s %10d %12.4f %10.1f   (ours %d, oracle %d)\n", cases[i].name, cases[i].n_prompt, "DIVERGED", div,
             cases[i].margins[div], ms, ours[div], cases[i].ref[div]);
    }
  }
  bool ok = low ? low_pass : passed == n;
  if (!st) printf("%d passed, %d failed\n", passed, n - passed);
  if (!st && a.json) {
    const mx_session_timings_t *t = mx_session_timings(s);
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:i, s:b, s:f, s:f, s:O, s:b}", "command", "check", "device", o.device,
                          "precision", mx_dtype_name(o.precision), "fixture", fixture, "steps", (int)steps,
                          "compile_cache_hit", t->compile_hit, "compile_ms", t->compile_ms, "load_ms", t->load_ms,
                          "prompts", rows, "pass", ok);
    if (j && low) json_object_set_new(j, "pooled_agreement", json_real(pooled)); /* as the rule computed it */
    st = mx_cli_write_json(a.json, j);
  }
  json_decref(rows);
  free(ours);
  for (int i = 0; i < n && cases; i++) {
    free(cases[i].prompt);
    free(cases[i].ref);
    free(cases[i].margins);
  }
  free(cases);
  json_decref(root);
  mx_session_close(s);
  mx_session_close(ref_s);
  if (st) return mx_cli_report(st);
  return ok ? 0 : MX_EXIT_FAIL;
}
