#include "server/metrics.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Bucket bounds in seconds. TTFT spans a queued request on a busy CPU (tens of seconds) down to a
 * GPU prefill (milliseconds); inter-token latency spans GPU decode (~1 ms) to CPU decode. */
static const double ttft_bounds[] = {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
static const double tpot_bounds[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};
static const double queue_bounds[] = {0.001, 0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60};

#define MAX_BUCKETS 16
#define MAX_STATUSES 24 /* distinct HTTP statuses kept per endpoint; more fold into the last */

typedef struct {
  const double *bounds;
  int n;
  uint64_t counts[MAX_BUCKETS + 1]; /* per bucket (not cumulative); the last is +Inf */
  double sum;
  uint64_t total;
} histogram_t;

static const char *const finish_names[] = {"stop", "length", "cancelled", "error"};
#define N_FINISH 4

struct mx_metrics {
  pthread_mutex_t mu;
  struct {
    int status;
    uint64_t count;
  } requests[MX_EP_COUNT][MAX_STATUSES];
  uint64_t prompt_tokens, completion_tokens, finished[N_FINISH], request_timeouts, connections_refused;
  uint64_t cached_tokens, copied_tokens;
  histogram_t ttft, tpot, queue;
};

const char *mx_endpoint_label(mx_endpoint_t ep) {
  static const char *const labels[MX_EP_COUNT] = {"/v1/completions", "/v1/chat/completions", "/v1/models", "/health",
                                                  "/metrics", "/tokenize", "/detokenize", "/apply-template", "/v1/embeddings", "/",
                                                  "other"};
  return ep >= 0 && ep < MX_EP_COUNT ? labels[ep] : "other";
}

mx_metrics_t *mx_metrics_create(void) {
  mx_metrics_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  pthread_mutex_init(&m->mu, NULL);
  m->ttft = (histogram_t){.bounds = ttft_bounds, .n = sizeof ttft_bounds / sizeof ttft_bounds[0]};
  m->tpot = (histogram_t){.bounds = tpot_bounds, .n = sizeof tpot_bounds / sizeof tpot_bounds[0]};
  m->queue = (histogram_t){.bounds = queue_bounds, .n = sizeof queue_bounds / sizeof queue_bounds[0]};
  return m;
}

void mx_metrics_destroy(mx_metrics_t *m) {
  if (!m) return;
  pthread_mutex_destroy(&m->mu);
  free(m);
}

void mx_metrics_request(mx_metrics_t *m, mx_endpoint_t ep, int http_status) {
  if (ep < 0 || ep >= MX_EP_COUNT) ep = MX_EP_OTHER;
  pthread_mutex_lock(&m->mu);
  int i = 0;
  while (i < MAX_STATUSES - 1 && m->requests[ep][i].status && m->requests[ep][i].status != http_status) i++;
  if (!m->requests[ep][i].status) m->requests[ep][i].status = http_status;
  m->requests[ep][i].count++;
  pthread_mutex_unlock(&m->mu);
}

void mx_metrics_request_timeout(mx_metrics_t *m) {
  pthread_mutex_lock(&m->mu);
  m->request_timeouts++;
  pthread_mutex_unlock(&m->mu);
}

void mx_metrics_connection_refused(mx_metrics_t *m) {
  pthread_mutex_lock(&m->mu);
  m->connections_refused++;
  pthread_mutex_unlock(&m->mu);
}

static void observe(histogram_t *h, double v) {
  int b = 0;
  while (b < h->n && v > h->bounds[b]) b++;
  h->counts[b]++;
  h->sum += v;
  h->total++;
}

void mx_metrics_generation(mx_metrics_t *m, const mx_metrics_generation_t *g) {
  pthread_mutex_lock(&m->mu);
  m->prompt_tokens += (uint64_t)(g->prompt_tokens > 0 ? g->prompt_tokens : 0);
  m->cached_tokens += (uint64_t)(g->cached_tokens > 0 ? g->cached_tokens : 0);
  m->copied_tokens += (uint64_t)(g->copied_tokens > 0 ? g->copied_tokens : 0);
  m->completion_tokens += (uint64_t)(g->completion_tokens > 0 ? g->completion_tokens : 0);
  for (int i = 0; i < N_FINISH; i++)
    if (g->finish && !strcmp(g->finish, finish_names[i])) m->finished[i]++;
  /* Latencies only of generations that ran to their end: a cancelled one's figures are partial. */
  bool complete = g->finish && (!strcmp(g->finish, "stop") || !strcmp(g->finish, "length"));
  if (complete && g->completion_tokens > 0) {
    observe(&m->ttft, g->ttft_ms / 1000.0);
    observe(&m->queue, g->queue_ms / 1000.0);
  }
  /* One observation per generation: its mean interval between tokens after the first. */
  if (complete && g->completion_tokens > 1) observe(&m->tpot, g->decode_ms / 1000.0 / (g->completion_tokens - 1));
  pthread_mutex_unlock(&m->mu);
}

/* A label value with \, " and newline escaped as the exposition format requires. */
static void label_value(mx_strbuf_t *out, const char *v) {
  for (; *v; v++) {
    if (*v == '\\') mx_strbuf_append(out, "\\\\", 2);
    else if (*v == '"') mx_strbuf_append(out, "\\\"", 2);
    else if (*v == '\n') mx_strbuf_append(out, "\\n", 2);
    else mx_strbuf_append(out, v, 1);
  }
}

static void header(mx_strbuf_t *out, const char *name, const char *type, const char *help) {
  mx_strbuf_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void render_histogram(mx_strbuf_t *out, const char *name, const char *help, const histogram_t *h) {
  header(out, name, "histogram", help);
  uint64_t cum = 0;
  for (int b = 0; b < h->n; b++) {
    cum += h->counts[b];
    mx_strbuf_printf(out, "%s_bucket{le=\"%g\"} %llu\n", name, h->bounds[b], (unsigned long long)cum);
  }
  cum += h->counts[h->n];
  mx_strbuf_printf(out, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name, (unsigned long long)cum, name, h->sum,
                   name, (unsigned long long)h->total);
}

static void device_series(mx_strbuf_t *out, const char *name, const char *type, const char *help, const mx_metrics_device_t *d,
                          int n, int which) {
  bool any = false;
  for (int i = 0; i < n; i++) {
    int64_t v;
    switch (which) {
    case 0: v = d[i].slots; break;
    case 1: v = d[i].active; break;
    case 2: v = d[i].queued; break;
    case 3: v = d[i].healthy; break;
    case 4: v = d[i].device_bytes; break;
    case 5: v = d[i].device_bytes_peak; break;
    case 7: v = d[i].state; break;
    case 8: v = (int64_t)d[i].restarts; break;
    case 9: v = (int64_t)d[i].request_errors; break;
    default: v = (int64_t)d[i].requests; break;
    }
    if ((which == 4 || which == 5) && !d[i].has_memory) continue;
    if (!any) header(out, name, type, help);
    any = true;
    mx_strbuf_printf(out, "%s{device=\"", name);
    label_value(out, d[i].device);
    mx_strbuf_printf(out, "\",backend=\"%d\"} %lld\n", i, (long long)v);
  }
}

void mx_metrics_render(mx_metrics_t *m, const mx_metrics_device_t *d, int n, mx_strbuf_t *out) {
  pthread_mutex_lock(&m->mu);
  header(out, "mlxcel_http_requests_total", "counter", "HTTP requests answered, by endpoint and status code.");
  for (int ep = 0; ep < MX_EP_COUNT; ep++)
    for (int i = 0; i < MAX_STATUSES && m->requests[ep][i].status; i++)
      mx_strbuf_printf(out, "mlxcel_http_requests_total{endpoint=\"%s\",status=\"%d\"} %llu\n", mx_endpoint_label(ep),
                       m->requests[ep][i].status, (unsigned long long)m->requests[ep][i].count);
  header(out, "mlxcel_prompt_tokens_total", "counter", "Prompt tokens of finished generations.");
  mx_strbuf_printf(out, "mlxcel_prompt_tokens_total %llu\n", (unsigned long long)m->prompt_tokens);
  header(out, "mlxcel_prefix_cache_hit_tokens_total", "counter",
         "Prompt tokens of finished generations that were not prefilled: a free slot held their KV rows (prefix reuse).");
  mx_strbuf_printf(out, "mlxcel_prefix_cache_hit_tokens_total %llu\n", (unsigned long long)m->cached_tokens);
  header(out, "mlxcel_prompt_copied_tokens_total", "counter",
         "Prompt tokens of finished generations that were not prefilled: another choice of the request (n > 1) had "
         "them, and its KV rows were copied.");
  mx_strbuf_printf(out, "mlxcel_prompt_copied_tokens_total %llu\n", (unsigned long long)m->copied_tokens);
  header(out, "mlxcel_completion_tokens_total", "counter", "Generated tokens of finished generations.");
  mx_strbuf_printf(out, "mlxcel_completion_tokens_total %llu\n", (unsigned long long)m->completion_tokens);
  header(out, "mlxcel_generations_total", "counter", "Finished generations, by finish reason.");
  for (int i = 0; i < N_FINISH; i++)
    mx_strbuf_printf(out, "mlxcel_generations_total{reason=\"%s\"} %llu\n", finish_names[i], (unsigned long long)m->finished[i]);
  render_histogram(out, "mlxcel_time_to_first_token_seconds", "From arrival to the first generated token.", &m->ttft);
  render_histogram(out, "mlxcel_time_per_output_token_seconds",
                   "Mean interval between generated tokens after the first, one observation per generation.", &m->tpot);
  render_histogram(out, "mlxcel_queue_wait_seconds", "From arrival to admission into a slot.", &m->queue);
  header(out, "mlxcel_http_request_timeouts_total", "counter",
         "Connections closed because a request's headers and body did not arrive within --request-timeout.");
  mx_strbuf_printf(out, "mlxcel_http_request_timeouts_total %llu\n", (unsigned long long)m->request_timeouts);
  header(out, "mlxcel_http_connections_refused_total", "counter",
         "Connections answered at once and closed: 429, their address held --max-connections-per-client already, "
         "or 503, the server held --max-connections.");
  mx_strbuf_printf(out, "mlxcel_http_connections_refused_total %llu\n", (unsigned long long)m->connections_refused);
  pthread_mutex_unlock(&m->mu);
  device_series(out, "mlxcel_slots", "gauge", "Sequence slots of the device's session.", d, n, 0);
  device_series(out, "mlxcel_active_slots", "gauge", "Slots generating now.", d, n, 1);
  device_series(out, "mlxcel_queue_depth", "gauge", "Requests waiting for a slot.", d, n, 2);
  device_series(out, "mlxcel_device_healthy", "gauge", "1 while the device serves, 0 while it restarts or after it was given up.", d, n, 3);
  device_series(out, "mlxcel_device_state", "gauge", "0 ready, 1 restarting its worker, 2 given up.", d, n, 7);
  device_series(out, "mlxcel_device_restarts_total", "counter", "Device workers restarted after the device was lost.", d, n, 8);
  device_series(out, "mlxcel_device_request_errors_total", "counter",
                "Requests failed by a device call while the device stayed up (e.g. NaN logits).", d, n, 9);
  device_series(out, "mlxcel_device_memory_bytes", "gauge", "Device memory allocated now (the worker's allocator statistics).", d, n, 4);
  device_series(out, "mlxcel_device_memory_peak_bytes", "gauge", "Peak device memory allocated.", d, n, 5);
  device_series(out, "mlxcel_device_requests_total", "counter", "Generations sent to this device (least loaded first).", d, n, 6);
}
