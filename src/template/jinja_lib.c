/* What jinja2 and Python give a chat template: str() and repr() of values, json.dumps (transformers'
 * tojson), the filters, tests and str/dict methods templates use, and the global functions
 * transformers adds (raise_exception, strftime_now) besides jinja2's (namespace, range, dict).
 * Case mapping (upper, lower, title, capitalize) covers ASCII letters only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/utf8.h"
#include "template/jinja_internal.h"

/* -------------------------------------------------------------------------------- str and repr */

/* Python's repr(float): the shortest digits that read back, fixed notation for exponents -4..15. */
static void float_repr(double f, mx_strbuf_t *out) {
  if (isnan(f)) return (void)mx_strbuf_append(out, "nan", 3);
  if (isinf(f)) return (void)mx_strbuf_printf(out, "%sinf", f < 0 ? "-" : "");
  char buf[64];
  int p = 1;
  for (; p <= 17; p++) {
    snprintf(buf, sizeof buf, "%.*e", p - 1, f);
    if (strtod(buf, NULL) == f) break;
  }
  /* buf: [-]d.ddde[+-]XX */
  const char *s = buf;
  bool neg = *s == '-';
  if (neg) s++;
  char digits[32];
  int nd = 0;
  for (; *s && *s != 'e'; s++)
    if (*s != '.') digits[nd++] = *s;
  while (nd > 1 && digits[nd - 1] == '0') nd--;
  int exp = atoi(s + 1);
  if (neg) mx_strbuf_append(out, "-", 1);
  if (exp >= -4 && exp < 16) {
    if (exp >= 0) {
      for (int i = 0; i <= exp; i++) mx_strbuf_append(out, i < nd ? &digits[i] : "0", 1);
      mx_strbuf_append(out, ".", 1);
      if (nd > exp + 1) mx_strbuf_append(out, digits + exp + 1, (size_t)(nd - exp - 1));
      else mx_strbuf_append(out, "0", 1);
    } else {
      mx_strbuf_append(out, "0.", 2);
      for (int i = 0; i < -exp - 1; i++) mx_strbuf_append(out, "0", 1);
      mx_strbuf_append(out, digits, (size_t)nd);
    }
    return;
  }
  mx_strbuf_append(out, digits, 1);
  if (nd > 1) {
    mx_strbuf_append(out, ".", 1);
    mx_strbuf_append(out, digits + 1, (size_t)(nd - 1));
  }
  mx_strbuf_printf(out, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
}

static bool printable(uint32_t cp) {
  if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD) return false;
  if ((cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F)) return false;
  return cp != 0x1680 && cp != 0x180E && cp != 0x3000 && cp != 0xFEFF;
}

static void str_repr(const char *s, size_t n, mx_strbuf_t *out) {
  char q = memchr(s, '\'', n) && !memchr(s, '"', n) ? '"' : '\'';
  mx_strbuf_append(out, &q, 1);
  for (size_t i = 0; i < n;) {
    uint32_t cp;
    int len;
    bool trunc;
    if (mx_utf8_next((const uint8_t *)s + i, n - i, &cp, &len, &trunc)) cp = 0xFFFD, len = 1;
    if (cp == '\\' || cp == (uint32_t)q) mx_strbuf_printf(out, "\\%c", (char)cp);
    else if (cp == '\n') mx_strbuf_append(out, "\\n", 2);
    else if (cp == '\r') mx_strbuf_append(out, "\\r", 2);
    else if (cp == '\t') mx_strbuf_append(out, "\\t", 2);
    else if (!printable(cp)) mx_strbuf_printf(out, cp < 0x100 ? "\\x%02x" : "\\u%04x", cp);
    else mx_strbuf_append(out, s + i, (size_t)len);
    i += (size_t)len;
  }
  mx_strbuf_append(out, &q, 1);
}

static bool seq_repr(jj_ctx_t *c, const jj_val_t *v, mx_strbuf_t *out) {
  bool dict = v->k == JV_DICT || v->k == JV_NAMESPACE, tuple = v->k == JV_LIST && v->b;
  mx_strbuf_append(out, dict ? "{" : tuple ? "(" : "[", 1);
  for (size_t i = 0; i < v->n; i++) {
    if (i) mx_strbuf_append(out, ", ", 2);
    if (dict && !jj_repr(c, v->keys[i], out)) return false;
    if (dict) mx_strbuf_append(out, ": ", 2);
    if (!jj_repr(c, v->items[i], out)) return false;
  }
  if (tuple && v->n == 1) mx_strbuf_append(out, ",", 1);
  mx_strbuf_append(out, dict ? "}" : tuple ? ")" : "]", 1);
  return true;
}

bool jj_repr(jj_ctx_t *c, const jj_val_t *v, mx_strbuf_t *out) {
  if (v->k == JV_STR) {
    str_repr(v->s, v->n, out);
    return true;
  }
  return jj_str_of(c, v, out);
}

bool jj_str_of(jj_ctx_t *c, const jj_val_t *v, mx_strbuf_t *out) {
  switch (v->k) {
    case JV_UNDEF: return true;
    case JV_NONE: mx_strbuf_append(out, "None", 4); return true;
    case JV_BOOL: mx_strbuf_append(out, v->b ? "True" : "False", v->b ? 4 : 5); return true;
    case JV_INT: mx_strbuf_printf(out, "%lld", (long long)v->i); return true;
    case JV_FLOAT: float_repr(v->f, out); return true;
    case JV_STR: mx_strbuf_append(out, v->s, v->n); return true;
    case JV_LIST:
    case JV_DICT: return seq_repr(c, v, out);
    case JV_NAMESPACE:
      mx_strbuf_append(out, "<Namespace ", 11);
      if (!seq_repr(c, v, out)) return false;
      mx_strbuf_append(out, ">", 1);
      return true;
    case JV_MACRO: mx_strbuf_printf(out, "<Macro '%s'>", v->macro->s); return true;
    default: mx_strbuf_printf(out, "<function %s>", v->s); return true;
  }
}

jj_val_t *jj_to_string_val(jj_ctx_t *c, const jj_val_t *v) {
  if (v->k == JV_STR) return (jj_val_t *)v;
  mx_strbuf_t s;
  mx_strbuf_init(&s);
  jj_val_t *r = jj_str_of(c, v, &s) ? jj_str(c, s.data, s.len) : NULL;
  mx_strbuf_free(&s);
  return r;
}

