/* The Jinja parser: tokens to a tree, by jinja2's grammar (its precedence: filters and tests bind
 * tighter than arithmetic, `not` looser than comparisons, the conditional expression loosest). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "template/jinja_internal.h"

typedef struct {
  jj_arena_t *a;
  const jj_tok_t *t;
  int n, i;
  char *err;
  size_t errcap;
  bool failed;
} parser_t;

static const jj_tok_t *cur(parser_t *p) { return &p->t[p->i < p->n ? p->i : p->n - 1]; }
static const jj_tok_t *peek(parser_t *p, int k) { return &p->t[p->i + k < p->n ? p->i + k : p->n - 1]; }

static void *failp(parser_t *p, const char *fmt, ...) {
  if (!p->failed) {
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(p->err, p->errcap, "line %d: ", cur(p)->line);
    if (k >= 0 && (size_t)k < p->errcap) vsnprintf(p->err + k, p->errcap - (size_t)k, fmt, ap);
    va_end(ap);
  }
  p->failed = true;
  return NULL;
}

static bool is_op(parser_t *p, const char *op) { return cur(p)->kind == JT_OP && !strcmp(cur(p)->s, op); }
static bool is_name(parser_t *p, const char *name) { return cur(p)->kind == JT_NAME && !strcmp(cur(p)->s, name); }
static bool skip_op(parser_t *p, const char *op) { return is_op(p, op) ? (p->i++, true) : false; }
static bool skip_name(parser_t *p, const char *name) { return is_name(p, name) ? (p->i++, true) : false; }

static const char *describe(const jj_tok_t *t) {
  switch (t->kind) {
    case JT_TEXT: return "template text";
    case JT_VAR_BEGIN: return "'{{'";
    case JT_VAR_END: return "'}}'";
    case JT_BLOCK_BEGIN: return "'{%'";
    case JT_BLOCK_END: return "'%}'";
    case JT_EOF: return "the end of the template";
    default: return t->s;
  }
}

static bool expect_op(parser_t *p, const char *op) {
  if (skip_op(p, op)) return true;
  failp(p, "expected '%s', found %s", op, describe(cur(p)));
  return false;
}

static jj_node_t *node(parser_t *p, jj_node_kind_t kind) {
  jj_node_t *n = jj_alloc(p->a, sizeof *n);
  if (!n) return failp(p, "out of memory");
  n->kind = kind;
  n->line = cur(p)->line;
  return n;
}

static bool append(parser_t *p, jj_nodes_t *list, jj_node_t *n) {
  if (!n) return false;
  if ((list->n & (list->n - 1)) == 0) { /* grow at powers of two */
    jj_node_t **v = jj_alloc(p->a, sizeof *v * (size_t)(list->n ? list->n * 2 : 1));
    if (!v) return failp(p, "out of memory"), false;
    if (list->n) memcpy(v, list->v, sizeof *v * (size_t)list->n);
    list->v = v;
  }
  list->v[list->n++] = n;
  return true;
}

static jj_node_t *literal(parser_t *p, jj_vkind_t k) {
  jj_node_t *n = node(p, JN_LITERAL);
  if (n && !(n->val = jj_alloc(p->a, sizeof *n->val))) return failp(p, "out of memory");
  if (n) n->val->k = k;
  return n;
}

static jj_node_t *expression(parser_t *p, bool with_cond);
static jj_node_t *unary(parser_t *p, bool with_filter);
static jj_node_t *or_expr(parser_t *p);

/* ( args ) after the '(': positional and keyword arguments. */
static bool call_args(parser_t *p, jj_node_t *n) {
  const char *names[64];
  jj_nodes_t kw = {0};
  while (!skip_op(p, ")")) {
    if (n->args.n + n->n_kw && !expect_op(p, ",")) return false;
    if (skip_op(p, ")")) break; /* a trailing comma */
    if (is_op(p, "*") || is_op(p, "**")) return failp(p, "*args and **kwargs in calls are not supported"), false;
    if (cur(p)->kind == JT_NAME && peek(p, 1)->kind == JT_OP && !strcmp(peek(p, 1)->s, "=")) {
      if (n->n_kw >= 64) return failp(p, "too many keyword arguments"), false;
      names[n->n_kw++] = cur(p)->s;
      p->i += 2;
      if (!append(p, &kw, expression(p, true))) return false;
    } else {
      if (n->n_kw) return failp(p, "a positional argument after a keyword argument"), false;
      if (!append(p, &n->args, expression(p, true))) return false;
    }
  }
  n->kw = kw;
  if (n->n_kw) {
    n->kw_names = jj_alloc(p->a, sizeof *n->kw_names * (size_t)n->n_kw);
    if (!n->kw_names) return failp(p, "out of memory"), false;
    memcpy(n->kw_names, names, sizeof *names * (size_t)n->n_kw);
  }
  return true;
}

