/* The VMFB cache: compiled modules under <pinned IREE cache>/vmfb/, keyed by SHA-256 of everything
 * that changes the output (the graph text, the compile flags, the compiler's version string, the
 * target). A hit skips iree-compile entirely, once the module matches its checksum (base/cachefile.h:
 * a damaged one is logged, deleted and compiled again); a miss compiles (with progress) and stores the
 * result atomically with its checksum, so concurrent runs never see a partial file. Each call sweeps
 * the temporary files of killed compiles; a failed compile keeps its MLIR and log in
 * <dir>/failed/last.mlir and last.log only (the last failure's). Interruptible (base/interrupt.h). */
#ifndef MX_COMPILER_CACHE_H
#define MX_COMPILER_CACHE_H

#include <stdbool.h>

#include "base/status.h"
#include "base/toolchain.h"
#include "compiler/target.h"

typedef struct {
  char path[MX_PATH_MAX];
  char key[65];
  bool hit;
  double compile_ms; /* 0 on a hit */
} mx_vmfb_t;

/* `what` names the module in progress messages ("SmolLM2 f32 graph"). */
MX_MUST_USE mx_status_t mx_compile_cached(const mx_target_t *target, const char *mlir_text, const char *what, mx_vmfb_t *out);

#endif
