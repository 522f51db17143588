/* Lowering configurations IREE 3.13 does not choose by itself, given to iree-compile as a transform-dialect
 * library (--iree-codegen-transform-dialect-library): each names the op shapes it matches and was measured
 * against the compiler's own choice (docs/performance.md). The graph stays the same for every device; a
 * target differs only by this file, as by its flags. */
#ifndef MX_COMPILER_TUNING_H
#define MX_COMPILER_TUNING_H

#include "base/dtype.h"

typedef struct {
  int batch, group, head_dim; /* B = slots x KV heads, G query heads per KV head, D; 0: none */
  mx_dtype_t kv;              /* the products' input type */
} mx_tuning_grouped_t;

/* A batched decode step's weight product [rows, k] . [n, k]^T in `type` that the target runs whole,
 * where the graph would otherwise split its reduction (mx_llama_graph_t whole_decode_products). */
typedef struct {
  int rows, n, k; /* 0: none */
  mx_dtype_t type;
} mx_tuning_product_t;

#define MX_TUNING_MAX_WHOLE 4

typedef struct {
  const char *name; /* in the module's signature and the compile cache key, with the text */
  const char *text; /* the library (MLIR) */
  mx_tuning_grouped_t grouped; /* the grouped decode attention products it configures (hlo/llama.c
                                * attend_decode_grouped_rows), the one shape its matchers name */
  mx_tuning_product_t whole[MX_TUNING_MAX_WHOLE]; /* the decode products it runs whole: configured by its
                                                   * matchers, or measured as fast whole with IREE's own */
} mx_tuning_t;

/* The library for a compiler backend ("cuda", "rocm", ...), or NULL when it has none. */
const mx_tuning_t *mx_tuning_for_backend(const char *backend);

#endif
