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
/* A `util.initializer`: a body without arguments or results that the runtime runs once when the module
 * loads, before any function; it fills globals declared with mx_hlo_declare_global (mx_hlo_store). */
void mx_hlo_initializer_begin(mx_hlo_t *h);
void mx_hlo_initializer_end(mx_hlo_t *h);

mx_hval_t mx_hlo_add(mx_hlo_t *h, mx_hval_t a, mx_hval_t b);
/* [m,k] x [k,n] -> [m,n] with the operands' element type (stablehlo.dot_general). */
mx_hval_t mx_hlo_matmul(mx_hlo_t *h, mx_hval_t a, mx_hval_t b);

/* ---- module-level state ----------------------------------------------------------------------
 * A parameter is an immutable global bound by the runtime to `key` in parameter scope "model"
 * (IREE external parameters: loaded from the model's files, never passed per call). A state global
 * is mutable and zero-initialised on the device (the KV cache); functions load and store it, and
 * IREE updates it in place. */
void mx_hlo_declare_param(mx_hlo_t *h, const char *sym, const char *key, mx_hval_t type);
void mx_hlo_declare_state(mx_hlo_t *h, const char *sym, mx_hval_t type);
/* An immutable global without a value of its own: an initializer stores it once (values computed from
 * parameters at load, held once however many functions read them). */
void mx_hlo_declare_global(mx_hlo_t *h, const char *sym, mx_hval_t type);
mx_hval_t mx_hlo_load(mx_hlo_t *h, const char *sym, mx_hval_t type);
void mx_hlo_store(mx_hlo_t *h, const char *sym, mx_hval_t v);

/* ---- constants ------------------------------------------------------------------------------ */
/* A tensor of `type` filled with `value` (float or integer types). */
mx_hval_t mx_hlo_splat(mx_hlo_t *h, mx_hval_t type, double value);
mx_hval_t mx_hlo_scalar_i32(mx_hlo_t *h, int32_t v);
/* A rank-1 i32 constant holding vals. */
mx_hval_t mx_hlo_const_i32(mx_hlo_t *h, const int32_t *vals, int64_t n);
/* A rank-1 f32 constant holding vals (printed exactly, as hexadecimal bit patterns). */
mx_hval_t mx_hlo_const_f32(mx_hlo_t *h, const float *vals, int64_t n);

/* ---- elementwise -------------------------------------------------------------------------------
 * op: "exponential", "rsqrt", "sqrt", "logistic", "negate", "cosine", "sine", "abs", "log". */
mx_hval_t mx_hlo_unary(mx_hlo_t *h, const char *op, mx_hval_t a);
/* op: any elementwise StableHLO binary op, e.g. "add", "subtract", "multiply", "divide", "maximum",
 * "minimum", and on integers "and", "xor", "shift_right_logical" (the Gumbel hash, hlo/llama.c); operands
 * of one type. */
mx_hval_t mx_hlo_binary(mx_hlo_t *h, const char *op, mx_hval_t a, mx_hval_t b);
mx_hval_t mx_hlo_convert(mx_hlo_t *h, mx_hval_t a, mx_dtype_t to);
/* i8 [..., n] as i4 [..., n, 2]: each byte's low nibble first (stablehlo.bitcast_convert). */
mx_hval_t mx_hlo_bytes_as_nibbles(mx_hlo_t *h, mx_hval_t a);
/* The same bits as another type of the same width (f32 <-> i32: stablehlo.bitcast_convert). */
mx_hval_t mx_hlo_bitcast(mx_hlo_t *h, mx_hval_t a, mx_dtype_t to);
/* a unchanged, but the compiler may not fuse or move work across it (stablehlo.optimization_barrier). */
mx_hval_t mx_hlo_barrier(mx_hlo_t *h, mx_hval_t a);
/* dir: "EQ", "NE", "LT", "LE", "GT", "GE"; result is i1. */
mx_hval_t mx_hlo_compare(mx_hlo_t *h, const char *dir, mx_hval_t a, mx_hval_t b);
mx_hval_t mx_hlo_select(mx_hlo_t *h, mx_hval_t pred, mx_hval_t on_true, mx_hval_t on_false);

/* ---- shape ---------------------------------------------------------------------------------- */
mx_hval_t mx_hlo_reshape(mx_hlo_t *h, mx_hval_t a, int rank, const int64_t *dims);
mx_hval_t mx_hlo_transpose(mx_hlo_t *h, mx_hval_t a, const int64_t *perm);
/* broadcast_in_dim: operand dimension i becomes result dimension bdims[i]. */
mx_hval_t mx_hlo_broadcast(mx_hlo_t *h, mx_hval_t a, int rank, const int64_t *dims, const int64_t *bdims);
mx_hval_t mx_hlo_slice(mx_hlo_t *h, mx_hval_t a, const int64_t *start, const int64_t *limit);
mx_hval_t mx_hlo_concat(mx_hlo_t *h, int n, const mx_hval_t *vals, int64_t dim);
mx_hval_t mx_hlo_iota(mx_hlo_t *h, mx_hval_t type, int64_t dim);
/* starts: rank scalar i32 values. */
mx_hval_t mx_hlo_dynamic_slice(mx_hlo_t *h, mx_hval_t a, const mx_hval_t *starts, const int64_t *sizes);
mx_hval_t mx_hlo_dynamic_update_slice(mx_hlo_t *h, mx_hval_t a, mx_hval_t update, const mx_hval_t *starts);
/* a [R, C, Y] with, for every r < R, a[r, at[r], :] replaced by rows[r] ([R, Y]; at: [R] i32): one
 * write of a new row per (sequence, KV head) — the KV cache update of a batched decode step. */
mx_hval_t mx_hlo_scatter_rows(mx_hlo_t *h, mx_hval_t a, mx_hval_t rows, mx_hval_t at);
/* Rows of table [V, D] at ids [N] (i32): [N, D]. */
mx_hval_t mx_hlo_gather_rows(mx_hlo_t *h, mx_hval_t table, mx_hval_t ids);

/* ---- contractions and reductions ---------------------------------------------------------------
 * dot_general: the result's dimensions are the batch dimensions, then lhs's free ones, then rhs's;
 * out_dtype may be wider than the operands (f16 x f16 accumulated in f32). */
mx_hval_t mx_hlo_dot(mx_hlo_t *h, mx_hval_t a, mx_hval_t b, int nbatch, const int64_t *lb, const int64_t *rb, int ncon,
                     const int64_t *lc, const int64_t *rc, mx_dtype_t out_dtype);
typedef enum { MX_REDUCE_SUM, MX_REDUCE_MAX, MX_REDUCE_MIN, MX_REDUCE_PROD } mx_reduce_t;
/* Reduces the listed dimensions away. */
mx_hval_t mx_hlo_reduce(mx_hlo_t *h, mx_hval_t a, mx_reduce_t kind, int ndims, const int64_t *dims);

/* The module text (the caller owns it), or the first error recorded while building. */
MX_MUST_USE mx_status_t mx_hlo_finish(mx_hlo_t *h, char **text_out);

#endif