/* ------------------------------------------------------------------------------------------ json */

static void json_str(const char *s, size_t n, mx_strbuf_t *out) {
  mx_strbuf_append(out, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    switch (ch) {
      case '"': mx_strbuf_append(out, "\\\"", 2); break;
      case '\\': mx_strbuf_append(out, "\\\\", 2); break;
      case '\n': mx_strbuf_append(out, "\\n", 2); break;
      case '\r': mx_strbuf_append(out, "\\r", 2); break;
      case '\t': mx_strbuf_append(out, "\\t", 2); break;
      case '\b': mx_strbuf_append(out, "\\b", 2); break;
      case '\f': mx_strbuf_append(out, "\\f", 2); break;
      default:
        if (ch < 0x20) mx_strbuf_printf(out, "\\u%04x", ch);
        else mx_strbuf_append(out, s + i, 1);
    }
  }
  mx_strbuf_append(out, "\"", 1);
}

static void json_newline(int indent, int level, mx_strbuf_t *out) {
  mx_strbuf_append(out, "\n", 1);
  for (int i = 0; i < indent * level; i++) mx_strbuf_append(out, " ", 1);
}

static int cmp_keys(const void *a, const void *b) {
  const jj_val_t *x = **(jj_val_t *const *const *)a, *y = **(jj_val_t *const *const *)b;
  size_t m = x->n < y->n ? x->n : y->n;
  int r = memcmp(x->s, y->s, m);
  return r ? r : (x->n > y->n) - (x->n < y->n);
}

/* json.dumps(v, ensure_ascii=False, indent=indent (< 0: None), sort_keys=sort_keys). */
bool jj_json(jj_ctx_t *c, const jj_val_t *v, int indent, bool sort_keys, int level, mx_strbuf_t *out) {
  switch (v->k) {
    case JV_NONE: mx_strbuf_append(out, "null", 4); return true;
    case JV_BOOL: mx_strbuf_append(out, v->b ? "true" : "false", v->b ? 4 : 5); return true;
    case JV_INT: mx_strbuf_printf(out, "%lld", (long long)v->i); return true;
    case JV_FLOAT:
      if (isnan(v->f)) mx_strbuf_append(out, "NaN", 3);
      else if (isinf(v->f)) mx_strbuf_printf(out, "%sInfinity", v->f < 0 ? "-" : "");
      else float_repr(v->f, out);
      return true;
    case JV_STR: json_str(v->s, v->n, out); return true;
    case JV_LIST:
    case JV_DICT:
    case JV_NAMESPACE: {
      bool dict = v->k != JV_LIST;
      if (v->n == 0) return mx_strbuf_append(out, dict ? "{}" : "[]", 2), true;
      size_t *order = malloc(sizeof *order * v->n);
      if (!order) return jj_fail(c, "out of memory"), false;
      for (size_t i = 0; i < v->n; i++) order[i] = i;
      if (dict && sort_keys) {
        for (size_t i = 0; i < v->n; i++)
          if (v->keys[i]->k != JV_STR) return free(order), jj_fail(c, "tojson(sort_keys=true) needs string keys"), false;
        const jj_val_t ***refs = malloc(sizeof *refs * v->n);
        if (!refs) return free(order), jj_fail(c, "out of memory"), false;
        for (size_t i = 0; i < v->n; i++) refs[i] = (const jj_val_t **)&v->keys[i];
        qsort(refs, v->n, sizeof *refs, cmp_keys);
        for (size_t i = 0; i < v->n; i++) order[i] = (size_t)((jj_val_t **)refs[i] - v->keys);
        free(refs);
      }
      mx_strbuf_append(out, dict ? "{" : "[", 1);
      bool ok = true;
      for (size_t k = 0; k < v->n && ok; k++) {
        size_t i = order[k];
        if (k) mx_strbuf_append(out, indent >= 0 ? "," : ", ", indent >= 0 ? 1 : 2);
        if (indent >= 0) json_newline(indent, level + 1, out);
        if (dict) {
          const jj_val_t *key = v->keys[i];
          if (key->k == JV_STR) json_str(key->s, key->n, out);
          else if (key->k == JV_NONE || key->k == JV_BOOL || key->k == JV_INT || key->k == JV_FLOAT) {
            mx_strbuf_t tmp;
            mx_strbuf_init(&tmp);
            jj_json(c, key, -1, false, 0, &tmp);
            json_str(tmp.data, tmp.len, out);
            mx_strbuf_free(&tmp);
          } else {
            ok = jj_fail(c, "keys must be str, int, float, bool or None, not %s", jj_type_name(key)) != NULL;
            break;
          }
          mx_strbuf_append(out, ": ", 2);
        }
        ok = jj_json(c, v->items[i], indent, sort_keys, level + 1, out);
      }
      free(order);
      if (!ok) return false;
      if (indent >= 0) json_newline(indent, level, out);
      mx_strbuf_append(out, dict ? "}" : "]", 1);
      return true;
    }
    default: return jj_fail(c, "Object of type %s is not JSON serializable", jj_type_name(v)), false;
  }
}

/* ------------------------------------------------------------------------------------ arguments */

/* Argument i, or the keyword `name`, or NULL. */
static jj_val_t *arg(const jj_args_t *a, int i, const char *name) {
  if (i >= 0 && i < a->n_pos) return a->pos[i];
  for (int k = 0; name && k < a->n_kw; k++)
    if (!strcmp(a->kw_names[k], name)) return a->kw[k];
  return NULL;
}

static bool want_str(jj_ctx_t *c, const jj_val_t *v, const char *what) {
  if (v && v->k == JV_STR) return true;
  jj_fail(c, "%s needs a string, not '%s'", what, v ? jj_type_name(v) : "nothing");
  return false;
}

static bool int_arg(jj_ctx_t *c, const jj_val_t *v, int64_t def, int64_t *out, const char *what) {
  if (!v || v->k == JV_NONE) return *out = def, true;
  if (v->k == JV_INT || v->k == JV_BOOL) return *out = v->k == JV_INT ? v->i : v->b, true;
  jj_fail(c, "%s needs an integer, not '%s'", what, jj_type_name(v));
  return false;
}

/* --------------------------------------------------------------------------------- string tools */

static size_t char_len(const char *s, size_t n) {
  size_t k = 1;
  while (k < n && ((unsigned char)s[k] & 0xC0) == 0x80) k++;
  return k;
}

