/* mlxcel serve (also installed as mlxcel-server): the OpenAI-compatible HTTP server. One session and
 * scheduler per device (data parallel); the HTTP front sends each request to the least loaded. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "cli/cli.h"
#include "engine/fleet.h"
#include "server/http.h"

#define MAX_DEVICES MX_FLEET_MAX_DEVICES

typedef struct {
  mx_session_options_t so; /* device filled per backend */
  const char *devices[MAX_DEVICES];
  int n_devices;
  char *devices_text; /* --devices, split in place */
  const char *host, *api_key, *model_name;
  long port, slots, queue, max_body, timeout_s, shutdown_s, max_connections;
  long request_timeout_s, max_per_client, probe_interval_s, max_restarts;
  bool quiet, prefix_reuse;
} serve_args_t;

/* The command line as the option table reads it; parse_args turns it into serve_args_t. */
typedef struct {
  mx_cli_session_args_t s;
  const char *model_name, *host, *api_key, *devices;
  long port, queue, max_body, timeout_s, max_connections, shutdown_s;
  long request_timeout_s, max_per_client, probe_interval_s, max_restarts;
  int quiet, no_prefix_reuse, embeddings;
} serve_opts_t;

#define SERVE_ROW(field, ...) MX_OPT_ROW(serve_opts_t, field, __VA_ARGS__)
static const mx_opt_t serve_rows[] = {
    SERVE_ROW(model_name, .name = "--model-name", .metavar = "NAME",
              .help = "the model id of /v1/models and requests (without it: the model file's base name)"),
    SERVE_ROW(host, .name = "--host", .metavar = "ADDR", .def = "127.0.0.1",
              .help = "address to bind (0.0.0.0 or :: for every interface)"),
    SERVE_ROW(port, .name = "--port", .kind = MX_OPT_INT, .metavar = "N", .lo = 0, .hi = 65535, .def = "8080",
              .help = "TCP port (0 picks a free port and prints it)"),
    SERVE_ROW(api_key, .name = "--api-key", .metavar = "KEY", .env = "MLXCEL_API_KEY",
              .help = "require 'Authorization: Bearer KEY' on every endpoint but /health and /metrics (the variable keeps the key out of ps)"),
    SERVE_ROW(devices, .name = "--devices", .metavar = "URI,URI,...", .excludes = "--device",
              .help = "data parallel: one model copy per device, requests go to the least loaded"),
    SERVE_ROW(queue, .name = "--queue", .kind = MX_OPT_INT, .metavar = "N", .lo = 0, .hi = 1 << 20, .def = "64",
              .help = "requests that may wait for a slot per device; beyond, 503"),
    SERVE_ROW(max_body, .name = "--max-body", .kind = MX_OPT_INT, .metavar = "BYTES", .lo = 256, .hi = 1L << 30,
              .def = "1048576", .help = "largest request body; larger gets 413"),
    SERVE_ROW(timeout_s, .name = "--timeout", .kind = MX_OPT_INT, .metavar = "S", .lo = 1, .hi = 86400, .def = "30",
              .help = "idle connection timeout in seconds: silent clients are dropped"),
    SERVE_ROW(request_timeout_s, .name = "--request-timeout", .kind = MX_OPT_INT, .metavar = "S", .lo = 1, .hi = 86400,
              .def = "30", .help = "a request's headers and body must arrive within S seconds (of the connection opening or "
                                   "its previous answer), else 408 and the connection is closed: bounds slow-loris clients"),
    SERVE_ROW(max_connections, .name = "--max-connections", .kind = MX_OPT_INT, .metavar = "N", .lo = 1, .hi = 4096,
              .def = "256", .help = "open connections at most (one thread each); beyond, a new one gets 503 "
                                    "too_many_connections and is closed"),
    SERVE_ROW(max_per_client, .name = "--max-connections-per-client", .kind = MX_OPT_INT, .metavar = "N", .lo = 1,
              .hi = 4096, .def = "128", .help = "open connections per client address at most; beyond, a new one gets 429 "
                                               "(behind a reverse proxy every client has the proxy's address: raise it)"),
    SERVE_ROW(probe_interval_s, .name = "--probe-interval", .kind = MX_OPT_INT, .metavar = "S", .lo = 0, .hi = 3600,
              .def = "5", .help = "ping an idle device worker every S seconds, so a dead or hung one is found and "
                                  "restarted before a request needs it (0: off)"),
    SERVE_ROW(max_restarts, .name = "--max-restarts", .kind = MX_OPT_INT, .metavar = "N", .lo = 0, .hi = 100, .def = "3",
              .help = "restart a lost device worker up to N times in a row, with back-off, before giving the device up "
                      "(0: give it up at once)"),
    SERVE_ROW(shutdown_s, .name = "--shutdown-timeout", .kind = MX_OPT_INT, .metavar = "S", .lo = 0, .hi = 3600,
              .def = "10", .help = "on SIGINT/SIGTERM, let running requests finish this long"),
    SERVE_ROW(no_prefix_reuse, .name = "--no-prefix-reuse", .kind = MX_OPT_SWITCH,
              .help = "prefill every prompt from its start (by default a prompt that starts with whole 512-token chunks "
                      "a free slot still holds goes to that slot and prefills only the rest)"),
    SERVE_ROW(embeddings, .name = "--embeddings", .kind = MX_OPT_SWITCH,
              .help = "answer POST /v1/embeddings (the mean of the final hidden states, unit length; compiles the "
                      "pooled prefill functions too, so the first compile takes longer)"),
    SERVE_ROW(quiet, .name = "--quiet", .kind = MX_OPT_SWITCH, .help = "no per-request log line on stderr"),
};

