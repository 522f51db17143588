#include "hlo/builder.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

struct mx_hlo {
  mx_strbuf_t module; /* finished functions */
  mx_strbuf_t head;   /* the open function's "func.func @name(args)" */
  mx_strbuf_t body;   /* the open function's ops; result types are known only at the end */
  int next_id;
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
    h->error = mx_status_make(MX_STAGE_USAGE, "this is an emitter bug", "graph construction: %s", what);
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

void mx_hlo_func_begin(mx_hlo_t *h, const char *name, int n_args, const mx_hval_t *arg_types, mx_hval_t *args_out) {
  if (h->error) return;
  if (h->in_func) {
    fail(h, "function opened inside another");
    return;
  }
  h->in_func = true;
  h->next_id = 0;
  mx_strbuf_free(&h->head);
  mx_strbuf_free(&h->body);
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

mx_status_t mx_hlo_finish(mx_hlo_t *h, char **text_out) {
  *text_out = NULL;
  if (h->error) {
    mx_status_t st = h->error;
    h->error = NULL;
    return st;
  }
  if (h->in_func) return mx_status_make(MX_STAGE_USAGE, "this is an emitter bug", "graph construction: unclosed function");
  mx_strbuf_t out;
  mx_strbuf_init(&out);
  mx_strbuf_printf(&out, "module @mlxcel {\n");
  if (h->module.len) mx_strbuf_append(&out, h->module.data, h->module.len);
  mx_strbuf_printf(&out, "}\n");
  if (h->module.failed || out.failed) {
    mx_strbuf_free(&out);
    return mx_status_make(MX_STAGE_IO, NULL, "out of memory building the graph text");
  }
  *text_out = mx_strbuf_take(&out);
  return NULL;
}
