/* Generated text, released as it becomes final: token ids are decoded as a stream (whole UTF-8
 * characters only) and the tail that could still grow into a stop string is held back. When a stop
 * string appears, the text before it is released and the rest is dropped. `mlxcel generate` prints
 * what is released; the scheduler hands it to the request's owner. */
#ifndef MX_ENGINE_TEXTOUT_H
#define MX_ENGINE_TEXTOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "base/strbuf.h"
#include "tokenizer/tokenizer.h"

typedef struct {
  const mx_tokenizer_t *tok;
  const char *const *stops; /* not owned */
  int n_stops;
  mx_detok_stream_t ds;
  mx_strbuf_t text; /* everything decoded so far */
  size_t released;  /* bytes of `text` handed out */
  bool stopped;     /* a stop string was generated */
  bool finished;    /* mx_textout_finish was called: nothing is held back */
} mx_textout_t;

void mx_textout_init(mx_textout_t *t, const mx_tokenizer_t *tok, const char *const *stops, int n_stops);
void mx_textout_free(mx_textout_t *t);
/* Decodes one generated id (special tokens are not shown). */
MX_MUST_USE mx_status_t mx_textout_push(mx_textout_t *t, int32_t id);
/* The end of generation: flushes an incomplete character and the held-back tail. */
void mx_textout_finish(mx_textout_t *t);
/* The text that became final since the last call (may be empty): *data points into the buffer and
 * stays valid until the next push. */
size_t mx_textout_take(mx_textout_t *t, const char **data);

#endif