/* A server batches the requests that arrive together; one slot would serialize them. */
static const mx_opt_default_t serve_defaults[] = {{"--slots", "4", "requests arrive together"}, {NULL}};

static mx_opt_cmd_t serve_cmd(serve_opts_t *o, const char *prog) {
  return (mx_opt_cmd_t){
      .prog = prog,
      .synopsis = "-m MODEL [options]",
      .about = "Serves a model over an OpenAI-compatible HTTP API: POST /v1/completions, POST /v1/chat/completions "
               "(streaming with stream=true), POST /v1/embeddings (with --embeddings), GET /v1/models, POST /tokenize, "
               "/detokenize and /apply-template, GET /health, GET /metrics (Prometheus), the chat page at /. See docs/server.md.",
      .sets = {mx_cli_session_set(&o->s, MX_CLI_MODEL), MX_OPT_SET(serve_rows, o),
               mx_cli_session_set(&o->s, MX_CLI_DEVICE | MX_CLI_GRAPH | MX_CLI_SLOTS | MX_CLI_VMFB)},
      .defaults = serve_defaults,
  };
}

static void help(const char *prog) {
  serve_opts_t o;
  mx_opt_cmd_t c = serve_cmd(&o, prog);
  mx_opt_help(&c, stdout);
}

static mx_status_t split_devices(serve_args_t *a, const char *list) {
  free(a->devices_text);
  a->devices_text = strdup(list);
  if (!a->devices_text) return mx_status_oom();
  a->n_devices = 0;
  char *save = NULL;
  for (char *d = strtok_r(a->devices_text, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
    while (*d == ' ') d++;
    if (!*d) continue;
    if (a->n_devices == MAX_DEVICES)
      return mx_status_make(MX_STAGE_USAGE, "serve at most 16 devices from one server; run more servers behind a load balancer", "--devices lists more than %d devices", MAX_DEVICES);
    a->devices[a->n_devices++] = d;
  }
  if (!a->n_devices) return mx_status_make(MX_STAGE_USAGE, "e.g. --devices cuda://0,cuda://1", "--devices lists no device");
  return NULL;
}

static mx_status_t parse_args(int argc, char **argv, serve_args_t *a, int *want_help) {
  serve_opts_t o = {0};
  mx_opt_cmd_t c = serve_cmd(&o, "mlxcel serve");
  bool help = false;
  MX_RETURN_IF_ERROR(mx_opt_parse(&c, argc, argv, &help));
  if (help) {
    *want_help = 1;
    return NULL;
  }
  MX_RETURN_IF_ERROR(mx_cli_session_options(&o.s, &a->so));
  a->model_name = o.model_name;
  a->host = o.host;
  a->api_key = o.api_key;
  a->port = o.port;
  a->slots = o.s.slots;
  a->queue = o.queue;
  a->max_body = o.max_body;
  a->timeout_s = o.timeout_s;
  a->max_connections = o.max_connections;
  a->request_timeout_s = o.request_timeout_s;
  a->max_per_client = o.max_per_client;
  a->probe_interval_s = o.probe_interval_s;
  a->max_restarts = o.max_restarts;
  a->prefix_reuse = !o.no_prefix_reuse;
  a->so.embeddings = o.embeddings;
  /* An empty key would switch authentication off: refused here, before anything is compiled. The
   * option table reads an empty variable as unset; for the key that is the dangerous case
   * (MLXCEL_API_KEY=$KEY with KEY unset), so it is refused too. */
  const char *key_env = getenv("MLXCEL_API_KEY");
  if ((a->api_key && !a->api_key[0]) || (!a->api_key && key_env && !key_env[0]))
    return mx_status_make(MX_STAGE_USAGE, "give --api-key (or MLXCEL_API_KEY) a non-empty key, or neither to serve without one",
                          "the API key is empty: it would switch authentication off");
  a->shutdown_s = o.shutdown_s;
  a->quiet = o.quiet;
  return split_devices(a, o.devices ? o.devices : a->so.device);
}

/* The model id when --model-name is not given: the file's (or directory's) base name. */
static void default_model_name(const char *path, char *out, size_t cap) {
  size_t n = strlen(path);
  while (n > 1 && path[n - 1] == '/') n--;
  size_t b = n;
  while (b > 0 && path[b - 1] != '/') b--;
  snprintf(out, cap, "%.*s", (int)(n - b), path + b);
}

static mx_status_t serve(serve_args_t *a) {
  /* SIGINT/SIGTERM are taken by the watcher thread's sigwait (base/interrupt.h): blocked before any
   * other thread or worker exists, every thread inherits the mask, and so do the device workers (a
   * terminal's Ctrl-C reaches the whole process group; the workers must outlive the drain). It runs
   * from here on, so a signal during start-up stops the compile or weight preparation (exit 130).
   * SIGPIPE: a client that hangs up must not kill the server. */
  mx_status_t wst = mx_interrupt_watch_start();
  if (wst) return wst;
  signal(SIGPIPE, SIG_IGN);

  char name[256];
  if (a->model_name) snprintf(name, sizeof name, "%s", a->model_name);
  else default_model_name(a->so.model_path, name, sizeof name);
  if (!name[0]) return mx_status_make(MX_STAGE_USAGE, "give --model-name a non-empty id", "--model-name is empty");

  /* The key stays in this process: the device workers and the compiler inherit the environment,
   * and have no use for it. */
  char *key = a->api_key ? strdup(a->api_key) : NULL;
  if (a->api_key && !key) return mx_status_oom();
  unsetenv("MLXCEL_API_KEY");

  /* The port is bound first: a port in use is found before minutes of compiling, and orchestrators
   * can probe /health (503 "loading") while the model compiles and loads. */
  const char *host = a->host ? a->host : "127.0.0.1";
  bool v6 = strchr(host, ':') != NULL;
  mx_server_t *srv = NULL;
  mx_server_options_t o = {.host = host, .port = (int)a->port, .api_key = key, .model_name = name, .max_body = (size_t)a->max_body,
                           .timeout_s = (int)a->timeout_s, .request_timeout_s = (int)a->request_timeout_s,
                           .max_connections = (int)a->max_connections, .max_connections_per_client = (int)a->max_per_client,
                           .log_requests = !a->quiet};
  mx_status_t st = mx_server_start(&o, &srv);
  free(key); /* the server keeps its own copy */
  if (st) {
    mx_interrupt_watch_stop();
    return st;
  }
  fprintf(stderr, "mlxcel-server: loading the model; http://%s%s%s:%d/health answers 503 until it is ready\n", v6 ? "[" : "", host,
          v6 ? "]" : "", mx_server_port(srv));
  fflush(stderr);
  /* Sessions are started in this thread: a worker is tied to the thread that started it. */
  mx_fleet_t *f = NULL;
  mx_fleet_options_t fo = {.session = a->so, .devices = a->devices, .n_devices = a->n_devices, .queue_max = (int)a->queue,
                           .probe_interval_ms = (int)a->probe_interval_s * 1000, .max_restarts = (int)a->max_restarts, .prefix_reuse = a->prefix_reuse};
  st = mx_fleet_create(&fo, &f);
  if (!st) st = mx_interrupt_status("starting the server", "stopped it before it listened"); /* a step that does not poll */
  if (!st) st = mx_server_ready(srv, f);
  if (st) {
    mx_server_stop(srv);
    mx_fleet_destroy(f);
    mx_interrupt_watch_stop();
    return st;
  }
  char devs[512] = "";
  int n = mx_fleet_size(f), slots = mx_fleet_slots(f);
  for (int i = 0; i < n; i++)
    snprintf(devs + strlen(devs), sizeof devs - strlen(devs), "%s%s", i ? " + " : "", mx_fleet_device(f, i));
  fprintf(stderr, "mlxcel-server: listening on http://%s%s%s:%d (model %s, device%s %s, %d slot%s, %s)\n", v6 ? "[" : "",
          host, v6 ? "]" : "", mx_server_port(srv), name, n > 1 ? "s" : "", devs, slots, slots == 1 ? "" : "s",
          a->api_key ? "API key required" : "no API key: the API is open to whoever reaches the port");
  fflush(stderr);

  int sig = mx_interrupt_watch_wait();
  fprintf(stderr, "mlxcel-server: %s: no new connections; letting running requests finish (up to %ld s)\n",
          sig == SIGINT ? "SIGINT" : "SIGTERM", a->shutdown_s);
  mx_server_quiesce(srv);
  double t0 = mx_now_ms();
  mx_fleet_drain(f, (int)a->shutdown_s * 1000);
  /* Every request has ended now; give their answers a moment to reach the clients. */
  int open = mx_server_drain(srv, 2000);
  mx_server_stop(srv);
  mx_fleet_destroy(f);
  fprintf(stderr, "mlxcel-server: stopped after %.0f ms%s\n", mx_now_ms() - t0, open ? " (some answers were cut off)" : "");
  return NULL;
}

int mx_cmd_serve(int argc, char **argv) {
  serve_args_t a = {0};
  int want_help = 0;
  mx_status_t st = parse_args(argc, argv, &a, &want_help);
  if (!st && want_help) help(strstr(argv[0], "mlxcel-server") ? "mlxcel-server" : "mlxcel serve");
  else if (!st) st = serve(&a);
  free(a.devices_text);
  return mx_cli_report(st);
}
