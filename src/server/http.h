/* The OpenAI-compatible HTTP server on libmicrohttpd: routing, limits, API-key check, JSON answers
 * and SSE streams, over a fleet of devices serving one model (engine/fleet.h).
 *
 * Thread model: libmicrohttpd runs a thread per connection, so a handler may block on its request
 * (mx_request_wait) without stalling anyone else; each backend's scheduler thread does the device
 * work. A connection that closes before its answer is complete cancels its request, which frees
 * the slot at the scheduler's next step. A watchdog thread closes connections whose request does not
 * arrive whole in time (--request-timeout). */
#ifndef MX_SERVER_HTTP_H
#define MX_SERVER_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "engine/fleet.h"

typedef struct {
  const char *host;       /* numeric address or name to bind; default 127.0.0.1 */
  int port;               /* 0: any free port (mx_server_port tells which) */
  const char *api_key;    /* NULL: no authentication; else the /v1 endpoints need "Authorization: Bearer KEY" */
  const char *model_name; /* the id /v1/models lists and requests must name (or leave out) */
  size_t max_body;        /* bytes; larger bodies get 413 */
  int timeout_s;          /* idle connection timeout (silent clients) */
  int request_timeout_s;  /* a request's headers and body must arrive within this of the connection
                             opening or of its previous answer (slow-loris); 0: 30 */
  int max_connections;
  int max_connections_per_client; /* per client address, beyond it a 429; 0: max_connections */
  bool log_requests;      /* one stderr line per generation */
  mx_fleet_t *fleet;      /* the devices serving the model (not owned); NULL: still loading, see mx_server_ready */
} mx_server_options_t;

typedef struct mx_server mx_server_t;

/* Binds and starts serving. The fleet must outlive the server. Without a fleet the server answers
 * while the model loads: /health 503 "loading", the model endpoints 503 with code "loading",
 * /metrics and /v1/models as usual, until mx_server_ready. */
MX_MUST_USE mx_status_t mx_server_start(const mx_server_options_t *o, mx_server_t **out);
/* The model is loaded: the server serves it from now on (once; the fleet must outlive the server). */
MX_MUST_USE mx_status_t mx_server_ready(mx_server_t *s, mx_fleet_t *f);
int mx_server_port(const mx_server_t *s);
/* Stops accepting connections; requests on open connections are refused with 503 from now on. */
void mx_server_quiesce(mx_server_t *s);
/* Waits up to timeout_ms for in-flight generation answers to be written out (call after the
 * schedulers were shut down, so they all end). Returns how many were still open. */
int mx_server_drain(mx_server_t *s, int timeout_ms);
/* Closes every connection, joins the threads and frees the server. NULL is fine. */
void mx_server_stop(mx_server_t *s);

#endif