static bool in_chars(const char *s, size_t n, const jj_val_t *chars) {
  if (!chars) return jj_space_at(s, n) != 0;
  size_t k = char_len(s, n);
  for (size_t i = 0; i < chars->n;) {
    size_t m = char_len(chars->s + i, chars->n - i);
    if (m == k && !memcmp(chars->s + i, s, k)) return true;
    i += m;
  }
  return false;
}

/* str.strip/lstrip/rstrip(chars): which = 1 left, 2 right, 3 both. */
static jj_val_t *strip(jj_ctx_t *c, const jj_val_t *s, const jj_val_t *chars, int which) {
  if (chars && chars->k == JV_NONE) chars = NULL;
  if (chars && !want_str(c, chars, "strip")) return NULL;
  size_t lo = 0, hi = s->n;
  if (which & 1)
    while (lo < hi && in_chars(s->s + lo, hi - lo, chars)) lo += char_len(s->s + lo, hi - lo);
  if (which & 2) {
    size_t keep = lo;
    for (size_t i = lo; i < hi;) {
      size_t k = char_len(s->s + i, hi - i);
      if (!in_chars(s->s + i, hi - i, chars)) keep = i + k;
      i += k;
    }
    hi = keep;
  }
  return jj_str(c, s->s + lo, hi - lo);
}

static jj_val_t *map_ascii(jj_ctx_t *c, const jj_val_t *s, int mode) { /* 0 lower, 1 upper, 2 capitalize, 3 title */
  jj_val_t *r = jj_str(c, s->s, s->n);
  if (!r) return NULL;
  char *p = (char *)r->s;
  bool word_start = true;
  for (size_t i = 0; i < r->n; i++) {
    char ch = p[i];
    bool letter = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
    bool up = mode == 1 || (mode == 2 && i == 0) || (mode == 3 && word_start);
    if (letter) p[i] = up ? (char)(ch & ~0x20) : (char)(ch | 0x20);
    if (mode == 3) word_start = !letter && !((unsigned char)ch >= 0x80);
  }
  return r;
}

static jj_val_t *replace(jj_ctx_t *c, const jj_val_t *s, const jj_val_t *old, const jj_val_t *new, int64_t count) {
  if (!want_str(c, old, "replace") || !want_str(c, new, "replace")) return NULL;
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  size_t i = 0;
  for (int64_t done = 0; count < 0 || done < count; done++) {
    const char *hit = old->n ? memmem(s->s + i, s->n - i, old->s, old->n) : NULL;
    if (old->n == 0) { /* Python inserts `new` between characters */
      if (i > s->n) break;
      mx_strbuf_append(&b, new->s, new->n);
      if (i == s->n) {
        i++;
        break;
      }
      size_t k = char_len(s->s + i, s->n - i);
      mx_strbuf_append(&b, s->s + i, k);
      i += k;
      continue;
    }
    if (!hit) break;
    mx_strbuf_append(&b, s->s + i, (size_t)(hit - (s->s + i)));
    mx_strbuf_append(&b, new->s, new->n);
    i = (size_t)(hit - s->s) + old->n;
  }
  if (i < s->n) mx_strbuf_append(&b, s->s + i, s->n - i);
  jj_val_t *r = jj_str(c, b.data, b.len);
  mx_strbuf_free(&b);
  return r;
}

/* str.split(sep=None, maxsplit=-1). */
static jj_val_t *split(jj_ctx_t *c, const jj_val_t *s, const jj_val_t *sep, int64_t maxsplit) {
  jj_val_t *out = jj_new(c, JV_LIST);
  if (!out) return NULL;
  if (!sep || sep->k == JV_NONE) {
    size_t i = 0;
    for (;;) {
      for (size_t w; i < s->n && (w = jj_space_at(s->s + i, s->n - i));) i += w;
      if (i >= s->n) break;
      size_t j = i;
      if (maxsplit >= 0 && (int64_t)out->n >= maxsplit) { /* the rest, as it is */
        if (!jj_push(c, out, jj_str(c, s->s + i, s->n - i))) return NULL;
        break;
      }
      while (j < s->n && !jj_space_at(s->s + j, s->n - j)) j += char_len(s->s + j, s->n - j);
      if (!jj_push(c, out, jj_str(c, s->s + i, j - i))) return NULL;
      i = j;
    }
    return out;
  }
  if (!want_str(c, sep, "split")) return NULL;
  if (sep->n == 0) return jj_fail(c, "empty separator");
  size_t i = 0;
  for (;;) {
    const char *hit = maxsplit >= 0 && (int64_t)out->n >= maxsplit ? NULL : memmem(s->s + i, s->n - i, sep->s, sep->n);
    size_t end = hit ? (size_t)(hit - s->s) : s->n;
    if (!jj_push(c, out, jj_str(c, s->s + i, end - i))) return NULL;
    if (!hit) break;
    i = end + sep->n;
  }
  return out;
}

static bool starts(const jj_val_t *s, const jj_val_t *p, bool end) {
  if (p->n > s->n) return false;
  return !memcmp(end ? s->s + s->n - p->n : s->s, p->s, p->n);
}

/* ---------------------------------------------------------------------------------------- tests */

static const char *const test_names[] = {"boolean", "callable", "defined", "divisibleby", "eq", "equalto", "==", "even", "false",
                                         "float", "ge", ">=", "gt", "greaterthan", ">", "in", "integer", "iterable", "le", "<=",
                                         "lower", "lt", "lessthan", "<", "mapping", "ne", "!=", "none", "number", "odd", "sameas",
                                         "sequence", "string", "true", "undefined", "upper", NULL};

bool jj_known_test(const char *name) {
  for (const char *const *t = test_names; *t; t++)
    if (!strcmp(*t, name)) return true;
  return false;
}

static int cmp_order(const jj_val_t *a, const jj_val_t *b, bool *ok) {
  *ok = true;
  if ((a->k == JV_INT || a->k == JV_FLOAT || a->k == JV_BOOL) && (b->k == JV_INT || b->k == JV_FLOAT || b->k == JV_BOOL)) {
    double x = a->k == JV_FLOAT ? a->f : a->k == JV_INT ? (double)a->i : a->b, y = b->k == JV_FLOAT ? b->f : b->k == JV_INT ? (double)b->i : b->b;
    return (x > y) - (x < y);
  }
  if (a->k == JV_STR && b->k == JV_STR) {
    size_t m = a->n < b->n ? a->n : b->n;
    int r = memcmp(a->s, b->s, m);
    return r ? (r > 0) - (r < 0) : (a->n > b->n) - (a->n < b->n);
  }
  *ok = false;
  return 0;
}

