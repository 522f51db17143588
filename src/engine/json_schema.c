#include "engine/json_schema.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Enum values a literal can be matched against at once (the candidates are a bit mask). */
#define MAX_LITERALS 64

/* K_ANY_OBJECT: an object schema that lists no properties and does not forbid others: any JSON object
 * (read by the json_object recognizer). K_TAGGED: anyOf objects told apart by their first property's
 * const (a discriminated union): that property is read first, and its value picks the object. */
typedef enum { K_OBJECT, K_ARRAY, K_STRING, K_NUMBER, K_INTEGER, K_LITERAL, K_ANY_OBJECT, K_TAGGED } kind_t;

typedef struct node {
  kind_t kind;
  int n;               /* object: properties; literal: values; tagged: alternatives */
  char **texts;        /* object: each property's name as JSON text (quoted); literal: each value's JSON text */
  struct node **kids;  /* object: each property's schema; array: kids[0], the items'; tagged: the alternatives */
  struct node *tag;    /* tagged: the first property's values, a literal in the alternatives' order */
} node_t;

struct mx_schema {
  node_t *root;
};

static void node_free(node_t *n) {
  if (!n) return;
  for (int i = 0; n->kind != K_TAGGED && i < n->n; i++) free(n->texts ? n->texts[i] : NULL);
  int kids = n->kind == K_OBJECT || n->kind == K_TAGGED ? n->n : n->kind == K_ARRAY ? 1 : 0;
  for (int i = 0; n->kids && i < kids; i++) node_free(n->kids[i]);
  node_free(n->tag);
  free(n->texts);
  free(n->kids);
  free(n);
}

void mx_schema_free(mx_schema_t *s) {
  if (!s) return;
  node_free(s->root);
  free(s);
}

static mx_status_t refuse(const char *where, const char *fmt, const char *what) {
  char msg[256];
  snprintf(msg, sizeof msg, fmt, what);
  return mx_status_make(MX_STAGE_USAGE,
                        "use the supported subset: type, properties, required, additionalProperties, items, enum, const, "
                        "anyOf as a discriminated union (docs/server.md)",
                        "json_schema at %s: %s", where[0] ? where : "the root", msg);
}

static const char *const ANNOTATIONS[] = {"title", "description", "$schema", "default", "examples", NULL};
static const char *const KEYWORDS[] = {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", NULL};

static bool in(const char *const *list, const char *k) {
  for (; *list; list++)
    if (!strcmp(*list, k)) return true;
  return false;
}

static mx_status_t compile(json_t *j, const char *where, int depth, node_t **out);

/* enum / const: each value as compact JSON text. */
static mx_status_t compile_literals(json_t *values, const char *where, node_t *n) {
  size_t count = json_array_size(values), i;
  json_t *v;
  if (count == 0 || count > MAX_LITERALS) return refuse(where, "enum must hold 1 to 64 values (it holds %s)", count ? "more" : "none");
  n->kind = K_LITERAL;
  if (!(n->texts = calloc(count, sizeof *n->texts))) return mx_status_oom();
  json_array_foreach(values, i, v) {
    if (json_is_object(v) || json_is_array(v)) return refuse(where, "enum values must be %s", "strings, numbers, booleans or null");
    if (!(n->texts[i] = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY))) return mx_status_oom();
    n->n = (int)i + 1;
  }
  return NULL;
}