static jj_node_t *primary(parser_t *p) {
  const jj_tok_t *t = cur(p);
  jj_node_t *n;
  switch (t->kind) {
    case JT_NAME: {
      static const struct {
        const char *name;
        jj_vkind_t k;
        bool b;
      } consts[] = {{"true", JV_BOOL, true},  {"True", JV_BOOL, true}, {"false", JV_BOOL, false},
                    {"False", JV_BOOL, false}, {"none", JV_NONE, false}, {"None", JV_NONE, false}};
      for (size_t k = 0; k < sizeof consts / sizeof consts[0]; k++)
        if (!strcmp(t->s, consts[k].name)) {
          p->i++;
          n = literal(p, consts[k].k);
          if (n) n->val->b = consts[k].b;
          return n;
        }
      n = node(p, JN_NAME);
      if (n) n->s = t->s;
      p->i++;
      return n;
    }
    case JT_STRING: {
      mx_strbuf_t s;
      mx_strbuf_init(&s);
      while (cur(p)->kind == JT_STRING) mx_strbuf_append(&s, cur(p)->s, cur(p)->n), p->i++; /* "a" "b" */
      n = literal(p, JV_STR);
      if (n) {
        n->val->s = jj_strndup(p->a, s.data ? s.data : "", s.len);
        n->val->n = s.len;
        if (!n->val->s) n = failp(p, "out of memory");
      }
      mx_strbuf_free(&s);
      return n;
    }
    case JT_INT:
      p->i++;
      n = literal(p, JV_INT);
      if (n) n->val->i = t->i;
      return n;
    case JT_FLOAT:
      p->i++;
      n = literal(p, JV_FLOAT);
      if (n) n->val->f = t->f;
      return n;
    default: break;
  }
  if (skip_op(p, "(")) { /* a parenthesised expression or a tuple (a list marked as one) */
    if (skip_op(p, ")")) {
      n = node(p, JN_LIST);
      if (n) n->negated = true;
      return n;
    }
    jj_node_t *first = expression(p, true);
    if (!first || skip_op(p, ")")) return first;
    n = node(p, JN_LIST);
    if (!n || !append(p, &n->args, first)) return NULL;
    n->negated = true;
    while (skip_op(p, ",") && !is_op(p, ")"))
      if (!append(p, &n->args, expression(p, true))) return NULL;
    return expect_op(p, ")") ? n : NULL;
  }
  if (skip_op(p, "[")) {
    n = node(p, JN_LIST);
    while (n && !skip_op(p, "]")) {
      if (n->args.n && !expect_op(p, ",")) return NULL;
      if (skip_op(p, "]")) break;
      if (!append(p, &n->args, expression(p, true))) return NULL;
    }
    return n;
  }
  if (skip_op(p, "{")) {
    n = node(p, JN_DICT);
    while (n && !skip_op(p, "}")) {
      if (n->args.n && !expect_op(p, ",")) return NULL;
      if (skip_op(p, "}")) break;
      if (!append(p, &n->kw, expression(p, true)) || !expect_op(p, ":") || !append(p, &n->args, expression(p, true)))
        return NULL;
    }
    return n;
  }
  return failp(p, "unexpected %s in an expression", describe(t));
}

/* f(...) after the '(': a call of n. */
static jj_node_t *call(parser_t *p, jj_node_t *n) {
  jj_node_t *m = node(p, JN_CALL);
  if (!m) return NULL;
  m->a = n;
  return call_args(p, m) ? m : NULL;
}