int jj_test(jj_ctx_t *c, const char *name, jj_val_t *v, const jj_args_t *a) {
  jj_val_t *x = arg(a, 0, NULL);
  if (!strcmp(name, "defined")) return v->k != JV_UNDEF;
  if (!strcmp(name, "undefined")) return v->k == JV_UNDEF;
  if (!strcmp(name, "none")) return v->k == JV_NONE;
  if (!strcmp(name, "boolean")) return v->k == JV_BOOL;
  if (!strcmp(name, "true")) return v->k == JV_BOOL && v->b;
  if (!strcmp(name, "false")) return v->k == JV_BOOL && !v->b;
  if (!strcmp(name, "string")) return v->k == JV_STR;
  if (!strcmp(name, "number")) return v->k == JV_INT || v->k == JV_FLOAT || v->k == JV_BOOL;
  if (!strcmp(name, "integer")) return v->k == JV_INT;
  if (!strcmp(name, "float")) return v->k == JV_FLOAT;
  if (!strcmp(name, "mapping")) return v->k == JV_DICT;
  /* jinja2's Undefined iterates (as nothing) and has a length: both tests hold for it */
  if (!strcmp(name, "iterable")) return v->k == JV_STR || v->k == JV_LIST || v->k == JV_DICT || v->k == JV_UNDEF;
  if (!strcmp(name, "sequence")) return v->k == JV_STR || v->k == JV_LIST || v->k == JV_DICT || v->k == JV_UNDEF;
  if (!strcmp(name, "callable")) return v->k == JV_MACRO || v->k == JV_METHOD || v->k == JV_BUILTIN;
  if (!strcmp(name, "lower") || !strcmp(name, "upper")) {
    if (v->k != JV_STR) return 0;
    bool cased = false, up = name[0] == 'u';
    for (size_t i = 0; i < v->n; i++) {
      char ch = v->s[i];
      if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
        cased = true;
        if ((ch >= 'A' && ch <= 'Z') != up) return 0;
      }
    }
    return cased;
  }
  if (!strcmp(name, "odd") || !strcmp(name, "even") || !strcmp(name, "divisibleby")) {
    int64_t i, d = 2;
    if (!int_arg(c, v, 0, &i, name)) return -1;
    if (name[0] == 'd' && !int_arg(c, x, 0, &d, name)) return -1;
    if (d == 0) return jj_fail(c, "divisibleby 0"), -1;
    int64_t r = ((i % d) + d) % d;
    return name[0] == 'o' ? r == 1 : r == 0;
  }
  if (!x) return jj_fail(c, "the test '%s' needs an argument", name), -1;
  if (!strcmp(name, "sameas")) {
    if (v->k != x->k) return 0;
    if (v->k == JV_NONE || v->k == JV_UNDEF) return 1;
    if (v->k == JV_BOOL) return v->b == x->b;
    return v == x;
  }
  if (!strcmp(name, "in")) {
    if (x->k == JV_STR) return v->k == JV_STR && (v->n == 0 || memmem(x->s, x->n, v->s, v->n) != NULL);
    if (x->k == JV_DICT) return jj_get(x, v) != NULL;
    if (x->k != JV_LIST) return jj_fail(c, "the test 'in' needs a container"), -1;
    for (size_t i = 0; i < x->n; i++)
      if (jj_equal(x->items[i], v)) return 1;
    return 0;
  }
  if (!strcmp(name, "eq") || !strcmp(name, "equalto") || !strcmp(name, "==")) return jj_equal(v, x);
  if (!strcmp(name, "ne") || !strcmp(name, "!=")) return !jj_equal(v, x);
  bool ok;
  int r = cmp_order(v, x, &ok);
  if (!ok) return jj_fail(c, "the test '%s' cannot order '%s' and '%s'", name, jj_type_name(v), jj_type_name(x)), -1;
  if (!strcmp(name, "lt") || !strcmp(name, "lessthan") || !strcmp(name, "<")) return r < 0;
  if (!strcmp(name, "le") || !strcmp(name, "<=")) return r <= 0;
  if (!strcmp(name, "gt") || !strcmp(name, "greaterthan") || !strcmp(name, ">")) return r > 0;
  if (!strcmp(name, "ge") || !strcmp(name, ">=")) return r >= 0;
  return jj_fail(c, "the test '%s' is not supported", name), -1;
}

/* -------------------------------------------------------------------------------------- filters */

static const char *const filter_names[] = {"abs", "attr", "capitalize", "count", "d", "default", "e", "escape", "first",
                                           "float", "indent", "int", "items", "join", "last", "length", "list", "lower",
                                           "map", "reject", "rejectattr", "replace", "reverse", "round", "safe", "select",
                                           "selectattr", "sort", "string", "sum", "title", "tojson", "trim", "unique",
                                           "upper", NULL};

bool jj_known_filter(const char *name) {
  for (const char *const *f = filter_names; *f; f++)
    if (!strcmp(*f, name)) return true;
  return false;
}

/* An attribute path "a.b" of an item (selectattr, map, join, sort, sum, unique). */
static jj_val_t *attr_path(jj_ctx_t *c, jj_val_t *v, const jj_val_t *path) {
  if (path->k == JV_INT) {
    if (v->k == JV_LIST) return path->i >= 0 && (size_t)path->i < v->n ? v->items[path->i] : jj_undef(c, "");
    return jj_undef(c, "");
  }
  if (!want_str(c, path, "attribute")) return NULL;
  size_t i = 0;
  while (i <= path->n && v) {
    const char *dot = memchr(path->s + i, '.', path->n - i);
    size_t end = dot ? (size_t)(dot - path->s) : path->n;
    char *name = jj_strndup(&c->arena, path->s + i, end - i);
    if (!name) return jj_fail(c, "out of memory");
    if (v->k == JV_DICT || v->k == JV_NAMESPACE) {
      jj_val_t *next = jj_get_str(v, name);
      v = next ? next : jj_undef(c, name);
    } else if (v->k == JV_LIST && end > i && name[0] >= '0' && name[0] <= '9') {
      long k = strtol(name, NULL, 10);
      v = k >= 0 && (size_t)k < v->n ? v->items[k] : jj_undef(c, name);
    } else {
      v = jj_undef(c, name);
    }
    i = end + 1;
  }
  return v;
}

