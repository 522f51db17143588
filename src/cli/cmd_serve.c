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
  bool quiet;
} serve_args_t;

static void help(const char *prog) {
  printf("usage: %s -m MODEL [options]\n\n"
         "Serves a model over an OpenAI-compatible HTTP API: POST /v1/completions, POST /v1/chat/completions\n"
         "(streaming with stream=true), GET /v1/models, GET /health, GET /metrics (Prometheus). See docs/server.md.\n\n"
         "  -m, --model PATH        HF model directory or GGUF file\n"
         "  --model-name NAME       the model id of /v1/models and requests (default: the model file's base name)\n"
         "  --host ADDR             address to bind (default 127.0.0.1; 0.0.0.0 or :: for every interface)\n"
         "  --port N                TCP port (default 8080; 0 picks a free port and prints it)\n"
         "  --api-key KEY           require 'Authorization: Bearer KEY' on /v1/* (or MLXCEL_API_KEY)\n"
         "  --device URI            MLXCEL_XLA_DEVICE (default local-task)\n"
         "  --devices URI,URI,...   data parallel: one model copy per device, requests go to the least loaded\n"
         "  --slots N               sequences decoded together per device, 1 to 8 (default 4)\n"
         "  --context N             MLXCEL_XLA_CONTEXT_CAPACITY: KV positions per sequence (default 512)\n"
         "  --precision P           MLXCEL_XLA_PRECISION: f32 (default), f16, bf16\n"
         "  --cuda-target sm_XY, --rocm-target gfxNNNN   explicit GPU compile targets\n"
         "  --vmfb PATH             a module from `mlxcel compile` instead of compiling (same model and settings)\n"
         "  --queue N               requests that may wait for a slot per device (default 64); beyond, 503\n"
         "  --max-body BYTES        largest request body (default 1048576); larger gets 413\n"
         "  --timeout S             idle connection timeout in seconds (default 30): slow clients are dropped\n"
         "  --max-connections N     open connections at most (default 256; one thread each)\n"
         "  --shutdown-timeout S    on SIGINT/SIGTERM, let running requests finish this long (default 10)\n"
         "  --quiet                 no per-request log line on stderr\n",
         prog);
}

