/* The Jinja evaluator: values, scopes, expressions and statements. Every value of one render lives in
 * that render's arena, freed at its end; a render is bounded in memory, steps and macro depth so that
 * no template can hang or exhaust the server. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "template/jinja_internal.h"

#define MAX_STEPS 300000L          /* loop iterations and macro calls per render */
#define MAX_DEPTH 64               /* nested macro calls */
#define MAX_RENDER_BYTES (256u << 20) /* the arena of one render */

struct mx_jinja {
  jj_arena_t arena;
  jj_nodes_t body;
  char *name;
};

#define REMEDY "pass --chat-template FILE with a template mlxcel can render, or a raw prompt (--no-chat)"

/* -------------------------------------------------------------------------------------- values */

jj_val_t *jj_fail(jj_ctx_t *c, const char *fmt, ...) {
  if (!c->failed) {
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(c->err, sizeof c->err, "line %d: ", c->line);
    if (k >= 0 && (size_t)k < sizeof c->err) vsnprintf(c->err + k, sizeof c->err - (size_t)k, fmt, ap);
    va_end(ap);
  }
  c->failed = true;
  return NULL;
}

jj_val_t *jj_new(jj_ctx_t *c, jj_vkind_t k) {
  jj_val_t *v = jj_alloc(&c->arena, sizeof *v);
  if (!v) return jj_fail(c, "the template needs more than %u MB to render", MAX_RENDER_BYTES >> 20);
  v->k = k;
  return v;
}

jj_val_t *jj_undef(jj_ctx_t *c, const char *name) {
  jj_val_t *v = jj_new(c, JV_UNDEF);
  if (v) v->s = name ? name : "";
  return v;
}

jj_val_t *jj_bool(jj_ctx_t *c, bool b) {
  jj_val_t *v = jj_new(c, JV_BOOL);
  if (v) v->b = b;
  return v;
}

jj_val_t *jj_int(jj_ctx_t *c, int64_t i) {
  jj_val_t *v = jj_new(c, JV_INT);
  if (v) v->i = i;
  return v;
}

jj_val_t *jj_float(jj_ctx_t *c, double f) {
  jj_val_t *v = jj_new(c, JV_FLOAT);
  if (v) v->f = f;
  return v;
}

jj_val_t *jj_str(jj_ctx_t *c, const char *s, size_t n) {
  jj_val_t *v = jj_new(c, JV_STR);
  if (!v) return NULL;
  char *copy = jj_strndup(&c->arena, s ? s : "", n);
  if (!copy) return jj_fail(c, "the template needs more than %u MB to render", MAX_RENDER_BYTES >> 20);
  v->s = copy, v->n = n;
  return v;
}

jj_val_t *jj_cstr(jj_ctx_t *c, const char *s) { return jj_str(c, s, strlen(s)); }

static bool grow(jj_ctx_t *c, jj_val_t *v, bool keys) {
  if (v->n < v->cap) return true;
  size_t cap = v->cap ? v->cap * 2 : 4;
  jj_val_t **items = jj_alloc(&c->arena, sizeof *items * cap), **k = keys ? jj_alloc(&c->arena, sizeof *k * cap) : NULL;
  if (!items || (keys && !k)) return jj_fail(c, "the template needs more than %u MB to render", MAX_RENDER_BYTES >> 20), false;
  if (v->n) memcpy(items, v->items, sizeof *items * v->n);
  if (keys && v->n) memcpy(k, v->keys, sizeof *k * v->n);
  v->items = items, v->cap = cap;
  if (keys) v->keys = k;
  return true;
}

bool jj_push(jj_ctx_t *c, jj_val_t *list, jj_val_t *v) {
  if (!v || !grow(c, list, false)) return false;
  list->items[list->n++] = v;
  return true;
}

jj_val_t *jj_get(const jj_val_t *dict, const jj_val_t *key) {
  for (size_t i = 0; i < dict->n; i++)
    if (jj_equal(dict->keys[i], key)) return dict->items[i];
  return NULL;
}

jj_val_t *jj_get_str(const jj_val_t *dict, const char *key) {
  size_t n = strlen(key);
  for (size_t i = 0; i < dict->n; i++)
    if (dict->keys[i]->k == JV_STR && dict->keys[i]->n == n && !memcmp(dict->keys[i]->s, key, n)) return dict->items[i];
  return NULL;
}

bool jj_set(jj_ctx_t *c, jj_val_t *dict, jj_val_t *key, jj_val_t *v) {
  if (!key || !v) return false;
  for (size_t i = 0; i < dict->n; i++)
    if (jj_equal(dict->keys[i], key)) {
      dict->items[i] = v;
      return true;
    }
  if (!grow(c, dict, true)) return false;
  dict->keys[dict->n] = key;
  dict->items[dict->n++] = v;
  return true;
}

bool jj_truthy(const jj_val_t *v) {
  switch (v->k) {
    case JV_UNDEF:
    case JV_NONE: return false;
    case JV_BOOL: return v->b;
    case JV_INT: return v->i != 0;
    case JV_FLOAT: return v->f != 0;
    case JV_STR:
    case JV_LIST:
    case JV_DICT: return v->n != 0;
    default: return true;
  }
}

