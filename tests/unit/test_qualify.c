/* The qualification kit's pure parts: the phase-0 parsers on captured tool outputs, the decision rules
 * on result fixtures (each verdict reached from one), the low-precision rule on constructed logits,
 * the report writer, and the child runner's deadline and process-group sweep. */
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <unistd.h>

#include "base/file.h"
#include "engine/divergence.h"
#include "qualify/baseline.h"
#include "qualify/report.h"
#include "qualify/rules.h"
#include "qualify/run.h"
#include "testutil.h"

#define CAPTURES "tests/unit/data/qualify/captures/"
#define RULES "tests/unit/data/qualify/rules/"

static char *capture(const char *name) {
  char path[512], *text = NULL;
  snprintf(path, sizeof path, CAPTURES "%s", name);
  assert_ok(mx_read_file(path, 1 << 20, &text, NULL));
  return text;
}

static void parses_real_captures(void **state) {
  (void)state;
  char *t = capture("iree-compile-targets.txt");
  json_t *a = mx_qual_parse_target_backends(t);
  assert_int_equal(json_array_size(a), 7);
  assert_string_equal(json_string_value(json_array_get(a, 0)), "cuda");
  assert_string_equal(json_string_value(json_array_get(a, 3)), "rocm");
  json_decref(a);
  free(t);

  t = capture("os-release-debian12.txt");
  char *os = mx_qual_parse_os_release(t);
  assert_string_equal(os, "Debian GNU/Linux 12 (bookworm)");
  free(os);
  free(t);

  t = capture("proc-status-devvm.txt");
  json_t *o = mx_qual_parse_proc_status(t);
  assert_string_equal(json_string_value(json_object_get(o, "cap_eff")), "000001fffeffffff");
  assert_string_equal(json_string_value(json_object_get(o, "seccomp")), "0");
  json_decref(o);
  free(t);

  t = capture("meminfo-devvm.txt");
  long long m = mx_qual_parse_mem_total(t);
  assert_true(m > (1LL << 30));
  assert_int_equal(m % 1024, 0);
  free(t);

  t = capture("cpuinfo-devvm.txt");
  o = mx_qual_parse_cpuinfo(t);
  assert_int_equal(json_integer_value(json_object_get(o, "logical_cpus")), 2);
  assert_non_null(json_string_value(json_object_get(o, "model")));
  json_decref(o);
  free(t);
}

static void parses_nvidia_smi(void **state) {
  (void)state;
  char *t = capture("nvidia-smi-query-h200.txt");
  json_t *g = mx_qual_parse_nvidia_smi_csv(t);
  assert_int_equal(json_array_size(g), 1);
  json_t *x = json_array_get(g, 0);
  assert_int_equal(json_integer_value(json_object_get(x, "index")), 0);
  assert_non_null(strstr(json_string_value(json_object_get(x, "name")), "H200"));
  assert_string_equal(json_string_value(json_object_get(x, "arch")), "sm_90");
  assert_true(json_integer_value(json_object_get(x, "memory_mib")) > 140000);
  json_decref(g);
  free(t);
  t = capture("nvidia-smi-h200.txt");
  char *v = mx_qual_parse_cuda_version(t);
  assert_non_null(v);
  assert_true(v[0] >= '1' && v[0] <= '9' && strchr(v, '.'));
  free(v);
  free(t);
  /* A tool printing another encoding: every value still valid UTF-8, so env.json can hold it
   * (fuzz_baseline's first finding). */
  json_t *c = mx_qual_parse_cpuinfo("processor\t: 0\nmodel name\t: Pentium\xae \xff CPU\n");
  assert_string_equal(json_string_value(json_object_get(c, "model")), "Pentium\xef\xbf\xbd \xef\xbf\xbd CPU");
  char *dump = json_dumps(c, 0);
  assert_non_null(dump);
  free(dump);
  json_decref(c);
  /* Lines that are not GPUs (an error message) give nothing. */
  g = mx_qual_parse_nvidia_smi_csv("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n");
  assert_int_equal(json_array_size(g), 0);
  json_decref(g);
}

