#include "server/http.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/log.h"
#include "engine/prompt.h"
#include "server/chat_page.h"
#include "server/metrics.h"
#include "server/openai.h"
#include "server/sse.h"

/* While a request waits for its first token (queued, or a long prefill), the stream sends an SSE
 * comment this often: it keeps proxies from timing out and makes a closed connection show up. */
#define HEARTBEAT_MS 1000
/* How often a blocking non-streaming answer checks whether its client is still there. */
#define POLL_MS 200
/* How often a stream with echo and logprobs looks whether the prompt's entries are all known. */
#define ECHO_POLL_MS 20
/* How often the watchdog looks for requests past --request-timeout. */
#define WATCHDOG_MS 200
#define TOO_MANY_CONNECTIONS_JSON                                                                                 \
  "{\"error\":{\"message\":\"this address has as many connections open as the server allows one client "          \
  "(--max-connections-per-client); reuse a connection (keep-alive) or retry when one closes\",\"type\":"          \
  "\"rate_limit_error\",\"param\":null,\"code\":\"too_many_connections\"}}"
#define SERVER_FULL_JSON                                                                                          \
  "{\"error\":{\"message\":\"the server has as many connections open as it allows (--max-connections); reuse a "  \
  "connection (keep-alive) or retry when one closes\",\"type\":\"server_error\",\"param\":null,\"code\":"          \
  "\"too_many_connections\"}}"
#define REQUEST_TIMEOUT_JSON                                                                                        \
  "{\"error\":{\"message\":\"the request's headers and body did not arrive within the server's --request-timeout; "  \
  "send the whole request at once\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"request_timeout\"}}"

/* Per TCP connection (MHD's socket context): whether it is receiving a request, and since when.
 * The watchdog closes a connection whose request (headers and body) has not arrived whole within
 * --request-timeout of the connection opening or of its previous answer: a slow-loris client that
 * sends a byte now and then never trips the idle timeout, so this is what bounds it. */
typedef struct conn_entry {
  int fd;
  unsigned char addr[17]; /* the client's address: family, then 4 or 16 bytes (the per-client limit) */
  bool reading;      /* false from the moment an answer is queued until the request completes */
  bool dropped;      /* refused (408 or 429): its answer is written, no request on it is served */
  double since;      /* when the current request could start arriving */
  struct conn_entry *prev, *next;
} conn_entry_t;

struct mx_server {
  mx_server_options_t o;
  char *host, *api_key, *model_name;
  /* NULL while the model loads (mx_server_start without a fleet); set once by mx_server_ready, after
   * n_devices and routed, which are read only by handlers that saw it set. */
  _Atomic(mx_fleet_t *) fleet;
  int n_devices;
  atomic_uint_fast64_t *routed; /* generations sent to each device */
  struct MHD_Daemon *mhd;
  mx_metrics_t *metrics;
  atomic_bool stopping;
  atomic_int in_flight;   /* generation answers not yet completed */
  atomic_uint_fast64_t counter;
  uint64_t boot;          /* mixed into ids and default seeds */
  long long started;      /* Unix seconds, for /v1/models' created */
  int port;
  /* The open connections (for the request deadline), under conns_mu. */
  pthread_mutex_t conns_mu;
  pthread_cond_t conns_cv;
  conn_entry_t *conns;
  int per_client; /* connections one address may hold */
  int max_conns;  /* connections held at once (refused ones, about to close, not counted) */
  pthread_t watchdog;
  bool watchdog_started, watchdog_stop;
};

/* One choice of a generation (a request's n): its engine request and what of it was sent. */
typedef struct {
  mx_request_t *req;
  mx_strbuf_t text;     /* non-streaming: the whole answer; streaming: the latest piece */
  mx_logprob_list_t lp; /* logprobs: the entries fetched and not yet sent */
  size_t lp_sent;       /* logprobs: entries sent (or fetched, non-streaming) so far */
  size_t lp_chars;      /* logprobs, completions: characters of the tokens sent so far (text_offset) */
  mx_strbuf_t all;      /* streaming with tools: the whole answer so far, read for calls at its end */
  size_t all_sent;      /* ... and the bytes of it sent as content */
  char call_id[40];     /* streaming a forced call: its id once its name went out ("" before) */
  size_t args_sent;     /* ... and where the arguments' text sent so far ends in `all` */
  bool sent_first, echo_sent, finished, recorded;
} choice_t;

/* Per HTTP request (MHD's con_cls). */
typedef struct {
  mx_server_t *srv;
  mx_endpoint_t ep;
  mx_strbuf_t body;
  bool refused;  /* an answer was queued before the body was read (404, 405, 401, 413) */
  bool too_big;  /* a chunked body went over the limit: the rest is dropped, then 413 */
  uint64_t discarded;
  int status;   /* the HTTP status answered, for metrics */
  struct MHD_Connection *conn;
  mx_fleet_t *fleet; /* the server's when the request arrived; NULL while the model loads */
  /* a generation: its n choices */
  choice_t ch[MX_API_MAX_N];
  int n;
  mx_api_kind_t kind;
  bool include_usage, stream, logprobs;
  /* echo (completions): the prompt text goes out in front of each choice's answer; with logprobs, its
   * tokens' entries too (the first token's is null), once the scheduler has them all. */
  bool echo;
  mx_strbuf_t echo_text;
  int32_t echo_first; /* the prompt's first token */
  bool echo_bos;      /* the server put a BOS in front of a text prompt: not echoed (the text did not hold it) */
  /* tools (chat): the answers are read for calls in the template's format (NONE: they are not) */
  mx_tool_format_t tool_format;
  bool tool_forced; /* the answer is one call's JSON alone (tool_choice required or a function) */
  json_t *tools;    /* the request's tools, which calls must name */
  char id[48];
  mx_api_meta_t meta;
  double t0;
  mx_strbuf_t pending; /* streaming: framed bytes not yet handed to MHD */
  size_t pending_off;
  double last_sent;    /* streaming: when a chunk or comment last went out (the heartbeat) */
  bool finished, ended;
  bool counted_in_flight;
} ctx_t;

/* --- small helpers --------------------------------------------------------------------------- */