static jj_node_t *postfix(parser_t *p, jj_node_t *n) {
  while (n) {
    if (skip_op(p, ".")) {
      jj_node_t *m = node(p, JN_ATTR);
      if (!m) return NULL;
      m->a = n;
      if (cur(p)->kind == JT_NAME) {
        m->s = cur(p)->s;
      } else if (cur(p)->kind == JT_INT) { /* x.0 is x[0] */
        m->kind = JN_ITEM;
        m->b = literal(p, JV_INT);
        if (!m->b) return NULL;
        m->b->val->i = cur(p)->i;
      } else {
        return failp(p, "expected a name after '.', found %s", describe(cur(p)));
      }
      p->i++;
      n = m;
    } else if (skip_op(p, "[")) {
      jj_node_t *m = node(p, JN_ITEM), *parts[3] = {NULL, NULL, NULL};
      if (!m) return NULL;
      m->a = n;
      int k = 0;
      for (;;) {
        if (!is_op(p, ":") && !is_op(p, "]") && !(parts[k] = expression(p, true))) return NULL;
        if (skip_op(p, ":")) {
          m->kind = JN_SLICE;
          if (++k > 2) return failp(p, "a slice has at most three parts");
          continue;
        }
        break;
      }
      if (!expect_op(p, "]")) return NULL;
      if (m->kind == JN_ITEM && !parts[0]) return failp(p, "an empty subscript");
      m->b = parts[0], m->c = parts[1];
      if (m->kind == JN_SLICE) {
        jj_node_t *step = node(p, JN_LIST); /* holds the step, if any */
        if (!step) return NULL;
        if (parts[2] && !append(p, &step->args, parts[2])) return NULL;
        m->body.v = step->args.v, m->body.n = step->args.n;
      }
      n = m;
    } else if (skip_op(p, "(")) {
      n = call(p, n);
    } else {
      break;
    }
  }
  return n;
}

static jj_node_t *filters_and_tests(parser_t *p, jj_node_t *n) {
  while (n) {
    if (skip_op(p, "|")) {
      if (cur(p)->kind != JT_NAME) return failp(p, "expected a filter name after '|'");
      jj_node_t *m = node(p, JN_FILTER);
      if (!m) return NULL;
      m->a = n, m->s = cur(p)->s;
      p->i++;
      if (skip_op(p, "(") && !call_args(p, m)) return NULL;
      n = m;
    } else if (skip_name(p, "is")) {
      jj_node_t *m = node(p, JN_TEST);
      if (!m) return NULL;
      m->a = n;
      m->negated = skip_name(p, "not");
      if (cur(p)->kind != JT_NAME) return failp(p, "expected a test name after 'is'");
      m->s = cur(p)->s;
      p->i++;
      const jj_tok_t *t = cur(p);
      if (skip_op(p, "(")) {
        if (!call_args(p, m)) return NULL;
      } else if ((t->kind == JT_NAME || t->kind == JT_STRING || t->kind == JT_INT || t->kind == JT_FLOAT || is_op(p, "[") ||
                  is_op(p, "{")) &&
                 !is_name(p, "else") && !is_name(p, "or") && !is_name(p, "and") && !is_name(p, "if") && !is_name(p, "is")) {
        if (!append(p, &m->args, postfix(p, primary(p)))) return NULL; /* `is divisibleby 3` */
      }
      n = m;
    } else if (skip_op(p, "(")) {
      n = call(p, n);
    } else {
      break;
    }
  }
  return n;
}

static jj_node_t *unary(parser_t *p, bool with_filter) {
  jj_node_t *n;
  if (skip_op(p, "-")) {
    n = node(p, JN_NEG);
    if (n && !(n->a = unary(p, false))) return NULL;
  } else if (skip_op(p, "+")) {
    n = unary(p, false);
  } else {
    n = primary(p);
  }
  n = postfix(p, n);
  return with_filter ? filters_and_tests(p, n) : n;
}

static jj_node_t *binary(parser_t *p, const char *op, jj_node_t *a, jj_node_t *b) {
  if (!a || !b) return NULL;
  jj_node_t *n = node(p, JN_BINARY);
  if (n) n->s = op, n->a = a, n->b = b;
  return n;
}

