/* mlxcel batch-bench: the reference-exact gate for continuous batching, and its throughput.
 *
 * A fixed set of requests (mixed prompt lengths and budgets; greedy, or with --temperature seeded
 * draws, under --top-k, --top-p and --min-p when given) runs first one at a time on a single-slot
 * session (the reference: what each request gives alone), then all at once on a B_max-slot session
 * for each --slots value, where later requests are admitted into slots freed by earlier ones while
 * the others are mid-generation.
 * Every batched stream must equal its reference token for token. With --reference-steps 1 and
 * --decode-steps K the reference takes one step per call, so the K-step calls (and their draws on the
 * device) are checked against single steps (and the host's draws). Prints a table (tok/s against the
 * sequential baseline) and "N passed, M failed". */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/file.h"
#include "base/toolchain.h"
#include "cli/cli.h"
#include "engine/prompt.h"
#include "engine/scheduler.h"
#include "engine/session.h"

/* Prompts of different lengths and budgets; a few end early at EOS, which is part of the test. */
static const struct {
  const char *text;
  int budget;
} requests[] = {
    {"The capital of France is", 24},
    {"Once upon a time, in a small village by the sea, there lived an old fisherman who", 40},
    {"def fibonacci(n):", 32},
    {"List three fruits:", 12},
    {"The theory of relativity, developed by Albert Einstein in the early twentieth century, changed how physicists "
     "think about space, time and gravity. In simple terms,", 48},
    {"1, 2, 3, 4,", 16},
    {"Water boils at", 8},
    {"Here is a short poem about the autumn wind:", 36},
    {"Q: What is the largest planet in the solar system?\nA:", 20},
    {"In machine learning, a transformer is", 28},
    {"The quick brown fox", 10},
    {"Dear hiring manager, I am writing to apply for the position of", 44},
    {"Photosynthesis is the process by which", 30},
    {"SELECT name, age FROM users WHERE", 18},
    {"The three primary colors are", 14},
    {"A recipe for pancakes: first,", 26},
};
#define N_REQUESTS ((int)(sizeof requests / sizeof requests[0]))

/* The request count's default as text, for the option table. */
#define ALL_REQUESTS "16"
_Static_assert(N_REQUESTS == 16, "update ALL_REQUESTS");

typedef struct {
  mx_cli_session_args_t s;
  const char *slots, *vmfb_dir, *json;
  long requests, budget_cap, reference_steps, top_k;
  double temperature, top_p, min_p;
} bench_opts_t;

static const mx_opt_t bench_rows[] = {
    MX_OPT_ROW(bench_opts_t, slots, .name = "--slots", .metavar = "LIST", .def = "4,8",
               .help = "B_max values, comma-separated, each 2..8"),
    MX_OPT_ROW(bench_opts_t, requests, .name = "--requests", .kind = MX_OPT_INT, .metavar = "N", .lo = 1,
               .hi = N_REQUESTS, .def = ALL_REQUESTS, .help = "how many of the built-in requests to run"),
    MX_OPT_ROW(bench_opts_t, budget_cap, .name = "--budget-cap", .kind = MX_OPT_INT, .metavar = "N", .lo = 0, .hi = 4096,
               .def = "0", .help = "cap every request's token budget at N (0: the built-in budgets, 8..48)"),
    MX_OPT_ROW(bench_opts_t, temperature, .name = "--temperature", .kind = MX_OPT_FLOAT, .metavar = "T", .def = "0",
               .help = "0: greedy requests; else request i draws at temperature T with seed i + 1 (the draw "
                       "multi-step calls make on the device)"),
    MX_OPT_ROW(bench_opts_t, top_k, .name = "--top-k", .kind = MX_OPT_INT, .metavar = "K", .lo = 0, .hi = 1 << 22, .def = "0",
               .help = "with --temperature: keep the K most likely tokens (0: off)"),
    MX_OPT_ROW(bench_opts_t, top_p, .name = "--top-p", .kind = MX_OPT_FLOAT, .metavar = "P", .def = "1",
               .help = "with --temperature: the smallest set of tokens whose probability reaches P (1: off)"),
    MX_OPT_ROW(bench_opts_t, min_p, .name = "--min-p", .kind = MX_OPT_FLOAT, .metavar = "P", .def = "0",
               .help = "with --temperature: tokens at least P times as likely as the top one (0: off); the cuts are "
                       "drawn on the device with --device-cuts on"),
    MX_OPT_ROW(bench_opts_t, reference_steps, .name = "--reference-steps", .kind = MX_OPT_INT, .metavar = "K", .lo = 1,
               .hi = MX_LLAMA_MAX_DECODE_STEPS, .flags = MX_OPT_ZERO, .def = "0",
               .help = "decode steps per call of the single-slot reference (0: as --decode-steps)"),
    MX_OPT_ROW(bench_opts_t, vmfb_dir, .name = "--vmfb-dir", .metavar = "DIR",
               .help = "prebuilt modules instead of compiling: DIR/s1.vmfb for the reference and DIR/sN.vmfb for each "
                       "--slots N, as `mlxcel compile -m MODEL --slots N -o DIR/sN.vmfb` writes them (with the same "
                       "options as this run)"),
    MX_OPT_ROW(bench_opts_t, json, .name = "--json", .metavar = "PATH",
               .help = "also write the table as JSON (the format: docs/qualification.md)"),
};