static uint64_t mix64(uint64_t x) { /* splitmix64's finaliser */
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

static uint64_t next_random(mx_server_t *s) {
  return mix64(s->boot ^ mix64(atomic_fetch_add(&s->counter, 1)));
}

/* --- every answer is JSON ------------------------------------------------------------------- */

/* libmicrohttpd answers the HTTP framing errors it finds itself, before any handler runs (a header
 * block or URI over its buffer, a malformed request line, header or chunk, an HTTP version it does
 * not speak), with short HTML pages, and 0.9.75 has no option to replace them. It queues them
 * through its exported MHD_queue_response, called through its PLT, so this executable's definition
 * of that symbol takes the call (tests/server/reliability_test.py checks that it still does): a
 * response the server did not queue itself is replaced by an OpenAI error object of the same
 * status. The server's own answers pass through queue_own to the library's function. */
typedef enum MHD_Result (*queue_fn_t)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
static queue_fn_t real_queue;
static pthread_once_t real_queue_once = PTHREAD_ONCE_INIT;
static __thread bool queuing_own;

static void find_real_queue(void) { real_queue = (queue_fn_t)dlsym(RTLD_NEXT, "MHD_queue_response"); }

static enum MHD_Result queue_own(struct MHD_Connection *conn, unsigned int status, struct MHD_Response *r) {
  queuing_own = true;
  enum MHD_Result ret = MHD_queue_response(conn, status, r);
  queuing_own = false;
  return ret;
}

/* The OpenAI error object for a framing error libmicrohttpd found. */
static char *framing_error_json(unsigned int status) {
  const char *code = "malformed_request", *msg = "the request is not valid HTTP/1.1 (a malformed request line, header or chunk)",
             *remedy = "send a well-formed HTTP/1.1 request";
  if (status == 414)
    code = "uri_too_long", msg = "the request's URI does not fit the server's 32 KiB request buffer", remedy = "send a shorter URI";
  else if (status == 431 || status == 413)
    code = "headers_too_large", msg = "the request's headers do not fit the server's 32 KiB request buffer",
    remedy = "send fewer or smaller headers";
  else if (status == 505)
    code = "http_version_not_supported", msg = "the server speaks HTTP/1.0 and HTTP/1.1 only", remedy = "send HTTP/1.1";
  else if (status >= 500)
    code = "server_error", msg = "the server could not process the request (out of memory for the connection)",
    remedy = "retry later";
  mx_api_error_t e;
  mx_api_error_set(&e, (int)status, status >= 500 && status != 505 ? "server_error" : "invalid_request_error", NULL, code);
  mx_status_t st = mx_status_make(MX_STAGE_USAGE, remedy, "%s", msg);
  char *json = mx_api_error_json(st, &e);
  mx_status_free(st);
  return json;
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response) {
  pthread_once(&real_queue_once, find_real_queue);
  if (!real_queue) abort(); /* cannot happen: the library that calls this defines it */
  if (queuing_own || status_code < 400) return real_queue(connection, status_code, response);
  char *json = framing_error_json(status_code);
  struct MHD_Response *r = json ? MHD_create_response_from_buffer(strlen(json), json, MHD_RESPMEM_MUST_FREE) : NULL;
  if (!r) {
    free(json);
    return real_queue(connection, status_code, response); /* out of memory: the library's own page */
  }
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
  enum MHD_Result ret = real_queue(connection, status_code, r);
  MHD_destroy_response(r); /* the library holds its own reference; the caller destroys its page */
  return ret;
}

/* --- the request deadline ------------------------------------------------------------------- */

static conn_entry_t *conn_entry(struct MHD_Connection *conn) {
  const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return ci ? ci->socket_context : NULL;
}

/* The request is in (or refused): from now on the connection is the answer's, not the deadline's. */
static void answering(ctx_t *c) {
  conn_entry_t *e = conn_entry(c->conn);
  if (!e) return;
  pthread_mutex_lock(&c->srv->conns_mu);
  e->reading = false;
  pthread_mutex_unlock(&c->srv->conns_mu);
}

/* The client's address as a comparable key (family byte, then the address bytes). */
static void address_key(struct MHD_Connection *conn, unsigned char key[17]) {
  memset(key, 0, 17);
  const union MHD_ConnectionInfo *ai = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  const struct sockaddr *sa = ai ? ai->client_addr : NULL;
  if (!sa) return;
  key[0] = (unsigned char)sa->sa_family;
  if (sa->sa_family == AF_INET) memcpy(key + 1, &((const struct sockaddr_in *)sa)->sin_addr, 4);
  else if (sa->sa_family == AF_INET6) memcpy(key + 1, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
}

/* Writes a whole HTTP error answer on a connection MHD has not answered yet, then shuts it both ways,
 * which makes MHD close it at once (a refused connection must not hold a slot). Holds for the 408 of
 * the watchdog and the 429 of the per-client limit. Called with conns_mu held. */
static void refuse_raw(conn_entry_t *e, const char *status_line, const char *json, bool retry_after) {
  char head[256];
  int n = snprintf(head, sizeof head, "HTTP/1.1 %s\r\nContent-Type: application/json\r\nConnection: close\r\n%s"
                   "Content-Length: %zu\r\n\r\n", status_line, retry_after ? "Retry-After: 1\r\n" : "", strlen(json));
  (void)!send(e->fd, head, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
  (void)!send(e->fd, json, strlen(json), MSG_DONTWAIT | MSG_NOSIGNAL);
  shutdown(e->fd, SHUT_RDWR);
  e->dropped = true;
}

/* Reads and drops what the client sent that nobody read. A socket closed with unread bytes sends a
 * reset, and a reset can destroy an answer the client has not read yet (the 408 or 429 above). */
static void drain_unread(int fd) {
  char buf[4096];
  for (int i = 0; i < 256 && recv(fd, buf, sizeof buf, MSG_DONTWAIT) > 0; i++) {
  }
}

static void notify_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                              enum MHD_ConnectionNotificationCode code) {
  mx_server_t *s = cls;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    conn_entry_t *e = ci ? calloc(1, sizeof *e) : NULL;
    *socket_context = e;
    if (!e) return; /* out of memory: the connection goes unwatched, its idle timeout still holds */
    e->fd = ci->connect_fd;
    e->reading = true;
    e->since = mx_now_ms();
    address_key(conn, e->addr);
    pthread_mutex_lock(&s->conns_mu);
    /* Both limits are counted here rather than by MHD's own options, so that the client gets an
     * answer it can act on (429 or 503 with Retry-After) instead of a reset, the metrics see it, and
     * a refused connection stops counting at once instead of when its thread has closed it (under a
     * burst, refusals not yet closed would otherwise fill MHD's limit and new connections, also
     * other clients', would be reset without an answer). */
    int same = 0, held = 0;
    for (conn_entry_t *o = s->conns; o; o = o->next) {
      held += !o->dropped;
      same += !o->dropped && !memcmp(o->addr, e->addr, sizeof e->addr);
    }
    e->next = s->conns;
    if (s->conns) s->conns->prev = e;
    s->conns = e;
    if (same >= s->per_client || held >= s->max_conns) {
      if (same >= s->per_client) refuse_raw(e, "429 Too Many Requests", TOO_MANY_CONNECTIONS_JSON, true);
      else refuse_raw(e, "503 Service Unavailable", SERVER_FULL_JSON, true);
      mx_metrics_connection_refused(s->metrics);
    }
    pthread_mutex_unlock(&s->conns_mu);
    return;
  }
  /* Closed: MHD calls this before it closes the socket, so the watchdog never touches a reused fd. */
  conn_entry_t *e = *socket_context;
  if (!e) return;
  if (e->dropped) drain_unread(e->fd); /* so that its close is a FIN after the answer, not a reset */
  pthread_mutex_lock(&s->conns_mu);
  if (e->prev) e->prev->next = e->next;
  else s->conns = e->next;
  if (e->next) e->next->prev = e->prev;
  pthread_mutex_unlock(&s->conns_mu);
  free(e);
  *socket_context = NULL;
}

/* Closes the connections whose request is overdue: a 408 with an OpenAI error object (nothing of
 * this request was written yet, so the bytes cannot interleave with an answer), then a shutdown,
 * which wakes the connection's thread and makes MHD close it. */
static void *watchdog_main(void *arg) {
  mx_server_t *s = arg;
  pthread_mutex_lock(&s->conns_mu);
  while (!s->watchdog_stop) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += WATCHDOG_MS * 1000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&s->conns_cv, &s->conns_mu, &until);
    double now = mx_now_ms(), limit = s->o.request_timeout_s * 1000.0;
    for (conn_entry_t *e = s->conns; e; e = e->next) {
      if (!e->reading || e->dropped || now - e->since < limit) continue;
      refuse_raw(e, "408 Request Timeout", REQUEST_TIMEOUT_JSON, false);
      mx_metrics_request_timeout(s->metrics);
    }
  }
  pthread_mutex_unlock(&s->conns_mu);
  return NULL;
}

static enum MHD_Result queue_text(ctx_t *c, int status, const char *content_type, char *text) {
  /* text is malloc'ed and handed to MHD, which frees it. */
  if (!text) {
    status = 500;
    content_type = "application/json";
    text = strdup("{\"error\":{\"message\":\"out of memory\",\"type\":\"server_error\",\"param\":null,\"code\":null}}");
    if (!text) return MHD_NO;
  }
  struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
  if (!r) {
    free(text);
    return MHD_NO;
  }
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
  if (status == 503) MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "1");
  if (status == 401) MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
  c->status = status;
  answering(c);
  enum MHD_Result ret = queue_own(c->conn, (unsigned)status, r);
  MHD_destroy_response(r);
  return ret;
}

/* An OpenAI error object; takes ownership of st. */
static enum MHD_Result queue_error(ctx_t *c, mx_status_t st, const mx_api_error_t *e) {
  char *json = mx_api_error_json(st, e);
  mx_status_free(st);
  return queue_text(c, e->http_status, "application/json", json);
}

/* A refusal whose HTTP status the request decides (no such route or model, wrong method, no key,
 * too big); the type still comes from the stage table, and a status that is not the usage refusal
 * itself (out of memory while making it) answers as the table says. Takes ownership of st. */
static enum MHD_Result queue_refusal(ctx_t *c, int http_status, const char *param, const char *code, mx_status_t st) {
  mx_api_error_t e;
  mx_api_error_for_status(&e, st, param, code);
  if (mx_status_stage(st) == MX_STAGE_USAGE) e.http_status = http_status;
  return queue_error(c, st, &e);
}

#define MAX_BODY_REMEDY "send a smaller body, or start the server with a larger --max-body"


/* Whether the client can no longer read the answer: the connection was reset or is shut both ways.
 * An EOF alone is not that: a client may shut its write side after sending (a half-close) and still
 * read. A client that closed the socket looks the same as a half-close until something is written
 * to it, so a stream (which writes at least every heartbeat) notices within a heartbeat, and a
 * blocking answer when it is written. */
