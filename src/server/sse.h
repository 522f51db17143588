/* Server-sent events framing (the text/event-stream format OpenAI streams use). */
#ifndef MX_SERVER_SSE_H
#define MX_SERVER_SSE_H

#include "base/strbuf.h"

/* Appends one event carrying `data`: every line of it prefixed "data: ", then a blank line, so a
 * newline inside data cannot end the event early. */
void mx_sse_event(mx_strbuf_t *out, const char *data);
/* The stream's terminator, "data: [DONE]" and a blank line. */
void mx_sse_done(mx_strbuf_t *out);
/* A comment line the client ignores; sent while a request waits, so a closed connection shows. */
void mx_sse_comment(mx_strbuf_t *out, const char *text);

#endif
