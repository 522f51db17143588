/* Lowering configurations IREE 3.13 does not choose by itself, given to iree-compile as a transform-dialect
 * library (--iree-codegen-transform-dialect-library): each names the op shapes it matches and was measured
 * against the compiler's own choice (docs/performance.md). The graph stays the same for every device; a
 * target differs only by this file, as by its flags. */
#ifndef MX_COMPILER_TUNING_H
#define MX_COMPILER_TUNING_H

typedef struct {
  const char *name; /* in the module's signature and the compile cache key, with the text */
  const char *text; /* the library (MLIR) */
} mx_tuning_t;

/* The library for a compiler backend ("cuda", "rocm", ...), or NULL when it has none. */
const mx_tuning_t *mx_tuning_for_backend(const char *backend);

#endif
