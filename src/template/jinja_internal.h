/* The Jinja engine's internals: an arena, the lexer's tokens, the syntax tree and the values. */
#ifndef MX_TEMPLATE_JINJA_INTERNAL_H
#define MX_TEMPLATE_JINJA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "template/jinja.h"

/* ---------------------------------------------------------------------------------------- arena */

typedef struct jj_block jj_block_t;
typedef struct {
  jj_block_t *head;
  size_t total, limit;
  bool failed;
} jj_arena_t;

void *jj_alloc(jj_arena_t *a, size_t n); /* zeroed; NULL (and a->failed) past the limit */
char *jj_strndup(jj_arena_t *a, const char *s, size_t n);
void jj_arena_free(jj_arena_t *a);

/* Python's whitespace (str.isspace): the bytes of such a character at s (0: none); the length of s
 * without its trailing whitespace (str.rstrip()). */
size_t jj_space_at(const char *s, size_t n);
size_t jj_rstrip_len(const char *s, size_t n);

/* --------------------------------------------------------------------------------------- tokens */

typedef enum {
  JT_TEXT,        /* template data */
  JT_VAR_BEGIN,   /* {{ */
  JT_VAR_END,     /* }} */
  JT_BLOCK_BEGIN, /* {% */
  JT_BLOCK_END,   /* %} */
  JT_NAME,
  JT_STRING, /* unescaped */
  JT_INT,
  JT_FLOAT,
  JT_OP, /* + - * / // % ** ~ == != < <= > >= = . : | , ( ) [ ] { } */
  JT_EOF,
} jj_tok_kind_t;

typedef struct {
  jj_tok_kind_t kind;
  const char *s; /* text, name, string value or operator, NUL-terminated (arena) */
  size_t n;
  int64_t i;
  double f;
  int line;
} jj_tok_t;

/* Splits a template into tokens with jinja2's whitespace rules (trim_blocks, lstrip_blocks, -/+
 * markers, newlines normalised, one trailing newline dropped). *err gets a message on failure. */
bool jj_lex(jj_arena_t *a, const char *src, jj_tok_t **toks, int *n, char *err, size_t errcap);

/* ----------------------------------------------------------------------------------------- tree */

typedef enum {
  /* expressions */
  JN_LITERAL, /* val */
  JN_NAME,    /* s */
  JN_ATTR,    /* a.s */
  JN_ITEM,    /* a[b] */
  JN_SLICE,   /* a[b:c:d], absent parts NULL */
  JN_CALL,    /* a(args, kw) */
  JN_FILTER,  /* a | s(args, kw) */
  JN_TEST,    /* a is [not] s(args) */
  JN_NEG,     /* -a */
  JN_NOT,     /* not a */
  JN_BINARY,  /* a op b: + - * / // % ** ~ == != < <= > >= in notin */
  JN_AND,
  JN_OR,
  JN_COND,    /* b if a else c */
  JN_LIST,    /* [args]; (args) when negated: a tuple */
  JN_DICT,    /* {keys: args} */
  /* statements */
  JN_TEXT,   /* s */
  JN_OUTPUT, /* {{ a }} */
  JN_IF,     /* if a: body else alt */
  JN_FOR,    /* for targets in a [if b]: body else alt */
  JN_SET,    /* set s [. s2] = a; or a block (body) when a is NULL */
  JN_MACRO,  /* macro s(params = defaults): body */
  JN_BREAK,
  JN_CONTINUE,
  JN_BLOCK, /* a generation block: its body, rendered */
} jj_node_kind_t;

typedef struct jj_val jj_val_t;
typedef struct jj_node jj_node_t;

typedef struct {
  jj_node_t **v;
  int n;
} jj_nodes_t;

struct jj_node {
  jj_node_kind_t kind;
  int line;
  const char *s, *s2; /* names, operators, text */
  size_t slen;
  jj_node_t *a, *b, *c;
  jj_nodes_t args, body, alt;
  const char **kw_names; /* keyword arguments (calls, filters) or parameter names (macros), targets (for) */
  jj_nodes_t kw;         /* their values (macros: defaults, NULL where none) */
  int n_kw;
  bool negated;
  jj_val_t *val;
};

/* Parses tokens into the statement list `out`. */
bool jj_parse(jj_arena_t *a, const jj_tok_t *toks, int n, jj_nodes_t *out, char *err, size_t errcap);

/* --------------------------------------------------------------------------------------- values */