static mx_status_t compile_object(json_t *j, const char *where, int depth, node_t *n) {
  json_t *props = json_object_get(j, "properties"), *req = json_object_get(j, "required");
  json_t *extra = json_object_get(j, "additionalProperties");
  if (props && !json_is_object(props)) return refuse(where, "properties must be %s", "an object");
  if (extra && !json_is_boolean(extra)) return refuse(where, "additionalProperties must be %s", "true or false");
  if (req && !json_is_array(req)) return refuse(where, "required must be %s", "an array of property names");
  size_t i;
  json_t *r;
  json_array_foreach(req, i, r)
    if (!json_is_string(r) || !json_object_get(props, json_string_value(r)))
      return refuse(where, "required names %s that is not in properties", json_is_string(r) ? json_string_value(r) : "a value");
  n->kind = props || json_is_false(extra) ? K_OBJECT : K_ANY_OBJECT;
  size_t count = json_object_size(props);
  if (count > 0xFFFF) return refuse(where, "%s properties", "too many");
  n->texts = calloc(count ? count : 1, sizeof *n->texts);
  n->kids = calloc(count ? count : 1, sizeof *n->kids);
  if (!n->texts || !n->kids) return mx_status_oom();
  const char *name;
  json_t *sub;
  json_object_foreach(props, name, sub) {
    char here[512];
    snprintf(here, sizeof here, "%s.properties.%s", where, name);
    json_t *key = json_string(name);
    n->texts[n->n] = key ? json_dumps(key, JSON_ENCODE_ANY) : NULL;
    json_decref(key);
    if (!n->texts[n->n]) return mx_status_oom();
    n->n++; /* counted before the kid, so a failure frees the name */
    MX_RETURN_IF_ERROR(compile(sub, here, depth + 1, &n->kids[n->n - 1]));
  }
  return NULL;
}

/* anyOf, in the one form the recognizer takes without looking ahead: objects whose first property is the
 * same key with a string const of its own in each (a discriminated union); the value read there picks
 * the object, whose other properties follow. */
static mx_status_t compile_tagged(json_t *alts, const char *where, int depth, node_t *n) {
  static const char *const form = "anyOf must list objects whose first property is the same key with a different string const in each (%s)";
  size_t count = json_array_size(alts), i;
  if (!json_is_array(alts) || count < 1 || count > MAX_LITERALS) return refuse(where, form, "1 to 64 of them");
  n->kind = K_TAGGED;
  n->kids = calloc(count, sizeof *n->kids);
  node_t *tag = n->tag = calloc(1, sizeof *tag);
  if (!n->kids || !tag || !(tag->texts = calloc(count, sizeof *tag->texts))) return mx_status_oom();
  tag->kind = K_LITERAL;
  json_t *alt;
  json_array_foreach(alts, i, alt) {
    char here[512];
    snprintf(here, sizeof here, "%s.anyOf[%zu]", where, i);
    n->n = (int)i + 1; /* counted before the kid, so a failure frees it */
    MX_RETURN_IF_ERROR(compile(alt, here, depth + 1, &n->kids[i]));
    const node_t *k = n->kids[i], *first = k->kind == K_OBJECT && k->n > 0 ? k->kids[0] : NULL;
    if (!first || first->kind != K_LITERAL || first->n != 1 || first->texts[0][0] != '"')
      return refuse(here, form, "this one's first property is not a string const");
    if (strcmp(k->texts[0], n->kids[0]->texts[0])) return refuse(here, form, "this one's first key differs");
    for (size_t e = 0; e < i; e++)
      if (!strcmp(tag->texts[e], first->texts[0])) return refuse(here, form, "this const repeats an earlier one");
    if (!(tag->texts[i] = strdup(first->texts[0]))) return mx_status_oom();
    tag->n = (int)i + 1;
  }
  return NULL;
}

