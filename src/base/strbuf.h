/* A growable byte/text buffer: the graph emitter writes MLIR into one, the protocol frames into one. */
#ifndef MX_BASE_STRBUF_H
#define MX_BASE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char *data; /* always NUL-terminated when non-NULL */
  size_t len, cap;
  bool failed; /* an allocation failed; further appends are ignored */
} mx_strbuf_t;

void mx_strbuf_init(mx_strbuf_t *b);
void mx_strbuf_free(mx_strbuf_t *b);
void mx_strbuf_append(mx_strbuf_t *b, const void *data, size_t n);
void mx_strbuf_printf(mx_strbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the contents to the caller (NULL after a failed allocation); the buffer is reset. */
char *mx_strbuf_take(mx_strbuf_t *b);

#endif