static void parses_rocm_tools_documented_formats(void **state) {
  (void)state;
  char *t = capture("rocminfo-mi300x-documented.txt");
  json_t *g = mx_qual_parse_rocminfo(t);
  assert_int_equal(json_array_size(g), 1); /* the CPU agent is not a GPU */
  json_t *x = json_array_get(g, 0);
  assert_string_equal(json_string_value(json_object_get(x, "name")), "gfx942");
  assert_string_equal(json_string_value(json_object_get(x, "marketing_name")), "AMD Instinct MI300X");
  assert_int_equal(json_integer_value(json_object_get(x, "compute_units")), 304);
  json_decref(g);
  free(t);
  t = capture("rocm_agent_enumerator-documented.txt");
  g = mx_qual_parse_gfx_list(t);
  assert_int_equal(json_array_size(g), 2); /* gfx000 (the CPU) dropped, one line per GPU */
  assert_string_equal(json_string_value(json_array_get(g, 0)), "gfx942");
  json_decref(g);
  free(t);
  t = capture("amdgpu-arch-documented.txt");
  g = mx_qual_parse_gfx_list(t);
  assert_int_equal(json_array_size(g), 1);
  json_decref(g);
  free(t);
  g = mx_qual_parse_rocminfo("");
  assert_int_equal(json_array_size(g), 0);
  json_decref(g);
}

/* Every fixture in RULES: results -> the expected verdict, row states and boundary words. */
static void each_verdict_from_a_fixture(void **state) {
  (void)state;
  DIR *d = opendir(RULES);
  assert_non_null(d);
  struct dirent *e;
  int n = 0;
  bool seen[4] = {false};
  static const char *verdicts[] = {"supported", "conditionally supported", "blocked", "incomplete"};
  while ((e = readdir(d)) != NULL) {
    if (!strstr(e->d_name, ".json")) continue;
    char path[512];
    snprintf(path, sizeof path, RULES "%s", e->d_name);
    json_t *f = json_load_file(path, 0, NULL);
    assert_non_null(f);
    json_t *expect = json_object_get(f, "expect"), *dec = mx_qual_decide(json_object_get(f, "results"));
    const char *verdict = json_string_value(json_object_get(dec, "verdict"));
    const char *boundary = json_string_value(json_object_get(dec, "boundary"));
    if (strcmp(verdict, json_string_value(json_object_get(expect, "verdict"))))
      fail_msg("%s: verdict %s, expected %s (%s)", e->d_name, verdict, json_string_value(json_object_get(expect, "verdict")), boundary);
    for (int v = 0; v < 4; v++) seen[v] = seen[v] || !strcmp(verdict, verdicts[v]);
    const char *row;
    json_t *want;
    json_object_foreach(json_object_get(expect, "rows"), row, want) {
      const char *got = json_string_value(json_object_get(json_object_get(json_object_get(dec, "rows"), row), "state"));
      if (!got || strcmp(got, json_string_value(want))) fail_msg("%s: row %s is %s, expected %s", e->d_name, row, got, json_string_value(want));
    }
    size_t i;
    json_array_foreach(json_object_get(expect, "boundary_contains"), i, want) if (!strstr(boundary, json_string_value(want)))
        fail_msg("%s: boundary '%s' lacks '%s'", e->d_name, boundary, json_string_value(want));
    json_decref(dec);
    json_decref(f);
    n++;
  }
  closedir(d);
  assert_true(n >= 8);
  for (int v = 0; v < 4; v++)
    if (!seen[v]) fail_msg("no fixture reaches the verdict '%s'", verdicts[v]);
}

/* A run with no gates at all decides nothing. */
static void no_gates_is_incomplete(void **state) {
  (void)state;
  json_t *r = json_pack("{s:b, s:[]}", "complete", 1, "gates");
  json_t *d = mx_qual_decide(r);
  assert_string_equal(json_string_value(json_object_get(d, "verdict")), "incomplete");
  json_decref(d);
  json_decref(r);
}

/* Logits of `steps` rows over V tokens: row k has token k % V on top by `margin`, the rest at 0. */
static float *rows_with_margins(int steps, int V, const double *margin) {
  float *l = calloc((size_t)steps * (size_t)V, sizeof *l);
  for (int k = 0; k < steps; k++) {
    for (int i = 0; i < V; i++) l[(size_t)k * V + i] = (float)(-0.01 * i);
    l[(size_t)k * V + k % V] = (float)margin[k];
  }
  return l;
}