static bool numeric(const jj_val_t *v) { return v->k == JV_INT || v->k == JV_FLOAT || v->k == JV_BOOL; }
static double as_double(const jj_val_t *v) { return v->k == JV_FLOAT ? v->f : v->k == JV_INT ? (double)v->i : (double)v->b; }
static int64_t as_int(const jj_val_t *v) { return v->k == JV_INT ? v->i : (int64_t)v->b; }

bool jj_equal(const jj_val_t *a, const jj_val_t *b) {
  if (numeric(a) && numeric(b)) {
    if (a->k != JV_FLOAT && b->k != JV_FLOAT) return as_int(a) == as_int(b);
    return as_double(a) == as_double(b);
  }
  bool dictlike_a = a->k == JV_DICT || a->k == JV_NAMESPACE, dictlike_b = b->k == JV_DICT || b->k == JV_NAMESPACE;
  if (a->k != b->k && !(dictlike_a && dictlike_b)) return false;
  switch (a->k) {
    case JV_UNDEF:
    case JV_NONE: return true;
    case JV_STR: return a->n == b->n && !memcmp(a->s, b->s, a->n);
    case JV_LIST:
      if (a->n != b->n) return false;
      for (size_t i = 0; i < a->n; i++)
        if (!jj_equal(a->items[i], b->items[i])) return false;
      return true;
    case JV_DICT:
    case JV_NAMESPACE:
      if (a->n != b->n) return false;
      for (size_t i = 0; i < a->n; i++) {
        jj_val_t *other = jj_get(b, a->keys[i]);
        if (!other || !jj_equal(a->items[i], other)) return false;
      }
      return true;
    case JV_MACRO: return a->macro == b->macro;
    default: return a == b;
  }
}

const char *jj_type_name(const jj_val_t *v) {
  switch (v->k) {
    case JV_UNDEF: return "Undefined";
    case JV_NONE: return "NoneType";
    case JV_BOOL: return "bool";
    case JV_INT: return "int";
    case JV_FLOAT: return "float";
    case JV_STR: return "str";
    case JV_LIST: return "list";
    case JV_DICT: return "dict";
    case JV_NAMESPACE: return "Namespace";
    case JV_MACRO: return "Macro";
    default: return "function";
  }
}

jj_val_t *jj_concat(jj_ctx_t *c, const jj_val_t *strs) {
  mx_strbuf_t s;
  mx_strbuf_init(&s);
  for (size_t i = 0; i < strs->n; i++) mx_strbuf_append(&s, strs->items[i]->s, strs->items[i]->n);
  jj_val_t *r = s.failed ? jj_fail(c, "out of memory") : jj_str(c, s.data, s.len);
  mx_strbuf_free(&s);
  return r;
}

size_t jj_str_chars(const jj_val_t *s) {
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++) n += ((unsigned char)s->s[i] & 0xC0) != 0x80;
  return n;
}

jj_val_t *jj_iterable(jj_ctx_t *c, const jj_val_t *v) {
  jj_val_t *list = jj_new(c, JV_LIST);
  if (!list) return NULL;
  switch (v->k) {
    case JV_UNDEF: return list;
    case JV_LIST: return (jj_val_t *)v;
    case JV_DICT:
    case JV_NAMESPACE:
      for (size_t i = 0; i < v->n; i++)
        if (!jj_push(c, list, v->keys[i])) return NULL;
      return list;
    case JV_STR:
      for (size_t i = 0; i < v->n;) {
        size_t k = 1;
        while (i + k < v->n && ((unsigned char)v->s[i + k] & 0xC0) == 0x80) k++;
        if (!jj_push(c, list, jj_str(c, v->s + i, k))) return NULL;
        i += k;
      }
      return list;
    default: return jj_fail(c, "'%s' object is not iterable", jj_type_name(v));
  }
}

/* --------------------------------------------------------------------------------------- scopes */

static jj_val_t *lookup(jj_ctx_t *c, const char *name) {
  for (jj_scope_t *s = c->scope; s; s = s->parent) {
    jj_val_t *v = jj_get_str(s->vars, name);
    if (v) return v;
  }
  return NULL;
}

static bool assign(jj_ctx_t *c, jj_scope_t *s, const char *name, jj_val_t *v) {
  return v && jj_set(c, s->vars, jj_cstr(c, name), v);
}

static jj_scope_t *push_scope(jj_ctx_t *c, jj_scope_t *parent) {
  jj_scope_t *s = jj_alloc(&c->arena, sizeof *s);
  if (!s || !(s->vars = jj_new(c, JV_DICT))) return jj_fail(c, "out of memory"), NULL;
  s->parent = parent;
  return s;
}

/* ---------------------------------------------------------------------------------- expressions */

static jj_val_t *eval(jj_ctx_t *c, const jj_node_t *n);
static int exec(jj_ctx_t *c, const jj_nodes_t *body);

enum { EXEC_OK = 0, EXEC_BREAK, EXEC_CONTINUE, EXEC_FAIL };