static mx_status_t compile(json_t *j, const char *where, int depth, node_t **out) {
  *out = NULL;
  if (!json_is_object(j)) return refuse(where, "a schema must be %s", "an object");
  if (depth >= MX_JSON_MAX_DEPTH) return refuse(where, "nesting deeper than %s levels", "32");
  const char *k;
  json_t *v;
  json_object_foreach(j, k, v)
    if (!in(KEYWORDS, k) && !in(ANNOTATIONS, k)) return refuse(where, "the keyword '%s' is not supported", k);
  node_t *n = calloc(1, sizeof *n);
  if (!n) return mx_status_oom();
  *out = n;
  json_t *type = json_object_get(j, "type"), *en = json_object_get(j, "enum"), *cn = json_object_get(j, "const");
  json_t *any = json_object_get(j, "anyOf");
  if (any) {
    if (type || en || cn || json_object_get(j, "properties")) return refuse(where, "anyOf %s", "stands alone (no type, properties, enum or const beside it)");
    return compile_tagged(any, where, depth, n);
  }
  if (en || cn) {
    if (en && !json_is_array(en)) return refuse(where, "enum must be %s", "an array");
    if (en) return compile_literals(en, where, n);
    json_t *one = json_pack("[O]", cn);
    mx_status_t st = one ? compile_literals(one, where, n) : mx_status_oom();
    json_decref(one);
    return st;
  }
  if (!type) return refuse(where, "a schema needs %s (or enum / const)", "a type");
  if (!json_is_string(type)) return refuse(where, "type must be %s (a list of types is not supported)", "one string");
  const char *t = json_string_value(type);
  if (!strcmp(t, "object")) return compile_object(j, where, depth, n);
  if (json_object_get(j, "properties") || json_object_get(j, "required") || json_object_get(j, "additionalProperties"))
    return refuse(where, "object keywords on a schema of type %s", t);
  if (!strcmp(t, "array")) {
    json_t *items = json_object_get(j, "items");
    if (!items) return refuse(where, "an array needs %s", "items");
    n->kind = K_ARRAY;
    if (!(n->kids = calloc(1, sizeof *n->kids))) return mx_status_oom();
    char here[512];
    snprintf(here, sizeof here, "%s.items", where);
    return compile(items, here, depth + 1, &n->kids[0]);
  }
  if (json_object_get(j, "items")) return refuse(where, "items on a schema of type %s", t);
  static const char *const bools[] = {"true", "false"}, *const null_text[] = {"null"};
  if (!strcmp(t, "string")) n->kind = K_STRING;
  else if (!strcmp(t, "number")) n->kind = K_NUMBER;
  else if (!strcmp(t, "integer")) n->kind = K_INTEGER;
  else if (!strcmp(t, "boolean") || !strcmp(t, "null")) {
    bool b = !strcmp(t, "boolean");
    n->kind = K_LITERAL;
    if (!(n->texts = calloc(2, sizeof *n->texts))) return mx_status_oom();
    for (int i = 0; i < (b ? 2 : 1); i++) {
      if (!(n->texts[i] = strdup(b ? bools[i] : null_text[i]))) return mx_status_oom();
      n->n = i + 1;
    }
  } else {
    return refuse(where, "the type '%s' is not one of object, array, string, number, integer, boolean, null", t);
  }
  return NULL;
}

mx_status_t mx_schema_compile(const char *text, size_t len, mx_schema_t **out) {
  *out = NULL;
  json_error_t e;
  json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
  if (!j) return mx_status_make(MX_STAGE_USAGE, "send the schema as a JSON object", "json_schema is not JSON: %s", e.text);
  mx_schema_t *s = calloc(1, sizeof *s);
  mx_status_t st = s ? compile(j, "", 0, &s->root) : mx_status_oom();
  if (!st && s->root->kind != K_OBJECT && s->root->kind != K_ANY_OBJECT && s->root->kind != K_TAGGED)
    st = refuse("", "the root must be %s", "of type object");
  json_decref(j);
  if (st) {
    mx_schema_free(s);
    return st;
  }
  *out = s;
  return NULL;
}

/* ------------------------------------------------------------------------------ recognizer */

/* What the next byte may be. */
enum {
  X_VALUE,     /* a value of st->cur (whitespace first) */
  X_OBJ_FIRST, /* after '{': the first property's key, or '}' when there is none */
  X_NEXT,      /* after a member's or an item's value: ',' or the closing bracket, as the schema says */
  X_KEY,       /* after ',' in an object: the next property's key */
  X_KEYLIT,    /* inside a key (a literal) */
  X_COLON,     /* after a key */
  X_ARR_FIRST, /* after '[': an item or ']' */
  X_SCALAR,    /* inside a string or number (st->lex) */
  X_LITERAL,   /* inside an enum / boolean / null literal (st->cand, st->off) */
  X_ANY,       /* inside any object (st->lex, the json_object recognizer) */
};

