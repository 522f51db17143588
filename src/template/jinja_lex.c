/* The Jinja lexer: template data and the tokens inside {{ }} and {% %}, with jinja2's whitespace
 * rules as transformers configures them (trim_blocks: the newline after a block or comment tag goes;
 * lstrip_blocks: spaces and tabs from a line's start to a block or comment tag go; '-' strips all
 * whitespace on its side, '+' keeps it; \r\n and \r read as \n; one trailing newline dropped). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "template/jinja_internal.h"

/* ---------------------------------------------------------------------------------------- arena */

struct jj_block {
  jj_block_t *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
};

void *jj_alloc(jj_arena_t *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (a->failed) return NULL;
  if (!a->head || a->head->cap - a->head->used < n) {
    size_t cap = n > (1u << 16) ? n : (1u << 16);
    if (a->limit && a->total + cap > a->limit) {
      a->failed = true;
      return NULL;
    }
    jj_block_t *b = malloc(sizeof *b + cap);
    if (!b) {
      a->failed = true;
      return NULL;
    }
    b->next = a->head, b->used = 0, b->cap = cap;
    a->head = b;
    a->total += cap;
  }
  void *p = a->head->data + a->head->used;
  a->head->used += n;
  memset(p, 0, n);
  return p;
}

char *jj_strndup(jj_arena_t *a, const char *s, size_t n) {
  char *p = jj_alloc(a, n + 1);
  if (p) memcpy(p, s, n);
  return p;
}

void jj_arena_free(jj_arena_t *a) {
  for (jj_block_t *b = a->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  a->head = NULL;
  a->total = 0;
}

/* ----------------------------------------------------------------------------------- whitespace */

/* Bytes of the Python whitespace character at s (str.isspace), 0 if none. */
size_t jj_space_at(const char *s, size_t n) {
  if (n == 0) return 0;
  unsigned char c = (unsigned char)s[0];
  if (c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f)) return 1;
  if (c < 0x80) return 0;
  uint32_t cp;
  int len;
  bool trunc;
  if (mx_utf8_next((const uint8_t *)s, n, &cp, &len, &trunc)) return 0;
  bool space = cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
               cp == 0x202F || cp == 0x205F || cp == 0x3000;
  return space ? (size_t)len : 0;
}

/* The length of s without its trailing whitespace (str.rstrip()). */
size_t jj_rstrip_len(const char *s, size_t n) {
  size_t keep = 0;
  for (size_t i = 0; i < n;) {
    size_t w = jj_space_at(s + i, n - i);
    if (w) {
      i += w;
    } else {
      i += 1;
      while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
      keep = i;
    }
  }
  return keep;
}

/* ---------------------------------------------------------------------------------------- lexer */

typedef struct {
  jj_arena_t *a;
  const char *src;
  size_t n, pos;
  int line;
  jj_tok_t *toks;
  int count, cap;
  char *err;
  size_t errcap;
} lexer_t;

static bool fail(lexer_t *l, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = snprintf(l->err, l->errcap, "line %d: ", l->line);
  if (k >= 0 && (size_t)k < l->errcap) vsnprintf(l->err + k, l->errcap - (size_t)k, fmt, ap);
  va_end(ap);
  return false;
}

static jj_tok_t *push(lexer_t *l, jj_tok_kind_t kind, const char *s, size_t n) {
  if (l->count == l->cap) {
    int cap = l->cap ? l->cap * 2 : 256;
    jj_tok_t *t = jj_alloc(l->a, sizeof *t * (size_t)cap);
    if (!t) return NULL;
    if (l->count) memcpy(t, l->toks, sizeof *t * (size_t)l->count);
    l->toks = t, l->cap = cap;
  }
  jj_tok_t *t = &l->toks[l->count++];
  *t = (jj_tok_t){.kind = kind, .s = s ? jj_strndup(l->a, s, n) : "", .n = n, .line = l->line};
  return s && !t->s ? NULL : t;
}

static void count_lines(lexer_t *l, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) l->line += s[i] == '\n';
}

static size_t skip_space(const char *s, size_t n, size_t i) {
  for (size_t w; i < n && (w = jj_space_at(s + i, n - i));) i += w;
  return i;
}

