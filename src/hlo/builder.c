#include "hlo/builder.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/half.h"
#include "base/strbuf.h"

struct mx_hlo {
  mx_strbuf_t globals; /* util.global declarations */
  mx_strbuf_t module;  /* finished functions */
  mx_strbuf_t head;   /* the open function's "func.func @name(args)" */
  mx_strbuf_t body;   /* the open function's ops; result types are known only at the end */
  int next_id;
  int n_states; /* mutable globals declared so far */
  bool in_func;
  mx_status_t error; /* first error; later ops become no-ops */
};

static const mx_hval_t invalid = {.id = -1};

mx_hval_t mx_htype(mx_dtype_t dtype, int rank, const int64_t *dims) {
  mx_hval_t v = {.id = -1, .dtype = dtype, .rank = rank};
  for (int i = 0; i < rank && i < MX_MAX_RANK; i++) v.dims[i] = dims[i];
  return v;
}

mx_hlo_t *mx_hlo_create(void) { return calloc(1, sizeof(mx_hlo_t)); }

void mx_hlo_destroy(mx_hlo_t *h) {
  if (!h) return;
  mx_strbuf_free(&h->globals);
  mx_strbuf_free(&h->module);
  mx_strbuf_free(&h->head);
  mx_strbuf_free(&h->body);
  mx_status_free(h->error);
  free(h);
}