static bool client_gone(struct MHD_Connection *conn) {
  const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
  if (!ci) return false;
  struct pollfd p = {.fd = ci->connect_fd, .events = POLLIN};
  if (poll(&p, 1, 0) < 0) return false;
  if (p.revents & (POLLERR | POLLHUP | POLLNVAL)) return true;
  if (!(p.revents & POLLIN)) return false;
  char b;
  ssize_t n = recv(ci->connect_fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
  return n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

static bool key_matches(const char *given, const char *want) {
  /* Constant time in the key's content, so the comparison leaks only the length. */
  size_t gl = strlen(given), wl = strlen(want);
  unsigned char d = gl != wl;
  for (size_t i = 0; i < wl; i++) d |= (unsigned char)(given[i < gl ? i : 0] ^ want[i]);
  return d == 0;
}

static bool authorized(mx_server_t *s, struct MHD_Connection *conn) {
  if (!s->api_key) return true;
  const char *h = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
  if (!h || strncasecmp(h, "Bearer ", 7) != 0) return false;
  h += 7;
  while (*h == ' ') h++;
  return key_matches(h, s->api_key);
}

/* --- generation answers ---------------------------------------------------------------------- */

static void record_generation(ctx_t *c, choice_t *ch, const char *finish_override) {
  if (ch->recorded || !ch->req) return;
  ch->recorded = true;
  mx_request_info_t info;
  mx_request_info(ch->req, &info);
  const char *finish = finish_override ? finish_override : mx_finish_name(info.finish);
  mx_metrics_generation(c->srv->metrics, &(mx_metrics_generation_t){.prompt_tokens = info.prompt_tokens,
                                                                    .cached_tokens = info.cached_tokens,
                                                                    .copied_tokens = info.copied_tokens,
                                                                    .completion_tokens = info.completion_tokens,
                                                                    .queue_ms = info.queue_ms,
                                                                    .ttft_ms = info.ttft_ms,
                                                                    .decode_ms = info.decode_ms,
                                                                    .finish = finish});
  char choice[16] = "";
  if (c->n > 1) snprintf(choice, sizeof choice, " choice %d", (int)(ch - c->ch));
  char cached[48] = "";
  if (info.cached_tokens) snprintf(cached, sizeof cached, " (%d reused)", info.cached_tokens);
  if (info.copied_tokens) snprintf(cached, sizeof cached, " (copied from choice 0)");
  if (c->srv->o.log_requests)
    mx_log(MX_LOG_INFO, "mlxcel-server: %s%s %s%s: prompt %d%s, completion %d tokens, finish %s, queue %.0f ms, ttft %.0f ms, total %.0f ms",
           c->id, choice, mx_endpoint_label(c->ep), c->stream ? " (stream)" : "", info.prompt_tokens, cached,
           info.completion_tokens, finish[0] ? finish : "none", info.queue_ms, info.ttft_ms, mx_now_ms() - c->t0);
}

static void record_generations(ctx_t *c, const char *finish_override) {
  for (int i = 0; i < c->n; i++) record_generation(c, &c->ch[i], finish_override);
}

/* The error a finished-but-failed request answers with; `what` names it ("generation", "input[2]"). */
static mx_status_t request_failure(mx_request_t *req, const char *what, mx_api_error_t *e) {
  mx_request_info_t info;
  mx_request_info(req, &info);
  if (info.finish == MX_FINISH_ERROR) {
    /* Not the stage table: the request was admitted and then failed inside the server, so it is a
     * 500 whatever stage the cause has (an engine check at the usage stage must not read as the
     * client's 400). The request owns its error; the answer gets a copy, remedy kept. */
    mx_api_error_set(e, 500, "server_error", NULL, "device_error");
    if (!info.error) return mx_status_make(MX_STAGE_INTERNAL, NULL, "%s failed with no recorded cause", what);
    return mx_status_annotate(mx_status_clone(info.error), "%s failed: %s", what, mx_stage_name(mx_status_stage(info.error)));
  }
  mx_status_t st = mx_status_make(MX_STAGE_BUSY, "retry on another server or later", "the server is shutting down; the request was cancelled");
  mx_api_error_for_status(e, st, NULL, "shutting_down");
  return st;
}

static mx_status_t failure_of(const choice_t *ch, mx_api_error_t *e) { return request_failure(ch->req, "generation", e); }

static bool finished_well(mx_finish_t f) { return f == MX_FINISH_STOP || f == MX_FINISH_LENGTH; }

static mx_api_logprobs_t logprobs_view(ctx_t *c, choice_t *ch) {
  return (mx_api_logprobs_t){.v = ch->lp.v, .n = ch->lp.n, .tok = mx_session_tokenizer(mx_fleet_session(c->fleet, 0)),
                             .text_offset = &ch->lp_chars};
}

/* The logprob entries generated since the last call, into ch->lp (replacing what it held). */
static bool take_logprobs(ctx_t *c, choice_t *ch, mx_api_logprobs_t *out) {
  size_t got = 0;
  ch->lp.n = 0;
  bool ok = mx_request_logprobs(ch->req, ch->lp_sent, &ch->lp, &got);
  ch->lp_sent += got;
  *out = logprobs_view(c, ch);
  return ok;
}

/* echo with logprobs: the prompt's entries (a null one for its first token; a BOS the server added is
 * not echoed, and the token after it has its value), into ch->lp (replacing what it held), once the
 * scheduler has them all; *ready false before that. */
static bool take_echo_logprobs(ctx_t *c, choice_t *ch, mx_api_logprobs_t *out, bool *ready) {
  ch->lp.n = 0;
  mx_token_logprob_t first = {.id = c->echo_first, .n_top = -1};
  bool ok = (c->echo_bos || mx_logprob_list_push(&ch->lp, &first)) && mx_request_prompt_logprobs(ch->req, &ch->lp, ready);
  if (!*ready) ch->lp.n = 0;
  *out = logprobs_view(c, ch);
  return ok;
}

/* A finished choice's answer: the echoed prompt in front of its text, its entries (the prompt's
 * first, with echo). False when out of memory. */
static bool whole_choice(ctx_t *c, choice_t *ch, mx_api_logprobs_t *lp) {
  bool ok = true, ready = true;
  size_t got = 0;
  if (c->logprobs && c->echo) ok = take_echo_logprobs(c, ch, lp, &ready) && mx_request_logprobs(ch->req, 0, &ch->lp, &got);
  else if (c->logprobs) ok = take_logprobs(c, ch, lp);
  lp->v = ch->lp.v, lp->n = ch->lp.n;
  if (c->echo) {
    mx_strbuf_t t;
    mx_strbuf_init(&t);
    mx_strbuf_append(&t, c->echo_text.data ? c->echo_text.data : "", c->echo_text.len);
    mx_strbuf_append(&t, ch->text.data ? ch->text.data : "", ch->text.len);
    mx_strbuf_free(&ch->text);
    ch->text = t;
    ok = ok && !t.failed;
  }
  return ok;
}

/* The tool calls in an answer's whole text (none when the request reads none), each given an id. */
static mx_status_t read_calls(ctx_t *c, const char *text, size_t len, mx_tool_calls_t *out) {
  mx_status_t st = mx_tool_calls_parse(c->tool_format, c->tools, c->tool_forced, text ? text : "", len, out);
  for (int k = 0; !st && k < out->n; k++)
    snprintf(out->calls[k].id, sizeof out->calls[k].id, "call_%016llx", (unsigned long long)next_random(c->srv));
  return st;
}

/* Blocks until every choice has ended (or the client leaves) and answers with the whole completion. */
static enum MHD_Result answer_whole(ctx_t *c) {
  for (int i = 0; i < c->n; i++)
    while (!mx_request_wait(c->ch[i].req, POLL_MS, &c->ch[i].text)) {
      if (client_gone(c->conn)) {
        for (int k = 0; k < c->n; k++) mx_request_cancel(c->ch[k].req); /* the slots free at the scheduler's next step */
        record_generations(c, "cancelled");
        return MHD_NO; /* nobody to answer */
      }
    }
  record_generations(c, NULL);
  mx_api_choice_t choices[MX_API_MAX_N];
  mx_api_logprobs_t lps[MX_API_MAX_N];
  mx_tool_calls_t calls[MX_API_MAX_N] = {0};
  mx_api_usage_t usage = {0};
  bool ok = true;
  mx_status_t failed = NULL;
  mx_api_error_t e;
  for (int i = 0; ok && !failed && i < c->n; i++) {
    choice_t *ch = &c->ch[i];
    mx_request_info_t info;
    mx_request_info(ch->req, &info);
    if (!finished_well(info.finish)) { /* one failed choice fails the answer */
      failed = failure_of(ch, &e);
      break;
    }
    ok = whole_choice(c, ch, &lps[i]);
    mx_status_t st = ok ? read_calls(c, ch->text.data, ch->text.len, &calls[i]) : NULL;
    ok = ok && !st;
    mx_status_free(st);
    choices[i] = (mx_api_choice_t){.text = ch->text.data, .len = ch->text.len,
                                   .finish = calls[i].n ? "tool_calls" : mx_finish_name(info.finish),
                                   .lp = c->logprobs ? &lps[i] : NULL, .calls = &calls[i]};
    usage.prompt_tokens = info.prompt_tokens;
    if (i == 0) usage.cached_tokens = info.cached_tokens; /* the prompt is counted once: as its first choice saw it */
    usage.completion_tokens += info.completion_tokens;
  }
  char *json = ok && !failed ? mx_api_response_json(c->kind, &c->meta, choices, c->n, &usage) : NULL;
  for (int i = 0; i < c->n; i++) mx_tool_calls_free(&calls[i]);
  if (!ok) {
    failed = mx_status_oom();
    mx_api_error_for_status(&e, failed, NULL, NULL);
  }
  if (failed) return queue_error(c, failed, &e);
  return queue_text(c, 200, "application/json", json);
}

static void frame_json(ctx_t *c, char *json) {
  if (json) mx_sse_event(&c->pending, json);
  free(json);
}

/* The echoed prompt of choice i (with its entries once all known, waiting up to wait_ms for them while
 * its prompt runs through the decode steps); false while they are not. */
static bool stream_echo(ctx_t *c, int i, int wait_ms) {
  choice_t *ch = &c->ch[i];
  mx_api_logprobs_t lp = {0};
  bool ready = true;
  if (c->logprobs) (void)take_echo_logprobs(c, ch, &lp, &ready);
  for (int waited = 0; !ready && waited < wait_ms; waited += ECHO_POLL_MS) {
    struct timespec ts = {0, ECHO_POLL_MS * 1000000L};
    nanosleep(&ts, NULL);
    (void)take_echo_logprobs(c, ch, &lp, &ready);
  }
  if (!ready) {
    mx_request_info_t info;
    mx_request_info(ch->req, &info);
    if (info.finish == MX_FINISH_NONE) return false;
    /* ended before its prompt was through (an error, a cancel): its end says so */
  } else {
    frame_json(c, mx_api_chunk_json(c->kind, &c->meta, i, c->echo_text.data, c->echo_text.len, NULL, false, c->logprobs ? &lp : NULL));
  }
  ch->echo_sent = true;
  return true;
}

/* A forced call is streamed as it is written, as OpenAI does: its id, type and name once the name is
 * whole, then each new piece of its arguments' text (which is the text the whole call reads back). */
static void stream_forced_call(ctx_t *c, choice_t *ch, int i) {
  char name[128];
  if (!ch->call_id[0] && mx_tool_call_name(ch->all.data, ch->all.len, name, sizeof name)) {
    snprintf(ch->call_id, sizeof ch->call_id, "call_%016llx", (unsigned long long)next_random(c->srv));
    frame_json(c, mx_api_tool_call_delta_json(&c->meta, i, 0, ch->call_id, name, "", 0));
  }
  size_t a, b;
  bool done;
  if (!ch->call_id[0] || !mx_tool_call_arguments(c->tool_format, ch->all.data, ch->all.len, &a, &b, &done)) return;
  if (ch->args_sent < a) ch->args_sent = a;
  if (b > ch->args_sent) frame_json(c, mx_api_tool_call_delta_json(&c->meta, i, 0, NULL, NULL, ch->all.data + ch->args_sent, b - ch->args_sent));
  ch->args_sent = b;
}

/* A streamed answer that was read for tool calls has ended: the text held back goes out, as content
 * and, when it holds calls, as one tool_calls delta (a forced call went out as it was written).
 * Returns "tool_calls" then, NULL otherwise. */
static const char *stream_calls(ctx_t *c, choice_t *ch, int i) {
  if (ch->call_id[0]) { /* a forced call: streamed; it ended as a call, or was cut by max_tokens */
    mx_tool_calls_t calls;
    mx_status_t st = read_calls(c, ch->all.data, ch->all.len, &calls);
    bool whole = !st && calls.n == 1;
    if (!st) mx_tool_calls_free(&calls);
    mx_status_free(st);
    return whole ? "tool_calls" : NULL;
  }
  mx_tool_calls_t calls;
  mx_status_t st = ch->all.failed ? mx_status_oom() : read_calls(c, ch->all.data, ch->all.len, &calls);
  size_t upto = st ? ch->all.len : calls.content_len;
  if (upto > ch->all_sent)
    frame_json(c, mx_api_chunk_json(c->kind, &c->meta, i, ch->all.data + ch->all_sent, upto - ch->all_sent, NULL, false, NULL));
  ch->all_sent = upto;
  const char *finish = NULL;
  if (!st && calls.n) {
    frame_json(c, mx_api_tool_calls_chunk_json(&c->meta, i, &calls));
    finish = "tool_calls";
  }
  if (!st) mx_tool_calls_free(&calls);
  mx_status_free(st);
  return finish;
}

/* What choice i has to send now, waiting up to wait_ms for it: its new text and entries, and, once it
 * has ended, its last chunk. Returns whether anything was framed. */
static bool stream_choice(ctx_t *c, int i, int wait_ms) {
  choice_t *ch = &c->ch[i];
  if (!ch->sent_first && c->kind == MX_API_CHAT) { /* at once: the client sees the answer has started */
    ch->sent_first = true;
    frame_json(c, mx_api_chunk_json(c->kind, &c->meta, i, "", 0, NULL, true, NULL));
    return true;
  }
  if (c->echo && !ch->echo_sent) return stream_echo(c, i, wait_ms);
  ch->text.len = 0;
  if (ch->text.data) ch->text.data[0] = '\0';
  bool done = mx_request_wait(ch->req, wait_ms, &ch->text);
  /* A chunk carries the text released since the last one and the entries of the tokens generated
   * since then: a token whose text is held back (part of a character, a possible stop string) has
   * its entry sent before its text. An entry that cannot be fetched (out of memory) is retried. */
  mx_api_logprobs_t lp = {0};
  if (c->logprobs) (void)take_logprobs(c, ch, &lp);
  const char *piece = ch->text.data;
  size_t piece_len = ch->text.len;
  if (c->tool_format) { /* text that may be a call is held back until the answer ends */
    mx_strbuf_append(&ch->all, piece ? piece : "", piece_len);
    if (c->tool_forced && !ch->all.failed) stream_forced_call(c, ch, i);
    size_t ready = c->tool_forced || ch->all.failed ? 0 : mx_tool_content_ready(c->tool_format, ch->all.data, ch->all.len);
    piece = ch->all.data + ch->all_sent;
    piece_len = ready > ch->all_sent ? ready - ch->all_sent : 0;
    ch->all_sent += piece_len;
  }
  bool sent = piece_len || lp.n;
  if (sent) frame_json(c, mx_api_chunk_json(c->kind, &c->meta, i, piece, piece_len, NULL, false, c->logprobs ? &lp : NULL));
  if (!done) return sent;
  ch->finished = true;
  record_generation(c, ch, NULL);
  mx_request_info_t info;
  mx_request_info(ch->req, &info);
  if (finished_well(info.finish)) {
    const char *calls = c->tool_format ? stream_calls(c, ch, i) : NULL;
    frame_json(c, mx_api_chunk_json(c->kind, &c->meta, i, NULL, 0, calls ? calls : mx_finish_name(info.finish), false, NULL));
  } else { /* the status line went out long ago: an error event is what clients understand */
    mx_api_error_t e;
    mx_status_t st = failure_of(ch, &e);
    frame_json(c, mx_api_error_json(st, &e));
    mx_status_free(st);
    for (int k = 0; k < c->n; k++) /* one failed choice ends the stream */
      if (!c->ch[k].finished) mx_request_cancel(c->ch[k].req), c->ch[k].finished = true;
    record_generations(c, "cancelled");
  }
  return true;
}

/* Produces the next framed bytes of a stream into c->pending: whatever the choices have, in turn
 * (one choice waits up to a heartbeat; several poll each other briefly), the usage chunk and [DONE]
 * once all have ended, or a comment when a heartbeat passed with nothing to send. */
static void stream_step(ctx_t *c) {
  bool sent = false, all_done = true;
  int wait_ms = c->n == 1 ? HEARTBEAT_MS : ECHO_POLL_MS;
  for (int i = 0; i < c->n; i++)
    if (!c->ch[i].finished) {
      sent |= stream_choice(c, i, sent ? 0 : wait_ms);
      all_done = all_done && c->ch[i].finished;
    }
  if (sent || all_done) c->last_sent = mx_now_ms();
  if (!all_done) {
    if (!sent && mx_now_ms() - c->last_sent >= HEARTBEAT_MS) {
      mx_sse_comment(&c->pending, "waiting");
      c->last_sent = mx_now_ms();
    }
    return;
  }
  c->finished = true;
  bool well = true;
  mx_api_usage_t usage = {0};
  for (int i = 0; i < c->n; i++) {
    mx_request_info_t info;
    mx_request_info(c->ch[i].req, &info);
    well = well && finished_well(info.finish);
    usage.prompt_tokens = info.prompt_tokens;
    if (i == 0) usage.cached_tokens = info.cached_tokens;
    usage.completion_tokens += info.completion_tokens;
  }
  if (well && c->include_usage) frame_json(c, mx_api_usage_chunk_json(c->kind, &c->meta, &usage));
  mx_sse_done(&c->pending);
}

static ssize_t stream_reader(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  ctx_t *c = cls;
  while (c->pending_off >= c->pending.len) {
    c->pending.len = c->pending_off = 0;
    if (c->finished) {
      c->ended = true;
      return MHD_CONTENT_READER_END_OF_STREAM;
    }
    if (client_gone(c->conn)) return MHD_CONTENT_READER_END_WITH_ERROR; /* the completion callback cancels */
    stream_step(c);
    if (c->pending.failed) return MHD_CONTENT_READER_END_WITH_ERROR;
  }
  size_t n = c->pending.len - c->pending_off;
  if (n > max) n = max;
  memcpy(buf, c->pending.data + c->pending_off, n);
  c->pending_off += n;
  return (ssize_t)n;
}

static enum MHD_Result answer_stream(ctx_t *c) {
  struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, stream_reader, c, NULL);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
  MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
  c->status = 200;
  answering(c);
  enum MHD_Result ret = queue_own(c->conn, MHD_HTTP_OK, r);
  MHD_destroy_response(r);
  return ret;
}

/* A chat request's tools against the model's template: a template that never mentions tools cannot
 * show them to the model, and calls are read back only in the formats tools.h parses. A forced call
 * (tool_choice required or a function) is decoded under its schema after the format's opening. */
static mx_status_t settle_tools(ctx_t *c, const mx_tokenizer_t *tok, const mx_api_request_t *ar, char **schema, const char **suffix,
                                mx_api_error_t *e) {
  if (!ar->n_tools) return NULL;
  mx_tool_format_t f = mx_tool_format_of(mx_tokenizer_chat_template(tok));
  const char *remedy = "serve the model with --chat-template FILE naming a template in a format this server parses "
                       "(hermes <tool_call> tags or Llama 3.1 JSON; docs/server.md), or leave tools out";
  mx_status_t st = NULL;
  if (f == MX_TOOL_FORMAT_NONE)
    st = mx_status_make(MX_STAGE_USAGE, remedy, "the model's chat template does not show tools to the model");
  else if (f == MX_TOOL_FORMAT_UNPARSED && ar->tool_choice != MX_TOOL_CHOICE_NONE)
    st = mx_status_make(MX_STAGE_USAGE, remedy, "the model's chat template writes tool calls in a format this server does not read back");
  if (st) {
    mx_api_error_for_status(e, st, "tools", "tools_not_supported");
    return st;
  }
  if (ar->tool_choice == MX_TOOL_CHOICE_NONE) return NULL;
  c->tool_format = f;
  c->tools = json_incref(json_object_get(ar->context, "tools"));
  c->tool_forced = ar->tool_choice == MX_TOOL_CHOICE_REQUIRED || ar->tool_choice == MX_TOOL_CHOICE_NAMED;
  if (!c->tool_forced) return NULL;
  *suffix = mx_tool_call_prefix(f);
  *schema = mx_tool_call_schema(f, c->tools, ar->tool_choice == MX_TOOL_CHOICE_NAMED ? ar->tool_named : -1);
  if (*schema) return NULL;
  st = mx_status_oom();
  mx_api_error_for_status(e, st, NULL, NULL);
  return st;
}

/* POST /v1/completions and /v1/chat/completions, once the body is in. */
static enum MHD_Result generate(ctx_t *c) {
  mx_server_t *s = c->srv;
  mx_api_kind_t kind = c->ep == MX_EP_CHAT ? MX_API_CHAT : MX_API_COMPLETION;
  mx_session_t *s0 = mx_fleet_session(c->fleet, 0); /* every device serves the same model */
  int capacity = mx_session_capacity(s0);
  int slots = mx_session_slots(s0);
  mx_api_limits_t lim = {.max_tokens = capacity, .vocab = mx_session_config(s0)->vocab,
                         .max_n = slots < MX_API_MAX_N ? (slots > 0 ? slots : 1) : MX_API_MAX_N};
  mx_api_request_t ar;
  mx_api_error_t e;
  mx_status_t st = mx_api_parse(kind, c->body.data ? c->body.data : "", c->body.len, &lim, &ar, &e);
  if (st) return queue_error(c, st, &e);
  if (ar.model && strcmp(ar.model, s->model_name) != 0) {
    st = mx_status_make(MX_STAGE_USAGE, "send the id GET /v1/models lists as model, or leave model out",
                        "the model '%.200s' does not exist; this server serves '%s'", ar.model, s->model_name);
    mx_api_request_free(&ar);
    return queue_refusal(c, 404, "model", "model_not_found", st);
  }
  const mx_tokenizer_t *tok = mx_session_tokenizer(s0);
  char *call_schema = NULL;
  const char *suffix = "";
  if (kind == MX_API_CHAT) st = settle_tools(c, tok, &ar, &call_schema, &suffix, &e);
  if (st) {
    mx_api_request_free(&ar);
    return queue_error(c, st, &e);
  }
  mx_ids_t ids = {0};
  if (ar.prompt_ids) { /* token ids are the prompt as given: no BOS added */
    for (size_t i = 0; !st && i < ar.n_prompt_ids; i++)
      if (!mx_ids_push(&ids, ar.prompt_ids[i])) st = mx_status_oom();
  } else {
    st = kind == MX_API_CHAT ? mx_prompt_encode_chat_context(tok, ar.context, suffix, &ids)
                             : mx_prompt_encode_text(tok, ar.prompt, ar.prompt_len, &ids);
  }
  if (!st && ar.echo) { /* the prompt as sent; token ids as their text */
    if (ar.prompt) mx_strbuf_append(&c->echo_text, ar.prompt, ar.prompt_len);
    else st = mx_tokenizer_decode(tok, ids.ids, ids.n, false, &c->echo_text);
    if (!st && c->echo_text.failed) st = mx_status_oom();
  }
  if (st) mx_api_error_for_status(&e, st, kind == MX_API_CHAT ? "messages" : "prompt", NULL);
  if (!st) st = mx_api_check_prompt((int)ids.n, capacity, &e);
  int bi = -1;
  bool stopping = atomic_load(&s->stopping);
  if (!st && (stopping || (bi = mx_fleet_pick(c->fleet, next_random(s))) < 0)) {
    st = stopping ? mx_status_make(MX_STAGE_BUSY, "retry on another server or later", "the server is shutting down")
                  : mx_status_make(MX_STAGE_DEVICE, "restart the server; its log says why each device failed",
                                   "every device of this server was given up after failing");
    mx_api_error_for_status(&e, st, NULL, stopping ? "shutting_down" : NULL);
  }
  if (st) {
    mx_ids_free(&ids);
    mx_api_request_free(&ar);
    free(call_schema);
    return queue_error(c, st, &e);
  }
  mx_request_params_t p = {.prompt = ids.ids, .n_prompt = (int)ids.n, .sampling = ar.sampling, .ignore_eos = ar.ignore_eos,
                           .logprobs = ar.logprobs, .top_logprobs = ar.top_logprobs,
                           .prompt_logprobs = ar.echo && ar.logprobs, .json_object = ar.json_object,
                           .json_schema = call_schema ? call_schema : ar.json_schema};
  /* OpenAI's defaults: 16 tokens for a completion; a chat answer may fill the context (the
   * scheduler ends it with "length" at the capacity). */
  p.max_tokens = ar.max_tokens ? ar.max_tokens : kind == MX_API_CHAT ? capacity : 16;
  if (!ar.has_seed) p.sampling.seed = next_random(s);
  for (int i = 0; i < ar.n_stops; i++) p.stops[i] = ar.stops[i];
  p.n_stops = ar.n_stops;
  /* n choices: n requests on one device, the first with the request's seed, the others with seeds
   * derived from it; the first prefills the prompt, and the others start from a copy of its KV rows
   * and its last logits while it runs (the scheduler falls back to a prefill of their own). */
  uint64_t seed = p.sampling.seed;
  for (int i = 0; !st && i < ar.n; i++) {
    p.sampling.seed = i ? mix64(seed + (uint64_t)i) : seed;
    p.share_count = i == 0 ? ar.n - 1 : 0;
    p.prompt_of = i == 0 ? NULL : c->ch[0].req;
    st = mx_sched_submit(mx_fleet_sched(c->fleet, bi), &p, &c->ch[i].req);
    if (!st) c->n = i + 1;
  }
  if (st) { /* all or none */
    for (int i = 0; i < c->n; i++) mx_request_release(c->ch[i].req), c->ch[i].req = NULL;
    c->n = 0;
  }
  if (!st) atomic_fetch_add(&s->routed[bi], 1);
  c->echo = ar.echo;
  c->echo_first = ids.ids[0];
  c->echo_bos = ar.prompt && mx_tokenizer_adds_bos(tok) && ids.n > 1 && ids.ids[0] == mx_tokenizer_bos(tok);
  mx_ids_free(&ids);
  free(call_schema);
  c->kind = kind;
  c->stream = ar.stream;
  c->include_usage = ar.include_usage;
  c->logprobs = ar.logprobs;
  mx_api_request_free(&ar);
  if (st) {
    mx_api_error_for_status(&e, st, NULL, NULL);
    return queue_error(c, st, &e);
  }
  snprintf(c->id, sizeof c->id, "%s-%016llx", kind == MX_API_CHAT ? "chatcmpl" : "cmpl", (unsigned long long)next_random(s));
  c->meta = (mx_api_meta_t){.id = c->id, .created = (long long)time(NULL), .model = s->model_name};
  atomic_fetch_add(&s->in_flight, 1);
  c->counted_in_flight = true;
  /* Generation can take longer than the idle timeout (which guards reading the request); the
   * stream writes at least once a heartbeat, so only the blocking answer needs it lifted. */
  if (!c->stream) {
    MHD_set_connection_option(c->conn, MHD_CONNECTION_OPTION_TIMEOUT, 0);
    return answer_whole(c);
  }
  return answer_stream(c);
}

/* --- the other endpoints --------------------------------------------------------------------- */

/* POST /tokenize: the ids of content (BOS when add_special and the model adds one), with each
 * token's text when with_pieces. */
static enum MHD_Result tokenize(ctx_t *c) {
  const mx_tokenizer_t *tok = mx_session_tokenizer(mx_fleet_session(c->fleet, 0));
  mx_api_tokenize_t t;
  mx_api_error_t e;
  mx_status_t st = mx_api_parse_tokenize(c->body.data ? c->body.data : "", c->body.len, &t, &e);
  if (st) return queue_error(c, st, &e);
  mx_ids_t ids = {0};
  bool with_pieces = t.with_pieces;
  st = mx_tokenizer_encode(tok, t.content, t.len, t.add_special, &ids);
  mx_api_tokenize_free(&t);
  if (st) {
    mx_api_error_for_status(&e, st, "content", NULL);
    return queue_error(c, st, &e);
  }
  const char **pieces = NULL;
  size_t *lens = NULL;
  if (with_pieces && ids.n) {
    pieces = calloc(ids.n, sizeof *pieces);
    lens = calloc(ids.n, sizeof *lens);
    for (size_t i = 0; pieces && lens && i < ids.n; i++) {
      pieces[i] = mx_tokenizer_token_bytes(tok, ids.ids[i], &lens[i]);
      if (!pieces[i]) pieces[i] = "", lens[i] = 0; /* cannot happen: the ids come from this tokenizer */
    }
  }
  char *json = with_pieces && ids.n && (!pieces || !lens) ? NULL
                                                          : mx_api_tokens_json(ids.ids, ids.n, with_pieces ? pieces : NULL, lens);
  free(pieces);
  free(lens);
  mx_ids_free(&ids);
  return queue_text(c, 200, "application/json", json);
}

/* POST /detokenize: the text of tokens, special tokens included (as llama.cpp). */
static enum MHD_Result detokenize(ctx_t *c) {
  const mx_tokenizer_t *tok = mx_session_tokenizer(mx_fleet_session(c->fleet, 0));
  mx_ids_t ids;
  mx_api_error_t e;
  mx_status_t st = mx_api_parse_detokenize(c->body.data ? c->body.data : "", c->body.len, mx_tokenizer_vocab_size(tok), &ids, &e);
  if (st) return queue_error(c, st, &e);
  mx_strbuf_t text;
  mx_strbuf_init(&text);
  st = mx_tokenizer_decode(tok, ids.ids, ids.n, false, &text);
  mx_ids_free(&ids);
  char *json = st || text.failed ? NULL : mx_api_text_json("content", text.data ? text.data : "", text.len);
  mx_strbuf_free(&text);
  if (st) {
    mx_api_error_for_status(&e, st, "tokens", NULL);
    return queue_error(c, st, &e);
  }
  return queue_text(c, 200, "application/json", json);
}

/* POST /apply-template: the prompt text a chat completion body's messages render to, through the
 * model's chat template with the assistant's generation prompt (what /v1/chat/completions encodes). */
static enum MHD_Result apply_template(ctx_t *c) {
  mx_session_t *s0 = mx_fleet_session(c->fleet, 0);
  mx_api_limits_t lim = {.max_tokens = mx_session_capacity(s0)};
  mx_api_request_t ar;
  mx_api_error_t e;
  mx_status_t st = mx_api_parse(MX_API_CHAT, c->body.data ? c->body.data : "", c->body.len, &lim, &ar, &e);
  if (st) return queue_error(c, st, &e);
  mx_strbuf_t text;
  mx_strbuf_init(&text);
  st = mx_prompt_render_chat_context(mx_session_tokenizer(s0), ar.context, "", &text);
  mx_api_request_free(&ar);
  char *json = st || text.failed ? NULL : mx_api_text_json("prompt", text.data ? text.data : "", text.len);
  mx_strbuf_free(&text);
  if (st) {
    mx_api_error_for_status(&e, st, "messages", NULL);
    return queue_error(c, st, &e);
  }
  return queue_text(c, 200, "application/json", json);
}

/* Submits one embedding request to scheduler `sched`, waiting for the earlier ones of the same body
 * (reqs[0..*oldest-1] done, reqs[*oldest..n-1] outstanding) while the queue is full: a body of many
 * inputs queues as far as the queue allows, not all at once. */
static mx_status_t submit_embedding(ctx_t *c, mx_sched_t *sched, const mx_request_params_t *p, mx_request_t **reqs, int n,
                                    int *oldest, bool *gone) {
  for (;;) {
    mx_status_t st = mx_sched_submit(sched, p, &reqs[n]);
    if (!st || mx_status_stage(st) != MX_STAGE_BUSY || *oldest >= n || atomic_load(&c->srv->stopping)) return st;
    mx_status_free(st);
    while (!mx_request_wait(reqs[*oldest], POLL_MS, NULL))
      if ((*gone = client_gone(c->conn))) return NULL;
    (*oldest)++;
  }
}

/* An input's token ids: its text encoded (with the special tokens the model adds, as a prompt), or
 * the ids it gave. */
static mx_status_t embedding_ids(const mx_tokenizer_t *tok, const mx_api_embedding_input_t *in, mx_ids_t *ids) {
  if (in->text) return mx_tokenizer_encode(tok, in->text, in->len, true, ids);
  for (size_t k = 0; k < in->n_ids; k++)
    if (!mx_ids_push(ids, in->ids[k])) return mx_status_oom();
  return NULL;
}

/* POST /v1/embeddings: each input is a request of its own on one device, taking a slot as a prompt
 * does (so it queues with the generations and is fair to them), prefilled by the pooled functions;
 * the answer waits for all of them. */
static enum MHD_Result embeddings(ctx_t *c) {
  mx_server_t *s = c->srv;
  mx_session_t *s0 = mx_fleet_session(c->fleet, 0);
  const mx_tokenizer_t *tok = mx_session_tokenizer(s0);
  const mx_model_config_t *cfg = mx_session_config(s0);
  if (!mx_session_has_embeddings(s0))
    return queue_refusal(c, 501, NULL, "embeddings_off",
                         mx_status_make(MX_STAGE_USAGE, "start the server with --embeddings", "this server computes no embeddings"));
  mx_api_embed_limits_t lim = {.vocab = mx_tokenizer_vocab_size(tok), .dim = cfg->dim};
  mx_api_embeddings_t in;
  mx_api_error_t e;
  mx_status_t st = mx_api_parse_embeddings(c->body.data ? c->body.data : "", c->body.len, &lim, &in, &e);
  if (st) return queue_error(c, st, &e);
  int n = (int)in.n, oldest = 0, submitted = 0, prompt_tokens = 0, capacity = mx_session_capacity(s0);
  mx_request_t **reqs = calloc((size_t)n, sizeof *reqs);
  const float **vectors = calloc((size_t)n, sizeof *vectors);
  int bi = mx_fleet_pick(c->fleet, next_random(s));
  if (!reqs || !vectors) st = mx_status_oom();
  else if (bi < 0 || atomic_load(&s->stopping))
    st = mx_status_make(MX_STAGE_BUSY, "retry on another server or later", "no device of this server can take requests now");
  bool gone = false;
  for (int i = 0; !st && !gone && i < n; i++) {
    mx_ids_t ids = {0};
    st = embedding_ids(tok, &in.in[i], &ids);
    if (!st && ((int)ids.n < 1 || (int)ids.n > capacity)) {
      st = mx_status_make(MX_STAGE_USAGE, "shorten it, or start the server with a larger --context",
                          "input[%d] is %zu tokens; this server takes 1 to %d (its context capacity)", i, ids.n, capacity);
      mx_api_error_for_status(&e, st, "input", "context_length_exceeded");
    } else if (st) {
      mx_api_error_for_status(&e, st, "input", NULL);
    }
    if (!st) {
      mx_request_params_t p = {.prompt = ids.ids, .n_prompt = (int)ids.n, .max_tokens = 1, .embed = true,
                               .sampling = {.temperature = 0, .top_p = 1, .repeat_penalty = 1}}; /* unused, but valid */
      st = submit_embedding(c, mx_fleet_sched(c->fleet, bi), &p, reqs, i, &oldest, &gone);
      if (st) mx_api_error_for_status(&e, st, NULL, NULL);
      else if (!gone) submitted++, prompt_tokens += (int)ids.n;
    }
    mx_ids_free(&ids);
  }
  if (st && (!reqs || !vectors || bi < 0)) mx_api_error_for_status(&e, st, NULL, NULL);
  for (int i = 0; !st && !gone && i < n; i++) {
    while (!gone && !mx_request_wait(reqs[i], POLL_MS, NULL)) gone = client_gone(c->conn);
    if (!gone && !(vectors[i] = mx_request_embedding(reqs[i]))) {
      char what[32];
      snprintf(what, sizeof what, "input[%d]", i);
      st = request_failure(reqs[i], what, &e);
    }
  }
  char *json = st || gone ? NULL : mx_api_embeddings_json(s->model_name, vectors, n, cfg->dim, in.base64, prompt_tokens);
  if (!st && !gone) atomic_fetch_add(&s->routed[bi], 1);
  if (!st && !gone && s->o.log_requests)
    mx_log(MX_LOG_INFO, "mlxcel-server: %s: %d input%s, %d tokens, total %.0f ms", mx_endpoint_label(c->ep), n, n == 1 ? "" : "s",
           prompt_tokens, mx_now_ms() - c->t0);
  for (int i = 0; i < submitted; i++) {
    mx_request_cancel(reqs[i]);
    mx_request_release(reqs[i]);
  }
  free(reqs);
  free(vectors);
  mx_api_embeddings_free(&in);
  if (gone) {
    mx_status_free(st);
    free(json);
    return MHD_NO; /* nobody to answer */
  }
  if (st) return queue_error(c, st, &e);
  if (!json) {
    st = mx_status_oom();
    mx_api_error_for_status(&e, st, NULL, NULL);
    return queue_error(c, st, &e);
  }
  return queue_text(c, 200, "application/json", json);
}

/* The truth about each device, from the schedulers' state (kept current by the idle probe and by
 * every device call; nothing here waits on a device): 200 "ok" when every device serves, 200
 * "degraded" when some do, 503 "loading" while the model compiles and loads, 503 "restarting" while
 * none does but one is restarting, 503 "unhealthy" when every device was given up, 503 "stopping"
 * during shutdown. */
static enum MHD_Result health(ctx_t *c) {
  mx_server_t *s = c->srv;
  int slots = 0, active = 0, queued = 0, healthy = 0, restarting = 0, n = c->fleet ? s->n_devices : 0;
  json_t *backends = json_array();
  for (int i = 0; i < n; i++) {
    mx_sched_stats_t st;
    mx_sched_stats(mx_fleet_sched(c->fleet, i), &st);
    slots += st.n_slots, active += st.active, queued += st.queued, healthy += st.healthy;
    restarting += st.state == MX_DEVICE_RESTARTING;
    json_array_append_new(backends, json_pack("{s:s,s:i,s:s,s:I,s:s?}", "device", mx_fleet_device(c->fleet, i), "backend", i,
                                              "state", mx_device_state_name(st.state), "restarts", (json_int_t)st.restarts,
                                              "last_failure", st.last_failure[0] ? st.last_failure : NULL));
  }
  bool stopping = atomic_load(&s->stopping);
  const char *status = stopping ? "stopping" : !c->fleet ? "loading" : healthy == n ? "ok" : healthy ? "degraded" : restarting ? "restarting" : "unhealthy";
  json_t *j = json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:o}", "status", status, "devices", n, "healthy_devices", healthy,
                        "slots", slots, "active", active, "queued", queued, "backends", backends ? backends : json_null());
  char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
  json_decref(j);
  return queue_text(c, !stopping && healthy > 0 ? 200 : 503, "application/json", text);
}

