#include "engine/json_constraint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Where the recognizer stands between bytes. */
enum {
  M_START,      /* before the top-level value: only '{' */
  M_VALUE,      /* a value (after ':' or ',' in an array) */
  M_ARRAY_OPEN, /* after '[': a value or ']' */
  M_OBJECT_OPEN,/* after '{': a key or '}' */
  M_KEY,        /* after ',' in an object: a key */
  M_COLON,      /* after a key */
  M_AFTER,      /* after a value in a container: ',' or its closing bracket */
  M_STRING,     /* inside a string (key or value) */
  M_NUMBER,     /* inside a number */
  M_LITERAL,    /* inside true / false / null */
};

/* M_STRING's sub-states. */
enum { S_PLAIN, S_ESCAPE, S_HEX1, S_HEX2, S_HEX3, S_HEX4 };
/* M_NUMBER's sub-states: what was read last. */
enum { N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP };

static const char *literal_text(uint8_t lit) { return lit == 't' ? "true" : lit == 'f' ? "false" : "null"; }

static bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }
static bool is_hex(uint8_t c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

void mx_json_init(mx_json_state_t *s) {
  memset(s, 0, sizeof *s);
  s->mode = M_START;
}

/* A value has ended: back to its container, or done at the top level. */
static void value_done(mx_json_state_t *s) {
  s->mode = M_AFTER;
  s->run = 0;
  if (s->depth == 0) s->done = true;
}

static bool open_container(mx_json_state_t *s, uint8_t c) {
  if (s->depth >= MX_JSON_MAX_DEPTH) return false;
  s->stack[s->depth++] = c;
  s->mode = c == '{' ? M_OBJECT_OPEN : M_ARRAY_OPEN;
  s->run = 0;
  return true;
}

static bool close_container(mx_json_state_t *s, uint8_t c) {
  if (s->depth == 0 || s->stack[s->depth - 1] != (c == '}' ? '{' : '[')) return false;
  s->depth--;
  value_done(s);
  return true;
}

/* The first byte of a value. */
static bool start_value(mx_json_state_t *s, uint8_t c) {
  s->run = 0;
  if (c == '{' || c == '[') return open_container(s, c);
  if (c == '"') {
    s->mode = M_STRING, s->sub = S_PLAIN, s->key = 0, s->need = 0;
    return true;
  }
  if (c == '-' || is_digit(c)) {
    s->mode = M_NUMBER, s->sub = c == '-' ? N_MINUS : c == '0' ? N_ZERO : N_INT, s->run = 1;
    return true;
  }
  if (c == 't' || c == 'f' || c == 'n') {
    s->mode = M_LITERAL, s->lit = c, s->sub = 1;
    return true;
  }
  return false;
}

/* Whitespace where the grammar allows it, up to the limit. */
static bool space(mx_json_state_t *s) { return ++s->run <= MX_JSON_MAX_SPACES; }

static bool string_byte(mx_json_state_t *s, uint8_t c) {
  if (s->need) { /* a UTF-8 continuation byte */
    if ((c & 0xC0) != 0x80) return false;
    s->need--;
    return true;
  }
  switch (s->sub) {
    case S_ESCAPE:
      if (c == 'u') s->sub = S_HEX1;
      else if (strchr("\"\\/bfnrt", c) && c) s->sub = S_PLAIN;
      else return false;
      return true;
    case S_HEX1: case S_HEX2: case S_HEX3: case S_HEX4:
      if (!is_hex(c)) return false;
      s->sub = s->sub == S_HEX4 ? S_PLAIN : s->sub + 1;
      return true;
    default: break;
  }
  if (c == '"') {
    if (s->key) s->mode = M_COLON, s->run = 0;
    else value_done(s);
    return true;
  }
  if (c == '\\') {
    s->sub = S_ESCAPE;
    return true;
  }
  if (c < 0x20) return false; /* control characters must be escaped */
  if (c < 0x80) return true;
  if (c >= 0xC2 && c <= 0xDF) s->need = 1;
  else if (c >= 0xE0 && c <= 0xEF) s->need = 2;
  else if (c >= 0xF0 && c <= 0xF4) s->need = 3;
  else return false;
  return true;
}

/* A byte inside a number; a byte that cannot continue it ends the number and is read after it. */
static bool number_byte(mx_json_state_t *s, uint8_t c, bool *again) {
  uint8_t next = 0xFF;
  switch (s->sub) {
    case N_MINUS: next = c == '0' ? N_ZERO : is_digit(c) ? N_INT : 0xFF; break;
    case N_ZERO: next = c == '.' ? N_DOT : (c == 'e' || c == 'E') ? N_E : 0xFF; break;
    case N_INT: next = is_digit(c) ? N_INT : c == '.' ? N_DOT : (c == 'e' || c == 'E') ? N_E : 0xFF; break;
    case N_DOT: next = is_digit(c) ? N_FRAC : 0xFF; break;
    case N_FRAC: next = is_digit(c) ? N_FRAC : (c == 'e' || c == 'E') ? N_E : 0xFF; break;
    case N_E: next = (c == '+' || c == '-') ? N_ESIGN : is_digit(c) ? N_EXP : 0xFF; break;
    case N_ESIGN: next = is_digit(c) ? N_EXP : 0xFF; break;
    case N_EXP: next = is_digit(c) ? N_EXP : 0xFF; break;
  }
  if (s->integer && (next == N_DOT || next == N_E)) next = 0xFF; /* an integer ends there */
  if (next != 0xFF) {
    s->sub = next;
    return ++s->run <= MX_JSON_MAX_NUMBER;
  }
  /* Not part of the number: it must be complete here (a digit last). */
  if (s->sub == N_MINUS || s->sub == N_DOT || s->sub == N_E || s->sub == N_ESIGN) return false;
  value_done(s);
  *again = true;
  return true;
}

static bool feed_byte(mx_json_state_t *s, uint8_t c) {
  if (s->done) return false; /* nothing after the object */
  for (;;) {
    bool again = false;
    switch (s->mode) {
      case M_START:
        if (is_space(c)) return space(s);
        return c == '{' && open_container(s, c);
      case M_VALUE:
        if (is_space(c)) return space(s);
        return start_value(s, c);
      case M_ARRAY_OPEN:
        if (is_space(c)) return space(s);
        if (c == ']') return close_container(s, c);
        return start_value(s, c);
      case M_OBJECT_OPEN:
      case M_KEY:
        if (is_space(c)) return space(s);
        if (c == '}' && s->mode == M_OBJECT_OPEN) return close_container(s, c);
        if (c != '"') return false;
        s->mode = M_STRING, s->sub = S_PLAIN, s->key = 1, s->need = 0;
        return true;
      case M_COLON:
        if (is_space(c)) return space(s);
        if (c != ':') return false;
        s->mode = M_VALUE, s->run = 0;
        return true;
      case M_AFTER:
        if (s->done) return false;
        if (is_space(c)) return space(s);
        if (c == ',') {
          s->mode = s->stack[s->depth - 1] == '{' ? M_KEY : M_VALUE;
          s->run = 0;
          return true;
        }
        if (c == '}' || c == ']') return close_container(s, c);
        return false;
      case M_STRING:
        return string_byte(s, c);
      case M_LITERAL: {
        const char *w = literal_text(s->lit);
        if (c != (uint8_t)w[s->sub]) return false;
        if (!w[++s->sub]) value_done(s);
        return true;
      }
      case M_NUMBER:
        if (!number_byte(s, c, &again)) return false;
        if (!again) return true;
        break; /* the number ended before c: read c after it */
      default:
        return false;
    }
  }
}

bool mx_json_feed(mx_json_state_t *s, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!feed_byte(s, p[i])) return false;
  return true;
}