/* select/reject(test, args...) and selectattr/rejectattr(attr, test, args...). */
static jj_val_t *select_items(jj_ctx_t *c, jj_val_t *v, const jj_args_t *a, bool by_attr, bool keep) {
  jj_val_t *items = jj_iterable(c, v), *out = jj_new(c, JV_LIST);
  if (!items || !out) return NULL;
  int first = by_attr ? 1 : 0;
  jj_val_t *test = arg(a, first, NULL);
  if (test && !want_str(c, test, "select")) return NULL;
  jj_args_t rest = {.pos = a->n_pos > first + 1 ? a->pos + first + 1 : NULL, .n_pos = a->n_pos > first + 1 ? a->n_pos - first - 1 : 0};
  for (size_t i = 0; i < items->n; i++) {
    jj_val_t *x = by_attr ? attr_path(c, items->items[i], arg(a, 0, NULL) ? arg(a, 0, NULL) : jj_cstr(c, "")) : items->items[i];
    if (!x) return NULL;
    int r = test ? jj_test(c, jj_strndup(&c->arena, test->s, test->n), x, &rest) : jj_truthy(x);
    if (r < 0) return NULL;
    if ((r != 0) == keep && !jj_push(c, out, items->items[i])) return NULL;
  }
  return out;
}

static int sort_cmp_case;
static const jj_val_t *sort_attr;
static jj_ctx_t *sort_ctx;
static int sort_compare(const void *pa, const void *pb) {
  const jj_val_t *a = *(jj_val_t *const *)pa, *b = *(jj_val_t *const *)pb;
  if (sort_attr) a = attr_path(sort_ctx, (jj_val_t *)a, sort_attr), b = attr_path(sort_ctx, (jj_val_t *)b, sort_attr);
  if (!a || !b) return 0;
  if (!sort_cmp_case && a->k == JV_STR && b->k == JV_STR) {
    size_t m = a->n < b->n ? a->n : b->n;
    for (size_t i = 0; i < m; i++) {
      int x = (unsigned char)a->s[i], y = (unsigned char)b->s[i];
      if (x >= 'A' && x <= 'Z') x |= 0x20;
      if (y >= 'A' && y <= 'Z') y |= 0x20;
      if (x != y) return x - y;
    }
    return (a->n > b->n) - (a->n < b->n);
  }
  bool ok;
  return cmp_order(a, b, &ok);
}

static jj_val_t *indent(jj_ctx_t *c, jj_val_t *v, const jj_args_t *a) {
  jj_val_t *s = jj_to_string_val(c, v), *w = arg(a, 0, "width"), *first = arg(a, 1, "first"), *blank = arg(a, 2, "blank");
  if (!s) return NULL;
  mx_strbuf_t ind, out;
  mx_strbuf_init(&ind);
  mx_strbuf_init(&out);
  if (w && w->k == JV_STR) {
    mx_strbuf_append(&ind, w->s, w->n);
  } else {
    int64_t n;
    if (!int_arg(c, w, 4, &n, "indent")) return NULL;
    for (int64_t i = 0; i < n && i < 4096; i++) mx_strbuf_append(&ind, " ", 1);
  }
  /* jinja2: s += "\n"; lines = s.splitlines(); the first line as it is (unless first), the others
   * indented unless empty (unless blank). splitlines breaks at \n only here (\r was read as \n). */
  size_t i = 0, line = 0;
  while (i < s->n || (i == s->n && line == 0)) {
    const char *nl = memchr(s->s + i, '\n', s->n - i);
    size_t end = nl ? (size_t)(nl - s->s) : s->n;
    bool empty = end == i;
    if (line) mx_strbuf_append(&out, "\n", 1);
    if ((line || (first && jj_truthy(first))) && (!empty || (blank && jj_truthy(blank)))) mx_strbuf_append(&out, ind.data, ind.len);
    mx_strbuf_append(&out, s->s + i, end - i);
    line++;
    i = end + 1;
    if (!nl) break;
  }
  jj_val_t *r = jj_str(c, out.data, out.len);
  mx_strbuf_free(&ind);
  mx_strbuf_free(&out);
  return r;
}