static enum MHD_Result metrics(ctx_t *c) {
  mx_server_t *s = c->srv;
  int n = c->fleet ? s->n_devices : 0; /* none while the model loads */
  mx_metrics_device_t d[n > 0 ? n : 1];
  for (int i = 0; i < n; i++) {
    mx_sched_t *sched = mx_fleet_sched(c->fleet, i);
    mx_sched_stats_t st;
    mx_sched_stats(sched, &st);
    /* The memory figures are the engine's last reading between device calls: a scrape never waits
     * on a device (a hung one would hold it for the worker's call timeout). A device that is not
     * ready has none: they are left out rather than shown as 0. */
    d[i] = (mx_metrics_device_t){.device = mx_fleet_device(c->fleet, i), .slots = st.n_slots, .active = st.active,
                                 .queued = st.queued, .healthy = st.healthy, .requests = atomic_load(&s->routed[i]),
                                 .state = (int)st.state, .restarts = st.restarts, .request_errors = st.request_errors,
                                 .has_memory = st.has_memory, .device_bytes = (int64_t)st.device_bytes,
                                 .device_bytes_peak = (int64_t)st.device_bytes_peak};
  }
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  mx_metrics_render(s->metrics, d, n, &b);
  return queue_text(c, 200, "text/plain; version=0.0.4; charset=utf-8", mx_strbuf_take(&b));
}