void mx_schema_start(mx_schema_state_t *st, const mx_schema_t *s) {
  memset(st, 0, sizeof *st);
  st->schema = s;
  st->mode = X_VALUE;
  st->cur = s->root;
}

static const node_t *top(const mx_schema_state_t *st) { return st->fr[st->depth - 1].node; }

static bool space(mx_schema_state_t *st) { return ++st->run <= MX_JSON_MAX_SPACES; }
static bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* A value ended: its container says what comes next; the root's end is the document's. */
static void value_done(mx_schema_state_t *st) {
  st->run = 0;
  if (st->depth == 0) st->done = true;
  st->mode = X_NEXT;
}

static bool push(mx_schema_state_t *st, const node_t *n) {
  if (st->depth >= MX_JSON_MAX_DEPTH) return false;
  st->fr[st->depth++] = (mx_schema_frame_t){.node = n, .i = 0};
  st->run = 0;
  return true;
}

static void pop(mx_schema_state_t *st) {
  st->depth--;
  value_done(st);
}

/* Starts matching a literal: the candidates are texts[0 .. n). */
static void literal_start(mx_schema_state_t *st, int n) {
  st->cand = n >= 64 ? ~0ULL : (1ULL << n) - 1;
  st->off = 0;
}

/* One byte of a literal among texts[]; *ended: a candidate ended before c (c not consumed). */
static bool literal_byte(mx_schema_state_t *st, char *const *texts, int n, uint8_t c, bool *ended) {
  uint64_t next = 0;
  bool complete = false;
  for (int k = 0; k < n; k++) {
    if (!(st->cand >> k & 1)) continue;
    uint8_t want = (uint8_t)texts[k][st->off];
    if (!want) complete = true;
    else if (want == c) next |= 1ULL << k;
  }
  if (next) {
    st->cand = next, st->off++;
    return true;
  }
  *ended = complete;
  return complete;
}

/* Whether the literal matched so far is one of the texts, whole. */
static bool literal_whole(const mx_schema_state_t *st, char *const *texts, int n) {
  for (int k = 0; k < n; k++)
    if ((st->cand >> k & 1) && !texts[k][st->off]) return true;
  return false;
}

/* A literal value has been read whole. A tagged object's first value picks the alternative the rest of
 * the object is read by (the one whose text matched: strings end with their quote, so one did). */
static void literal_done(mx_schema_state_t *st) {
  const node_t *n = st->cur, *parent = st->depth ? top(st) : NULL;
  if (parent && parent->kind == K_TAGGED && n == parent->tag)
    for (int k = 0; k < n->n; k++)
      if ((st->cand >> k & 1) && !n->texts[k][st->off]) st->fr[st->depth - 1].node = parent->kids[k];
  value_done(st);
}

static bool begin_value(mx_schema_state_t *st, const node_t *n, uint8_t c) {
  st->run = 0;
  switch (n->kind) {
    case K_OBJECT:
    case K_TAGGED:
      if (c != '{' || !push(st, n)) return false;
      st->mode = X_OBJ_FIRST;
      return true;
    case K_ANY_OBJECT:
      mx_json_init(&st->lex);
      st->mode = X_ANY;
      return c == '{' && mx_json_feed(&st->lex, &c, 1);
    case K_ARRAY:
      if (c != '[' || !push(st, n)) return false;
      st->mode = X_ARR_FIRST;
      return true;
    case K_STRING:
    case K_NUMBER:
    case K_INTEGER:
      if ((n->kind == K_STRING) != (c == '"')) return false;
      mx_json_scalar_start(&st->lex, n->kind == K_INTEGER);
      st->mode = X_SCALAR;
      st->cur = n;
      return mx_json_scalar_byte(&st->lex, c) == MX_JSON_TAKEN;
    case K_LITERAL: {
      bool ended = false;
      st->cur = n;
      st->mode = X_LITERAL;
      literal_start(st, n->n);
      return literal_byte(st, n->texts, n->n, c, &ended) && !ended;
    }
  }
  return false;
}