typedef enum {
  JV_UNDEF, /* s: the name that was not found */
  JV_NONE,
  JV_BOOL,
  JV_INT,
  JV_FLOAT,
  JV_STR,
  JV_LIST,
  JV_DICT,
  JV_NAMESPACE, /* a dict whose attributes `set` may assign */
  JV_MACRO,
  JV_METHOD,  /* self.s, bound */
  JV_BUILTIN, /* s: raise_exception, strftime_now, namespace, range */
} jj_vkind_t;

struct jj_val {
  jj_vkind_t k;
  bool b;
  int64_t i;
  double f;
  const char *s; /* strings: UTF-8 bytes (not NUL-terminated when n says otherwise) */
  size_t n;      /* string length; list/dict size */
  size_t cap;
  jj_val_t **items; /* list items, dict values; a list with b set is a tuple (Python prints it so) */
  jj_val_t **keys;  /* dict keys */
  const jj_node_t *macro;
  jj_val_t *self;
};

/* -------------------------------------------------------------------------------------- render */

typedef struct jj_scope jj_scope_t;
struct jj_scope {
  jj_scope_t *parent;
  jj_val_t *vars; /* a dict */
};

typedef struct {
  jj_arena_t arena;
  mx_strbuf_t *out;
  jj_scope_t *scope, *root; /* innermost; the template's own (over the context's) */
  long steps;
  int depth, loops;
  int line; /* of the node being evaluated, for errors */
  bool failed;
  char err[512];
} jj_ctx_t;

/* Records an error (the first one wins); returns NULL. */
jj_val_t *jj_fail(jj_ctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

jj_val_t *jj_new(jj_ctx_t *c, jj_vkind_t k);
jj_val_t *jj_undef(jj_ctx_t *c, const char *name);
jj_val_t *jj_bool(jj_ctx_t *c, bool b);
jj_val_t *jj_int(jj_ctx_t *c, int64_t i);
jj_val_t *jj_float(jj_ctx_t *c, double f);
jj_val_t *jj_str(jj_ctx_t *c, const char *s, size_t n);
jj_val_t *jj_cstr(jj_ctx_t *c, const char *s);
bool jj_push(jj_ctx_t *c, jj_val_t *list, jj_val_t *v);          /* lists */
bool jj_set(jj_ctx_t *c, jj_val_t *dict, jj_val_t *key, jj_val_t *v); /* dicts: replaces an equal key's value */
jj_val_t *jj_get(const jj_val_t *dict, const jj_val_t *key);          /* NULL when absent */
jj_val_t *jj_get_str(const jj_val_t *dict, const char *key);

bool jj_truthy(const jj_val_t *v);
bool jj_equal(const jj_val_t *a, const jj_val_t *b);
const char *jj_type_name(const jj_val_t *v); /* Python's: str, int, list, dict, ... */
/* Python's str() and repr(); JSON as json.dumps(ensure_ascii=False) with indent (< 0: none). */
bool jj_str_of(jj_ctx_t *c, const jj_val_t *v, mx_strbuf_t *out);
bool jj_repr(jj_ctx_t *c, const jj_val_t *v, mx_strbuf_t *out);
bool jj_json(jj_ctx_t *c, const jj_val_t *v, int indent, bool sort_keys, int level, mx_strbuf_t *out);
jj_val_t *jj_to_string_val(jj_ctx_t *c, const jj_val_t *v);
/* The items a for loop or a filter iterates: a list's, a dict's keys, a string's characters; an
 * undefined value has none. NULL (an error) for anything else. */
jj_val_t *jj_iterable(jj_ctx_t *c, const jj_val_t *v);
/* The strings of a list joined into one. */
jj_val_t *jj_concat(jj_ctx_t *c, const jj_val_t *strs);
/* Code points of a string. */
size_t jj_str_chars(const jj_val_t *s);

/* Arguments of a call, filter, test or method. */
typedef struct {
  jj_val_t **pos;
  int n_pos;
  const char **kw_names;
  jj_val_t **kw;
  int n_kw;
} jj_args_t;

/* jinja_lib.c: what the names after '|', 'is' and '.' and the global functions do. */
jj_val_t *jj_filter(jj_ctx_t *c, const char *name, jj_val_t *v, const jj_args_t *a);
int jj_test(jj_ctx_t *c, const char *name, jj_val_t *v, const jj_args_t *a); /* 1 true, 0 false, -1 error */
jj_val_t *jj_method(jj_ctx_t *c, jj_val_t *self, const char *name, const jj_args_t *a);
jj_val_t *jj_builtin(jj_ctx_t *c, const char *name, const jj_args_t *a);
bool jj_has_method(const jj_val_t *self, const char *name);
bool jj_known_filter(const char *name);
bool jj_known_test(const char *name);
extern const char *const jj_builtin_names[];

#endif