/* GET /: the chat page (server/chat_page.h). Its script and style are inline and it fetches only from
 * this origin, which the policy states, so an injected script or a foreign request is refused. */
static enum MHD_Result page(ctx_t *c) {
  struct MHD_Response *r =
      MHD_create_response_from_buffer(strlen(mx_chat_page_html), (void *)mx_chat_page_html, MHD_RESPMEM_PERSISTENT);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/html; charset=utf-8");
  MHD_add_response_header(r, "Content-Security-Policy",
                          "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
                          "frame-ancestors 'none'");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  c->status = 200;
  answering(c);
  enum MHD_Result ret = queue_own(c->conn, MHD_HTTP_OK, r);
  MHD_destroy_response(r);
  return ret;
}

/* --- routing --------------------------------------------------------------------------------- */

static mx_endpoint_t route(const char *url) {
  if (!strcmp(url, "/v1/completions")) return MX_EP_COMPLETIONS;
  if (!strcmp(url, "/v1/chat/completions")) return MX_EP_CHAT;
  if (!strcmp(url, "/v1/models")) return MX_EP_MODELS;
  if (!strcmp(url, "/health")) return MX_EP_HEALTH;
  if (!strcmp(url, "/")) return MX_EP_PAGE;
  if (!strcmp(url, "/metrics")) return MX_EP_METRICS;
  if (!strcmp(url, "/tokenize")) return MX_EP_TOKENIZE;
  if (!strcmp(url, "/detokenize")) return MX_EP_DETOKENIZE;
  if (!strcmp(url, "/apply-template")) return MX_EP_APPLY_TEMPLATE;
  if (!strcmp(url, "/v1/embeddings")) return MX_EP_EMBEDDINGS;
  return MX_EP_OTHER;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                               const char *version, const char *upload_data, size_t *upload_size, void **con_cls) {
  (void)version;
  mx_server_t *s = cls;
  ctx_t *c = *con_cls;
  if (!c) { /* the headers are in: decide what can be decided before reading any body */
    conn_entry_t *e = conn_entry(conn);
    pthread_mutex_lock(&s->conns_mu);
    bool dropped = e && e->dropped;
    pthread_mutex_unlock(&s->conns_mu);
    if (dropped) return MHD_NO; /* refused already (its 408 or 429 is written): serve nothing on it */
    c = calloc(1, sizeof *c);
    if (!c) return MHD_NO;
    c->srv = s;
    c->conn = conn;
    c->ep = route(url);
    c->fleet = atomic_load(&s->fleet);
    c->t0 = mx_now_ms();
    mx_strbuf_init(&c->body);
    for (int i = 0; i < MX_API_MAX_N; i++) mx_strbuf_init(&c->ch[i].text), mx_strbuf_init(&c->ch[i].all);
    mx_strbuf_init(&c->echo_text);
    mx_strbuf_init(&c->pending);
    *con_cls = c;
    bool post_ep = c->ep == MX_EP_COMPLETIONS || c->ep == MX_EP_CHAT || c->ep == MX_EP_TOKENIZE ||
                   c->ep == MX_EP_DETOKENIZE || c->ep == MX_EP_APPLY_TEMPLATE || c->ep == MX_EP_EMBEDDINGS;
    if (c->ep == MX_EP_OTHER) {
      c->refused = true;
      return queue_refusal(c, 404, NULL, "not_found",
                           mx_status_make(MX_STAGE_USAGE,
                                          "use / (the chat page), /v1/completions, /v1/chat/completions, /v1/embeddings, /v1/models, "
                                          "/tokenize, /detokenize, /apply-template, /health or /metrics",
                                          "no such endpoint: %s %.200s", method, url));
    }
    if (strcmp(method, post_ep ? "POST" : "GET") != 0) {
      c->refused = true;
      return queue_refusal(c, 405, NULL, "method_not_allowed",
                           mx_status_make(MX_STAGE_USAGE, "resend the request with that method", "%s takes %s, not %s", url,
                                          post_ep ? "POST" : "GET", method));
    }
    /* Every endpoint but the probes and the page needs the key (the utility ones cost the server work
     * too); the page holds nothing secret, and the requests it makes carry the key the user types. */
    if (c->ep != MX_EP_HEALTH && c->ep != MX_EP_METRICS && c->ep != MX_EP_PAGE && !authorized(s, conn)) {
      c->refused = true;
      return queue_refusal(c, 401, NULL, "invalid_api_key",
                           mx_status_make(MX_STAGE_USAGE, "send the header 'Authorization: Bearer KEY' with the server's --api-key",
                                          "missing or incorrect API key"));
    }
    /* Until the model is loaded only the probes and the model list answer (orchestrators probe
     * /health; a request sent early is told to retry rather than held for minutes of compiling). */
    if (!c->fleet && post_ep) {
      c->refused = true;
      return queue_refusal(c, 503, NULL, "loading",
                           mx_status_make(MX_STAGE_BUSY, "retry when GET /health answers 200",
                                          "the model is still loading (compiling its graph and loading its weights)"));
    }
    const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (cl && strtoull(cl, NULL, 10) > s->o.max_body) {
      c->refused = true;
      return queue_refusal(c, 413, NULL, "request_too_large",
                           mx_status_make(MX_STAGE_USAGE, MAX_BODY_REMEDY, "the body is %s bytes; this server accepts at most %zu (--max-body)",
                                          cl, s->o.max_body));
    }
    return MHD_YES;
  }
  if (c->refused) { /* an answer is queued; drop whatever body still arrives */
    *upload_size = 0;
    return MHD_YES;
  }
  if (*upload_size) { /* a piece of the body */
    /* A body without Content-Length (chunked) can only be found too big while it arrives. MHD
     * takes an answer only once the body is in, so the rest is read and dropped, up to a bound
     * past which the connection is simply closed. */
    if (c->too_big || c->body.len + *upload_size > s->o.max_body) {
      if (!c->too_big) mx_strbuf_free(&c->body);
      c->too_big = true;
      c->discarded += *upload_size;
      *upload_size = 0;
      return c->discarded > 16 * (uint64_t)s->o.max_body ? MHD_NO : MHD_YES;
    }
    mx_strbuf_append(&c->body, upload_data, *upload_size);
    *upload_size = 0;
    return c->body.failed ? MHD_NO : MHD_YES;
  }
  if (c->too_big)
    return queue_refusal(c, 413, NULL, "request_too_large",
                         mx_status_make(MX_STAGE_USAGE, MAX_BODY_REMEDY, "the body is over %zu bytes, the most this server accepts (--max-body)",
                                        s->o.max_body));
  /* The whole request is in: from here the connection is the answer's. A non-streamed generation blocks
   * this thread until its answer is queued, and the request deadline (--request-timeout, which bounds
   * how long a request may take to *arrive*) must not cut it off with a 408 meanwhile. */
  answering(c);
  switch (c->ep) {
  case MX_EP_COMPLETIONS:
  case MX_EP_CHAT: return generate(c);
  case MX_EP_MODELS: {
    const char *names[1] = {s->model_name};
    return queue_text(c, 200, "application/json", mx_api_models_json(names, 1, s->started));
  }
  case MX_EP_HEALTH: return health(c);
  case MX_EP_METRICS: return metrics(c);
  case MX_EP_TOKENIZE: return tokenize(c);
  case MX_EP_DETOKENIZE: return detokenize(c);
  case MX_EP_APPLY_TEMPLATE: return apply_template(c);
  case MX_EP_EMBEDDINGS: return embeddings(c);
  case MX_EP_PAGE: return page(c);
  default: return MHD_NO;
  }
}