static mx_hval_t fail(mx_hlo_t *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static mx_hval_t fail(mx_hlo_t *h, const char *fmt, ...) {
  if (!h->error) {
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* Ops are emitted by mlxcel's own code, never from user input: a bad one is a bug in mlxcel. */
    h->error = mx_status_make(MX_STAGE_INTERNAL, NULL, "graph construction: %s", what);
  }
  return invalid;
}

static bool usable(mx_hlo_t *h, mx_hval_t v) {
  if (h->error) return false;
  if (!h->in_func) return fail(h, "op outside a function"), false;
  if (v.id < 0) return fail(h, "use of an invalid value"), false;
  return true;
}

/* tensor<2x3xf32> */
static void put_type(mx_strbuf_t *b, mx_hval_t v) {
  mx_strbuf_printf(b, "tensor<");
  for (int i = 0; i < v.rank; i++) mx_strbuf_printf(b, "%lldx", (long long)v.dims[i]);
  mx_strbuf_printf(b, "%s>", mx_dtype_mlir(v.dtype));
}

static void put_ref(mx_strbuf_t *b, mx_hval_t v) { mx_strbuf_printf(b, "%%%s%d", v.is_arg ? "a" : "v", v.id); }

/* Starts "    %vN = " for a new result value. */
static mx_hval_t new_value(mx_hlo_t *h, mx_dtype_t dt, int rank, const int64_t *dims) {
  mx_hval_t v = mx_htype(dt, rank, dims);
  v.id = h->next_id++;
  mx_strbuf_printf(&h->body, "    ");
  put_ref(&h->body, v);
  mx_strbuf_printf(&h->body, " = ");
  return v;
}

/* Starts the body of a function or an initializer; false (and the builder failed) inside another. */
static bool open_body(mx_hlo_t *h) {
  if (h->error) return false;
  if (h->in_func) return fail(h, "a function or initializer opened inside another"), false;
  h->in_func = true;
  h->next_id = 0;
  mx_strbuf_free(&h->head);
  mx_strbuf_free(&h->body);
  return true;
}

void mx_hlo_func_begin(mx_hlo_t *h, const char *name, int n_args, const mx_hval_t *arg_types, mx_hval_t *args_out) {
  if (!open_body(h)) return;
  mx_strbuf_printf(&h->head, "  func.func @%s(", name);
  for (int i = 0; i < n_args; i++) {
    args_out[i] = arg_types[i];
    args_out[i].id = i;
    args_out[i].is_arg = 1;
    mx_strbuf_printf(&h->head, "%s", i ? ", " : "");
    put_ref(&h->head, args_out[i]);
    mx_strbuf_printf(&h->head, ": ");
    put_type(&h->head, args_out[i]);
  }
  mx_strbuf_printf(&h->head, ")");
}

void mx_hlo_func_end(mx_hlo_t *h, int n_results, const mx_hval_t *results) {
  if (!h->in_func) {
    fail(h, "function closed without being opened");
    return;
  }
  for (int i = 0; i < n_results; i++)
    if (!usable(h, results[i])) return;
  if (h->error) return;
  mx_strbuf_t *m = &h->module;
  mx_strbuf_append(m, h->head.data, h->head.len);
  mx_strbuf_printf(m, " -> (");
  for (int i = 0; i < n_results; i++) {
    mx_strbuf_printf(m, "%s", i ? ", " : "");
    put_type(m, results[i]);
  }
  mx_strbuf_printf(m, ") {\n");
  if (h->body.len) mx_strbuf_append(m, h->body.data, h->body.len);
  mx_strbuf_printf(m, "    return");
  for (int i = 0; i < n_results; i++) {
    mx_strbuf_printf(m, "%s", i ? ", " : " ");
    put_ref(m, results[i]);
  }
  for (int i = 0; i < n_results; i++) {
    mx_strbuf_printf(m, "%s", i ? ", " : " : ");
    put_type(m, results[i]);
  }
  mx_strbuf_printf(m, "\n  }\n");
  h->in_func = false;
}

void mx_hlo_initializer_begin(mx_hlo_t *h) { open_body(h); }

void mx_hlo_initializer_end(mx_hlo_t *h) {
  if (!h->in_func) {
    fail(h, "initializer closed without being opened");
    return;
  }
  if (h->error) return;
  mx_strbuf_t *m = &h->module;
  mx_strbuf_printf(m, "  util.initializer {\n");
  if (h->body.len) mx_strbuf_append(m, h->body.data, h->body.len);
  mx_strbuf_printf(m, "    util.return\n  }\n");
  h->in_func = false;
}

static bool same_type(mx_hval_t a, mx_hval_t b) {
  if (a.dtype != b.dtype || a.rank != b.rank) return false;
  for (int i = 0; i < a.rank; i++)
    if (a.dims[i] != b.dims[i]) return false;
  return true;
}

mx_hval_t mx_hlo_add(mx_hlo_t *h, mx_hval_t a, mx_hval_t b) {
  if (!usable(h, a) || !usable(h, b)) return invalid;
  if (!same_type(a, b)) return fail(h, "add of different types (ranks %d and %d)", a.rank, b.rank);
  mx_hval_t r = new_value(h, a.dtype, a.rank, a.dims);
  mx_strbuf_printf(&h->body, "stablehlo.add ");
  put_ref(&h->body, a);
  mx_strbuf_printf(&h->body, ", ");
  put_ref(&h->body, b);
  mx_strbuf_printf(&h->body, " : ");
  put_type(&h->body, r);
  mx_strbuf_printf(&h->body, "\n");
  return r;
}

mx_hval_t mx_hlo_matmul(mx_hlo_t *h, mx_hval_t a, mx_hval_t b) {
  if (!usable(h, a) || !usable(h, b)) return invalid;
  if (a.rank != 2 || b.rank != 2) return fail(h, "matmul needs rank-2 operands, got %d and %d", a.rank, b.rank);
  if (a.dims[1] != b.dims[0]) return fail(h, "matmul contracts %lld against %lld", (long long)a.dims[1], (long long)b.dims[0]);
  if (a.dtype != b.dtype) return fail(h, "matmul of different dtypes");
  int64_t dims[2] = {a.dims[0], b.dims[1]};
  mx_hval_t r = new_value(h, a.dtype, 2, dims);
  mx_strbuf_printf(&h->body, "stablehlo.dot_general ");
  put_ref(&h->body, a);
  mx_strbuf_printf(&h->body, ", ");
  put_ref(&h->body, b);
  mx_strbuf_printf(&h->body, ", contracting_dims = [1] x [0] : (");
  put_type(&h->body, a);
  mx_strbuf_printf(&h->body, ", ");
  put_type(&h->body, b);
  mx_strbuf_printf(&h->body, ") -> ");
  put_type(&h->body, r);
  mx_strbuf_printf(&h->body, "\n");
  return r;
}

/* ------------------------------------------------------------------------------ generic ops */

static int64_t count_of(mx_hval_t v) {
  int64_t n = 1;
  for (int i = 0; i < v.rank; i++) n *= v.dims[i];
  return n;
}

static void put_i64_list(mx_strbuf_t *b, int n, const int64_t *v) {
  for (int i = 0; i < n; i++) mx_strbuf_printf(b, "%s%lld", i ? ", " : "", (long long)v[i]);
}

/* Emits `%vN = "stablehlo.OP"(operands) ATTRS : (operand types) -> result`, MLIR's generic op form,
 * which spells every op the same way. */
static mx_hval_t emit(mx_hlo_t *h, const char *op, int n, const mx_hval_t *ops, const char *attrs, mx_hval_t result) {
  for (int i = 0; i < n; i++)
    if (!usable(h, ops[i])) return invalid;
  if (h->error) return invalid;
  if (!h->in_func) return fail(h, "op outside a function");
  mx_hval_t r = new_value(h, result.dtype, result.rank, result.dims);
  mx_strbuf_printf(&h->body, "\"stablehlo.%s\"(", op);
  for (int i = 0; i < n; i++) {
    mx_strbuf_printf(&h->body, "%s", i ? ", " : "");
    put_ref(&h->body, ops[i]);
  }
  mx_strbuf_printf(&h->body, ")%s%s : (", attrs && attrs[0] ? " " : "", attrs ? attrs : "");
  for (int i = 0; i < n; i++) {
    mx_strbuf_printf(&h->body, "%s", i ? ", " : "");
    put_type(&h->body, ops[i]);
  }
  mx_strbuf_printf(&h->body, ") -> ");
  put_type(&h->body, r);
  mx_strbuf_printf(&h->body, "\n");
  return r;
}

static bool is_float(mx_dtype_t d) { return d == MX_F32 || d == MX_F16 || d == MX_BF16; }

/* A value's bit pattern as MLIR accepts it for float literals (exact, infinities included). */
static void put_scalar(mx_strbuf_t *b, mx_dtype_t d, double v) {
  if (d == MX_F32) {
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    mx_strbuf_printf(b, "0x%08X", bits);
  } else if (d == MX_F16) {
    mx_strbuf_printf(b, "0x%04X", mx_f32_to_f16((float)v));
  } else if (d == MX_BF16) {
    mx_strbuf_printf(b, "0x%04X", mx_f32_to_bf16((float)v));
  } else if (d == MX_BOOL) {
    mx_strbuf_printf(b, "%s", v != 0 ? "true" : "false");
  } else {
    mx_strbuf_printf(b, "%lld", (long long)v);
  }
}

void mx_hlo_declare_param(mx_hlo_t *h, const char *sym, const char *key, mx_hval_t type) {
  mx_strbuf_printf(&h->globals, "  util.global private @%s = #flow.parameter.named<\"model\"::\"%s\"> : ", sym, key);
  put_type(&h->globals, type);
  mx_strbuf_printf(&h->globals, "\n");
}

void mx_hlo_declare_global(mx_hlo_t *h, const char *sym, mx_hval_t type) {
  mx_strbuf_printf(&h->globals, "  util.global private @%s : ", sym);
  put_type(&h->globals, type);
  mx_strbuf_printf(&h->globals, "\n");
}

/* IREE 3.13 gives mutable globals with identical splat initializers one shared buffer, so an
 * in-place update of one (the K cache) overwrote another (the V cache): wrong attention, found by the
 * HF trajectory gate and reduced in docs/spikes.md. Each state global therefore starts at its own
 * tiny value; its contents are never read before they are written (masked), so the value is moot. */
void mx_hlo_declare_state(mx_hlo_t *h, const char *sym, mx_hval_t type) {
  double unit = type.dtype == MX_F16 ? 0x1p-24 : 0x1p-100;
  double init = is_float(type.dtype) ? unit * (double)(++h->n_states) : (double)(++h->n_states);
  mx_strbuf_printf(&h->globals, "  util.global private mutable @%s = dense<", sym);
  put_scalar(&h->globals, type.dtype, init);
  mx_strbuf_printf(&h->globals, "> : ");
  put_type(&h->globals, type);
  mx_strbuf_printf(&h->globals, "\n");
}

mx_hval_t mx_hlo_load(mx_hlo_t *h, const char *sym, mx_hval_t type) {
  if (h->error) return invalid;
  if (!h->in_func) return fail(h, "global load outside a function");
  mx_hval_t r = new_value(h, type.dtype, type.rank, type.dims);
  mx_strbuf_printf(&h->body, "util.global.load @%s : ", sym);
  put_type(&h->body, r);
  mx_strbuf_printf(&h->body, "\n");
  return r;
}

void mx_hlo_store(mx_hlo_t *h, const char *sym, mx_hval_t v) {
  if (!usable(h, v)) return;
  mx_strbuf_printf(&h->body, "    util.global.store ");
  put_ref(&h->body, v);
  mx_strbuf_printf(&h->body, ", @%s : ", sym);
  put_type(&h->body, v);
  mx_strbuf_printf(&h->body, "\n");
}

mx_hval_t mx_hlo_splat(mx_hlo_t *h, mx_hval_t type, double value) {
  mx_strbuf_t a;
  mx_strbuf_init(&a);
  mx_strbuf_printf(&a, "{value = dense<");
  put_scalar(&a, type.dtype, value);
  mx_strbuf_printf(&a, "> : ");
  put_type(&a, type);
  mx_strbuf_printf(&a, "}");
  mx_hval_t r = emit(h, "constant", 0, NULL, a.data, type);
  mx_strbuf_free(&a);
  return r;
}

mx_hval_t mx_hlo_scalar_i32(mx_hlo_t *h, int32_t v) { return mx_hlo_splat(h, mx_htype(MX_I32, 0, NULL), v); }

mx_hval_t mx_hlo_const_i32(mx_hlo_t *h, const int32_t *vals, int64_t n) {
  mx_hval_t type = mx_htype(MX_I32, 1, &n);
  mx_strbuf_t a;
  mx_strbuf_init(&a);
  mx_strbuf_printf(&a, "{value = dense<[");
  for (int64_t i = 0; i < n; i++) mx_strbuf_printf(&a, "%s%d", i ? ", " : "", vals[i]);
  mx_strbuf_printf(&a, "]> : ");
  put_type(&a, type);
  mx_strbuf_printf(&a, "}");
  mx_hval_t r = emit(h, "constant", 0, NULL, a.data, type);
  mx_strbuf_free(&a);
  return r;
}

mx_hval_t mx_hlo_const_f32(mx_hlo_t *h, const float *vals, int64_t n) {
  mx_hval_t type = mx_htype(MX_F32, 1, &n);
  mx_strbuf_t a;
  mx_strbuf_init(&a);
  mx_strbuf_printf(&a, "{value = dense<\"0x");
  for (int64_t i = 0; i < n; i++) { /* raw little-endian bytes */
    uint32_t bits;
    memcpy(&bits, &vals[i], 4);
    for (int k = 0; k < 4; k++) mx_strbuf_printf(&a, "%02X", (bits >> (8 * k)) & 0xff);
  }
  mx_strbuf_printf(&a, "\"> : ");
  put_type(&a, type);
  mx_strbuf_printf(&a, "}");
  mx_hval_t r = emit(h, "constant", 0, NULL, a.data, type);
  mx_strbuf_free(&a);
  return r;
}

mx_hval_t mx_hlo_unary(mx_hlo_t *h, const char *op, mx_hval_t a) {
  if (usable(h, a) && !is_float(a.dtype) && strcmp(op, "negate") && strcmp(op, "abs")) return fail(h, "%s of a non-float value", op);
  return emit(h, op, 1, &a, NULL, a);
}

mx_hval_t mx_hlo_binary(mx_hlo_t *h, const char *op, mx_hval_t a, mx_hval_t b) {
  if (!usable(h, a) || !usable(h, b)) return invalid;
  if (!same_type(a, b)) return fail(h, "%s of different types (ranks %d and %d)", op, a.rank, b.rank);
  mx_hval_t ops[2] = {a, b};
  return emit(h, op, 2, ops, NULL, a);
}

mx_hval_t mx_hlo_convert(mx_hlo_t *h, mx_hval_t a, mx_dtype_t to) {
  if (usable(h, a) && a.dtype == to) return a;
  mx_hval_t r = a;
  r.dtype = to;
  return emit(h, "convert", 1, &a, NULL, r);
}

mx_hval_t mx_hlo_bytes_as_nibbles(mx_hlo_t *h, mx_hval_t a) {
  if (!usable(h, a)) return invalid;
  if (a.dtype != MX_I8 || a.rank >= MX_MAX_RANK) return fail(h, "nibbles of a non-i8 tensor");
  mx_hval_t r = a;
  r.dtype = MX_I4;
  r.dims[r.rank++] = 2;
  return emit(h, "bitcast_convert", 1, &a, NULL, r);
}

mx_hval_t mx_hlo_bitcast(mx_hlo_t *h, mx_hval_t a, mx_dtype_t to) {
  if (!usable(h, a)) return invalid;
  if (mx_dtype_size(a.dtype) != mx_dtype_size(to) || a.dtype == MX_I4 || to == MX_I4)
    return fail(h, "bitcast of %s to %s: the widths differ", mx_dtype_name(a.dtype), mx_dtype_name(to));
  mx_hval_t r = a;
  r.dtype = to;
  return emit(h, "bitcast_convert", 1, &a, NULL, r);
}

mx_hval_t mx_hlo_barrier(mx_hlo_t *h, mx_hval_t a) { return emit(h, "optimization_barrier", 1, &a, NULL, a); }

mx_hval_t mx_hlo_compare(mx_hlo_t *h, const char *dir, mx_hval_t a, mx_hval_t b) {
  if (!usable(h, a) || !usable(h, b)) return invalid;
  if (!same_type(a, b)) return fail(h, "compare of different types");
  char attrs[96];
  snprintf(attrs, sizeof attrs, "{comparison_direction = #stablehlo<comparison_direction %s>}", dir);
  mx_hval_t ops[2] = {a, b}, r = a;
  r.dtype = MX_BOOL;
  return emit(h, "compare", 2, ops, attrs, r);
}

mx_hval_t mx_hlo_select(mx_hlo_t *h, mx_hval_t pred, mx_hval_t on_true, mx_hval_t on_false) {
  if (!usable(h, pred) || !usable(h, on_true) || !usable(h, on_false)) return invalid;
  mx_hval_t shape = on_true;
  shape.dtype = MX_BOOL;
  if (!same_type(on_true, on_false) || !same_type(pred, shape)) return fail(h, "select of mismatched types");
  mx_hval_t ops[3] = {pred, on_true, on_false};
  return emit(h, "select", 3, ops, NULL, on_true);
}

mx_hval_t mx_hlo_reshape(mx_hlo_t *h, mx_hval_t a, int rank, const int64_t *dims) {
  mx_hval_t r = mx_htype(a.dtype, rank, dims);
  if (usable(h, a) && count_of(a) != count_of(r)) return fail(h, "reshape of %lld elements to %lld", (long long)count_of(a), (long long)count_of(r));
  return emit(h, "reshape", 1, &a, NULL, r);
}

mx_hval_t mx_hlo_transpose(mx_hlo_t *h, mx_hval_t a, const int64_t *perm) {
  if (!usable(h, a)) return invalid;
  mx_hval_t r = a;
  for (int i = 0; i < a.rank; i++) {
    if (perm[i] < 0 || perm[i] >= a.rank) return fail(h, "transpose permutation out of range");
    r.dims[i] = a.dims[perm[i]];
  }
  mx_strbuf_t at;
  mx_strbuf_init(&at);
  mx_strbuf_printf(&at, "{permutation = array<i64: ");
  put_i64_list(&at, a.rank, perm);
  mx_strbuf_printf(&at, ">}");
  r = emit(h, "transpose", 1, &a, at.data, r);
  mx_strbuf_free(&at);
  return r;
}

mx_hval_t mx_hlo_broadcast(mx_hlo_t *h, mx_hval_t a, int rank, const int64_t *dims, const int64_t *bdims) {
  if (!usable(h, a)) return invalid;
  for (int i = 0; i < a.rank; i++)
    if (bdims[i] < 0 || bdims[i] >= rank || (a.dims[i] != 1 && a.dims[i] != dims[bdims[i]]))
      return fail(h, "broadcast of dimension %d (%lld) does not fit", i, (long long)a.dims[i]);
  mx_strbuf_t at;
  mx_strbuf_init(&at);
  mx_strbuf_printf(&at, "{broadcast_dimensions = array<i64%s", a.rank ? ": " : "");
  put_i64_list(&at, a.rank, bdims);
  mx_strbuf_printf(&at, ">}");
  mx_hval_t r = emit(h, "broadcast_in_dim", 1, &a, at.data, mx_htype(a.dtype, rank, dims));
  mx_strbuf_free(&at);
  return r;
}

mx_hval_t mx_hlo_slice(mx_hlo_t *h, mx_hval_t a, const int64_t *start, const int64_t *limit) {
  if (!usable(h, a)) return invalid;
  mx_hval_t r = a;
  int64_t strides[MX_MAX_RANK];
  for (int i = 0; i < a.rank; i++) {
    if (start[i] < 0 || limit[i] > a.dims[i] || start[i] > limit[i]) return fail(h, "slice out of bounds on dimension %d", i);
    r.dims[i] = limit[i] - start[i];
    strides[i] = 1;
  }
  mx_strbuf_t at;
  mx_strbuf_init(&at);
  mx_strbuf_printf(&at, "{start_indices = array<i64: ");
  put_i64_list(&at, a.rank, start);
  mx_strbuf_printf(&at, ">, limit_indices = array<i64: ");
  put_i64_list(&at, a.rank, limit);
  mx_strbuf_printf(&at, ">, strides = array<i64: ");
  put_i64_list(&at, a.rank, strides);
  mx_strbuf_printf(&at, ">}");
  r = emit(h, "slice", 1, &a, at.data, r);
  mx_strbuf_free(&at);
  return r;
}

mx_hval_t mx_hlo_concat(mx_hlo_t *h, int n, const mx_hval_t *vals, int64_t dim) {
  if (n < 1 || !usable(h, vals[0])) return invalid;
  mx_hval_t r = vals[0];
  r.dims[dim] = 0;
  for (int i = 0; i < n; i++) {
    if (!usable(h, vals[i]) || vals[i].rank != r.rank || vals[i].dtype != r.dtype) return fail(h, "concatenate of mismatched values");
    r.dims[dim] += vals[i].dims[dim];
  }
  char at[48];
  snprintf(at, sizeof at, "{dimension = %lld : i64}", (long long)dim);
  return emit(h, "concatenate", n, vals, at, r);
}

mx_hval_t mx_hlo_iota(mx_hlo_t *h, mx_hval_t type, int64_t dim) {
  char at[48];
  snprintf(at, sizeof at, "{iota_dimension = %lld : i64}", (long long)dim);
  return emit(h, "iota", 0, NULL, at, type);
}

mx_hval_t mx_hlo_dynamic_slice(mx_hlo_t *h, mx_hval_t a, const mx_hval_t *starts, const int64_t *sizes) {
  if (!usable(h, a)) return invalid;
  mx_hval_t ops[1 + MX_MAX_RANK], r = a;
  ops[0] = a;
  for (int i = 0; i < a.rank; i++) {
    ops[1 + i] = starts[i];
    if (sizes[i] > a.dims[i]) return fail(h, "dynamic_slice larger than its operand");
    r.dims[i] = sizes[i];
  }
  mx_strbuf_t at;
  mx_strbuf_init(&at);
  mx_strbuf_printf(&at, "{slice_sizes = array<i64: ");
  put_i64_list(&at, a.rank, sizes);
  mx_strbuf_printf(&at, ">}");
  r = emit(h, "dynamic_slice", 1 + a.rank, ops, at.data, r);
  mx_strbuf_free(&at);
  return r;
}

mx_hval_t mx_hlo_dynamic_update_slice(mx_hlo_t *h, mx_hval_t a, mx_hval_t update, const mx_hval_t *starts) {
  if (!usable(h, a) || !usable(h, update)) return invalid;
  if (update.rank != a.rank || update.dtype != a.dtype) return fail(h, "dynamic_update_slice of a mismatched update");
  mx_hval_t ops[2 + MX_MAX_RANK];
  ops[0] = a;
  ops[1] = update;
  for (int i = 0; i < a.rank; i++) ops[2 + i] = starts[i];
  return emit(h, "dynamic_update_slice", 2 + a.rank, ops, NULL, a);
}

mx_hval_t mx_hlo_gather_rows(mx_hlo_t *h, mx_hval_t table, mx_hval_t ids) {
  if (!usable(h, table) || !usable(h, ids)) return invalid;
  if (table.rank != 2 || ids.rank != 1 || ids.dtype != MX_I32) return fail(h, "gather_rows needs [V,D] and [N] i32");
  int64_t n2[2] = {ids.dims[0], 1};
  mx_hval_t idx = mx_hlo_reshape(h, ids, 2, n2);
  char at[256];
  snprintf(at, sizeof at,
           "{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
           "index_vector_dim = 1>, slice_sizes = array<i64: 1, %lld>}",
           (long long)table.dims[1]);
  int64_t out[2] = {ids.dims[0], table.dims[1]};
  mx_hval_t ops[2] = {table, idx};
  return emit(h, "gather", 2, ops, at, mx_htype(table.dtype, 2, out));
}

mx_hval_t mx_hlo_scatter_rows(mx_hlo_t *h, mx_hval_t a, mx_hval_t rows, mx_hval_t at) {
  if (!usable(h, a) || !usable(h, rows) || !usable(h, at)) return invalid;
  int64_t R = a.dims[0];
  if (a.rank != 3 || rows.rank != 2 || at.rank != 1 || at.dtype != MX_I32 || rows.dtype != a.dtype || rows.dims[0] != R ||
      at.dims[0] != R || rows.dims[1] != a.dims[2])
    return fail(h, "scatter_rows needs [R,C,Y], [R,Y] and [R] i32");
  /* indices [R, 2]: (r, at[r]), indexing the two leading dimensions (the form IREE lowers to
   * iree_linalg_ext.scatter) */
  int64_t r1[2] = {R, 1};
  mx_hval_t parts[2] = {mx_hlo_iota(h, mx_htype(MX_I32, 2, r1), 0), mx_hlo_reshape(h, at, 2, r1)};
  mx_hval_t idx = mx_hlo_concat(h, 2, parts, 1);
  if (h->error) return invalid;
  mx_hval_t r = new_value(h, a.dtype, a.rank, a.dims);
  mx_hval_t scalar = mx_htype(a.dtype, 0, NULL);
  int id = r.id;
  mx_strbuf_printf(&h->body, "\"stablehlo.scatter\"(");
  put_ref(&h->body, a);
  mx_strbuf_printf(&h->body, ", ");
  put_ref(&h->body, idx);
  mx_strbuf_printf(&h->body, ", ");
  put_ref(&h->body, rows);
  mx_strbuf_printf(&h->body, ") ({\n    ^bb0(%%sx%d: ", id);
  put_type(&h->body, scalar);
  mx_strbuf_printf(&h->body, ", %%sy%d: ", id);
  put_type(&h->body, scalar);
  mx_strbuf_printf(&h->body, "):\n      \"stablehlo.return\"(%%sy%d) : (", id);
  put_type(&h->body, scalar);
  /* Each update is the [Y] window of the operand at (r, at[r], *); the indices are distinct (one per
   * r), so the scatter is a plain overwrite IREE can do in place. */
  mx_strbuf_printf(&h->body, ") -> ()\n    }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<"
                             "update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], "
                             "index_vector_dim = 1>, unique_indices = true} : (");
  put_type(&h->body, a);
  mx_strbuf_printf(&h->body, ", ");
  put_type(&h->body, idx);
  mx_strbuf_printf(&h->body, ", ");
  put_type(&h->body, rows);
  mx_strbuf_printf(&h->body, ") -> ");
  put_type(&h->body, r);
  mx_strbuf_printf(&h->body, "\n");
  return r;
}

static bool in_list(int64_t v, int n, const int64_t *l) {
  for (int i = 0; i < n; i++)
    if (l[i] == v) return true;
  return false;
}

mx_hval_t mx_hlo_dot(mx_hlo_t *h, mx_hval_t a, mx_hval_t b, int nbatch, const int64_t *lb, const int64_t *rb, int ncon,
                     const int64_t *lc, const int64_t *rc, mx_dtype_t out_dtype) {
  if (!usable(h, a) || !usable(h, b)) return invalid;
  if (a.dtype != b.dtype) return fail(h, "dot_general of different dtypes");
  int64_t dims[MX_MAX_RANK] = {0};
  int rank = 0;
  for (int i = 0; i < nbatch; i++) {
    if (a.dims[lb[i]] != b.dims[rb[i]]) return fail(h, "dot_general batch dimension %d differs", i);
    dims[rank++] = a.dims[lb[i]];
  }
  for (int i = 0; i < ncon; i++)
    if (a.dims[lc[i]] != b.dims[rc[i]])
      return fail(h, "dot_general contracts %lld against %lld", (long long)a.dims[lc[i]], (long long)b.dims[rc[i]]);
  for (int i = 0; i < a.rank; i++)
    if (!in_list(i, nbatch, lb) && !in_list(i, ncon, lc)) dims[rank++] = a.dims[i];
  for (int i = 0; i < b.rank; i++)
    if (!in_list(i, nbatch, rb) && !in_list(i, ncon, rc)) dims[rank++] = b.dims[i];
  if (rank > MX_MAX_RANK) return fail(h, "dot_general result rank %d", rank);
  mx_strbuf_t at;
  mx_strbuf_init(&at);
  mx_strbuf_printf(&at, "{dot_dimension_numbers = #stablehlo.dot<");
  if (nbatch) {
    mx_strbuf_printf(&at, "lhs_batching_dimensions = [");
    put_i64_list(&at, nbatch, lb);
    mx_strbuf_printf(&at, "], rhs_batching_dimensions = [");
    put_i64_list(&at, nbatch, rb);
    mx_strbuf_printf(&at, "], ");
  }
  mx_strbuf_printf(&at, "lhs_contracting_dimensions = [");
  put_i64_list(&at, ncon, lc);
  mx_strbuf_printf(&at, "], rhs_contracting_dimensions = [");
  put_i64_list(&at, ncon, rc);
  mx_strbuf_printf(&at, "]>}");
  mx_hval_t ops[2] = {a, b};
  mx_hval_t r = emit(h, "dot_general", 2, ops, at.data, mx_htype(out_dtype, rank, dims));
  mx_strbuf_free(&at);
  return r;
}

mx_hval_t mx_hlo_reduce(mx_hlo_t *h, mx_hval_t a, mx_reduce_t kind, int ndims, const int64_t *rdims) {
  if (!usable(h, a)) return invalid;
  double init = kind == MX_REDUCE_SUM ? 0.0 : kind == MX_REDUCE_PROD ? 1.0 : kind == MX_REDUCE_MAX ? -INFINITY : INFINITY;
  if (!is_float(a.dtype) && (kind == MX_REDUCE_MAX || kind == MX_REDUCE_MIN)) init = kind == MX_REDUCE_MAX ? -2147483648.0 : 2147483647.0;
  mx_hval_t init_v = mx_hlo_splat(h, mx_htype(a.dtype, 0, NULL), init);
  int64_t dims[MX_MAX_RANK] = {0};
  int rank = 0;
  for (int i = 0; i < a.rank; i++)
    if (!in_list(i, ndims, rdims)) dims[rank++] = a.dims[i];
  mx_hval_t r = new_value(h, a.dtype, rank, dims);
  const char *op = kind == MX_REDUCE_SUM    ? "add"
                   : kind == MX_REDUCE_PROD ? "multiply"
                   : kind == MX_REDUCE_MAX  ? "maximum"
                                            : "minimum";
  mx_hval_t scalar = mx_htype(a.dtype, 0, NULL);
  int id = r.id;
  mx_strbuf_printf(&h->body, "\"stablehlo.reduce\"(");
  put_ref(&h->body, a);
  mx_strbuf_printf(&h->body, ", ");
  put_ref(&h->body, init_v);
  mx_strbuf_printf(&h->body, ") ({\n    ^bb0(%%rx%d: ", id);
  put_type(&h->body, scalar);
  mx_strbuf_printf(&h->body, ", %%ry%d: ", id);
  put_type(&h->body, scalar);
  mx_strbuf_printf(&h->body, "):\n      %%rr%d = \"stablehlo.%s\"(%%rx%d, %%ry%d) : (", id, op, id, id);
  put_type(&h->body, scalar);
  mx_strbuf_printf(&h->body, ", ");
  put_type(&h->body, scalar);
  mx_strbuf_printf(&h->body, ") -> ");
  put_type(&h->body, scalar);
  mx_strbuf_printf(&h->body, "\n      \"stablehlo.return\"(%%rr%d) : (", id);
  put_type(&h->body, scalar);
  mx_strbuf_printf(&h->body, ") -> ()\n    }) {dimensions = array<i64: ");
  put_i64_list(&h->body, ndims, rdims);
  mx_strbuf_printf(&h->body, ">} : (");
  put_type(&h->body, a);
  mx_strbuf_printf(&h->body, ", ");
  put_type(&h->body, scalar);
  mx_strbuf_printf(&h->body, ") -> ");
  put_type(&h->body, r);
  mx_strbuf_printf(&h->body, "\n");
  return r;
}

mx_status_t mx_hlo_finish(mx_hlo_t *h, char **text_out) {
  *text_out = NULL;
  if (h->error) {
    mx_status_t st = h->error;
    h->error = NULL;
    return st;
  }
  if (h->in_func) return mx_status_make(MX_STAGE_INTERNAL, NULL, "graph construction: unclosed function");
  mx_strbuf_t out;
  mx_strbuf_init(&out);
  mx_strbuf_printf(&out, "module @mlxcel {\n");
  if (h->globals.len) mx_strbuf_append(&out, h->globals.data, h->globals.len);
  if (h->module.len) mx_strbuf_append(&out, h->module.data, h->module.len);
  mx_strbuf_printf(&out, "}\n");
  if (h->module.failed || out.failed) {
    mx_strbuf_free(&out);
    return mx_status_make(MX_STAGE_OOM, NULL, "out of memory building the graph text");
  }
  *text_out = mx_strbuf_take(&out);
  return NULL;
}
