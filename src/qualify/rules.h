/* The qualification decision, computed from results.json by written rules (docs/qualification.md,
 * "The decision"), so that the same evidence always gives the same verdict and a test can reach each
 * verdict from a fixture.
 *
 * Gates have ids ("f32.oracle", "soak", ...) and a status: pass, fail, guarded (refused by the engine
 * on purpose: a precision guard), not_run (a prerequisite failed, or the run was interrupted) or
 * not_available (not in this build). The verdicts:
 *   blocked                  a toolchain or engine gate failed, or f32 is not token-exact with the oracle
 *   incomplete               nothing is blocked, but a base gate did not run (interrupted, unfinished)
 *   supported                every base gate passed and the soak lasted at least MX_QUAL_FULL_SOAK_MINUTES
 *   conditionally supported  otherwise: f32 works; the boundary names each base gate that failed and a
 *                            shorter soak
 * bf16 and packed are rows of their own and never change the verdict. */
#ifndef MX_QUALIFY_RULES_H
#define MX_QUALIFY_RULES_H

#include <jansson.h>

#define MX_QUAL_FULL_SOAK_MINUTES 30.0

/* The gates each verdict needs, in the order the boundary names them. */
extern const char *const mx_qual_blocking_gates[]; /* toolchain and engine: blocked when one fails */
extern const char *const mx_qual_base_gates[];     /* f32, f16, batch, server, soak */

/* Reads results (its "gates", "complete", "soak_minutes") and returns the decision object:
 * {verdict, boundary, rows: {f32, f16, bf16, packed}, reasons: [...]}. NULL only when out of memory. */
json_t *mx_qual_decide(const json_t *results);

#endif