static jj_node_t *pow_expr(parser_t *p) {
  jj_node_t *n = unary(p, true);
  while (n && skip_op(p, "**")) n = binary(p, "**", n, unary(p, true));
  return n;
}

static jj_node_t *math2(parser_t *p) {
  jj_node_t *n = pow_expr(p);
  for (;;) {
    const char *op = is_op(p, "*") ? "*" : is_op(p, "/") ? "/" : is_op(p, "//") ? "//" : is_op(p, "%") ? "%" : NULL;
    if (!n || !op) return n;
    p->i++;
    n = binary(p, op, n, pow_expr(p));
  }
}

static jj_node_t *concat(parser_t *p) {
  jj_node_t *n = math2(p);
  while (n && skip_op(p, "~")) n = binary(p, "~", n, math2(p));
  return n;
}

static jj_node_t *math1(parser_t *p) {
  jj_node_t *n = concat(p);
  for (;;) {
    const char *op = is_op(p, "+") ? "+" : is_op(p, "-") ? "-" : NULL;
    if (!n || !op) return n;
    p->i++;
    n = binary(p, op, n, concat(p));
  }
}

/* Comparisons chain as in Python: a < b < c is a < b and b < c. */
static jj_node_t *compare(parser_t *p) {
  jj_node_t *left = math1(p), *result = NULL;
  static const char *const cmp[] = {"==", "!=", "<", "<=", ">", ">="};
  for (;;) {
    const char *op = NULL;
    for (size_t k = 0; k < sizeof cmp / sizeof cmp[0] && !op; k++)
      if (is_op(p, cmp[k])) op = cmp[k];
    if (op) p->i++;
    else if (skip_name(p, "in")) op = "in";
    else if (is_name(p, "not") && peek(p, 1)->kind == JT_NAME && !strcmp(peek(p, 1)->s, "in")) op = "notin", p->i += 2;
    if (!left || !op) return result ? result : left;
    jj_node_t *right = math1(p), *c = binary(p, op, left, right);
    if (!c) return NULL;
    if (result) {
      jj_node_t *both = node(p, JN_AND);
      if (!both) return NULL;
      both->a = result, both->b = c;
      c = both;
    }
    result = c;
    left = right;
  }
}

static jj_node_t *not_expr(parser_t *p) {
  if (skip_name(p, "not")) {
    jj_node_t *n = node(p, JN_NOT);
    if (n && !(n->a = not_expr(p))) return NULL;
    return n;
  }
  return compare(p);
}

/* operand (keyword operand)*, left-associative: `and` over `not`, `or` over `and`. */
static jj_node_t *logical(parser_t *p, const char *keyword, jj_node_kind_t kind, jj_node_t *(*operand)(parser_t *)) {
  jj_node_t *n = operand(p);
  while (n && skip_name(p, keyword)) {
    jj_node_t *m = node(p, kind);
    if (!m) return NULL;
    m->a = n;
    if (!(m->b = operand(p))) return NULL;
    n = m;
  }
  return n;
}

static jj_node_t *and_expr(parser_t *p) { return logical(p, "and", JN_AND, not_expr); }
static jj_node_t *or_expr(parser_t *p) { return logical(p, "or", JN_OR, and_expr); }

/* `b if a else c`; without else, c is undefined. */
static jj_node_t *expression(parser_t *p, bool with_cond) {
  jj_node_t *n = or_expr(p);
  while (with_cond && n && skip_name(p, "if")) {
    jj_node_t *m = node(p, JN_COND);
    if (!m) return NULL;
    m->b = n;
    if (!(m->a = or_expr(p))) return NULL;
    if (skip_name(p, "else") && !(m->c = expression(p, true))) return NULL;
    n = m;
  }
  return n;
}

/* ---------------------------------------------------------------------------------- statements */

static bool statements(parser_t *p, jj_nodes_t *out, const char *const *ends);

static bool end_tag(parser_t *p) {
  if (cur(p)->kind == JT_BLOCK_END) return p->i++, true;
  failp(p, "expected '%%}', found %s", describe(cur(p)));
  return false;
}

