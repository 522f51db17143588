/* A small builder for StableHLO text.
 *
 * Values are typed (dtype + static shape), so every op checks its operands and prints the exact
 * MLIR types; a shape error is recorded once and reported by mx_hlo_finish instead of producing text
 * that iree-compile would reject far from its cause. The Llama graph is written on top of this. */
#ifndef MX_HLO_BUILDER_H
#define MX_HLO_BUILDER_H

#include <stdint.h>

#include "base/dtype.h"
#include "base/status.h"

typedef struct mx_hlo mx_hlo_t;

typedef struct {
  int id; /* SSA number: %a<id> for arguments, %v<id> for results; -1 = invalid */
  int is_arg;
  mx_dtype_t dtype;
  int rank;
  int64_t dims[MX_MAX_RANK];
} mx_hval_t;

/* A value type, for function signatures. */
mx_hval_t mx_htype(mx_dtype_t dtype, int rank, const int64_t *dims);

mx_hlo_t *mx_hlo_create(void);
void mx_hlo_destroy(mx_hlo_t *h);

/* Opens `func.func @name(args...)`; args_out[i] are the argument values. */
void mx_hlo_func_begin(mx_hlo_t *h, const char *name, int n_args, const mx_hval_t *arg_types, mx_hval_t *args_out);
/* Closes the function with `return results...`. */
void mx_hlo_func_end(mx_hlo_t *h, int n_results, const mx_hval_t *results);

mx_hval_t mx_hlo_add(mx_hlo_t *h, mx_hval_t a, mx_hval_t b);
/* [m,k] x [k,n] -> [m,n] with the operands' element type (stablehlo.dot_general). */
mx_hval_t mx_hlo_matmul(mx_hlo_t *h, mx_hval_t a, mx_hval_t b);

/* The module text (the caller owns it), or the first error recorded while building. */
mx_status_t mx_hlo_finish(mx_hlo_t *h, char **text_out);

#endif