/* The longest built-in request needs under 100 positions; a smaller graph compiles and runs faster. */
static const mx_opt_default_t bench_defaults[] = {{"--context", "256", "the requests are short"}, {NULL}};

/* -1 when the bench should run, else the exit code (after --help or a usage error). */
static int parse_args(int argc, char **argv, bench_opts_t *a) {
  mx_opt_cmd_t c = {
      .prog = "mlxcel batch-bench",
      .synopsis = "-m MODEL [--slots 4,8] [--requests N] [--temperature T [--top-k K] [--top-p P] [--min-p P]] [options]",
      .about = "Runs N requests (mixed prompt lengths and budgets; greedy, or seeded draws at --temperature under the cuts given) one at a "
               "time on a single-slot session, then all at once with continuous batching on B_max slots for each "
               "--slots value, and checks that every batched stream equals its single-sequence run token for token. "
               "Prints generated tokens, wall time and tok/s against the sequential baseline; exit 1 if any stream "
               "differs.",
      .sets = {mx_cli_session_set(&a->s, MX_CLI_MODEL), MX_OPT_SET(bench_rows, a),
               mx_cli_session_set(&a->s, MX_CLI_DEVICE | MX_CLI_GRAPH)},
      .defaults = bench_defaults,
  };
  return mx_cli_parse(&c, argc, argv);
}

typedef struct {
  mx_ids_t *tokens; /* per request */
  long generated;
  double wall_ms;
  int admitted_mid; /* admissions while other slots were generating */
} run_t;

/* Runs requests [0, n) on a session with `slots` slots: one at a time when sequential, else all
 * submitted at once. */
