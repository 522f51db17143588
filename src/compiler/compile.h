/* Running iree-compile. (The VMFB cache keyed by graph, flags, compiler version and target comes with
 * the generation work; this is the uncached step it will wrap.) */
#ifndef MX_COMPILER_COMPILE_H
#define MX_COMPILER_COMPILE_H

#include "base/status.h"
#include "compiler/target.h"

/* Compiles MLIR text to `vmfb_path` for `target` with the compiler at `compiler`. The compiler's
 * diagnostics are saved next to the output as <vmfb_path>.log; a failure quotes the first error. */
mx_status_t mx_compile_mlir(const char *compiler, const mx_target_t *target, const char *mlir_text,
                            const char *vmfb_path, double *elapsed_ms);

#endif