jj_val_t *jj_filter(jj_ctx_t *c, const char *name, jj_val_t *v, const jj_args_t *a) {
  jj_val_t *a0 = arg(a, 0, NULL);
  if (!strcmp(name, "safe")) return v;
  if (!strcmp(name, "default") || !strcmp(name, "d")) {
    jj_val_t *def = arg(a, 0, "default_value"), *boolean = arg(a, 1, "boolean");
    bool use = v->k == JV_UNDEF || (boolean && jj_truthy(boolean) && !jj_truthy(v));
    return use ? (def ? def : jj_str(c, "", 0)) : v;
  }
  if (!strcmp(name, "length") || !strcmp(name, "count")) {
    if (v->k == JV_STR) return jj_int(c, (int64_t)jj_str_chars(v));
    if (v->k == JV_LIST || v->k == JV_DICT || v->k == JV_NAMESPACE) return jj_int(c, (int64_t)v->n);
    if (v->k == JV_UNDEF) return jj_int(c, 0);
    return jj_fail(c, "object of type '%s' has no len()", jj_type_name(v));
  }
  if (!strcmp(name, "string")) return jj_to_string_val(c, v);
  if (!strcmp(name, "tojson")) {
    /* transformers' tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False) */
    jj_val_t *ascii = arg(a, 0, "ensure_ascii"), *ind = arg(a, 1, "indent"), *seps = arg(a, 2, "separators"), *sort = arg(a, 3, "sort_keys");
    if ((ascii && jj_truthy(ascii)) || (seps && seps->k != JV_NONE))
      return jj_fail(c, "tojson with ensure_ascii or separators is not supported");
    int64_t n;
    if (!int_arg(c, ind, -1, &n, "tojson indent")) return NULL;
    mx_strbuf_t s;
    mx_strbuf_init(&s);
    jj_val_t *r = jj_json(c, v, n < 0 ? -1 : (int)n, sort && jj_truthy(sort), 0, &s) ? jj_str(c, s.data, s.len) : NULL;
    mx_strbuf_free(&s);
    return r;
  }
  if (!strcmp(name, "items")) {
    jj_val_t *out = jj_new(c, JV_LIST);
    if (!out || v->k == JV_UNDEF) return out;
    if (v->k != JV_DICT && v->k != JV_NAMESPACE) return jj_fail(c, "the items filter needs a mapping, not '%s'", jj_type_name(v));
    for (size_t i = 0; i < v->n; i++) {
      jj_val_t *pair = jj_new(c, JV_LIST);
      if (pair) pair->b = true;
      if (!pair || !jj_push(c, pair, v->keys[i]) || !jj_push(c, pair, v->items[i]) || !jj_push(c, out, pair)) return NULL;
    }
    return out;
  }
  if (!strcmp(name, "list")) {
    jj_val_t *items = jj_iterable(c, v), *out = jj_new(c, JV_LIST);
    for (size_t i = 0; items && out && i < items->n; i++)
      if (!jj_push(c, out, items->items[i])) return NULL;
    return items ? out : NULL;
  }
  if (!strcmp(name, "first") || !strcmp(name, "last")) {
    jj_val_t *items = jj_iterable(c, v);
    if (!items) return NULL;
    if (!items->n) return jj_undef(c, name);
    return items->items[name[0] == 'f' ? 0 : items->n - 1];
  }
  if (!strcmp(name, "reverse")) {
    jj_val_t *items = jj_iterable(c, v), *out = jj_new(c, JV_LIST);
    for (size_t i = items ? items->n : 0; out && i > 0; i--)
      if (!jj_push(c, out, items->items[i - 1])) return NULL;
    if (!items || v->k != JV_STR) return items ? out : NULL;
    return jj_concat(c, out);
  }
  if (!strcmp(name, "join")) {
    jj_val_t *items = jj_iterable(c, v), *sep = arg(a, 0, "d"), *attr = arg(a, 1, "attribute");
    if (!items || (sep && !want_str(c, sep, "join"))) return NULL;
    mx_strbuf_t s;
    mx_strbuf_init(&s);
    bool ok = true;
    for (size_t i = 0; i < items->n && ok; i++) {
      if (i && sep) mx_strbuf_append(&s, sep->s, sep->n);
      jj_val_t *x = attr ? attr_path(c, items->items[i], attr) : items->items[i];
      ok = x && jj_str_of(c, x, &s);
    }
    jj_val_t *r = ok ? jj_str(c, s.data, s.len) : NULL;
    mx_strbuf_free(&s);
    return r;
  }
  if (!strcmp(name, "map")) {
    jj_val_t *items = jj_iterable(c, v), *out = jj_new(c, JV_LIST), *attr = arg(a, -1, "attribute"), *def = arg(a, -1, "default");
    if (!items || !out) return NULL;
    if (!attr && (!a0 || !want_str(c, a0, "map"))) return NULL;
    jj_args_t rest = {.pos = a->n_pos > 1 ? a->pos + 1 : NULL, .n_pos = a->n_pos > 1 ? a->n_pos - 1 : 0};
    for (size_t i = 0; i < items->n; i++) {
      jj_val_t *x = attr ? attr_path(c, items->items[i], attr) : jj_filter(c, jj_strndup(&c->arena, a0->s, a0->n), items->items[i], &rest);
      if (x && x->k == JV_UNDEF && def) x = def;
      if (!jj_push(c, out, x)) return NULL;
    }
    return out;
  }
  if (!strcmp(name, "select") || !strcmp(name, "reject")) return select_items(c, v, a, false, name[0] == 's');
  if (!strcmp(name, "selectattr") || !strcmp(name, "rejectattr")) return select_items(c, v, a, true, name[0] == 's');
  if (!strcmp(name, "attr")) {
    if (!want_str(c, a0, "attr")) return NULL;
    return (v->k == JV_DICT || v->k == JV_NAMESPACE) && jj_get(v, a0) ? jj_get(v, a0) : jj_undef(c, "");
  }
  if (!strcmp(name, "unique")) {
    jj_val_t *items = jj_iterable(c, v), *out = jj_new(c, JV_LIST);
    for (size_t i = 0; items && out && i < items->n; i++) {
      bool seen = false;
      for (size_t k = 0; k < out->n && !seen; k++) seen = jj_equal(out->items[k], items->items[i]);
      if (!seen && !jj_push(c, out, items->items[i])) return NULL;
    }
    return items ? out : NULL;
  }
  if (!strcmp(name, "sort")) {
    jj_val_t *items = jj_iterable(c, v), *out = jj_new(c, JV_LIST), *rev = arg(a, 0, "reverse"), *cs = arg(a, 1, "case_sensitive");
    for (size_t i = 0; items && out && i < items->n; i++)
      if (!jj_push(c, out, items->items[i])) return NULL;
    if (!items || !out) return NULL;
    sort_cmp_case = cs && jj_truthy(cs), sort_attr = arg(a, 2, "attribute"), sort_ctx = c;
    if (out->n > 1) qsort(out->items, out->n, sizeof *out->items, sort_compare); /* not stable: ties are rare in templates */
    sort_attr = NULL, sort_ctx = NULL;
    if (rev && jj_truthy(rev))
      for (size_t i = 0; i < out->n / 2; i++) {
        jj_val_t *t = out->items[i];
        out->items[i] = out->items[out->n - 1 - i], out->items[out->n - 1 - i] = t;
      }
    return out;
  }
  if (!strcmp(name, "sum")) {
    jj_val_t *items = jj_iterable(c, v), *attr = arg(a, 0, "attribute"), *start = arg(a, 1, "start");
    if (!items) return NULL;
    double f = 0;
    int64_t i64 = 0;
    bool is_float = start && start->k == JV_FLOAT;
    if (start) i64 = start->k == JV_INT ? start->i : 0, f = start->k == JV_FLOAT ? start->f : (double)i64;
    for (size_t i = 0; i < items->n; i++) {
      jj_val_t *x = attr ? attr_path(c, items->items[i], attr) : items->items[i];
      if (!x || (x->k != JV_INT && x->k != JV_FLOAT && x->k != JV_BOOL)) return jj_fail(c, "sum needs numbers");
      if (x->k == JV_FLOAT) is_float = true, f += x->f;
      else i64 += x->k == JV_INT ? x->i : x->b, f += (double)(x->k == JV_INT ? x->i : x->b);
    }
    return is_float ? jj_float(c, f) : jj_int(c, i64);
  }
  if (!strcmp(name, "abs")) {
    if (v->k == JV_INT) return jj_int(c, v->i < 0 ? -v->i : v->i);
    if (v->k == JV_FLOAT) return jj_float(c, fabs(v->f));
    return jj_fail(c, "bad operand type for abs(): '%s'", jj_type_name(v));
  }
  if (!strcmp(name, "int")) {
    jj_val_t *def = arg(a, 0, "default");
    if (v->k == JV_INT) return v;
    if (v->k == JV_BOOL) return jj_int(c, v->b);
    if (v->k == JV_FLOAT && isfinite(v->f)) return jj_int(c, (int64_t)v->f);
    if (v->k == JV_STR) {
      char *s = jj_strndup(&c->arena, v->s, v->n), *end;
      long long i = s ? strtoll(s, &end, 10) : 0;
      if (s && end != s && *end == '\0') return jj_int(c, i);
      double f = s ? strtod(s, &end) : 0;
      if (s && end != s && *end == '\0' && isfinite(f)) return jj_int(c, (int64_t)f);
    }
    return def ? def : jj_int(c, 0);
  }
  if (!strcmp(name, "float")) {
    jj_val_t *def = arg(a, 0, "default");
    if (v->k == JV_FLOAT) return v;
    if (v->k == JV_INT || v->k == JV_BOOL) return jj_float(c, v->k == JV_INT ? (double)v->i : v->b);
    if (v->k == JV_STR) {
      char *s = jj_strndup(&c->arena, v->s, v->n), *end;
      double f = s ? strtod(s, &end) : 0;
      if (s && end != s && *end == '\0') return jj_float(c, f);
    }
    return def ? def : jj_float(c, 0);
  }
  if (!strcmp(name, "round")) {
    int64_t prec;
    if (!int_arg(c, arg(a, 0, "precision"), 0, &prec, "round")) return NULL;
    jj_val_t *method = arg(a, 1, "method");
    double x = v->k == JV_FLOAT ? v->f : v->k == JV_INT ? (double)v->i : NAN, m = pow(10, (double)prec);
    if (isnan(x)) return jj_fail(c, "round needs a number");
    if (method && method->k == JV_STR && !strncmp(method->s, "floor", method->n)) return jj_float(c, floor(x * m) / m);
    if (method && method->k == JV_STR && !strncmp(method->s, "ceil", method->n)) return jj_float(c, ceil(x * m) / m);
    return jj_float(c, round(x * m) / m);
  }
  if (!strcmp(name, "indent")) return indent(c, v, a);
  /* string filters: their argument as str() */
  jj_val_t *s = jj_to_string_val(c, v);
  if (!s) return NULL;
  if (!strcmp(name, "trim")) return strip(c, s, arg(a, 0, "chars"), 3);
  if (!strcmp(name, "upper")) return map_ascii(c, s, 1);
  if (!strcmp(name, "lower")) return map_ascii(c, s, 0);
  if (!strcmp(name, "capitalize")) {
    jj_val_t *low = map_ascii(c, s, 0);
    return low ? map_ascii(c, low, 2) : NULL;
  }
  if (!strcmp(name, "title")) {
    jj_val_t *low = map_ascii(c, s, 0);
    return low ? map_ascii(c, low, 3) : NULL;
  }
  if (!strcmp(name, "replace")) {
    int64_t count;
    if (!int_arg(c, arg(a, 2, "count"), -1, &count, "replace")) return NULL;
    return replace(c, s, arg(a, 0, "old"), arg(a, 1, "new"), count);
  }
  if (!strcmp(name, "escape") || !strcmp(name, "e")) {
    mx_strbuf_t b;
    mx_strbuf_init(&b);
    for (size_t i = 0; i < s->n; i++) {
      const char *rep = s->s[i] == '&' ? "&amp;" : s->s[i] == '<' ? "&lt;" : s->s[i] == '>' ? "&gt;" : s->s[i] == '"' ? "&#34;" : s->s[i] == '\'' ? "&#39;" : NULL;
      if (rep) mx_strbuf_append(&b, rep, strlen(rep));
      else mx_strbuf_append(&b, s->s + i, 1);
    }
    jj_val_t *r = jj_str(c, b.data, b.len);
    mx_strbuf_free(&b);
    return r;
  }
  return jj_fail(c, "the filter '%s' is not supported", name);
}

