#include "qualify/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/strbuf.h"
#include "base/summary.h"
#include "base/toolchain.h"

static const char *str(const json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "-";
}

/* A table cell: '|' would end the cell and a newline the row. */
static void cell(mx_strbuf_t *b, const char *s) {
  for (const char *c = s ? s : "-"; *c; c++) {
    if (*c == '|') mx_strbuf_printf(b, "\\|");
    else if (*c == '\n') mx_strbuf_printf(b, " ");
    else mx_strbuf_append(b, c, 1);
  }
}

static const json_t *find_gate(const json_t *results, const char *id) {
  size_t i;
  json_t *g;
  json_array_foreach(json_object_get(results, "gates"), i, g) if (!strcmp(str(g, "id"), id)) return g;
  return NULL;
}

static const char *gate_status(const json_t *results, const char *id) {
  const json_t *g = find_gate(results, id);
  return g ? str(g, "status") : "not run";
}

char *mx_qual_svg_lines(const char *title, const char *xlabel, const char *ylabel, const double *x, int n,
                        const double *const *y, const char *const *names, int n_series) {
  static const char *colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"};
  const double W = 640, H = 360, L = 70, R = 150, T = 40, B = 50;
  double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
  for (int i = 0; i < n; i++) xmin = fmin(xmin, x[i]), xmax = fmax(xmax, x[i]);
  for (int s = 0; s < n_series; s++)
    for (int i = 0; i < n; i++) ymax = fmax(ymax, y[s][i]);
  if (!(xmax > xmin)) xmax = xmin + 1;
  if (!(ymax > 0)) ymax = 1;
  ymax *= 1.1;
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  mx_strbuf_printf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
                       "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H);
  mx_strbuf_printf(&b, "<text x=\"%.0f\" y=\"22\" font-size=\"14\">%s</text>\n", L, title);
  mx_strbuf_printf(&b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, H - B, W - R, H - B);
  mx_strbuf_printf(&b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T, L, H - B);
  for (int t = 0; t <= 4; t++) {
    double v = ymax * t / 4, py = H - B - (H - T - B) * t / 4;
    mx_strbuf_printf(&b, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.3g</text>\n", L - 6, py + 4, v);
    mx_strbuf_printf(&b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n", L, py, W - R, py);
  }
  for (int i = 0; i < n; i++) {
    double px = L + (W - L - R) * (x[i] - xmin) / (xmax - xmin);
    if (n <= 12 || i % (n / 8 + 1) == 0)
      mx_strbuf_printf(&b, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%.4g</text>\n", px, H - B + 16, x[i]);
  }
  mx_strbuf_printf(&b, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", (L + W - R) / 2, H - 12, xlabel);
  mx_strbuf_printf(&b, "<text x=\"16\" y=\"%.0f\" transform=\"rotate(-90 16 %.0f)\" text-anchor=\"middle\">%s</text>\n",
                   (T + H - B) / 2, (T + H - B) / 2, ylabel);
  for (int s = 0; s < n_series; s++) {
    const char *c = colors[s % 5];
    mx_strbuf_printf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
    for (int i = 0; i < n; i++)
      if (y[s][i] >= 0)
        mx_strbuf_printf(&b, "%.1f,%.1f ", L + (W - L - R) * (x[i] - xmin) / (xmax - xmin),
                         H - B - (H - T - B) * y[s][i] / ymax);
    mx_strbuf_printf(&b, "\"/>\n");
    for (int i = 0; i < n; i++)
      if (y[s][i] >= 0)
        mx_strbuf_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
                         L + (W - L - R) * (x[i] - xmin) / (xmax - xmin), H - B - (H - T - B) * y[s][i] / ymax, c);
    mx_strbuf_printf(&b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
                     W - R + 12, T + 18.0 * s, c, W - R + 30, T + 18.0 * s + 11, names[s]);
  }
  mx_strbuf_printf(&b, "</svg>\n");
  return mx_strbuf_take(&b);
}

static double median_of(const json_t *summary) { return json_number_value(json_object_get(summary, "median")); }

/* "median (min..max), n runs" of a summary object. */
static void summary_cell(mx_strbuf_t *b, const json_t *s, const char *fmt) {
  if (!s || !json_integer_value(json_object_get(s, "runs"))) {
    mx_strbuf_printf(b, " - |");
    return;
  }
  char m[32], lo[32], hi[32];
  snprintf(m, sizeof m, fmt, median_of(s));
  snprintf(lo, sizeof lo, fmt, json_number_value(json_object_get(s, "min")));
  snprintf(hi, sizeof hi, fmt, json_number_value(json_object_get(s, "max")));
  mx_strbuf_printf(b, " %s (%s..%s), %lld run%s |", m, lo, hi, (long long)json_integer_value(json_object_get(s, "runs")),
                   json_integer_value(json_object_get(s, "runs")) == 1 ? "" : "s");
}

/* The batch throughputs of a precision: median (min..max) of the runs at key "bN". */
static void batch_cell(mx_strbuf_t *b, const json_t *pp, const char *key, double *median) {
  const json_t *a = json_object_get(json_object_get(pp, "batch_tok_per_s"), key);
  size_t n = json_array_size(a);
  *median = -1;
  if (!n) {
    mx_strbuf_printf(b, " - |");
    return;
  }
  double v[16];
  if (n > 16) n = 16;
  for (size_t i = 0; i < n; i++) v[i] = json_number_value(json_array_get(a, i));
  mx_summary_t m = mx_summarize(v, (int)n);
  *median = m.median;
  mx_strbuf_printf(b, " %.1f (%.1f..%.1f), %zu run%s |", m.median, m.min, m.max, n, n == 1 ? "" : "s");
}

static void env_table(mx_strbuf_t *b, const json_t *env, const json_t *results) {
  mx_strbuf_printf(b, "## Environment and pins\n\n| item | value |\n|---|---|\n");
#define ROW(name, ...)                            \
  do {                                            \
    char v_[1024];                                \
    snprintf(v_, sizeof v_, __VA_ARGS__);         \
    mx_strbuf_printf(b, "| %s | ", name);         \
    cell(b, v_);                                  \
    mx_strbuf_printf(b, " |\n");                  \
  } while (0)
  const json_t *k = json_object_get(env, "kernel"), *cpu = json_object_get(env, "cpu"), *u = json_object_get(env, "user");
  const json_t *c = json_object_get(env, "container"), *sel = json_object_get(env, "selected");
  const json_t *rd = json_object_get(sel, "runtime_device"), *iree = json_object_get(env, "iree");
  const json_t *nv = json_object_get(env, "nvidia"), *amd = json_object_get(env, "amd"), *m = json_object_get(env, "model");
  ROW("OS, kernel", "%s; %s %s", str(env, "os"), str(k, "release"), str(k, "machine"));
  ROW("CPU, memory", "%s, %lld logical CPUs; %.1f GiB", str(cpu, "model"), (long long)json_integer_value(json_object_get(cpu, "logical_cpus")),
      (double)json_integer_value(json_object_get(env, "memory_bytes")) / 1073741824.0);
  ROW("container", "%s", json_is_true(json_object_get(c, "likely_container")) ? "yes (markers in env.json)" : "no marker found");
  ROW("user", "%s (euid %lld), CapEff %s", str(u, "name"), (long long)json_integer_value(json_object_get(u, "euid")),
      str(json_object_get(u, "process"), "cap_eff"));
  size_t i;
  json_t *g;
  json_array_foreach(json_object_get(nv, "gpus"), i, g) ROW("NVIDIA GPU", "%lld: %s, %lld MiB, driver %s, %s, %s",
                                                          (long long)json_integer_value(json_object_get(g, "index")),
                                                          str(g, "name"), (long long)json_integer_value(json_object_get(g, "memory_mib")),
                                                          str(g, "driver"), str(g, "pci_bus_id"), str(g, "arch"));
  if (json_object_get(nv, "cuda_version")) ROW("CUDA (driver)", "%s", str(nv, "cuda_version"));
  json_array_foreach(json_object_get(amd, "rocminfo_gpus"), i, g) ROW("AMD GPU (rocminfo)", "%s %s", str(g, "name"), str(g, "marketing_name"));
  if (json_object_get(amd, "rocm_version")) ROW("ROCm", "%s", str(amd, "rocm_version"));
  const json_t *nodes = json_object_get(env, "device_nodes");
  const char *key;
  json_t *v;
  mx_strbuf_t nb;
  mx_strbuf_init(&nb);
  json_object_foreach((json_t *)nodes, key, v) mx_strbuf_printf(&nb, "%s %s; ", key, json_string_value(v));
  ROW("device nodes", "%s", nb.data ? nb.data : "-");
  mx_strbuf_free(&nb);
  mx_strbuf_t ev;
  mx_strbuf_init(&ev);
  json_object_foreach(json_object_get(env, "environment"), key, v) mx_strbuf_printf(&ev, "%s=%s ", key, json_string_value(v));
  ROW("variables", "%s", ev.data ? ev.data : "none set");
  mx_strbuf_free(&ev);
  ROW("selected device", "%s, target %s; runtime sees %s (%s)", str(sel, "device"), str(sel, "target"), str(rd, "name"),
      str(rd, "arch"));
  ROW("IREE", "pin %s; runtime %s; compiler %s", str(iree, "pin"), str(json_object_get(env, "runtime"), "version"),
      json_is_string(json_object_get(iree, "compiler")) ? str(iree, "compiler") : "none (prebuilt modules)");
  ROW("mlxcel", "commit %s, built %s", str(json_object_get(env, "mlxcel"), "commit"), str(json_object_get(env, "mlxcel"), "built"));
  ROW("model", "%s, %lld bytes, sha256 %s", str(m, "path"), (long long)json_integer_value(json_object_get(m, "bytes")), str(m, "sha256"));
  ROW("oracle fixture", "%s", str(results, "fixture"));
  ROW("prebuilt modules", "%s", json_is_string(json_object_get(results, "prebuilt")) ? str(results, "prebuilt") : "no (compiled here)");
#undef ROW
  mx_strbuf_printf(b, "\n");
}

mx_status_t mx_qual_write_report(const char *dir, const json_t *env, const json_t *results) {
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  const json_t *d = json_object_get(results, "decision");
  bool complete = json_is_true(json_object_get(results, "complete"));
  mx_strbuf_printf(&b, "# Qualification of %s (%s)\n\n", str(results, "device"), str(results, "target"));
  if (!complete)
    mx_strbuf_printf(&b, "**INCOMPLETE%s: these are partial results.**\n\n",
                     json_is_true(json_object_get(results, "interrupted")) ? " (interrupted)" : " (the run has not finished)");
  mx_strbuf_printf(&b, "**Decision: %s.** %s\n\n", str(d, "verdict"), str(d, "boundary"));
  mx_strbuf_printf(&b, "Made by `mlxcel qualify` (%s run; the rules: docs/qualification.md). Model `%s`.\n\n",
                   str(results, "mode"), str(results, "model"));
  if (json_is_string(json_object_get(results, "note"))) mx_strbuf_printf(&b, "Note: %s\n\n", str(results, "note"));
  /* The matrix: gates by precision and batch size. */
  mx_strbuf_printf(&b, "## Gates by precision\n\n| precision | single sequence | B_max 4 | B_max 8 | row |\n|---|---|---|---|---|\n");
  static const char *precs[] = {"f32", "f16", "bf16"};
  for (int p = 0; p < 3; p++) {
    char a[32], b4[32], b8[32];
    snprintf(a, sizeof a, "%s.%s", precs[p], p ? "lowprec" : "oracle");
    snprintf(b4, sizeof b4, "%s.batch4", precs[p]);
    snprintf(b8, sizeof b8, "%s.batch8", precs[p]);
    const json_t *row = json_object_get(json_object_get(d, "rows"), precs[p]);
    mx_strbuf_printf(&b, "| %s | %s (%s) | %s | %s | %s |\n", precs[p], gate_status(results, a),
                     p ? "low-precision rule" : "token-exact vs HF fp32", gate_status(results, b4),
                     p == 2 ? (find_gate(results, b8) ? gate_status(results, b8) : "not gated") : gate_status(results, b8),
                     str(row, "state"));
  }
  mx_strbuf_printf(&b, "| packed | %s | | | %s |\n\n", gate_status(results, "packed"),
                   str(json_object_get(json_object_get(d, "rows"), "packed"), "state"));
  mx_strbuf_printf(&b, "## Every gate\n\n| phase | gate | status | detail | log |\n|---|---|---|---|---|\n");
  size_t i;
  json_t *g;
  json_array_foreach(json_object_get(results, "gates"), i, g) {
    mx_strbuf_printf(&b, "| %lld | %s | %s | ", (long long)json_integer_value(json_object_get(g, "phase")), str(g, "id"),
                     str(g, "status"));
    cell(&b, str(g, "detail"));
    const char *log = json_string_value(json_object_get(g, "log"));
    if (log) mx_strbuf_printf(&b, " | [%s](%s) |\n", log, log);
    else mx_strbuf_printf(&b, " | |\n");
  }
  /* Each failing gate with the command that reproduces it. */
  bool any_fail = false;
  json_array_foreach(json_object_get(results, "gates"), i, g) {
    if (strcmp(str(g, "status"), "fail")) continue;
    const char *log = json_string_value(json_object_get(g, "log"));
    const json_t *c, *cmd = NULL;
    size_t j;
    json_array_foreach(json_object_get(results, "commands"), j, c) if (log && !strcmp(str(c, "log"), log)) cmd = c;
    if (!any_fail) mx_strbuf_printf(&b, "\n## Failures and their reproducers\n\n");
    any_fail = true;
    mx_strbuf_printf(&b, "- `%s`: %s\n", str(g, "id"), str(g, "detail"));
    if (cmd) mx_strbuf_printf(&b, "  ```bash\n  %s\n  ```\n", str(cmd, "command"));
  }
  /* Performance. */
  const json_t *perf = json_object_get(results, "performance");
  mx_strbuf_printf(&b, "\n## Performance\n\nOne warm-up, then the measured runs: median (min..max). Decode: %lld new "
                       "tokens after the prompt `The capital of France is`, greedy; batch: the batch gate's requests "
                       "(tok/s of all streams together; B=1 is the same requests one at a time). Load is warm (module and "
                       "weights cached); cold compile is one `mlxcel compile` run.\n\n",
                   (long long)json_integer_value(json_object_get(json_object_get(perf, "f32"), "new_tokens")));
  mx_strbuf_printf(&b, "| precision | cold compile s | warm load ms | prefill ms | decode tok/s | B=1 tok/s | B_max 4 tok/s | "
                       "B_max 8 tok/s | peak device MiB |\n|---|---|---|---|---|---|---|---|---|\n");
  double bx[3] = {1, 4, 8}, by[3][3];
  const double *ys[3];
  const char *names[3];
  int ns = 0;
  for (int p = 0; p < 3; p++) {
    const json_t *pp = json_object_get(perf, precs[p]);
    if (!pp) continue;
    mx_strbuf_printf(&b, "| %s |", precs[p]);
    if (json_object_get(pp, "cold_compile_s")) mx_strbuf_printf(&b, " %.1f |", json_number_value(json_object_get(pp, "cold_compile_s")));
    else mx_strbuf_printf(&b, " %s |", json_is_string(json_object_get(results, "prebuilt")) ? "prebuilt" : "-");
    summary_cell(&b, json_object_get(pp, "warm_load_ms"), "%.0f");
    summary_cell(&b, json_object_get(pp, "prefill_ms"), "%.1f");
    summary_cell(&b, json_object_get(pp, "decode_tok_per_s"), "%.1f");
    batch_cell(&b, pp, "b1", &by[ns][0]);
    batch_cell(&b, pp, "b4", &by[ns][1]);
    batch_cell(&b, pp, "b8", &by[ns][2]);
    mx_strbuf_printf(&b, " %.0f |\n", json_number_value(json_object_get(pp, "peak_device_bytes")) / 1048576.0);
    ys[ns] = by[ns];
    names[ns++] = precs[p];
  }
  char path[MX_PATH_MAX];
  mx_status_t st = NULL;
  if (ns) {
    char *svg = mx_qual_svg_lines("Batch throughput (tok/s, medians)", "B_max (1 = one at a time)", "tok/s", bx, 3, ys, names, ns);
    snprintf(path, sizeof path, "%s/decode-by-batch.svg", dir);
    if (svg) st = mx_write_file(path, svg, strlen(svg));
    free(svg);
    mx_strbuf_printf(&b, "\n![throughput by batch](decode-by-batch.svg)\n");
  }
  /* The soak. */
  const json_t *soak = json_object_get(results, "soak");
  if (soak) {
    const json_t *series = json_object_get(soak, "series");
    int n = (int)json_array_size(series);
    mx_strbuf_printf(&b, "\n## Soak\n\n%d rounds in %.1f minutes against one server (4 slots): each round one request alone, "
                         "then 5 at once, %d tokens each, greedy; every answer must equal round 1's. Memory growth is the "
                         "least-squares slope over the rounds times their count; the gate fails above max(32 MiB, 5%% of "
                         "the first reading). Device allocator growth %.1f MiB, worker RSS growth %.1f MiB%s.\n",
                     n, json_number_value(json_object_get(soak, "minutes")), 24,
                     json_number_value(json_object_get(soak, "device_growth_bytes")) / 1048576,
                     json_number_value(json_object_get(soak, "worker_rss_growth_bytes")) / 1048576, "");
    if (json_number_value(json_object_get(soak, "gpu_used_before_stop")) > 0)
      mx_strbuf_printf(&b, "GPU memory in use (nvidia-smi): growth %.1f MiB; %.0f MiB before the server stopped, %.0f MiB after.\n",
                       json_number_value(json_object_get(soak, "gpu_growth_bytes")) / 1048576,
                       json_number_value(json_object_get(soak, "gpu_used_before_stop")) / 1048576,
                       json_number_value(json_object_get(soak, "gpu_used_after_stop")) / 1048576);
    if (n > 0) {
      double *x = calloc((size_t)n, sizeof *x), *y0 = calloc((size_t)n, sizeof *y0), *y1 = calloc((size_t)n, sizeof *y1),
             *y2 = calloc((size_t)n, sizeof *y2);
      bool gpu = false;
      for (int r = 0; x && y0 && y1 && y2 && r < n; r++) {
        const json_t *p = json_array_get(series, (size_t)r);
        x[r] = json_number_value(json_object_get(p, "t_s")) / 60;
        double dv = json_number_value(json_object_get(p, "device_bytes")), rs = json_number_value(json_object_get(p, "worker_rss_bytes"));
        double gu = json_number_value(json_object_get(p, "gpu_used_bytes"));
        y0[r] = dv < 0 ? -1 : dv / 1048576;
        y1[r] = rs < 0 ? -1 : rs / 1048576;
        y2[r] = gu < 0 ? -1 : gu / 1048576;
        gpu = gpu || gu >= 0;
      }
      const double *yy[3] = {y0, y1, y2};
      const char *nn[3] = {"device allocator", "worker RSS", "GPU in use"};
      char *svg = x && y0 && y1 && y2 ? mx_qual_svg_lines("Memory over the soak (MiB)", "minutes", "MiB", x, n, yy, nn, gpu ? 3 : 2) : NULL;
      snprintf(path, sizeof path, "%s/soak-memory.svg", dir);
      if (svg && !st) st = mx_write_file(path, svg, strlen(svg));
      free(svg);
      free(x);
      free(y0);
      free(y1);
      free(y2);
      mx_strbuf_printf(&b, "\n![memory over the soak](soak-memory.svg)\n");
    }
  }
  mx_strbuf_printf(&b, "\n");
  if (env) env_table(&b, env, results);
  mx_strbuf_printf(&b, "## Variables and workarounds\n\n");
  const json_t *en = json_object_get(env, "environment");
  if (!json_object_size(en)) mx_strbuf_printf(&b, "No MLXCEL_*, IREE_* or *_VISIBLE_DEVICES variable was set.\n");
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)en, key, v) mx_strbuf_printf(&b, "- `%s=%s`\n", key, json_string_value(v));
  const json_t *en_gate = find_gate(results, "toolchain.enumeration");
  if (en_gate && strstr(str(en_gate, "detail"), "JIT")) mx_strbuf_printf(&b, "- %s\n", str(en_gate, "detail"));
  mx_strbuf_printf(&b, "\n## Reproduce\n\nThe steps in order (logs/ holds each one's output and JSON):\n\n```bash\n");
  json_array_foreach(json_object_get(results, "commands"), i, g) mx_strbuf_printf(&b, "%s\n", str(g, "command"));
  mx_strbuf_printf(&b, "```\n");
  snprintf(path, sizeof path, "%s/findings.md", dir);
  if (!st && !b.failed) st = mx_write_file(path, b.data, b.len);
  else if (!st) st = mx_status_oom();
  mx_strbuf_free(&b);
  return st;
}
