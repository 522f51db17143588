#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mx_strbuf_init(mx_strbuf_t *b) { memset(b, 0, sizeof *b); }

void mx_strbuf_free(mx_strbuf_t *b) {
  free(b->data);
  mx_strbuf_init(b);
}

static bool reserve(mx_strbuf_t *b, size_t extra) {
  if (b->failed) return false;
  if (b->len + extra + 1 <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) {
    b->failed = true;
    return false;
  }
  b->data = p;
  b->cap = cap;
  return true;
}

void mx_strbuf_append(mx_strbuf_t *b, const void *data, size_t n) {
  if (!reserve(b, n)) return;
  memcpy(b->data + b->len, data, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void mx_strbuf_printf(mx_strbuf_t *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !reserve(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

char *mx_strbuf_take(mx_strbuf_t *b) {
  char *p = b->failed ? NULL : b->data;
  if (b->failed) free(b->data);
  mx_strbuf_init(b);
  return p;
}