/* MHD calls this when a request ends for any reason: normal completion, client abort, timeout,
 * daemon shutdown. A generation still running is cancelled here, which frees its slot. */
static void completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe) {
  mx_server_t *s = cls;
  ctx_t *c = *con_cls;
  /* The next request on a kept-alive connection may start arriving now: its deadline starts too. */
  conn_entry_t *e = conn_entry(conn);
  if (e) {
    pthread_mutex_lock(&s->conns_mu);
    e->reading = true;
    e->since = mx_now_ms();
    pthread_mutex_unlock(&s->conns_mu);
  }
  if (!c) return;
  *con_cls = NULL;
  /* A blocking answer lifted the idle timeout; a kept-alive connection gets it back. */
  if (c->n && !c->stream) MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned)s->o.timeout_s);
  for (int i = 0; i < c->n; i++) {
    if (!c->ended || toe != MHD_REQUEST_TERMINATED_COMPLETED_OK) mx_request_cancel(c->ch[i].req);
    record_generation(c, &c->ch[i], c->ch[i].finished || c->finished ? NULL : "cancelled");
    mx_request_release(c->ch[i].req);
  }
  /* A request MHD dropped before an answer (client gone mid-body, out of memory) has status 0. */
  if (c->status) mx_metrics_request(s->metrics, c->ep, c->status);
  if (c->counted_in_flight) atomic_fetch_sub(&s->in_flight, 1);
  mx_strbuf_free(&c->body);
  for (int i = 0; i < MX_API_MAX_N; i++) {
    mx_strbuf_free(&c->ch[i].text);
    mx_strbuf_free(&c->ch[i].all);
    mx_logprob_list_free(&c->ch[i].lp);
  }
  mx_strbuf_free(&c->echo_text);
  json_decref(c->tools);
  mx_strbuf_free(&c->pending);
  free(c);
}

