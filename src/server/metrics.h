/* The server's Prometheus metrics: request counts by endpoint and HTTP status, token counters,
 * latency histograms, and per-device gauges given at render time. Every call is thread-safe (one
 * mutex; updates are a few additions, so contention is negligible next to a decode step). */
#ifndef MX_SERVER_METRICS_H
#define MX_SERVER_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"

typedef enum {
  MX_EP_COMPLETIONS,
  MX_EP_CHAT,
  MX_EP_MODELS,
  MX_EP_HEALTH,
  MX_EP_METRICS,
  MX_EP_TOKENIZE,
  MX_EP_DETOKENIZE,
  MX_EP_APPLY_TEMPLATE,
  MX_EP_EMBEDDINGS,
  MX_EP_PAGE, /* GET /: the chat page */
  MX_EP_OTHER, /* unknown paths: one label, so a scanner cannot grow the label set */
  MX_EP_COUNT
} mx_endpoint_t;

/* The label of an endpoint ("/v1/completions", ..., "other"). */
const char *mx_endpoint_label(mx_endpoint_t ep);

typedef struct mx_metrics mx_metrics_t;

mx_metrics_t *mx_metrics_create(void);
void mx_metrics_destroy(mx_metrics_t *m);

/* One answered HTTP request. */
void mx_metrics_request(mx_metrics_t *m, mx_endpoint_t ep, int http_status);

/* One finished generation, from its scheduler figures. */
typedef struct {
  int prompt_tokens, completion_tokens;
  int cached_tokens; /* prompt tokens a slot held already (prefix reuse) */
  int copied_tokens; /* prompt tokens copied from another choice's slot (n > 1) */
  double queue_ms, ttft_ms, decode_ms;
  const char *finish; /* "stop", "length", "cancelled", "error" */
} mx_metrics_generation_t;
void mx_metrics_generation(mx_metrics_t *m, const mx_metrics_generation_t *g);

/* Gauges read at render time (the schedulers and sessions own these figures). */
typedef struct {
  const char *device; /* labels: device="URI", backend="INDEX" (two backends may share a URI) */
  int slots, active, queued;
  uint64_t requests;  /* generations sent to this backend */
  bool healthy;
  int state;          /* mx_device_state_t: 0 ready, 1 restarting, 2 failed */
  uint64_t restarts, request_errors;
  bool has_memory; /* false: the device's allocator figures were not available */
  int64_t device_bytes, device_bytes_peak;
} mx_metrics_device_t;

/* A connection closed because its request did not arrive whole in time (--request-timeout). */
void mx_metrics_request_timeout(mx_metrics_t *m);
/* A connection refused at once: 429, its address holds --max-connections-per-client already, or 503,
 * the server holds --max-connections. */
void mx_metrics_connection_refused(mx_metrics_t *m);

/* Appends the Prometheus text exposition (version 0.0.4). */
void mx_metrics_render(mx_metrics_t *m, const mx_metrics_device_t *devices, int n_devices, mx_strbuf_t *out);

#endif