static mx_status_t run_config(mx_session_options_t so, const char *vmfb_dir, int slots, bool sequential, int n, int cap,
                              const mx_sampling_t *draw, run_t *out) {
  so.slots = slots;
  char vmfb[MX_PATH_MAX];
  if (vmfb_dir) {
    if (snprintf(vmfb, sizeof vmfb, "%s/s%d.vmfb", vmfb_dir, slots) >= (int)sizeof vmfb)
      return mx_status_make(MX_STAGE_USAGE, "give a shorter --vmfb-dir", "--vmfb-dir path too long: %s", vmfb_dir);
    if (!mx_file_exists(vmfb)) {
      char remedy[MX_PATH_MAX + 96];
      snprintf(remedy, sizeof remedy, "build it with `mlxcel compile -m MODEL --slots %d -o %s` and this run's options", slots, vmfb);
      return mx_status_make(MX_STAGE_USAGE, remedy, "--vmfb-dir has no module for %d slot%s: %s", slots, slots == 1 ? "" : "s", vmfb);
    }
    so.vmfb = vmfb;
  }
  mx_session_t *s;
  MX_RETURN_IF_ERROR(mx_session_open(&so, &s));
  mx_status_t st = mx_session_start(s);
  mx_sched_t *sched = NULL;
  if (!st) st = mx_sched_create(s, &(mx_sched_options_t){.n_slots = slots, .queue_max = n}, &sched);
  mx_request_t **reqs = calloc((size_t)n, sizeof *reqs);
  mx_ids_t *prompts = calloc((size_t)n, sizeof *prompts);
  out->tokens = calloc((size_t)n, sizeof *out->tokens);
  if (!st && (!reqs || !prompts || !out->tokens)) st = mx_status_oom();
  const mx_tokenizer_t *tok = mx_session_tokenizer(s);
  for (int i = 0; !st && i < n; i++) st = mx_prompt_encode_text(tok, requests[i].text, strlen(requests[i].text), &prompts[i]);
  double t0 = mx_now_ms();
  for (int i = 0; !st && i < n; i++) {
    int budget = cap > 0 && cap < requests[i].budget ? cap : requests[i].budget;
    mx_request_params_t p = {.prompt = prompts[i].ids, .n_prompt = (int)prompts[i].n, .max_tokens = budget,
                             .sampling = *draw};
    p.sampling.seed = (uint64_t)i + 1;
    st = mx_sched_submit(sched, &p, &reqs[i]);
    while (!st && sequential && !mx_request_wait(reqs[i], -1, NULL)) {
    }
  }
  for (int i = 0; i < n && reqs[i]; i++) {
    while (!mx_request_wait(reqs[i], -1, NULL)) {
    }
    mx_request_info_t info;
    mx_request_info(reqs[i], &info);
    if (!st && info.finish == MX_FINISH_ERROR)
      st = mx_status_annotate(mx_status_clone(info.error), "request %d", i);
    for (int k = 0; k < info.completion_tokens; k++) mx_ids_push(&out->tokens[i], info.tokens[k]);
    out->generated += info.completion_tokens;
  }
  out->wall_ms = mx_now_ms() - t0;
  if (sched) {
    mx_sched_stats_t ss;
    mx_sched_stats(sched, &ss);
    out->admitted_mid = (int)ss.admitted_while_busy;
  }
  for (int i = 0; i < n; i++) {
    if (reqs && reqs[i]) mx_request_release(reqs[i]);
    if (prompts) mx_ids_free(&prompts[i]);
  }
  free(reqs);
  free(prompts);
  mx_sched_destroy(sched);
  mx_session_close(s);
  return st;
}

static void run_free(run_t *r, int n) {
  for (int i = 0; r->tokens && i < n; i++) mx_ids_free(&r->tokens[i]);
  free(r->tokens);
}