/* --- lifecycle ------------------------------------------------------------------------------- */

mx_status_t mx_server_start(const mx_server_options_t *o, mx_server_t **out) {
  *out = NULL;
  if (o->fleet && mx_fleet_size(o->fleet) < 1) return mx_status_make(MX_STAGE_INTERNAL, NULL, "the server needs at least one device");
  if (o->api_key && !o->api_key[0])
    return mx_status_make(MX_STAGE_USAGE, "give --api-key (or MLXCEL_API_KEY) a non-empty key, or neither to serve without one",
                          "the API key is empty: it would switch authentication off");
  mx_server_t *s = calloc(1, sizeof *s);
  if (!s) return mx_status_oom();
  s->o = *o;
  if (s->o.request_timeout_s <= 0) s->o.request_timeout_s = 30;
  pthread_mutex_init(&s->conns_mu, NULL);
  pthread_cond_init(&s->conns_cv, NULL);
  s->host = strdup(o->host ? o->host : "127.0.0.1");
  s->api_key = o->api_key ? strdup(o->api_key) : NULL;
  s->model_name = strdup(o->model_name ? o->model_name : "model");
  s->metrics = mx_metrics_create();
  if (!s->host || !s->model_name || !s->metrics || (o->api_key && !s->api_key)) {
    mx_server_stop(s);
    return mx_status_oom();
  }
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  s->boot = mix64((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec) ^ mix64((uint64_t)getpid());
  s->started = (long long)ts.tv_sec;

  char port[16];
  snprintf(port, sizeof port, "%d", o->port);
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *ai = NULL;
  int gai = getaddrinfo(s->host, port, &hints, &ai);
  if (gai) {
    mx_status_t st = mx_status_make(MX_STAGE_USAGE, "give --host a numeric address such as 127.0.0.1 or ::1",
                                    "cannot resolve --host '%s': %s", s->host, gai_strerror(gai));
    mx_server_stop(s);
    return st;
  }
  unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_USE_POLL;
  if (ai->ai_family == AF_INET6) flags |= MHD_USE_IPv6;
  s->max_conns = o->max_connections > 0 ? o->max_connections : 256;
  s->per_client = o->max_connections_per_client > 0 ? o->max_connections_per_client : s->max_conns;
  /* MHD's own limit is only the backstop of the one above (a thread each): room for a burst of
   * refusals whose threads have not closed them yet. */
  unsigned mhd_limit = (unsigned)s->max_conns * 2u + 64u;
  if (pthread_create(&s->watchdog, NULL, watchdog_main, s) != 0) {
    freeaddrinfo(ai);
    mx_server_stop(s);
    return mx_status_make(MX_STAGE_IO, "lower the number of threads or processes on this host (ulimit -u)", "cannot start the connection watchdog");
  }
  s->watchdog_started = true;
  s->mhd = MHD_start_daemon(flags, (uint16_t)o->port, NULL, NULL, handler, s, MHD_OPTION_SOCK_ADDR, ai->ai_addr,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, s, MHD_OPTION_NOTIFY_CONNECTION, notify_connection, s,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)(o->timeout_s > 0 ? o->timeout_s : 30),
                            MHD_OPTION_CONNECTION_LIMIT, mhd_limit, MHD_OPTION_END);
  freeaddrinfo(ai);
  if (!s->mhd) {
    mx_status_t st = mx_status_make(MX_STAGE_IO, "pick another --port (0 picks a free one) or --host",
                                    "cannot listen on %s port %d (in use, or not an address of this machine)", s->host, o->port);
    mx_server_stop(s);
    return st;
  }
  const union MHD_DaemonInfo *di = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
  s->port = di ? di->port : o->port;
  if (o->fleet) {
    mx_status_t st = mx_server_ready(s, o->fleet);
    if (st) {
      mx_server_stop(s);
      return st;
    }
  }
  *out = s;
  return NULL;
}