/* Names of a for or set target: a name or a tuple of names. */
static bool targets(parser_t *p, jj_node_t *n) {
  const char *names[16];
  bool paren = skip_op(p, "(");
  do {
    if (cur(p)->kind != JT_NAME || n->n_kw >= 16) return failp(p, "expected a variable name, found %s", describe(cur(p))), false;
    names[n->n_kw++] = cur(p)->s;
    p->i++;
  } while (skip_op(p, ","));
  if (paren && !expect_op(p, ")")) return false;
  n->kw_names = jj_alloc(p->a, sizeof *names * (size_t)n->n_kw);
  if (!n->kw_names) return failp(p, "out of memory"), false;
  memcpy(n->kw_names, names, sizeof *names * (size_t)n->n_kw);
  return true;
}

static jj_node_t *if_stmt(parser_t *p) {
  static const char *const ends[] = {"elif", "else", "endif", NULL};
  jj_node_t *n = node(p, JN_IF);
  if (!n || !(n->a = expression(p, true)) || !end_tag(p) || !statements(p, &n->body, ends)) return NULL;
  if (skip_name(p, "elif")) {
    jj_node_t *nested = if_stmt(p); /* consumes through endif */
    return nested && append(p, &n->alt, nested) ? n : NULL;
  }
  if (skip_name(p, "else")) {
    static const char *const endif[] = {"endif", NULL};
    if (!end_tag(p) || !statements(p, &n->alt, endif)) return NULL;
    p->i++; /* endif */
  } else {
    p->i++; /* endif */
  }
  return end_tag(p) ? n : NULL;
}

static jj_node_t *for_stmt(parser_t *p) {
  static const char *const ends[] = {"else", "endfor", NULL};
  jj_node_t *n = node(p, JN_FOR);
  if (!n || !targets(p, n)) return NULL;
  if (!skip_name(p, "in")) return failp(p, "expected 'in' in a for loop");
  if (!(n->a = or_expr(p))) return NULL;
  if (skip_name(p, "if") && !(n->b = expression(p, false))) return NULL;
  if (is_name(p, "recursive")) return failp(p, "recursive for loops are not supported");
  if (!end_tag(p) || !statements(p, &n->body, ends)) return NULL;
  if (skip_name(p, "else")) {
    static const char *const endfor[] = {"endfor", NULL};
    if (!end_tag(p) || !statements(p, &n->alt, endfor)) return NULL;
  }
  p->i++; /* endfor */
  return end_tag(p) ? n : NULL;
}

static jj_node_t *set_stmt(parser_t *p) {
  jj_node_t *n = node(p, JN_SET);
  if (!n) return NULL;
  if (cur(p)->kind != JT_NAME) return failp(p, "expected a variable name after 'set'");
  if (peek(p, 1)->kind == JT_OP && !strcmp(peek(p, 1)->s, ".")) { /* set ns.attr = ... */
    n->s = cur(p)->s;
    if (peek(p, 2)->kind != JT_NAME) return failp(p, "expected an attribute name after '%s.'", n->s);
    n->s2 = peek(p, 2)->s;
    p->i += 3;
  } else if (!targets(p, n)) {
    return NULL;
  }
  if (skip_op(p, "=")) return (n->a = expression(p, true)) && end_tag(p) ? n : NULL;
  if (n->s2 || n->n_kw != 1) return failp(p, "a block set assigns one name");
  static const char *const ends[] = {"endset", NULL};
  if (!end_tag(p) || !statements(p, &n->body, ends)) return NULL;
  p->i++;
  return end_tag(p) ? n : NULL;
}