static int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string literal's value: Python's unicode-escape decoding, as jinja2 applies it. */
static bool unescape(lexer_t *l, const char *s, size_t n, mx_strbuf_t *out) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\' || i + 1 >= n) {
      mx_strbuf_append(out, s + i, 1);
      continue;
    }
    char c = s[++i];
    const char *simple = strchr("\\'\"abfnrtv\n", c);
    if (c && simple) {
      static const char to[] = "\\'\"\a\b\f\n\r\t\v";
      if (c != '\n') mx_strbuf_append(out, &to[simple - "\\'\"abfnrtv\n"], 1); /* backslash-newline: nothing */
      continue;
    }
    int digits = c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
    if (digits) {
      uint32_t cp = 0;
      for (int k = 0; k < digits; k++) {
        int d = i + 1 + (size_t)k < n ? hex_digit(s[i + 1 + (size_t)k]) : -1;
        if (d < 0) return fail(l, "truncated \\%c escape in a string", c);
        cp = cp * 16 + (uint32_t)d;
      }
      i += (size_t)digits;
      char buf[4];
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return fail(l, "a string escapes an invalid character");
      mx_strbuf_append(out, buf, (size_t)mx_utf8_encode(cp, buf));
      continue;
    }
    if (c >= '0' && c <= '7') { /* octal, up to three digits */
      uint32_t cp = 0;
      int k = 0;
      for (; k < 3 && i < n && s[i] >= '0' && s[i] <= '7'; k++, i++) cp = cp * 8 + (uint32_t)(s[i] - '0');
      i--;
      char buf[4];
      mx_strbuf_append(out, buf, (size_t)mx_utf8_encode(cp, buf));
      continue;
    }
    mx_strbuf_append(out, s + i - 1, 2); /* an unknown escape stays as written */
  }
  return true;
}

static bool lex_string(lexer_t *l, size_t *i) {
  const char *s = l->src;
  char q = s[*i];
  size_t j = *i + 1;
  while (j < l->n && s[j] != q) j += s[j] == '\\' ? 2 : 1;
  if (j >= l->n) return fail(l, "a string is not closed");
  mx_strbuf_t v;
  mx_strbuf_init(&v);
  bool ok = unescape(l, s + *i + 1, j - *i - 1, &v);
  jj_tok_t *t = ok ? push(l, JT_STRING, v.data ? v.data : "", v.len) : NULL;
  mx_strbuf_free(&v);
  count_lines(l, s + *i, j + 1 - *i);
  *i = j + 1;
  return ok && (t || fail(l, "out of memory"));
}

static bool lex_number(lexer_t *l, size_t *i) {
  const char *s = l->src;
  size_t j = *i;
  char digits[128];
  size_t k = 0;
  bool is_float = false;
  while (j < l->n && k + 1 < sizeof digits) {
    char c = s[j];
    if (c >= '0' && c <= '9') digits[k++] = c;
    else if (c == '_' && j + 1 < l->n && s[j + 1] >= '0' && s[j + 1] <= '9') { /* 1_000 */
    } else if (c == '.' && !is_float && j + 1 < l->n && s[j + 1] >= '0' && s[j + 1] <= '9') digits[k++] = c, is_float = true;
    else if ((c == 'e' || c == 'E') && j + 1 < l->n &&
             ((s[j + 1] >= '0' && s[j + 1] <= '9') || ((s[j + 1] == '+' || s[j + 1] == '-') && j + 2 < l->n && s[j + 2] >= '0' && s[j + 2] <= '9'))) {
      digits[k++] = c, is_float = true;
      if (s[j + 1] == '+' || s[j + 1] == '-') digits[k++] = s[++j];
    } else break;
    j++;
  }
  digits[k] = '\0';
  jj_tok_t *t = push(l, is_float ? JT_FLOAT : JT_INT, digits, k);
  if (!t) return fail(l, "out of memory");
  if (is_float) t->f = strtod(digits, NULL);
  else t->i = strtoll(digits, NULL, 10);
  *i = j;
  return true;
}

static const char *const ops[] = {"//", "**", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~", "<", ">",
                                  "=",  ".",  ":",  "|",  ",",  "(",  ")", "[", "]", "{", "}"};