static bool eval_args(jj_ctx_t *c, const jj_node_t *n, jj_args_t *a) {
  memset(a, 0, sizeof *a);
  a->n_pos = n->args.n;
  a->n_kw = n->n_kw;
  a->kw_names = n->kw_names;
  a->pos = jj_alloc(&c->arena, sizeof *a->pos * (size_t)(n->args.n + 1));
  a->kw = jj_alloc(&c->arena, sizeof *a->kw * (size_t)(n->n_kw + 1));
  if (!a->pos || !a->kw) return jj_fail(c, "out of memory"), false;
  for (int i = 0; i < n->args.n; i++)
    if (!(a->pos[i] = eval(c, n->args.v[i]))) return false;
  for (int i = 0; i < n->n_kw; i++)
    if (!(a->kw[i] = eval(c, n->kw.v[i]))) return false;
  return true;
}

/* obj.name: jinja2 tries the attribute (a method of str, list or dict), then the item. */
static jj_val_t *attribute(jj_ctx_t *c, jj_val_t *obj, const char *name) {
  if (obj->k == JV_UNDEF) return jj_fail(c, "'%s' is undefined", *obj->s ? obj->s : "value");
  if (jj_has_method(obj, name)) {
    jj_val_t *m = jj_new(c, JV_METHOD);
    if (m) m->self = obj, m->s = name;
    return m;
  }
  if (obj->k == JV_DICT || obj->k == JV_NAMESPACE) {
    jj_val_t *v = jj_get_str(obj, name);
    return v ? v : jj_undef(c, name);
  }
  return jj_undef(c, name);
}

/* Python's index normalisation: -1 is the last; out of range: -1. */
static int64_t index_of(int64_t i, size_t n) {
  if (i < 0) i += (int64_t)n;
  return i < 0 || i >= (int64_t)n ? -1 : i;
}

static jj_val_t *item(jj_ctx_t *c, jj_val_t *obj, jj_val_t *key) {
  if (obj->k == JV_UNDEF) return jj_fail(c, "'%s' is undefined", *obj->s ? obj->s : "value");
  if (obj->k == JV_DICT || obj->k == JV_NAMESPACE) {
    jj_val_t *v = jj_get(obj, key);
    if (v) return v;
    return key->k == JV_STR && obj->k == JV_DICT && jj_has_method(obj, key->s) ? attribute(c, obj, key->s) : jj_undef(c, key->k == JV_STR ? key->s : "");
  }
  if ((obj->k == JV_LIST || obj->k == JV_STR) && (key->k == JV_INT || key->k == JV_BOOL)) {
    if (obj->k == JV_LIST) {
      int64_t i = index_of(as_int(key), obj->n);
      return i < 0 ? jj_undef(c, "") : obj->items[i];
    }
    jj_val_t *chars = jj_iterable(c, obj);
    if (!chars) return NULL;
    int64_t i = index_of(as_int(key), chars->n);
    return i < 0 ? jj_undef(c, "") : chars->items[i];
  }
  if (key->k == JV_STR) return attribute(c, obj, jj_strndup(&c->arena, key->s, key->n));
  return jj_undef(c, "");
}

/* Python's slice of a list or string. */
static jj_val_t *slice(jj_ctx_t *c, jj_val_t *obj, jj_val_t *lo, jj_val_t *hi, jj_val_t *step_v) {
  if (obj->k != JV_LIST && obj->k != JV_STR) return jj_fail(c, "'%s' object cannot be sliced", jj_type_name(obj));
  jj_val_t *seq = obj->k == JV_STR ? jj_iterable(c, obj) : obj;
  if (!seq) return NULL;
  int64_t n = (int64_t)seq->n, step = step_v && step_v->k != JV_NONE ? as_int(step_v) : 1;
  if (step == 0) return jj_fail(c, "slice step cannot be zero");
  for (jj_val_t *b[3] = {lo, hi, step_v}, **p = b; p < b + 3; p++)
    if (*p && (*p)->k != JV_NONE && (*p)->k != JV_INT && (*p)->k != JV_BOOL) return jj_fail(c, "slice indices must be integers");
  int64_t start, stop;
  if (step > 0) {
    start = lo && lo->k != JV_NONE ? as_int(lo) : 0;
    stop = hi && hi->k != JV_NONE ? as_int(hi) : n;
    if (start < 0) start = start + n < 0 ? 0 : start + n;
    if (stop < 0) stop = stop + n < 0 ? 0 : stop + n;
    if (start > n) start = n;
    if (stop > n) stop = n;
  } else {
    start = lo && lo->k != JV_NONE ? as_int(lo) : n - 1;
    stop = hi && hi->k != JV_NONE ? as_int(hi) : -n - 1;
    if (start < 0) start = start + n < -1 ? -1 : start + n;
    if (stop < 0) stop = stop + n < -1 ? -1 : stop + n;
    if (start >= n) start = n - 1;
    if (stop >= n) stop = n - 1;
  }
  jj_val_t *out = jj_new(c, JV_LIST);
  if (!out) return NULL;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
    if (!jj_push(c, out, seq->items[i])) return NULL;
  return obj->k == JV_LIST ? out : jj_concat(c, out);
}

