#include "server/sse.h"

#include <string.h>

void mx_sse_event(mx_strbuf_t *out, const char *data) {
  /* SSE ends a line at CRLF, LF or a lone CR: split on each, so none can end the event early. */
  const char *p = data;
  for (;;) {
    size_t n = strcspn(p, "\r\n");
    mx_strbuf_append(out, "data: ", 6);
    mx_strbuf_append(out, p, n);
    mx_strbuf_append(out, "\n", 1);
    if (!p[n]) break;
    p += n + (p[n] == '\r' && p[n + 1] == '\n' ? 2 : 1);
  }
  mx_strbuf_append(out, "\n", 1);
}

void mx_sse_done(mx_strbuf_t *out) { mx_sse_event(out, "[DONE]"); }

void mx_sse_comment(mx_strbuf_t *out, const char *text) {
  mx_strbuf_append(out, ": ", 2);
  mx_strbuf_append(out, text, strcspn(text, "\r\n"));
  mx_strbuf_append(out, "\n\n", 2);
}