/* The tokens of one {{ }} or {% %} tag from *pos (after its opening and sign) to its end. */
static bool lex_tag(lexer_t *l, bool block, bool *line_starting) {
  const char *s = l->src;
  size_t i = l->pos;
  int depth = 0;
  for (;;) {
    size_t j = skip_space(s, l->n, i);
    count_lines(l, s + i, j - i);
    i = j;
    if (i >= l->n) return fail(l, "a %s tag is not closed", block ? "{%" : "{{");
    const char *end = block ? "%}" : "}}";
    if (depth == 0) {
      bool minus = s[i] == '-' && i + 2 < l->n && !memcmp(s + i + 1, end, 2);
      bool plus = block && s[i] == '+' && i + 2 < l->n && !memcmp(s + i + 1, end, 2);
      if (minus || plus || (i + 1 < l->n && !memcmp(s + i, end, 2))) {
        size_t after = i + 2 + (minus || plus);
        if (!push(l, block ? JT_BLOCK_END : JT_VAR_END, NULL, 0)) return fail(l, "out of memory");
        size_t stop = after;
        if (minus) stop = skip_space(s, l->n, after);
        else if (block && !plus && after < l->n && s[after] == '\n') stop = after + 1; /* trim_blocks */
        count_lines(l, s + after, stop - after);
        *line_starting = stop > 0 && s[stop - 1] == '\n';
        l->pos = stop;
        return true;
      }
    }
    char c = s[i];
    if (c == '\'' || c == '"') {
      if (!lex_string(l, &i)) return false;
    } else if (c >= '0' && c <= '9') {
      if (!lex_number(l, &i)) return false;
    } else if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      size_t j2 = i;
      while (j2 < l->n && (s[j2] == '_' || (s[j2] >= 'a' && s[j2] <= 'z') || (s[j2] >= 'A' && s[j2] <= 'Z') || (s[j2] >= '0' && s[j2] <= '9'))) j2++;
      if (!push(l, JT_NAME, s + i, j2 - i)) return fail(l, "out of memory");
      i = j2;
    } else {
      const char *op = NULL;
      for (size_t k = 0; k < sizeof ops / sizeof ops[0] && !op; k++)
        if (!strncmp(s + i, ops[k], strlen(ops[k]))) op = ops[k];
      if (!op) return fail(l, "unexpected character '%c' in a tag", c);
      if (strchr("([{", op[0])) depth++;
      if (strchr(")]}", op[0]) && --depth < 0) return fail(l, "unexpected '%s'", op);
      if (!push(l, JT_OP, op, strlen(op))) return fail(l, "out of memory");
      i += strlen(op);
    }
  }
}

bool jj_lex(jj_arena_t *a, const char *text, jj_tok_t **toks, int *count, char *err, size_t errcap) {
  size_t tn = strlen(text);
  char *src = jj_alloc(a, tn + 1);
  if (!src) return snprintf(err, errcap, "out of memory"), false;
  size_t n = 0;
  for (size_t i = 0; i < tn; i++) { /* \r\n and \r are newlines */
    if (text[i] == '\r') {
      src[n++] = '\n';
      if (i + 1 < tn && text[i + 1] == '\n') i++;
    } else {
      src[n++] = text[i];
    }
  }
  if (n && src[n - 1] == '\n') n--; /* keep_trailing_newline is off */
  src[n] = '\0';
  lexer_t l = {.a = a, .src = src, .n = n, .line = 1, .err = err, .errcap = errcap};
  bool line_starting = true;
  while (l.pos < n) {
    const char *open = NULL;
    size_t at = n;
    for (const char *p = src + l.pos; (p = strchr(p, '{')) && p + 1 < src + n; p++)
      if (p[1] == '{' || p[1] == '%' || p[1] == '#') {
        open = p;
        at = (size_t)(p - src);
        break;
      }
    size_t text_len = at - l.pos;
    char kind = open ? open[1] : 0, sign = open && at + 2 < n && (src[at + 2] == '-' || src[at + 2] == '+') ? src[at + 2] : 0;
    const char *data = src + l.pos;
    if (sign == '-') {
      text_len = jj_rstrip_len(data, text_len);
    } else if (open && sign != '+' && kind != '{') { /* lstrip_blocks */
      size_t l_pos = 0;
      for (size_t k = text_len; k > 0; k--)
        if (data[k - 1] == '\n') {
          l_pos = k;
          break;
        }
      if ((l_pos > 0 || line_starting) && l_pos < text_len && jj_rstrip_len(data + l_pos, text_len - l_pos) == 0) text_len = l_pos;
    }
    if (text_len && !push(&l, JT_TEXT, data, text_len)) return fail(&l, "out of memory");
    count_lines(&l, src + l.pos, at - l.pos);
    if (!open) break;
    l.pos = at + 2 + (sign != 0);
    if (kind == '#') {
      const char *close = strstr(src + l.pos, "#}");
      if (!close) return fail(&l, "a comment is not closed");
      size_t after = (size_t)(close - src) + 2, stop = after;
      char before = close > src + l.pos ? close[-1] : 0;
      if (before == '-') stop = skip_space(src, n, after);
      else if (before != '+' && after < n && src[after] == '\n') stop = after + 1;
      count_lines(&l, src + l.pos, stop - l.pos);
      line_starting = stop > 0 && src[stop - 1] == '\n';
      l.pos = stop;
      continue;
    }
    if (!push(&l, kind == '{' ? JT_VAR_BEGIN : JT_BLOCK_BEGIN, NULL, 0)) return fail(&l, "out of memory");
    if (!lex_tag(&l, kind == '%', &line_starting)) return false;
  }
  if (!push(&l, JT_EOF, NULL, 0)) return fail(&l, "out of memory");
  *toks = l.toks;
  *count = l.count;
  return true;
}