static mx_status_t split_devices(serve_args_t *a, const char *list) {
  free(a->devices_text);
  a->devices_text = strdup(list);
  if (!a->devices_text) return mx_status_make(MX_STAGE_IO, NULL, "out of memory");
  a->n_devices = 0;
  char *save = NULL;
  for (char *d = strtok_r(a->devices_text, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
    while (*d == ' ') d++;
    if (!*d) continue;
    if (a->n_devices == MAX_DEVICES)
      return mx_status_make(MX_STAGE_USAGE, NULL, "--devices lists more than %d devices", MAX_DEVICES);
    a->devices[a->n_devices++] = d;
  }
  if (!a->n_devices) return mx_status_make(MX_STAGE_USAGE, "e.g. --devices cuda://0,cuda://1", "--devices lists no device");
  return NULL;
}

static mx_status_t parse_args(int argc, char **argv, serve_args_t *a, int *want_help) {
  const char *prec = NULL, *ctx = NULL, *port = NULL, *slots = NULL, *queue = NULL, *body = NULL, *timeout = NULL,
             *shutdown = NULL, *conns = NULL, *devices = NULL;
  mx_cli_device_t dv = {0};
  for (int i = 1; i < argc; i++) {
    mx_status_t err = NULL;
    const char *v;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      *want_help = 1;
      return NULL;
    }
    if (!strcmp(argv[i], "--quiet")) a->quiet = true;
    else if (mx_cli_flag(argc, argv, &i, "-m", &v, &err) || mx_cli_flag(argc, argv, &i, "--model", &v, &err)) a->so.model_path = v;
    else if (mx_cli_flag(argc, argv, &i, "--model-name", &v, &err)) a->model_name = v;
    else if (mx_cli_flag(argc, argv, &i, "--host", &v, &err)) a->host = v;
    else if (mx_cli_flag(argc, argv, &i, "--port", &v, &err)) port = v;
    else if (mx_cli_flag(argc, argv, &i, "--api-key", &v, &err)) a->api_key = v;
    else if (mx_cli_flag(argc, argv, &i, "--devices", &v, &err)) devices = v;
    else if (mx_cli_device_flag(argc, argv, &i, &dv, &err)) {
      /* --device, --cuda-target, --rocm-target */
    }
    else if (mx_cli_flag(argc, argv, &i, "--slots", &v, &err)) slots = v;
    else if (mx_cli_flag(argc, argv, &i, "--context", &v, &err)) ctx = v;
    else if (mx_cli_flag(argc, argv, &i, "--precision", &v, &err)) prec = v;
    else if (mx_cli_flag(argc, argv, &i, "--vmfb", &v, &err)) a->so.vmfb = v;
    else if (mx_cli_flag(argc, argv, &i, "--queue", &v, &err)) queue = v;
    else if (mx_cli_flag(argc, argv, &i, "--max-body", &v, &err)) body = v;
    else if (mx_cli_flag(argc, argv, &i, "--timeout", &v, &err)) timeout = v;
    else if (mx_cli_flag(argc, argv, &i, "--max-connections", &v, &err)) conns = v;
    else if (mx_cli_flag(argc, argv, &i, "--shutdown-timeout", &v, &err)) shutdown = v;
    else err = mx_status_make(MX_STAGE_USAGE, "run `mlxcel serve --help`", "unknown option '%s'", argv[i]);
    if (err) return err;
  }
  if (!a->so.model_path) return mx_status_make(MX_STAGE_USAGE, "run `mlxcel serve --help`", "give -m MODEL");
  if (devices && dv.device)
    return mx_status_make(MX_STAGE_USAGE, "use --device for one device or --devices for several", "give --device or --devices, not both");
  MX_RETURN_IF_ERROR(mx_cli_parse_int("--port", port ? port : "8080", 0, 65535, &a->port));
  MX_RETURN_IF_ERROR(mx_cli_parse_int("--slots", slots ? slots : "4", 1, 8, &a->slots));
  MX_RETURN_IF_ERROR(mx_cli_parse_int("--queue", queue ? queue : "64", 0, 1 << 20, &a->queue));
  MX_RETURN_IF_ERROR(mx_cli_parse_int("--max-body", body ? body : "1048576", 256, 1L << 30, &a->max_body));
  MX_RETURN_IF_ERROR(mx_cli_parse_int("--timeout", timeout ? timeout : "30", 1, 86400, &a->timeout_s));
  MX_RETURN_IF_ERROR(mx_cli_parse_int("--max-connections", conns ? conns : "256", 1, 4096, &a->max_connections));
  MX_RETURN_IF_ERROR(mx_cli_parse_int("--shutdown-timeout", shutdown ? shutdown : "10", 0, 3600, &a->shutdown_s));
  a->api_key = mx_cli_setting(a->api_key, "MLXCEL_API_KEY", NULL);
  const char *uri;
  mx_cli_device_resolve(&dv, &uri, &a->so.target);
  MX_RETURN_IF_ERROR(split_devices(a, devices ? devices : uri));
  MX_RETURN_IF_ERROR(mx_parse_precision(mx_cli_setting(prec, "MLXCEL_XLA_PRECISION", "f32"), &a->so.precision));
  long cap;
  MX_RETURN_IF_ERROR(mx_cli_parse_int("--context", mx_cli_setting(ctx, "MLXCEL_XLA_CONTEXT_CAPACITY", "512"), 16, 1 << 20, &cap));
  a->so.capacity = (int)cap;
  a->so.slots = (int)a->slots;
  return NULL;
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
  /* SIGINT/SIGTERM are taken by sigwait below, in this thread only: blocked before any thread or
   * worker exists, every thread inherits the mask, and so do the device workers (a terminal's
   * Ctrl-C reaches the whole process group; the workers must outlive the drain). SIGPIPE: a client
   * that hangs up must not kill the server. */
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, NULL);
  signal(SIGPIPE, SIG_IGN);

  char name[256];
  if (a->model_name) snprintf(name, sizeof name, "%s", a->model_name);
  else default_model_name(a->so.model_path, name, sizeof name);
  if (!name[0]) return mx_status_make(MX_STAGE_USAGE, NULL, "--model-name is empty");

  /* Sessions are started in this thread: a worker is tied to the thread that started it. */
  mx_fleet_t *f = NULL;
  mx_fleet_options_t fo = {.session = a->so, .devices = a->devices, .n_devices = a->n_devices, .queue_max = (int)a->queue};
  mx_status_t st = mx_fleet_create(&fo, &f);
  mx_server_t *srv = NULL;
  if (!st) {
    mx_server_options_t o = {.host = a->host ? a->host : "127.0.0.1", .port = (int)a->port, .api_key = a->api_key,
                             .model_name = name, .max_body = (size_t)a->max_body, .timeout_s = (int)a->timeout_s,
                             .max_connections = (int)a->max_connections, .log_requests = !a->quiet, .fleet = f};
    st = mx_server_start(&o, &srv);
  }
  if (st) {
    mx_fleet_destroy(f);
    return st;
  }
  const char *host = a->host ? a->host : "127.0.0.1";
  bool v6 = strchr(host, ':') != NULL;
  char devs[512] = "";
  int n = mx_fleet_size(f), slots = mx_fleet_slots(f);
  for (int i = 0; i < n; i++)
    snprintf(devs + strlen(devs), sizeof devs - strlen(devs), "%s%s", i ? " + " : "", mx_fleet_device(f, i));
  fprintf(stderr, "mlxcel-server: listening on http://%s%s%s:%d (model %s, device%s %s, %d slot%s)\n", v6 ? "[" : "", host,
          v6 ? "]" : "", mx_server_port(srv), name, n > 1 ? "s" : "", devs, slots, slots == 1 ? "" : "s");
  fflush(stderr);

  int sig = 0;
  while (sigwait(&sigs, &sig) != 0) {
  }
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