/* -------------------------------------------------------------------------------------- methods */

static const char *const str_methods[] = {"strip", "lstrip", "rstrip", "split", "upper", "lower", "title", "capitalize",
                                          "replace", "startswith", "endswith", "find", "count", "join", "isdigit", "isspace",
                                          "removeprefix", "removesuffix", NULL};
static const char *const dict_methods[] = {"items", "keys", "values", "get", NULL};

static bool listed(const char *const *names, const char *name) {
  for (; *names; names++)
    if (!strcmp(*names, name)) return true;
  return false;
}

bool jj_has_method(const jj_val_t *self, const char *name) {
  if (self->k == JV_STR) return listed(str_methods, name);
  if (self->k == JV_DICT) return listed(dict_methods, name);
  return false;
}

static jj_val_t *affix(jj_ctx_t *c, jj_val_t *self, jj_val_t *x, bool end) {
  if (x && x->k == JV_LIST) { /* startswith(("a", "b")) */
    for (size_t i = 0; i < x->n; i++) {
      if (!want_str(c, x->items[i], end ? "endswith" : "startswith")) return NULL;
      if (starts(self, x->items[i], end)) return jj_bool(c, true);
    }
    return jj_bool(c, false);
  }
  if (!want_str(c, x, end ? "endswith" : "startswith")) return NULL;
  return jj_bool(c, starts(self, x, end));
}