static jj_val_t *call_macro(jj_ctx_t *c, const jj_node_t *m, const jj_args_t *a) {
  if (++c->depth > MAX_DEPTH) return jj_fail(c, "macro %s recurses deeper than %d calls", m->s, MAX_DEPTH);
  if (++c->steps > MAX_STEPS) return jj_fail(c, "the template takes more than %ld steps to render", MAX_STEPS);
  if (a->n_pos > m->n_kw) return jj_fail(c, "macro %s takes %d arguments, %d given", m->s, m->n_kw, a->n_pos);
  jj_scope_t *saved = c->scope, *s = push_scope(c, c->root);
  if (!s) return NULL;
  c->scope = s;
  for (int i = 0; i < m->n_kw; i++) {
    jj_val_t *v = i < a->n_pos ? a->pos[i] : NULL;
    for (int k = 0; k < a->n_kw && !v; k++)
      if (!strcmp(a->kw_names[k], m->kw_names[i])) v = a->kw[k];
    if (!v) v = m->kw.v[i]->kind == JN_LITERAL && !m->kw.v[i]->val ? jj_undef(c, m->kw_names[i]) : eval(c, m->kw.v[i]);
    if (!assign(c, s, m->kw_names[i], v)) return c->scope = saved, NULL;
  }
  for (int k = 0; k < a->n_kw; k++) {
    bool known = false;
    for (int i = 0; i < m->n_kw; i++) known |= !strcmp(a->kw_names[k], m->kw_names[i]);
    if (!known) return c->scope = saved, jj_fail(c, "macro %s has no parameter '%s'", m->s, a->kw_names[k]);
  }
  mx_strbuf_t buf, *out = c->out;
  mx_strbuf_init(&buf);
  c->out = &buf;
  int rc = exec(c, &m->body);
  c->out = out;
  c->scope = saved;
  c->depth--;
  jj_val_t *r = rc == EXEC_FAIL ? NULL : jj_str(c, buf.data, buf.len);
  mx_strbuf_free(&buf);
  return r;
}

static jj_val_t *call(jj_ctx_t *c, const jj_node_t *n) {
  jj_val_t *f = eval(c, n->a);
  jj_args_t a;
  if (!f || !eval_args(c, n, &a)) return NULL;
  switch (f->k) {
    case JV_MACRO: return call_macro(c, f->macro, &a);
    case JV_METHOD: return jj_method(c, f->self, f->s, &a);
    case JV_BUILTIN: return jj_builtin(c, f->s, &a);
    case JV_UNDEF: return jj_fail(c, "'%s' is undefined", *f->s ? f->s : "value");
    default: return jj_fail(c, "'%s' object is not callable", jj_type_name(f));
  }
}