static jj_node_t *macro_stmt(parser_t *p) {
  jj_node_t *n = node(p, JN_MACRO);
  if (!n) return NULL;
  if (cur(p)->kind != JT_NAME) return failp(p, "expected a macro name");
  n->s = cur(p)->s;
  p->i++;
  const char *names[32];
  if (!expect_op(p, "(")) return NULL;
  while (!skip_op(p, ")")) {
    if (n->n_kw && !expect_op(p, ",")) return NULL;
    if (cur(p)->kind != JT_NAME || n->n_kw >= 32) return failp(p, "expected a parameter name in macro %s", n->s);
    names[n->n_kw++] = cur(p)->s;
    p->i++;
    jj_node_t *def = NULL;
    if (skip_op(p, "=") && !(def = expression(p, true))) return NULL;
    jj_node_t *slot = def ? def : node(p, JN_LITERAL); /* a parameter without default: a literal with no value */
    if (!slot || !append(p, &n->kw, slot)) return NULL;
  }
  n->kw_names = jj_alloc(p->a, sizeof *names * (size_t)(n->n_kw + 1));
  if (!n->kw_names) return failp(p, "out of memory");
  memcpy(n->kw_names, names, sizeof *names * (size_t)n->n_kw);
  static const char *const ends[] = {"endmacro", NULL};
  if (!end_tag(p) || !statements(p, &n->body, ends)) return NULL;
  p->i++;
  return end_tag(p) ? n : NULL;
}

static jj_node_t *block_stmt(parser_t *p) {
  const jj_tok_t *t = cur(p);
  if (t->kind != JT_NAME) return failp(p, "expected a statement name after '{%%'");
  p->i++;
  if (!strcmp(t->s, "if")) return if_stmt(p);
  if (!strcmp(t->s, "for")) return for_stmt(p);
  if (!strcmp(t->s, "set")) return set_stmt(p);
  if (!strcmp(t->s, "macro")) return macro_stmt(p);
  if (!strcmp(t->s, "break") || !strcmp(t->s, "continue")) {
    jj_node_t *n = node(p, t->s[0] == 'b' ? JN_BREAK : JN_CONTINUE);
    return n && end_tag(p) ? n : NULL;
  }
  if (!strcmp(t->s, "generation")) { /* transformers' assistant-mask marker: its content renders as it is */
    static const char *const ends[] = {"endgeneration", NULL};
    jj_node_t *n = node(p, JN_BLOCK);
    if (!n || !end_tag(p) || !statements(p, &n->body, ends)) return NULL;
    p->i++;
    return end_tag(p) ? n : NULL;
  }
  return failp(p, "the statement {%% %s %%} is not supported", t->s);
}

/* Statements until a {% NAME %} with NAME in `ends` (left at NAME) or, when ends is NULL, the end. */
static bool statements(parser_t *p, jj_nodes_t *out, const char *const *ends) {
  for (;;) {
    const jj_tok_t *t = cur(p);
    if (t->kind == JT_EOF) {
      if (!ends) return true;
      const char *closer = ends[0];
      for (const char *const *e = ends; *e; e++)
        if (!strncmp(*e, "end", 3)) closer = *e;
      return failp(p, "the template ends inside a block: expected {%% %s %%}", closer), false;
    }
    if (t->kind == JT_TEXT) {
      jj_node_t *n = node(p, JN_TEXT);
      if (!n) return false;
      n->s = t->s, n->slen = t->n;
      p->i++;
      if (!append(p, out, n)) return false;
    } else if (t->kind == JT_VAR_BEGIN) {
      p->i++;
      jj_node_t *n = node(p, JN_OUTPUT);
      if (!n || !(n->a = expression(p, true))) return false;
      if (cur(p)->kind != JT_VAR_END) return failp(p, "expected '}}', found %s", describe(cur(p))), false;
      p->i++;
      if (!append(p, out, n)) return false;
    } else if (t->kind == JT_BLOCK_BEGIN) {
      const jj_tok_t *name = peek(p, 1);
      for (const char *const *e = ends; e && *e; e++)
        if (name->kind == JT_NAME && !strcmp(name->s, *e)) {
          p->i++;
          return true;
        }
      if (name->kind == JT_NAME && (!strncmp(name->s, "end", 3) || !strcmp(name->s, "elif") || !strcmp(name->s, "else")))
        return failp(p, "unexpected {%% %s %%}", name->s), false;
      p->i++;
      if (!append(p, out, block_stmt(p))) return false;
    } else {
      return failp(p, "unexpected %s", describe(t)), false;
    }
  }
}

bool jj_parse(jj_arena_t *a, const jj_tok_t *toks, int n, jj_nodes_t *out, char *err, size_t errcap) {
  parser_t p = {.a = a, .t = toks, .n = n, .err = err, .errcap = errcap};
  return statements(&p, out, NULL) && !p.failed;
}