int mx_constraint_mask(const void *state, size_t size, mx_feed_fn feed, const mx_tokenizer_t *tok, int vocab, float *logits) {
  void *t = malloc(size);
  /* The bytes that may come next, tried once: a token whose first byte is not one of them is out
   * without copying the state (in most places only a few bytes are). */
  bool first[256] = {false};
  for (int c = 0; t && c < 256; c++) {
    uint8_t b = (uint8_t)c;
    memcpy(t, state, size);
    first[c] = feed(t, &b, 1);
  }
  int allowed = 0;
  for (int id = 0; id < vocab; id++) {
    size_t n = 0;
    const char *b = mx_tokenizer_token_bytes(tok, id, &n);
    bool ok = t && b && n && first[(uint8_t)b[0]] && !mx_tokenizer_is_special(tok, id);
    if (ok) memcpy(t, state, size);
    if (ok && feed(t, (const uint8_t *)b, n)) allowed++;
    else logits[id] = -INFINITY;
  }
  free(t);
  return allowed;
}

static bool feed_json(void *s, const uint8_t *p, size_t n) { return mx_json_feed(s, p, n); }

int mx_json_mask(const mx_json_state_t *s, const mx_tokenizer_t *tok, int vocab, float *logits) {
  return mx_constraint_mask(s, sizeof *s, feed_json, tok, vocab, logits);
}

void mx_json_scalar_start(mx_json_state_t *s, bool integer) {
  mx_json_init(s);
  s->mode = M_VALUE;
  s->integer = integer;
}

mx_json_scalar_t mx_json_scalar_byte(mx_json_state_t *s, uint8_t c) {
  bool again = false;
  switch (s->mode) {
    case M_VALUE: /* the first byte: the caller offers only a quote or a number's first byte */
      if (c != '"' && c != '-' && !is_digit(c)) return MX_JSON_REJECTED;
      return start_value(s, c) ? MX_JSON_TAKEN : MX_JSON_REJECTED;
    case M_STRING:
      if (!string_byte(s, c)) return MX_JSON_REJECTED;
      return s->done ? MX_JSON_TAKEN_AND_ENDED : MX_JSON_TAKEN;
    case M_NUMBER:
      if (!number_byte(s, c, &again)) return MX_JSON_REJECTED;
      return again ? MX_JSON_ENDED_BEFORE : MX_JSON_TAKEN;
    default:
      return MX_JSON_REJECTED;
  }
}
