/* Running iree-compile. (The VMFB cache keyed by graph, flags, compiler version and target comes with
 * the generation work; this is the uncached step it will wrap.) */
#ifndef MX_COMPILER_COMPILE_H
#define MX_COMPILER_COMPILE_H

#include "base/status.h"
#include "compiler/target.h"

/* Compiles MLIR text to `vmfb_path` for `target` with the compiler at `compiler`. The compiler's
 * diagnostics are saved next to the output as <vmfb_path>.log; a failure quotes the first error. */
MX_MUST_USE mx_status_t mx_compile_mlir(const char *compiler, const mx_target_t *target, const char *mlir_text,
                                        const char *vmfb_path, double *elapsed_ms);

/* The same, printing "still compiling <progress>" every 10 s when progress is not NULL. */
MX_MUST_USE mx_status_t mx_compile_mlir_progress(const char *compiler, const mx_target_t *target, const char *mlir_text,
                                                 const char *vmfb_path, const char *progress, double *elapsed_ms);
/* `iree-compile --version` output (part of every cache key). */
MX_MUST_USE mx_status_t mx_compiler_version(const char *compiler, char *out, size_t cap);

#endif