static int compare_vals(jj_ctx_t *c, const jj_val_t *a, const jj_val_t *b, const char *op) {
  if (numeric(a) && numeric(b)) {
    double x = as_double(a), y = as_double(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a->k == JV_STR && b->k == JV_STR) {
    size_t m = a->n < b->n ? a->n : b->n;
    int r = memcmp(a->s, b->s, m);
    return r ? (r < 0 ? -1 : 1) : a->n < b->n ? -1 : a->n > b->n ? 1 : 0;
  }
  jj_fail(c, "'%s' not supported between '%s' and '%s'", op, jj_type_name(a), jj_type_name(b));
  return 2;
}

static jj_val_t *contains(jj_ctx_t *c, jj_val_t *needle, jj_val_t *hay) {
  if (hay->k == JV_STR) {
    if (needle->k != JV_STR) return jj_fail(c, "'in <string>' requires a string, not '%s'", jj_type_name(needle));
    return jj_bool(c, needle->n == 0 || memmem(hay->s, hay->n, needle->s, needle->n) != NULL);
  }
  if (hay->k == JV_DICT || hay->k == JV_NAMESPACE) return jj_bool(c, jj_get(hay, needle) != NULL);
  if (hay->k == JV_LIST) {
    for (size_t i = 0; i < hay->n; i++)
      if (jj_equal(hay->items[i], needle)) return jj_bool(c, true);
    return jj_bool(c, false);
  }
  if (hay->k == JV_UNDEF) return jj_bool(c, false);
  return jj_fail(c, "argument of type '%s' is not iterable", jj_type_name(hay));
}

static jj_val_t *arith(jj_ctx_t *c, const char *op, jj_val_t *a, jj_val_t *b) {
  if (a->k == JV_UNDEF || b->k == JV_UNDEF)
    return jj_fail(c, "'%s' is undefined", a->k == JV_UNDEF ? (*a->s ? a->s : "value") : (*b->s ? b->s : "value"));
  if (!strcmp(op, "+") && a->k == JV_STR && b->k == JV_STR) {
    jj_val_t *v = jj_new(c, JV_STR);
    char *s = v ? jj_alloc(&c->arena, a->n + b->n + 1) : NULL;
    if (!s) return jj_fail(c, "the template needs more than %u MB to render", MAX_RENDER_BYTES >> 20);
    memcpy(s, a->s, a->n);
    memcpy(s + a->n, b->s, b->n);
    v->s = s, v->n = a->n + b->n;
    return v;
  }
  if (!strcmp(op, "+") && a->k == JV_LIST && b->k == JV_LIST) {
    jj_val_t *v = jj_new(c, JV_LIST);
    for (size_t i = 0; v && i < a->n; i++)
      if (!jj_push(c, v, a->items[i])) return NULL;
    for (size_t i = 0; v && i < b->n; i++)
      if (!jj_push(c, v, b->items[i])) return NULL;
    return v;
  }
  if (!strcmp(op, "*") && ((a->k == JV_STR || a->k == JV_LIST) && (b->k == JV_INT || b->k == JV_BOOL))) {
    int64_t times = as_int(b);
    if (times * (int64_t)(a->n + 1) > (1 << 24)) return jj_fail(c, "a repetition of more than 16 MB");
    if (a->k == JV_STR) {
      mx_strbuf_t s;
      mx_strbuf_init(&s);
      for (int64_t i = 0; i < times; i++) mx_strbuf_append(&s, a->s, a->n);
      jj_val_t *v = jj_str(c, s.data, s.len);
      mx_strbuf_free(&s);
      return v;
    }
    jj_val_t *v = jj_new(c, JV_LIST);
    for (int64_t i = 0; v && i < times; i++)
      for (size_t k = 0; k < a->n; k++)
        if (!jj_push(c, v, a->items[k])) return NULL;
    return v;
  }
  if (!numeric(a) || !numeric(b))
    return jj_fail(c, "unsupported operand types for %s: '%s' and '%s'", op, jj_type_name(a), jj_type_name(b));
  bool ints = a->k != JV_FLOAT && b->k != JV_FLOAT;
  double x = as_double(a), y = as_double(b);
  int64_t i = as_int(a), j = as_int(b);
  switch (op[0]) {
    case '+': return ints ? jj_int(c, i + j) : jj_float(c, x + y);
    case '-': return ints ? jj_int(c, i - j) : jj_float(c, x - y);
    case '*':
      if (op[1] == '*') {
        if (ints && j >= 0) {
          int64_t r = 1;
          for (int64_t k = 0; k < j && k < 64; k++) r *= i;
          return jj_int(c, r);
        }
        return jj_float(c, pow(x, y));
      }
      return ints ? jj_int(c, i * j) : jj_float(c, x * y);
    case '/':
      if (y == 0) return jj_fail(c, "division by zero");
      if (op[1] == '/') {
        if (ints) return jj_int(c, (i / j) - ((i % j != 0) && ((i < 0) != (j < 0))));
        return jj_float(c, floor(x / y));
      }
      return jj_float(c, x / y);
    case '%':
      if (y == 0) return jj_fail(c, "modulo by zero");
      if (ints) {
        int64_t r = i % j;
        return jj_int(c, r && ((r < 0) != (j < 0)) ? r + j : r);
      }
      return jj_float(c, x - floor(x / y) * y);
    default: return jj_fail(c, "unknown operator %s", op);
  }
}

static jj_val_t *binary(jj_ctx_t *c, const jj_node_t *n) {
  jj_val_t *a = eval(c, n->a), *b = a ? eval(c, n->b) : NULL;
  if (!a || !b) return NULL;
  const char *op = n->s;
  if (!strcmp(op, "~")) {
    mx_strbuf_t s;
    mx_strbuf_init(&s);
    bool ok = jj_str_of(c, a, &s) && jj_str_of(c, b, &s);
    jj_val_t *v = ok ? jj_str(c, s.data, s.len) : NULL;
    mx_strbuf_free(&s);
    return v;
  }
  if (!strcmp(op, "==")) return jj_bool(c, jj_equal(a, b));
  if (!strcmp(op, "!=")) return jj_bool(c, !jj_equal(a, b));
  if (!strcmp(op, "in")) return contains(c, a, b);
  if (!strcmp(op, "notin")) {
    jj_val_t *v = contains(c, a, b);
    return v ? jj_bool(c, !v->b) : NULL;
  }
  if (op[0] == '<' || op[0] == '>') {
    int r = compare_vals(c, a, b, op);
    if (r == 2) return NULL;
    bool t = !strcmp(op, "<") ? r < 0 : !strcmp(op, "<=") ? r <= 0 : !strcmp(op, ">") ? r > 0 : r >= 0;
    return jj_bool(c, t);
  }
  return arith(c, op, a, b);
}

static jj_val_t *eval(jj_ctx_t *c, const jj_node_t *n) {
  if (c->failed) return NULL;
  c->line = n->line;
  switch (n->kind) {
    case JN_LITERAL: return n->val;
    case JN_NAME: {
      jj_val_t *v = lookup(c, n->s);
      return v ? v : jj_undef(c, n->s);
    }
    case JN_ATTR: {
      jj_val_t *obj = eval(c, n->a);
      return obj ? attribute(c, obj, n->s) : NULL;
    }
    case JN_ITEM: {
      jj_val_t *obj = eval(c, n->a), *key = obj ? eval(c, n->b) : NULL;
      return key ? item(c, obj, key) : NULL;
    }
    case JN_SLICE: {
      jj_val_t *obj = eval(c, n->a), *lo = NULL, *hi = NULL, *step = NULL;
      if (!obj || (n->b && !(lo = eval(c, n->b))) || (n->c && !(hi = eval(c, n->c))) || (n->body.n && !(step = eval(c, n->body.v[0]))))
        return NULL;
      return slice(c, obj, lo, hi, step);
    }
    case JN_CALL: return call(c, n);
    case JN_FILTER: {
      jj_val_t *v = eval(c, n->a);
      jj_args_t a;
      if (!v || !eval_args(c, n, &a)) return NULL;
      c->line = n->line;
      return jj_filter(c, n->s, v, &a);
    }
    case JN_TEST: {
      jj_val_t *v = eval(c, n->a);
      jj_args_t a;
      if (!v || !eval_args(c, n, &a)) return NULL;
      c->line = n->line;
      int r = jj_test(c, n->s, v, &a);
      return r < 0 ? NULL : jj_bool(c, n->negated ? !r : r);
    }
    case JN_NEG: {
      jj_val_t *v = eval(c, n->a);
      if (!v) return NULL;
      if (v->k == JV_INT || v->k == JV_BOOL) return jj_int(c, -as_int(v));
      if (v->k == JV_FLOAT) return jj_float(c, -v->f);
      return jj_fail(c, "bad operand type for unary -: '%s'", jj_type_name(v));
    }
    case JN_NOT: {
      jj_val_t *v = eval(c, n->a);
      return v ? jj_bool(c, !jj_truthy(v)) : NULL;
    }
    case JN_BINARY: return binary(c, n);
    case JN_AND:
    case JN_OR: {
      jj_val_t *a = eval(c, n->a);
      if (!a) return NULL;
      return jj_truthy(a) == (n->kind == JN_AND) ? eval(c, n->b) : a;
    }
    case JN_COND: {
      jj_val_t *cond = eval(c, n->a);
      if (!cond) return NULL;
      if (jj_truthy(cond)) return eval(c, n->b);
      return n->c ? eval(c, n->c) : jj_undef(c, "");
    }
    case JN_LIST: {
      jj_val_t *v = jj_new(c, JV_LIST);
      if (v) v->b = n->negated;
      for (int i = 0; v && i < n->args.n; i++)
        if (!jj_push(c, v, eval(c, n->args.v[i]))) return NULL;
      return v;
    }
    case JN_DICT: {
      jj_val_t *v = jj_new(c, JV_DICT);
      for (int i = 0; v && i < n->args.n; i++) {
        jj_val_t *k = eval(c, n->kw.v[i]);
        if (!k || !jj_set(c, v, k, eval(c, n->args.v[i]))) return NULL;
      }
      return v;
    }
    default: return jj_fail(c, "a statement where an expression belongs");
  }
}

/* ----------------------------------------------------------------------------------- statements */

/* Binds a for loop's target names to one item (unpacking a pair for `for a, b in ...`). */
static bool bind_targets(jj_ctx_t *c, jj_scope_t *s, const jj_node_t *n, jj_val_t *it) {
  if (n->n_kw == 1) return assign(c, s, n->kw_names[0], it);
  if (it->k != JV_LIST || (int)it->n != n->n_kw) return jj_fail(c, "cannot unpack %s into %d names", jj_type_name(it), n->n_kw), false;
  for (int k = 0; k < n->n_kw; k++)
    if (!assign(c, s, n->kw_names[k], it->items[k])) return false;
  return true;
}

static int exec_for(jj_ctx_t *c, const jj_node_t *n) {
  jj_val_t *src = eval(c, n->a);
  jj_val_t *items = src ? jj_iterable(c, src) : NULL;
  if (!items) return EXEC_FAIL;
  jj_scope_t *saved = c->scope, *s = push_scope(c, saved);
  if (!s) return EXEC_FAIL;
  c->scope = s;
  if (n->b) { /* for x in xs if cond: the loop sees only the items that pass */
    jj_val_t *kept = jj_new(c, JV_LIST);
    if (!kept) return EXEC_FAIL;
    for (size_t i = 0; i < items->n; i++) {
      if (!bind_targets(c, s, n, items->items[i])) return c->scope = saved, EXEC_FAIL;
      jj_val_t *ok = eval(c, n->b);
      if (!ok) return c->scope = saved, EXEC_FAIL;
      if (jj_truthy(ok) && !jj_push(c, kept, items->items[i])) return EXEC_FAIL;
    }
    items = kept;
  }
  c->loops++;
  int rc = EXEC_OK;
  /* One `loop` object per loop; each iteration gives it new values (a template may keep one). */
  static const char *const fields[] = {"index", "index0", "revindex", "revindex0", "first", "last", "length", "depth", "depth0",
                                       "previtem", "nextitem"};
  enum { N_FIELDS = sizeof fields / sizeof fields[0] };
  jj_val_t *loop = jj_new(c, JV_DICT);
  for (int f = 0; loop && f < N_FIELDS; f++)
    if (!jj_set(c, loop, jj_cstr(c, fields[f]), jj_undef(c, fields[f]))) return c->scope = saved, EXEC_FAIL;
  if (!loop || !assign(c, s, "loop", loop)) return c->scope = saved, EXEC_FAIL;
  size_t len = items->n;
  jj_val_t *length = jj_int(c, (int64_t)len), *one = jj_int(c, 1), *zero = jj_int(c, 0);
  for (size_t i = 0; i < items->n && rc != EXEC_FAIL; i++) {
    if (++c->steps > MAX_STEPS) {
      jj_fail(c, "the template takes more than %ld steps to render", MAX_STEPS);
      rc = EXEC_FAIL;
      break;
    }
    jj_val_t *it = items->items[i];
    jj_val_t *vals[N_FIELDS] = {jj_int(c, (int64_t)i + 1), jj_int(c, (int64_t)i), jj_int(c, (int64_t)(len - i)), jj_int(c, (int64_t)(len - i - 1)),
                                jj_bool(c, i == 0), jj_bool(c, i + 1 == len), length, one, zero,
                                i ? items->items[i - 1] : jj_undef(c, "previtem"), i + 1 < len ? items->items[i + 1] : jj_undef(c, "nextitem")};
    bool ok = true;
    for (int f = 0; f < N_FIELDS; f++) ok = ok && vals[f] && (loop->items[f] = vals[f]);
    if (!ok || !bind_targets(c, s, n, it)) {
      rc = EXEC_FAIL;
      break;
    }
    rc = exec(c, &n->body);
    if (rc == EXEC_BREAK) {
      rc = EXEC_OK;
      break;
    }
    if (rc == EXEC_CONTINUE) rc = EXEC_OK;
  }
  c->loops--;
  c->scope = saved;
  if (rc == EXEC_OK && items->n == 0 && n->alt.n) rc = exec(c, &n->alt);
  return rc;
}

static int exec_set(jj_ctx_t *c, const jj_node_t *n) {
  jj_val_t *v;
  if (n->a) {
    v = eval(c, n->a);
  } else { /* {% set x %}...{% endset %} */
    mx_strbuf_t buf, *out = c->out;
    mx_strbuf_init(&buf);
    c->out = &buf;
    int rc = exec(c, &n->body);
    c->out = out;
    v = rc == EXEC_FAIL ? NULL : jj_str(c, buf.data, buf.len);
    mx_strbuf_free(&buf);
  }
  if (!v) return EXEC_FAIL;
  if (n->s2) { /* ns.attr = v */
    jj_val_t *ns = lookup(c, n->s);
    if (!ns || ns->k != JV_NAMESPACE)
      return jj_fail(c, "cannot assign attribute '%s' on '%s', which is not a namespace()", n->s2, n->s), EXEC_FAIL;
    return jj_set(c, ns, jj_cstr(c, n->s2), v) ? EXEC_OK : EXEC_FAIL;
  }
  if (n->n_kw == 1) return assign(c, c->scope, n->kw_names[0], v) ? EXEC_OK : EXEC_FAIL;
  if (v->k != JV_LIST || (int)v->n != n->n_kw) return jj_fail(c, "cannot unpack %s into %d names", jj_type_name(v), n->n_kw), EXEC_FAIL;
  for (int k = 0; k < n->n_kw; k++)
    if (!assign(c, c->scope, n->kw_names[k], v->items[k])) return EXEC_FAIL;
  return EXEC_OK;
}

static int exec(jj_ctx_t *c, const jj_nodes_t *body) {
  for (int i = 0; i < body->n; i++) {
    const jj_node_t *n = body->v[i];
    if (c->failed) return EXEC_FAIL;
    c->line = n->line;
    int rc = EXEC_OK;
    switch (n->kind) {
      case JN_TEXT: mx_strbuf_append(c->out, n->s, n->slen); break;
      case JN_OUTPUT: {
        jj_val_t *v = eval(c, n->a);
        if (!v || !jj_str_of(c, v, c->out)) return EXEC_FAIL;
        break;
      }
      case JN_IF: {
        jj_val_t *cond = eval(c, n->a);
        if (!cond) return EXEC_FAIL;
        rc = exec(c, jj_truthy(cond) ? &n->body : &n->alt);
        break;
      }
      case JN_FOR: rc = exec_for(c, n); break;
      case JN_SET: rc = exec_set(c, n); break;
      case JN_MACRO: {
        jj_val_t *m = jj_new(c, JV_MACRO);
        if (!m) return EXEC_FAIL;
        m->macro = n;
        rc = assign(c, c->scope, n->s, m) ? EXEC_OK : EXEC_FAIL;
        break;
      }
      case JN_BREAK:
      case JN_CONTINUE:
        if (!c->loops) return jj_fail(c, "{%% %s %%} outside a for loop", n->kind == JN_BREAK ? "break" : "continue"), EXEC_FAIL;
        return n->kind == JN_BREAK ? EXEC_BREAK : EXEC_CONTINUE;
      case JN_BLOCK: rc = exec(c, &n->body); break;
      default: return jj_fail(c, "an expression where a statement belongs"), EXEC_FAIL;
    }
    if (c->out->failed) return jj_fail(c, "out of memory"), EXEC_FAIL;
    if (rc != EXEC_OK) return rc;
  }
  return EXEC_OK;
}

/* --------------------------------------------------------------------------------- the public API */

/* Filters and tests are checked by name when the template is read, so that an unknown one is a
 * parse error rather than a failure in the middle of serving. Returns the first node using one. */
static const jj_node_t *unknown_name(const jj_nodes_t *body);

static const jj_node_t *unknown_in(const jj_node_t *n) {
  if (!n) return NULL;
  if (n->kind == JN_FILTER && !jj_known_filter(n->s)) return n;
  if (n->kind == JN_TEST && !jj_known_test(n->s)) return n;
  const jj_node_t *u;
  if ((u = unknown_in(n->a)) || (u = unknown_in(n->b)) || (u = unknown_in(n->c)) || (u = unknown_name(&n->args)) ||
      (u = unknown_name(&n->body)) || (u = unknown_name(&n->alt)))
    return u;
  for (int i = 0; i < n->n_kw && i < n->kw.n; i++)
    if ((u = unknown_in(n->kw.v[i]))) return u;
  return NULL;
}

static const jj_node_t *unknown_name(const jj_nodes_t *body) {
  for (int i = 0; i < body->n; i++) {
    const jj_node_t *u = unknown_in(body->v[i]);
    if (u) return u;
  }
  return NULL;
}

mx_status_t mx_jinja_parse(const char *text, const char *name, mx_jinja_t **out) {
  *out = NULL;
  mx_jinja_t *t = calloc(1, sizeof *t);
  if (!t) return mx_status_oom();
  t->arena.limit = 64u << 20;
  t->name = strdup(name ? name : "template");
  char err[512] = "";
  jj_tok_t *toks = NULL;
  int n = 0;
  bool ok = t->name && jj_lex(&t->arena, text, &toks, &n, err, sizeof err) && jj_parse(&t->arena, toks, n, &t->body, err, sizeof err);
  const jj_node_t *unknown = ok ? unknown_name(&t->body) : NULL;
  if (!ok || unknown) {
    mx_status_t st = unknown ? mx_status_make(MX_STAGE_USAGE, REMEDY, "%s: line %d: the %s '%s' is not supported", t->name, unknown->line,
                                              unknown->kind == JN_FILTER ? "filter" : "test", unknown->s)
                             : mx_status_make(MX_STAGE_USAGE, REMEDY, "%s: %s", t->name ? t->name : "template", err[0] ? err : "out of memory");
    mx_jinja_free(t);
    return st;
  }
  *out = t;
  return NULL;
}

void mx_jinja_free(mx_jinja_t *t) {
  if (!t) return;
  jj_arena_free(&t->arena);
  free(t->name);
  free(t);
}

static jj_val_t *from_json(jj_ctx_t *c, const json_t *j) {
  switch (json_typeof(j)) {
    case JSON_OBJECT: {
      jj_val_t *d = jj_new(c, JV_DICT);
      const char *key;
      json_t *v;
      json_object_foreach((json_t *)j, key, v)
        if (!d || !jj_set(c, d, jj_cstr(c, key), from_json(c, v))) return NULL;
      return d;
    }
    case JSON_ARRAY: {
      jj_val_t *l = jj_new(c, JV_LIST);
      size_t i;
      json_t *v;
      json_array_foreach((json_t *)j, i, v)
        if (!l || !jj_push(c, l, from_json(c, v))) return NULL;
      return l;
    }
    case JSON_STRING: return jj_str(c, json_string_value(j), json_string_length(j));
    case JSON_INTEGER: return jj_int(c, (int64_t)json_integer_value(j));
    case JSON_REAL: return jj_float(c, json_real_value(j));
    case JSON_TRUE: return jj_bool(c, true);
    case JSON_FALSE: return jj_bool(c, false);
    default: return jj_new(c, JV_NONE);
  }
}

mx_status_t mx_jinja_render(const mx_jinja_t *t, const json_t *context, mx_strbuf_t *out) {
  jj_ctx_t c = {.arena = {.limit = MAX_RENDER_BYTES}, .out = out};
  jj_scope_t *globals = push_scope(&c, NULL);
  for (const char *const *b = jj_builtin_names; globals && *b; b++) {
    jj_val_t *f = jj_new(&c, JV_BUILTIN);
    if (f) f->s = *b;
    assign(&c, globals, *b, f);
  }
  jj_val_t *ctx = globals && json_is_object(context) ? from_json(&c, context) : NULL;
  for (size_t i = 0; ctx && i < ctx->n; i++) jj_set(&c, globals->vars, ctx->keys[i], ctx->items[i]);
  c.root = c.failed ? NULL : push_scope(&c, globals);
  c.scope = c.root;
  if (c.root) exec(&c, &t->body);
  mx_status_t st = NULL;
  if (c.failed)
    st = mx_status_make(MX_STAGE_USAGE, REMEDY, "%s: %s", t->name, c.err);
  else if (out->failed)
    st = mx_status_oom();
  jj_arena_free(&c.arena);
  return st;
}
