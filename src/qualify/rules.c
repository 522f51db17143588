#include "qualify/rules.h"

#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"

const char *const mx_qual_blocking_gates[] = {"toolchain.compiler_target", "toolchain.runtime_driver",
                                              "toolchain.enumeration", "toolchain.smoke", "engine.generate",
                                              "f32.oracle", NULL};
const char *const mx_qual_base_gates[] = {"f32.oracle", "f32.batch4", "f32.batch8", "f16.lowprec", "f16.batch4",
                                          "f16.batch8", "server", "soak", NULL};

static const json_t *gate(const json_t *results, const char *id) {
  const json_t *gates = json_object_get(results, "gates");
  size_t i;
  const json_t *g;
  json_array_foreach(gates, i, g) {
    const char *gid = json_string_value(json_object_get(g, "id"));
    if (gid && !strcmp(gid, id)) return g;
  }
  return NULL;
}

/* A gate's status; "not_run" when it is absent. */
static const char *status(const json_t *results, const char *id) {
  const char *s = json_string_value(json_object_get(gate(results, id), "status"));
  return s ? s : "not_run";
}

static const char *detail(const json_t *results, const char *id) {
  const char *s = json_string_value(json_object_get(gate(results, id), "detail"));
  return s ? s : "";
}

static bool is(const json_t *results, const char *id, const char *st) { return !strcmp(status(results, id), st); }

/* A precision's row from its gates: "supported", or what stops it. */
static json_t *precision_row(const json_t *results, const char *p, bool optional) {
  char ids[3][32];
  snprintf(ids[0], sizeof ids[0], "%s.%s", p, strcmp(p, "f32") ? "lowprec" : "oracle");
  snprintf(ids[1], sizeof ids[1], "%s.batch4", p);
  snprintf(ids[2], sizeof ids[2], "%s.batch8", p);
  int n = optional ? 2 : 3; /* an optional row needs one batch size */
  if (is(results, ids[0], "guarded"))
    return json_pack("{s:s, s:s}", "state", "guarded", "why", detail(results, ids[0]));
  for (int i = 0; i < n; i++)
    if (is(results, ids[i], "fail"))
      return json_pack("{s:s, s:s, s:s}", "state", "fails", "gate", ids[i], "why", detail(results, ids[i]));
  for (int i = 0; i < n; i++)
    if (!is(results, ids[i], "pass")) return json_pack("{s:s, s:s}", "state", "not measured", "gate", ids[i]);
  return json_pack("{s:s}", "state", "supported");
}

static json_t *packed_row(const json_t *results) {
  const char *s = status(results, "packed");
  if (!strcmp(s, "pass")) return json_pack("{s:s}", "state", "supported");
  if (!strcmp(s, "fail")) return json_pack("{s:s, s:s}", "state", "fails", "why", detail(results, "packed"));
  if (!strcmp(s, "not_available")) return json_pack("{s:s, s:s}", "state", "not available", "why", detail(results, "packed"));
  return json_pack("{s:s}", "state", "not measured");
}

/* "bf16 guarded (why)", "f16 fails f16.batch4 (why)", ... for the boundary sentence. */
static void describe_row(mx_strbuf_t *b, const char *name, const json_t *row) {
  const char *state = json_string_value(json_object_get(row, "state"));
  const char *why = json_string_value(json_object_get(row, "why")), *g = json_string_value(json_object_get(row, "gate"));
  mx_strbuf_printf(b, "%s %s", name, state);
  if (g && !strcmp(state, "fails")) mx_strbuf_printf(b, " %s", g);
  if (why && why[0]) mx_strbuf_printf(b, " (%s)", why);
}

json_t *mx_qual_decide(const json_t *results) {
  json_t *reasons = json_array(), *rows = json_object();
  json_object_set_new(rows, "f32", precision_row(results, "f32", false));
  json_object_set_new(rows, "f16", precision_row(results, "f16", false));
  json_object_set_new(rows, "bf16", precision_row(results, "bf16", true));
  json_object_set_new(rows, "packed", packed_row(results));
  const char *verdict = NULL;
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  for (int i = 0; mx_qual_blocking_gates[i] && !verdict; i++) {
    const char *id = mx_qual_blocking_gates[i];
    if (is(results, id, "fail")) {
      verdict = "blocked";
      mx_strbuf_printf(&b, "blocked at %s: %s", id, detail(results, id));
      json_array_append_new(reasons, json_sprintf("%s failed", id));
    }
  }
  bool complete = json_is_true(json_object_get(results, "complete"));
  if (!verdict) {
    for (int i = 0; mx_qual_blocking_gates[i]; i++)
      if (!is(results, mx_qual_blocking_gates[i], "pass")) complete = false;
    for (int i = 0; mx_qual_base_gates[i]; i++)
      if (is(results, mx_qual_base_gates[i], "not_run")) {
        complete = false;
        json_array_append_new(reasons, json_sprintf("%s did not run", mx_qual_base_gates[i]));
      }
    if (!complete) {
      verdict = "incomplete";
      mx_strbuf_printf(&b, "incomplete: no verdict, the run did not finish every base gate");
    }
  }
  if (!verdict) {
    double soak = json_number_value(json_object_get(results, "soak_minutes"));
    bool all = true;
    for (int i = 0; mx_qual_base_gates[i]; i++)
      if (!is(results, mx_qual_base_gates[i], "pass")) {
        all = false;
        json_array_append_new(reasons, json_sprintf("%s failed", mx_qual_base_gates[i]));
      }
    bool short_soak = soak < MX_QUAL_FULL_SOAK_MINUTES;
    if (short_soak)
      json_array_append_new(reasons, json_sprintf("the soak lasted %.1f min, below the %.0f the verdict supported needs",
                                                  soak, MX_QUAL_FULL_SOAK_MINUTES));
    verdict = all && !short_soak ? "supported" : "conditionally supported";
    const json_t *f16 = json_object_get(rows, "f16");
    bool f16_ok = !strcmp(json_string_value(json_object_get(f16, "state")), "supported");
    mx_strbuf_printf(&b, "%s supported", f16_ok ? "f32 and f16" : "f32");
    if (!f16_ok) {
      mx_strbuf_printf(&b, "; ");
      describe_row(&b, "f16", f16);
    }
    for (int i = 0; mx_qual_base_gates[i]; i++) {
      const char *id = mx_qual_base_gates[i];
      if (strncmp(id, "f32.", 4) && strncmp(id, "f16.", 4) && !is(results, id, "pass"))
        mx_strbuf_printf(&b, "; %s fails (%s)", id, detail(results, id));
    }
    if (short_soak) mx_strbuf_printf(&b, "; soak %.1f min (a full qualification soaks %.0f)", soak, MX_QUAL_FULL_SOAK_MINUTES);
  }
  mx_strbuf_printf(&b, "; ");
  describe_row(&b, "bf16", json_object_get(rows, "bf16"));
  mx_strbuf_printf(&b, "; ");
  describe_row(&b, "packed", json_object_get(rows, "packed"));
  char *boundary = mx_strbuf_take(&b);
  json_t *d = json_pack("{s:s, s:s?, s:o, s:o}", "verdict", verdict, "boundary", boundary, "rows", rows, "reasons", reasons);
  free(boundary);
  return d;
}
