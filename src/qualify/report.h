/* findings.md and the plots of a qualification run, written from env.json and results.json alone
 * (so a report can be regenerated from the JSON): the decision, the environment and pin table, the
 * gate matrix by precision and batch size, timing and memory tables, the soak, the commands to
 * reproduce every step, and the variables and workarounds in effect. */
#ifndef MX_QUALIFY_REPORT_H
#define MX_QUALIFY_REPORT_H

#include <jansson.h>

#include "base/status.h"

/* Writes dir/findings.md, dir/decode-by-batch.svg and dir/soak-memory.svg (env may be NULL). */
MX_MUST_USE mx_status_t mx_qual_write_report(const char *dir, const json_t *env, const json_t *results);
/* A line chart as SVG: n_series series of n points each (x[i], y[s][i]; y < 0 is a missing point). */
char *mx_qual_svg_lines(const char *title, const char *xlabel, const char *ylabel, const double *x, int n,
                        const double *const *y, const char *const *names, int n_series);

#endif