int mx_cmd_batch_bench(int argc, char **argv) {
  bench_opts_t a = {0};
  int code = parse_args(argc, argv, &a);
  if (code >= 0) return code;
  const char *slots_s = a.slots;
  long n = a.requests;
  mx_session_options_t so;
  mx_status_t st = mx_cli_session_options(&a.s, &so);
  int slots[8], n_slots = 0;
  for (const char *p = slots_s; !st && *p;) {
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || v < 2 || v > 8 || n_slots == 8 || (*end && *end != ','))
      st = mx_status_make(MX_STAGE_USAGE, "give --slots as a comma-separated list of 2..8, e.g. 4,8", "bad --slots '%s'", slots_s);
    else slots[n_slots++] = (int)v;
    p = *end ? end + 1 : end;
  }
  if (!st && !n_slots) st = mx_status_make(MX_STAGE_USAGE, "give --slots as e.g. 4,8", "--slots is empty");
  mx_sampling_t draw = {.temperature = (float)a.temperature, .top_k = (int)a.top_k, .top_p = (float)a.top_p, .min_p = (float)a.min_p,
                        .repeat_penalty = 1};
  if (!st) st = mx_sampling_validate(&draw);
  if (st) return mx_cli_report(st);

  fprintf(stderr, "mlxcel batch-bench: reference: %ld requests one at a time on a single-slot session\n", n);
  run_t ref = {0};
  mx_session_options_t ro = so;
  if (a.reference_steps) ro.decode_steps = (int)a.reference_steps;
  if (ro.decode_steps == 1) ro.device_cuts = -1; /* one step per call: every sampled pick on the host */
  st = run_config(ro, a.vmfb_dir, 1, true, (int)n, (int)a.budget_cap, &draw, &ref);
  if (st) {
    run_free(&ref, (int)n);
    return mx_cli_report(st);
  }
  printf("%-12s %8s %8s %9s %8s %8s %14s %8s\n", "config", "requests", "tokens", "wall s", "tok/s", "speedup",
         "admitted mid", "exact");
  double ref_tps = (double)ref.generated / (ref.wall_ms / 1000);
  printf("%-12s %8ld %8ld %9.2f %8.1f %8s %14s %8s\n", "sequential", n, ref.generated, ref.wall_ms / 1000, ref_tps, "1.00x",
         "-", "-");
  int passed = 0, failed = 0;
  json_t *configs = json_array();
  for (int k = 0; k < n_slots; k++) {
    fprintf(stderr, "mlxcel batch-bench: %ld requests at once on %d slots\n", n, slots[k]);
    run_t b = {0};
    st = run_config(so, a.vmfb_dir, slots[k], false, (int)n, (int)a.budget_cap, &draw, &b);
    if (st) {
      run_free(&b, (int)n);
      break;
    }
    int exact = 0;
    json_t *diffs = json_array();
    for (int i = 0; i < n; i++) {
      bool same = b.tokens[i].n == ref.tokens[i].n &&
                  !memcmp(b.tokens[i].ids, ref.tokens[i].ids, sizeof(int32_t) * ref.tokens[i].n);
      if (same) {
        exact++;
        continue;
      }
      size_t at = 0;
      while (at < b.tokens[i].n && at < ref.tokens[i].n && b.tokens[i].ids[at] == ref.tokens[i].ids[at]) at++;
      fprintf(stderr, "mlxcel batch-bench: B_max=%d request %d differs from its single-sequence run at token %zu "
              "(batched %zu tokens, reference %zu)\n", slots[k], i, at, b.tokens[i].n, ref.tokens[i].n);
      json_array_append_new(diffs, json_pack("{s:i, s:I}", "request", i, "token", (json_int_t)at));
    }
    char name[16], ex[24];
    snprintf(name, sizeof name, "B_max=%d", slots[k]);
    snprintf(ex, sizeof ex, "%d/%ld", exact, n);
    double tps = (double)b.generated / (b.wall_ms / 1000);
    printf("%-12s %8ld %8ld %9.2f %8.1f %7.2fx %14d %8s\n", name, n, b.generated, b.wall_ms / 1000, tps, tps / ref_tps,
           b.admitted_mid, ex);
    bool ok = exact == n && b.generated >= 100 && b.admitted_mid > 0;
    if (b.generated < 100) fprintf(stderr, "mlxcel batch-bench: B_max=%d generated only %ld tokens (the gate needs 100)\n", slots[k], b.generated);
    if (b.admitted_mid == 0) fprintf(stderr, "mlxcel batch-bench: B_max=%d never admitted a request mid-generation\n", slots[k]);
    ok ? passed++ : failed++;
    json_array_append_new(configs, json_pack("{s:i, s:i, s:I, s:f, s:f, s:i, s:i, s:o, s:b}", "slots", slots[k], "requests",
                                             (int)n, "tokens", (json_int_t)b.generated, "wall_ms", b.wall_ms,
                                             "tok_per_s", tps, "admitted_mid", b.admitted_mid, "exact", exact,
                                             "differs", diffs, "pass", ok));
    run_free(&b, (int)n);
  }
  run_free(&ref, (int)n);
  if (!st && a.json)
    st = mx_cli_write_json(a.json, json_pack("{s:s, s:s, s:s, s:I, s:f, s:f, s:O, s:b}", "command", "batch-bench", "device",
                                             so.device, "precision", mx_dtype_name(so.precision), "sequential_tokens",
                                             (json_int_t)ref.generated, "sequential_wall_ms", ref.wall_ms,
                                             "sequential_tok_per_s", ref_tps, "configs", configs, "pass", failed == 0));
  json_decref(configs);
  if (st) return mx_cli_report(st);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? MX_EXIT_FAIL : 0;
}