jj_val_t *jj_method(jj_ctx_t *c, jj_val_t *self, const char *name, const jj_args_t *a) {
  jj_val_t *x = arg(a, 0, NULL);
  if (self->k == JV_DICT) {
    if (!strcmp(name, "get")) {
      if (!x) return jj_fail(c, "get() needs a key");
      jj_val_t *v = jj_get(self, x), *def = arg(a, 1, "default");
      return v ? v : def ? def : jj_new(c, JV_NONE);
    }
    jj_val_t *out = jj_new(c, JV_LIST);
    for (size_t i = 0; out && i < self->n; i++) {
      jj_val_t *e = !strcmp(name, "keys") ? self->keys[i] : !strcmp(name, "values") ? self->items[i] : jj_new(c, JV_LIST);
      if (e && !strcmp(name, "items")) e->b = true; /* (key, value) */
      if (!strcmp(name, "items") && e && (!jj_push(c, e, self->keys[i]) || !jj_push(c, e, self->items[i]))) return NULL;
      if (!jj_push(c, out, e)) return NULL;
    }
    return out;
  }
  if (!strcmp(name, "strip")) return strip(c, self, x, 3);
  if (!strcmp(name, "lstrip")) return strip(c, self, x, 1);
  if (!strcmp(name, "rstrip")) return strip(c, self, x, 2);
  if (!strcmp(name, "upper")) return map_ascii(c, self, 1);
  if (!strcmp(name, "lower")) return map_ascii(c, self, 0);
  if (!strcmp(name, "title") || !strcmp(name, "capitalize")) {
    jj_val_t *low = map_ascii(c, self, 0);
    return low ? map_ascii(c, low, name[0] == 't' ? 3 : 2) : NULL;
  }
  if (!strcmp(name, "split")) {
    int64_t max;
    if (!int_arg(c, arg(a, 1, "maxsplit"), -1, &max, "split")) return NULL;
    return split(c, self, arg(a, 0, "sep"), max);
  }
  if (!strcmp(name, "replace")) {
    int64_t count;
    if (!int_arg(c, arg(a, 2, "count"), -1, &count, "replace")) return NULL;
    return replace(c, self, x, arg(a, 1, NULL), count);
  }
  if (!strcmp(name, "startswith") || !strcmp(name, "endswith")) return affix(c, self, x, name[0] == 'e');
  if (!strcmp(name, "removeprefix") || !strcmp(name, "removesuffix")) {
    if (!want_str(c, x, name)) return NULL;
    bool end = name[6] == 's';
    if (!starts(self, x, end)) return self;
    return jj_str(c, end ? self->s : self->s + x->n, self->n - x->n);
  }
  if (!strcmp(name, "find") || !strcmp(name, "count")) {
    if (!want_str(c, x, name)) return NULL;
    if (name[0] == 'f') {
      const char *hit = x->n ? memmem(self->s, self->n, x->s, x->n) : self->s;
      if (!hit) return jj_int(c, -1);
      size_t chars = 0;
      for (const char *p = self->s; p < hit; p++) chars += ((unsigned char)*p & 0xC0) != 0x80;
      return jj_int(c, (int64_t)chars);
    }
    if (!x->n) return jj_int(c, (int64_t)jj_str_chars(self) + 1);
    int64_t n = 0;
    for (const char *p = self->s; (p = memmem(p, self->n - (size_t)(p - self->s), x->s, x->n)); p += x->n) n++;
    return jj_int(c, n);
  }
  if (!strcmp(name, "join")) {
    jj_val_t *items = x ? jj_iterable(c, x) : NULL;
    if (!items) return x ? NULL : jj_fail(c, "join() needs an iterable");
    mx_strbuf_t s;
    mx_strbuf_init(&s);
    for (size_t i = 0; i < items->n; i++) {
      if (items->items[i]->k != JV_STR) {
        mx_strbuf_free(&s);
        return jj_fail(c, "sequence item %zu: expected str instance, %s found", i, jj_type_name(items->items[i]));
      }
      if (i) mx_strbuf_append(&s, self->s, self->n);
      mx_strbuf_append(&s, items->items[i]->s, items->items[i]->n);
    }
    jj_val_t *r = jj_str(c, s.data, s.len);
    mx_strbuf_free(&s);
    return r;
  }
  if (!strcmp(name, "isdigit") || !strcmp(name, "isspace")) {
    bool all = self->n > 0;
    for (size_t i = 0; i < self->n && all;) {
      size_t w = name[2] == 's' ? jj_space_at(self->s + i, self->n - i) : (self->s[i] >= '0' && self->s[i] <= '9');
      all = w != 0;
      i += w ? w : 1;
    }
    return jj_bool(c, all);
  }
  return jj_fail(c, "the method %s.%s() is not supported", jj_type_name(self), name);
}

/* ------------------------------------------------------------------------------------- builtins */

const char *const jj_builtin_names[] = {"raise_exception", "strftime_now", "namespace", "range", "dict", NULL};

jj_val_t *jj_builtin(jj_ctx_t *c, const char *name, const jj_args_t *a) {
  jj_val_t *x = arg(a, 0, NULL);
  if (!strcmp(name, "raise_exception")) {
    mx_strbuf_t s;
    mx_strbuf_init(&s);
    if (x) jj_str_of(c, x, &s);
    jj_fail(c, "the template raised an error: %s", s.data ? s.data : "");
    mx_strbuf_free(&s);
    return NULL;
  }
  if (!strcmp(name, "strftime_now")) {
    if (!want_str(c, x, "strftime_now")) return NULL;
    char fmt[256], buf[512];
    snprintf(fmt, sizeof fmt, "%.*s", (int)x->n, x->s);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    size_t n = strftime(buf, sizeof buf, fmt, &tm);
    return jj_str(c, buf, n);
  }
  if (!strcmp(name, "namespace") || !strcmp(name, "dict")) {
    jj_val_t *d = jj_new(c, name[0] == 'n' ? JV_NAMESPACE : JV_DICT);
    if (!d) return NULL;
    if (x && (x->k == JV_DICT || x->k == JV_NAMESPACE))
      for (size_t i = 0; i < x->n; i++)
        if (!jj_set(c, d, x->keys[i], x->items[i])) return NULL;
    for (int k = 0; k < a->n_kw; k++)
      if (!jj_set(c, d, jj_cstr(c, a->kw_names[k]), a->kw[k])) return NULL;
    return d;
  }
  if (!strcmp(name, "range")) {
    int64_t lo = 0, hi, step = 1;
    if (a->n_pos == 1) {
      if (!int_arg(c, x, 0, &hi, "range")) return NULL;
    } else if (!int_arg(c, x, 0, &lo, "range") || !int_arg(c, arg(a, 1, NULL), 0, &hi, "range") ||
               !int_arg(c, arg(a, 2, NULL), 1, &step, "range")) {
      return NULL;
    }
    if (step == 0) return jj_fail(c, "range() step must not be zero");
    jj_val_t *out = jj_new(c, JV_LIST);
    for (int64_t i = lo, n = 0; out && (step > 0 ? i < hi : i > hi); i += step, n++) {
      if (n >= 1000000) return jj_fail(c, "range() of more than a million items");
      if (!jj_push(c, out, jj_int(c, i))) return NULL;
    }
    return out;
  }
  return jj_fail(c, "the function %s() is not supported", name);
}
