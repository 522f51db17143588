/* A minimal HTTP/1.1 client for loopback, enough for the kit to drive mlxcel-server: one request per
 * connection ("Connection: close"), the whole answer read until the server closes, with a deadline. */
#ifndef MX_QUALIFY_HTTP_H
#define MX_QUALIFY_HTTP_H

#include <stddef.h>

#include "base/status.h"

typedef struct {
  int status;    /* HTTP status code */
  char *body;    /* NUL-terminated; the caller frees it */
  size_t len;
} mx_http_reply_t;

/* method "GET"/"POST"; body may be NULL (JSON otherwise). */
MX_MUST_USE mx_status_t mx_http_request(int port, const char *method, const char *path, const char *body,
                                        double timeout_s, mx_http_reply_t *out);
/* A loopback TCP port that was free a moment ago. */
MX_MUST_USE mx_status_t mx_http_free_port(int *port);

#endif