static void lowprec_rule_counts_flips_above_the_noise_only(void **state) {
  (void)state;
  enum { S = 64, V = 16 };
  double m[S];
  for (int k = 0; k < S; k++) m[k] = 2.0; /* clear winners */
  m[5] = 0.004;                          /* one near-tie */
  float *ref = rows_with_margins(S, V, m), *low = malloc(sizeof(float) * S * V);
  mx_lowprec_t r;
  /* Identical logits: no noise, no flip, KL 0, perplexity ratio 1. */
  memcpy(low, ref, sizeof(float) * S * V);
  mx_lowprec_compare(ref, low, V, S, &r);
  assert_int_equal(r.flips, 0);
  assert_true(r.sigma == 0 && r.kl_mean < 1e-12 && fabs(r.ppl_ratio - 1) < 1e-12);
  assert_true(mx_lowprec_prompt_passes(&r));
  /* Noise of ~0.02 on every top logit, and the near-tie flipped: a flip below 4 sigma, not counted. */
  for (int k = 0; k < S; k++) low[(size_t)k * V + k % V] += (float)((k % 2 ? 1 : -1) * 0.02);
  int top = 5 % V, second = top == 0 ? 1 : 0;
  low[5 * V + top] = low[5 * V + second] - 0.001f;
  mx_lowprec_compare(ref, low, V, S, &r);
  assert_int_equal(r.flips, 1);
  assert_int_equal(r.counted_flips, 0);
  assert_true(r.sigma > 0.015 && r.sigma < 0.03);
  assert_true(mx_lowprec_prompt_passes(&r));
  double pooled;
  assert_true(mx_lowprec_passes(&r, 1, &pooled));
  assert_true(fabs(pooled - 63.0 / 64) < 1e-12);
  /* A flip where the f32 margin is 2.0 (far above 4 sigma) counts and fails the prompt. */
  low[9 * V + (9 % V)] = -1.0f;
  mx_lowprec_compare(ref, low, V, S, &r);
  assert_int_equal(r.counted_flips, 1);
  assert_true(fabs(r.min_counted_margin - 2.0) < 1e-6);
  assert_false(mx_lowprec_prompt_passes(&r));
  free(low);
  free(ref);
}

static void lowprec_rule_bounds_kl_perplexity_and_agreement(void **state) {
  (void)state;
  enum { S = 64, V = 16 };
  double m[S];
  for (int k = 0; k < S; k++) m[k] = 2.0;
  float *ref = rows_with_margins(S, V, m), *low = malloc(sizeof(float) * S * V);
  mx_lowprec_t r;
  /* Same top-1 everywhere, but a flatter distribution: KL and perplexity fail, agreement 100%. */
  for (int i = 0; i < S * V; i++) low[i] = ref[i] * 0.5f;
  mx_lowprec_compare(ref, low, V, S, &r);
  assert_int_equal(r.flips, 0);
  assert_true(r.kl_mean > MX_LOWPREC_KL_BOUND);
  assert_true(r.ppl_ratio > 1 + MX_LOWPREC_PPL_TOLERANCE);
  assert_false(mx_lowprec_prompt_passes(&r));
  /* Pooled agreement: two prompts that pass alone but together agree on fewer than 98% of steps. */
  mx_lowprec_t two[2] = {{.steps = 64, .flips = 2, .ppl_ratio = 1, .kl_mean = 1e-5},
                         {.steps = 64, .flips = 1, .ppl_ratio = 1, .kl_mean = 1e-5}};
  assert_true(mx_lowprec_prompt_passes(&two[0]) && mx_lowprec_prompt_passes(&two[1]));
  double pooled;
  assert_false(mx_lowprec_passes(two, 2, &pooled));
  assert_true(fabs(pooled - 125.0 / 128) < 1e-12);
  two[0].flips = 1;
  assert_true(mx_lowprec_passes(two, 2, &pooled));
  assert_false(mx_lowprec_passes(two, 0, &pooled)); /* no prompt: no verdict of pass */
  free(low);
  free(ref);
}