static bool feed_byte(mx_schema_state_t *st, uint8_t c) {
  if (st->done) return false;
  for (;;) {
    const node_t *n;
    bool ended = false;
    switch (st->mode) {
      case X_VALUE:
        if (is_space(c)) return space(st);
        return begin_value(st, st->cur, c);
      case X_OBJ_FIRST:
      case X_KEY:
        if (is_space(c)) return space(st);
        n = top(st);
        if (st->mode == X_OBJ_FIRST && n->n == 0) return c == '}' && (pop(st), true);
        st->mode = X_KEYLIT;
        literal_start(st, 1);
        continue; /* c is the key's first byte */
      case X_KEYLIT: {
        n = top(st);
        char *const *key = n->kind == K_TAGGED ? &n->kids[0]->texts[0] : &n->texts[st->fr[st->depth - 1].i];
        if (!literal_byte(st, key, 1, c, &ended) || ended) return false;
        if (literal_whole(st, key, 1)) st->mode = X_COLON, st->run = 0;
        return true;
      }
      case X_COLON:
        if (is_space(c)) return space(st);
        if (c != ':') return false;
        n = top(st);
        st->cur = n->kind == K_TAGGED ? n->tag : n->kids[st->fr[st->depth - 1].i];
        st->mode = X_VALUE;
        st->run = 0;
        return true;
      case X_ARR_FIRST:
        if (is_space(c)) return space(st);
        if (c == ']') return pop(st), true;
        return begin_value(st, top(st)->kids[0], c);
      case X_NEXT: {
        if (is_space(c)) return space(st);
        n = top(st);
        mx_schema_frame_t *f = &st->fr[st->depth - 1];
        if (n->kind == K_OBJECT) {
          if (f->i + 1 < n->n) {
            if (c != ',') return false;
            f->i++;
            st->mode = X_KEY, st->run = 0;
            return true;
          }
          return c == '}' && (pop(st), true);
        }
        if (c == ']') return pop(st), true;
        if (c != ',' || f->i == 0xFFFF) return false;
        f->i++;
        st->cur = n->kids[0];
        st->mode = X_VALUE, st->run = 0;
        return true;
      }
      case X_SCALAR:
        switch (mx_json_scalar_byte(&st->lex, c)) {
          case MX_JSON_TAKEN: return true;
          case MX_JSON_TAKEN_AND_ENDED: value_done(st); return true;
          case MX_JSON_ENDED_BEFORE: value_done(st); continue; /* c comes after the number */
          default: return false;
        }
      case X_LITERAL:
        n = st->cur;
        if (!literal_byte(st, n->texts, n->n, c, &ended)) return false;
        if (!ended) {
          /* a literal that can go no further ends here (a string's quote, true, null) */
          bool longer = false;
          for (int k = 0; k < n->n; k++) longer |= (st->cand >> k & 1) && n->texts[k][st->off];
          if (!longer) literal_done(st);
          return true;
        }
        literal_done(st);
        continue; /* a number literal ended before c */
      case X_ANY:
        if (!mx_json_feed(&st->lex, &c, 1)) return false;
        if (st->lex.done) value_done(st);
        return true;
      default:
        return false;
    }
  }
}

bool mx_schema_feed(mx_schema_state_t *st, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!feed_byte(st, p[i])) return false;
  return true;
}

static bool feed_schema(void *st, const uint8_t *p, size_t n) { return mx_schema_feed(st, p, n); }

int mx_schema_mask(const mx_schema_state_t *st, const mx_tokenizer_t *tok, int vocab, float *logits) {
  return mx_constraint_mask(st, sizeof *st, feed_schema, tok, vocab, logits);
}