mx_status_t mx_server_ready(mx_server_t *s, mx_fleet_t *f) {
  if (!f || mx_fleet_size(f) < 1) return mx_status_make(MX_STAGE_INTERNAL, NULL, "the server needs at least one device");
  if (atomic_load(&s->fleet)) return mx_status_make(MX_STAGE_INTERNAL, NULL, "the server's model is loaded already");
  s->n_devices = mx_fleet_size(f);
  if (!(s->routed = calloc((size_t)s->n_devices, sizeof *s->routed))) return mx_status_oom();
  atomic_store(&s->fleet, f); /* publishes n_devices and routed with it */
  return NULL;
}

int mx_server_port(const mx_server_t *s) { return s->port; }

void mx_server_quiesce(mx_server_t *s) {
  atomic_store(&s->stopping, true);
  MHD_socket fd = MHD_quiesce_daemon(s->mhd);
  if (fd != MHD_INVALID_SOCKET) close(fd);
}

int mx_server_drain(mx_server_t *s, int timeout_ms) {
  double end = mx_now_ms() + timeout_ms;
  while (atomic_load(&s->in_flight) > 0 && mx_now_ms() < end) usleep(10000);
  return atomic_load(&s->in_flight);
}

void mx_server_stop(mx_server_t *s) {
  if (!s) return;
  if (s->mhd) MHD_stop_daemon(s->mhd);
  if (s->watchdog_started) {
    pthread_mutex_lock(&s->conns_mu);
    s->watchdog_stop = true;
    pthread_cond_signal(&s->conns_cv);
    pthread_mutex_unlock(&s->conns_mu);
    pthread_join(s->watchdog, NULL);
  }
  pthread_mutex_destroy(&s->conns_mu);
  pthread_cond_destroy(&s->conns_cv);
  mx_metrics_destroy(s->metrics);
  free(s->routed);
  free(s->host);
  free(s->api_key);
  free(s->model_name);
  free(s);
}