static void report_is_written_from_results(void **state) {
  (void)state;
  char dir[] = "/tmp/mlxcel-test-report-XXXXXX";
  assert_non_null(mkdtemp(dir));
  json_t *f = json_load_file(RULES "conditional-short-soak.json", 0, NULL);
  json_t *res = json_deep_copy(json_object_get(f, "results"));
  json_object_set_new(res, "device", json_string("local-task"));
  json_object_set_new(res, "decision", mx_qual_decide(res));
  json_object_set_new(res, "soak", json_pack("{s:f, s:f, s:f, s:[{s:f, s:f, s:f, s:f}, {s:f, s:f, s:f, s:f}]}", "minutes", 5.0,
                                             "device_growth_bytes", 0.0, "worker_rss_growth_bytes", 0.0, "series", "t_s", 1.0,
                                             "device_bytes", 1e6, "worker_rss_bytes", 2e8, "gpu_used_bytes", -1.0, "t_s", 2.0,
                                             "device_bytes", 1e6, "worker_rss_bytes", 2e8, "gpu_used_bytes", -1.0));
  assert_ok(mx_qual_write_report(dir, NULL, res));
  char path[600], *md = NULL;
  snprintf(path, sizeof path, "%s/findings.md", dir);
  assert_ok(mx_read_file(path, 1 << 20, &md, NULL));
  assert_non_null(strstr(md, "**Decision: conditionally supported.**"));
  assert_non_null(strstr(md, "| f32 | pass (token-exact vs HF fp32) | pass | pass | supported |"));
  assert_non_null(strstr(md, "soak-memory.svg"));
  free(md);
  snprintf(path, sizeof path, "%s/soak-memory.svg", dir);
  char *svg = NULL;
  assert_ok(mx_read_file(path, 1 << 20, &svg, NULL));
  assert_non_null(strstr(svg, "<svg"));
  assert_non_null(strstr(svg, "worker RSS"));
  free(svg);
  unlink(path);
  snprintf(path, sizeof path, "%s/findings.md", dir);
  unlink(path);
  rmdir(dir);
  json_decref(res);
  json_decref(f);
}

/* A child that outlives its deadline is killed with its whole group, grandchildren included. */
static void runner_kills_hangs_and_what_they_started(void **state) {
  (void)state;
  char log[] = "/tmp/mlxcel-test-run-XXXXXX";
  int fd = mkstemp(log);
  assert_true(fd >= 0);
  close(fd);
  char *argv[] = {"/bin/sh", "-c", "sleep 60 & echo started; sleep 60", NULL};
  mx_qrun_result_t r;
  assert_ok(mx_qrun(argv, NULL, log, 0.5, &r));
  assert_true(r.timed_out);
  assert_false(mx_qrun_ok(&r));
  char how[200];
  mx_qrun_describe(&r, how, sizeof how);
  assert_non_null(strstr(how, "timed out"));
  /* A child that exits but leaves a process behind: reported, and the process is killed. */
  char *argv2[] = {"/bin/sh", "-c", "sleep 60 & exit 0", NULL};
  assert_ok(mx_qrun(argv2, NULL, log, 10, &r));
  assert_int_equal(r.exit_code, 0);
  assert_true(r.left_behind);
  char *argv3[] = {"/bin/sh", "-c", "echo hello; exit 3", NULL};
  assert_ok(mx_qrun(argv3, NULL, log, 10, &r));
  assert_int_equal(r.exit_code, 3);
  assert_false(r.left_behind);
  char *text = NULL;
  assert_ok(mx_read_file(log, 1 << 16, &text, NULL));
  assert_non_null(strstr(text, "started"));
  assert_non_null(strstr(text, "hello"));
  free(text);
  /* An interrupt stops the running child. */
  mx_qrun_set_interrupted(true);
  char *argv4[] = {"/bin/sleep", "60", NULL};
  assert_ok(mx_qrun(argv4, NULL, log, 0, &r));
  assert_true(r.interrupted);
  mx_qrun_set_interrupted(false);
  unlink(log);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(parses_real_captures),
      cmocka_unit_test(parses_nvidia_smi),
      cmocka_unit_test(parses_rocm_tools_documented_formats),
      cmocka_unit_test(each_verdict_from_a_fixture),
      cmocka_unit_test(no_gates_is_incomplete),
      cmocka_unit_test(lowprec_rule_counts_flips_above_the_noise_only),
      cmocka_unit_test(lowprec_rule_bounds_kl_perplexity_and_agreement),
      cmocka_unit_test(report_is_written_from_results),
      cmocka_unit_test(runner_kills_hangs_and_what_they_started),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
