#include "device/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "device/protocol.h"

#define DEFAULT_STARTUP_MS 60000
#define DEFAULT_TIMEOUT_MS 120000
#define SHUTDOWN_GRACE_MS 2000
/* A frame that decodes but says the wrong thing: the worker script is not this build's. */
#define MISMATCH_REMEDY "run the worker script built with this mlxcel (rebuild with `make`, or fix MLXCEL_XLA_WORKER_SCRIPT)"
/* json_pack fails on a string that is not UTF-8 (a path, a device URI) or when memory runs out. */
#define BUILD_REMEDY "pass paths, device URIs and function names that are valid UTF-8 (or free host memory)"

struct mx_worker {
  pid_t pid;
  int fd;
  int timeout_ms;
  bool dead;
  char death[256]; /* why the worker is gone, for calls after its death */
  char runtime_version[32];
};

/* ----------------------------------------------------------------------------------- tensors */

mx_tensor_t mx_tensor_host(mx_dtype_t dtype, int rank, const int64_t *shape, void *data) {
  mx_tensor_t t = {.dtype = dtype, .rank = rank, .data = data};
  for (int i = 0; i < rank && i < MX_MAX_RANK; i++) t.shape[i] = shape[i];
  t.nbytes = (size_t)mx_tensor_count(&t) * mx_dtype_size(dtype);
  return t;
}

mx_tensor_t mx_tensor_device(uint64_t handle) { return (mx_tensor_t){.handle = handle}; }

int64_t mx_tensor_count(const mx_tensor_t *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= t->shape[i];
  return n;
}

void mx_tensor_release(mx_tensor_t *t) {
  free(t->data);
  t->data = NULL;
  t->nbytes = 0;
}

/* ------------------------------------------------------------------------------ process life */

static void describe_exit(int wstatus, char *out, size_t cap) {
  if (WIFSIGNALED(wstatus))
    snprintf(out, cap, "was killed by signal %d (%s)", WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)));
  else if (WIFEXITED(wstatus))
    snprintf(out, cap, "exited with status %d", WEXITSTATUS(wstatus));
  else
    snprintf(out, cap, "ended");
}

/* Waits up to grace_ms for the worker to exit on its own, then kills it; always reaps it. */
static void reap(mx_worker_t *w, int grace_ms, char *how, size_t cap) {
  if (w->pid <= 0) return;
  int wstatus = 0;
  double deadline = mx_now_ms() + grace_ms;
  pid_t r;
  while ((r = waitpid(w->pid, &wstatus, WNOHANG)) == 0 && mx_now_ms() < deadline) usleep(2000);
  if (r == 0) {
    kill(w->pid, SIGKILL);
    r = waitpid(w->pid, &wstatus, 0);
  }
  if (how) {
    if (r == w->pid)
      describe_exit(wstatus, how, cap);
    else
      snprintf(how, cap, "could not be reaped");
  }
  w->pid = -1;
}

/* Marks the worker dead after a transport failure and returns the status describing it. */
static mx_status_t fail_worker(mx_worker_t *w, const char *op, int timed_out) {
  char how[160] = "";
  if (timed_out) {
    kill(w->pid, SIGKILL);
    reap(w, 0, NULL, 0);
    snprintf(w->death, sizeof w->death, "did not answer '%s' within %d ms and was stopped", op, w->timeout_ms);
  } else {
    reap(w, 1000, how, sizeof how);
    snprintf(w->death, sizeof w->death, "%s during '%s'", how, op);
  }
  w->dead = true;
  if (w->fd >= 0) close(w->fd);
  w->fd = -1;
  if (timed_out)
    return mx_status_make(MX_STAGE_WORKER,
                          "a hung device or driver; if the call is legitimately slow raise "
                          "MLXCEL_XLA_WORKER_TIMEOUT_MS",
                          "the device worker %s", w->death);
  return mx_status_make(MX_STAGE_WORKER,
                        "a driver fault, device reset or out-of-memory kill ends the worker; see its "
                        "stderr and `dmesg`, then retry",
                        "the device worker %s", w->death);
}

mx_status_t mx_worker_spawn(const mx_worker_options_t *opts, mx_worker_t **out) {
  *out = NULL;
  if (access(opts->python, X_OK) != 0)
    return mx_status_make(MX_STAGE_SPAWN, "run `make iree` or set MLXCEL_XLA_WORKER_PYTHON",
                          "worker interpreter %s is not executable", opts->python);
  if (access(opts->script, R_OK) != 0)
    return mx_status_make(MX_STAGE_SPAWN, "rebuild with `make` or set MLXCEL_XLA_WORKER_SCRIPT",
                          "worker script %s is not readable", opts->script);
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return mx_status_make(MX_STAGE_SPAWN, "the process is out of file descriptors or memory: raise `ulimit -n` or free memory",
                          "socketpair: %s", strerror(errno));
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(sv[0]);
    close(sv[1]);
    return mx_status_make(MX_STAGE_SPAWN, "the system is out of processes or memory", "fork: %s", strerror(errno));
  }
  if (pid == 0) {
    /* Child: die with the parent, talk on fd 3, send stray prints to stderr. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(126);
    if (dup2(sv[1], 3) < 0) _exit(126);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(2, 1);
    close_range(4, ~0u, 0);
    char *argv[] = {(char *)opts->python, (char *)opts->script, "--fd", "3", NULL};
    execv(opts->python, argv);
    _exit(127);
  }
  close(sv[1]);
  mx_worker_t *w = calloc(1, sizeof *w);
  if (!w) {
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(sv[0]);
    return mx_status_oom();
  }
  w->pid = pid;
  w->fd = sv[0];
  fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) | O_NONBLOCK);
  w->timeout_ms = opts->startup_timeout_ms > 0 ? opts->startup_timeout_ms : DEFAULT_STARTUP_MS;
  mx_status_t st = mx_worker_ping(w);
  w->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : DEFAULT_TIMEOUT_MS;
  if (st) {
    /* A worker that dies or hangs before its first answer failed to start: that is the spawn
     * stage, not a mid-run worker death. The annotation and the remedy carry over either way. */
    if (mx_status_stage(st) == MX_STAGE_WORKER) {
      mx_status_t spawn = mx_status_make(MX_STAGE_SPAWN, mx_status_remedy(st), "%s", mx_status_message(st));
      mx_status_free(st);
      st = spawn;
    }
    mx_worker_destroy(w);
    return mx_status_annotate(st, "starting the device worker");
  }
  *out = w;
  return NULL;
}

void mx_worker_destroy(mx_worker_t *w) {
  if (!w) return;
  if (!w->dead && w->fd >= 0) {
    w->timeout_ms = SHUTDOWN_GRACE_MS;
    json_t *req = json_pack("{s:s}", "op", "shutdown");
    /* Best effort: whatever the answer, the process is reaped (and killed if it lingers) below. */
    uint8_t head[MX_FRAME_HEADER_SIZE];
    char *text = json_dumps(req, JSON_COMPACT);
    if (text) {
      mx_frame_header_encode(head, (uint32_t)strlen(text), 0);
      (void)!send(w->fd, head, sizeof head, MSG_NOSIGNAL);
      (void)!send(w->fd, text, strlen(text), MSG_NOSIGNAL);
      free(text);
    }
    json_decref(req);
    shutdown(w->fd, SHUT_WR);
  }
  reap(w, SHUTDOWN_GRACE_MS, NULL, 0);
  if (w->fd >= 0) close(w->fd);
  free(w);
}

pid_t mx_worker_pid(const mx_worker_t *w) { return w ? w->pid : -1; }
bool mx_worker_alive(const mx_worker_t *w) { return w && !w->dead; }
const char *mx_worker_runtime_version(const mx_worker_t *w) { return w->runtime_version; }
void mx_worker_set_timeout(mx_worker_t *w, int timeout_ms) { w->timeout_ms = timeout_ms > 0 ? timeout_ms : DEFAULT_TIMEOUT_MS; }

/* ------------------------------------------------------------------------------------- I/O */

/* 0 = done, 1 = timed out, -1 = peer gone or error. */
static int io_all(mx_worker_t *w, void *buf, size_t n, bool writing, double deadline) {
  uint8_t *p = buf;
  while (n > 0) {
    ssize_t k = writing ? send(w->fd, p, n, MSG_NOSIGNAL) : recv(w->fd, p, n, 0);
    if (k > 0) {
      p += k;
      n -= (size_t)k;
      continue;
    }
    if (k == 0 && !writing) return -1;
    if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
    int left = (int)(deadline - mx_now_ms());
    if (left <= 0) return 1;
    struct pollfd pfd = {.fd = w->fd, .events = writing ? POLLOUT : POLLIN};
    int r = poll(&pfd, 1, left);
    if (r == 0) return 1;
    if (r < 0 && errno != EINTR) return -1;
  }
  return 0;
}

/* Sends one request and receives its response. On success *resp holds the parsed JSON (the caller
 * owns it) and, when the response has tensor bytes, *bin and *bin_len hold them (caller frees). A
 * response with ok=false becomes a status with the worker's stage, message and remedy. */
static mx_status_t roundtrip(mx_worker_t *w, json_t *req, const void *const *blobs, const size_t *blob_lens,
                             int n_blobs, json_t **resp, uint8_t **bin, uint64_t *bin_len) {
  *resp = NULL;
  if (bin) *bin = NULL;
  if (bin_len) *bin_len = 0;
  const char *op = json_string_value(json_object_get(req, "op"));
  if (w->dead)
    return mx_status_make(MX_STAGE_WORKER, "start a new worker (restart the command)",
                          "the device worker is not running: it %s", w->death);
  char *text = json_dumps(req, JSON_COMPACT);
  if (!text) return mx_status_make(MX_STAGE_PROTOCOL, BUILD_REMEDY, "cannot encode the '%s' request", op);
  uint64_t total = 0;
  for (int i = 0; i < n_blobs; i++) total += blob_lens[i];
  uint8_t head[MX_FRAME_HEADER_SIZE];
  mx_frame_header_encode(head, (uint32_t)strlen(text), total);
  double deadline = mx_now_ms() + w->timeout_ms;
  int r = io_all(w, head, sizeof head, true, deadline);
  if (r == 0) r = io_all(w, text, strlen(text), true, deadline);
  free(text);
  for (int i = 0; r == 0 && i < n_blobs; i++) r = io_all(w, (void *)blobs[i], blob_lens[i], true, deadline);
  if (r == 0) r = io_all(w, head, sizeof head, false, deadline);
  if (r != 0) return fail_worker(w, op, r == 1);
  mx_frame_header_t h;
  mx_status_t st = mx_frame_header_decode(head, &h);
  if (st) {
    mx_status_ignore(fail_worker(w, op, 0)); /* report the specific cause, not the death */
    return st;
  }
  char *jtext = malloc(h.json_len + 1);
  uint8_t *data = h.bin_len ? malloc(h.bin_len) : NULL;
  if (!jtext || (h.bin_len && !data)) {
    free(jtext);
    free(data);
    mx_status_ignore(fail_worker(w, op, 0)); /* report the specific cause, not the death */
    return mx_status_make(MX_STAGE_OOM, NULL, "out of memory holding a %llu-byte '%s' response",
                          (unsigned long long)(h.json_len + h.bin_len), op);
  }
  r = io_all(w, jtext, h.json_len, false, deadline);
  if (r == 0 && h.bin_len) r = io_all(w, data, h.bin_len, false, deadline);
  if (r != 0) {
    free(jtext);
    free(data);
    return fail_worker(w, op, r == 1);
  }
  jtext[h.json_len] = '\0';
  json_error_t jerr;
  json_t *j = json_loads(jtext, 0, &jerr);
  free(jtext);
  if (!j || !json_is_object(j)) {
    json_decref(j);
    free(data);
    mx_status_ignore(fail_worker(w, op, 0)); /* report the specific cause, not the death */
    return mx_status_make(MX_STAGE_PROTOCOL, "check MLXCEL_XLA_WORKER_SCRIPT", "unparseable '%s' response", op);
  }
  if (!json_is_true(json_object_get(j, "ok"))) {
    const char *stage = json_string_value(json_object_get(j, "stage"));
    const char *msg = json_string_value(json_object_get(j, "message"));
    const char *remedy = json_string_value(json_object_get(j, "remedy"));
    st = mx_status_make(mx_stage_from_name(stage), remedy, "%s", msg ? msg : "worker error");
    json_decref(j);
    free(data);
    return st;
  }
  *resp = j;
  if (bin) *bin = data;
  else free(data);
  if (bin_len) *bin_len = h.bin_len;
  return NULL;
}

static mx_status_t simple(mx_worker_t *w, json_t *req, json_t **resp) {
  if (!req) return mx_status_make(MX_STAGE_PROTOCOL, BUILD_REMEDY, "cannot build request");
  mx_status_t st = roundtrip(w, req, NULL, NULL, 0, resp, NULL, NULL);
  json_decref(req);
  return st;
}

static void copy_str(char *dst, size_t cap, json_t *j) {
  const char *s = json_string_value(j);
  snprintf(dst, cap, "%s", s ? s : "");
}

/* ------------------------------------------------------------------------------ operations */

mx_status_t mx_worker_ping(mx_worker_t *w) {
  json_t *resp;
  MX_RETURN_IF_ERROR(simple(w, json_pack("{s:s}", "op", "ping"), &resp));
  copy_str(w->runtime_version, sizeof w->runtime_version, json_object_get(resp, "runtime"));
  json_decref(resp);
  return NULL;
}

mx_status_t mx_worker_ping_within(mx_worker_t *w, int timeout_ms) {
  int saved = w->timeout_ms;
  w->timeout_ms = timeout_ms > 0 ? timeout_ms : saved;
  mx_status_t st = mx_worker_ping(w);
  w->timeout_ms = saved;
  return st;
}

static void parse_device(json_t *d, mx_device_desc_t *out) {
  copy_str(out->uri, sizeof out->uri, json_object_get(d, "uri"));
  copy_str(out->name, sizeof out->name, json_object_get(d, "name"));
  copy_str(out->arch, sizeof out->arch, json_object_get(d, "arch"));
}

mx_status_t mx_worker_list(mx_worker_t *w, mx_driver_desc_t *out, int cap, int *n_out) {
  json_t *resp;
  *n_out = 0;
  MX_RETURN_IF_ERROR(simple(w, json_pack("{s:s}", "op", "list"), &resp));
  size_t i;
  json_t *d;
  json_array_foreach(json_object_get(resp, "drivers"), i, d) {
    if ((int)i >= cap) break;
    mx_driver_desc_t *o = &out[i];
    memset(o, 0, sizeof *o);
    copy_str(o->name, sizeof o->name, json_object_get(d, "name"));
    o->available = json_is_true(json_object_get(d, "available"));
    copy_str(o->error, sizeof o->error, json_object_get(d, "error"));
    copy_str(o->remedy, sizeof o->remedy, json_object_get(d, "remedy"));
    size_t k;
    json_t *dev;
    json_array_foreach(json_object_get(d, "devices"), k, dev) {
      if ((int)k >= MX_MAX_LISTED_DEVICES) break;
      parse_device(dev, &o->devices[k]);
      o->n_devices = (int)k + 1;
    }
    *n_out = (int)i + 1;
  }
  json_decref(resp);
  return NULL;
}

mx_status_t mx_worker_open(mx_worker_t *w, const char *uri, mx_device_desc_t *out) {
  json_t *resp;
  MX_RETURN_IF_ERROR(simple(w, json_pack("{s:s,s:s}", "op", "open", "uri", uri), &resp));
  if (out) parse_device(resp, out);
  json_decref(resp);
  return NULL;
}

mx_status_t mx_worker_load(mx_worker_t *w, const char *vmfb_path, const char *const *param_files, int n_params,
                           int *module_id) {
  json_t *params = json_array();
  for (int i = 0; i < n_params; i++)
    json_array_append_new(params, json_pack("{s:s,s:s}", "scope", "model", "path", param_files[i]));
  json_t *resp;
  MX_RETURN_IF_ERROR(simple(w, json_pack("{s:s,s:s,s:o}", "op", "load", "path", vmfb_path, "params", params), &resp));
  *module_id = (int)json_integer_value(json_object_get(resp, "module"));
  json_decref(resp);
  return NULL;
}

static json_t *shape_json(const mx_tensor_t *t) {
  json_t *a = json_array();
  for (int i = 0; i < t->rank; i++) json_array_append_new(a, json_integer(t->shape[i]));
  return a;
}

/* Fills `t` from an output descriptor; host bytes are copied out of the response data. */
static mx_status_t parse_output(json_t *o, const uint8_t *bin, uint64_t bin_len, mx_tensor_t *t) {
  memset(t, 0, sizeof *t);
  const char *dt = json_string_value(json_object_get(o, "dtype"));
  if (!dt || mx_dtype_parse(dt, &t->dtype) != 0 || mx_dtype_size(t->dtype) == 0) /* i4 lives only inside graphs */
    return mx_status_make(MX_STAGE_TRANSFER, "use f32/f16/bf16/i32/i64/i8/u8 results", "output dtype '%s' is not supported",
                          dt ? dt : "?");
  json_t *shape = json_object_get(o, "shape");
  if (json_array_size(shape) > MX_MAX_RANK)
    return mx_status_make(MX_STAGE_PROTOCOL, "reshape the results to a lower rank in the graph",
                          "output rank %zu exceeds %d", json_array_size(shape), MX_MAX_RANK);
  t->rank = (int)json_array_size(shape);
  for (int i = 0; i < t->rank; i++) t->shape[i] = json_integer_value(json_array_get(shape, (size_t)i));
  json_t *h = json_object_get(o, "handle");
  if (h) {
    t->handle = (uint64_t)json_integer_value(h);
    return NULL;
  }
  uint64_t off = (uint64_t)json_integer_value(json_object_get(o, "offset"));
  uint64_t n = (uint64_t)json_integer_value(json_object_get(o, "nbytes"));
  if (off > bin_len || n > bin_len - off || n != (uint64_t)mx_tensor_count(t) * mx_dtype_size(t->dtype))
    return mx_status_make(MX_STAGE_PROTOCOL, MISMATCH_REMEDY, "output descriptor does not match its data");
  t->data = malloc(n ? n : 1);
  if (!t->data) return mx_status_make(MX_STAGE_OOM, NULL, "out of memory for a %llu-byte output", (unsigned long long)n);
  memcpy(t->data, bin + off, n);
  t->nbytes = n;
  return NULL;
}

mx_status_t mx_worker_call(mx_worker_t *w, int module_id, const char *function, const mx_tensor_t *inputs,
                           int n_inputs, uint32_t keep_mask, mx_tensor_t *outputs, int max_outputs,
                           int *n_outputs) {
  *n_outputs = 0;
  json_t *ins = json_array(), *keep = json_array();
  const void **blobs = calloc((size_t)n_inputs + 1, sizeof *blobs);
  size_t *lens = calloc((size_t)n_inputs + 1, sizeof *lens);
  int n_blobs = 0;
  uint64_t off = 0;
  for (int i = 0; i < n_inputs; i++) {
    const mx_tensor_t *t = &inputs[i];
    if (t->handle) {
      json_array_append_new(ins, json_pack("{s:I}", "handle", (json_int_t)t->handle));
      continue;
    }
    json_array_append_new(ins, json_pack("{s:s,s:o,s:I,s:I}", "dtype", mx_dtype_name(t->dtype), "shape",
                                         shape_json(t), "offset", (json_int_t)off, "nbytes", (json_int_t)t->nbytes));
    blobs[n_blobs] = t->data;
    lens[n_blobs++] = t->nbytes;
    off += t->nbytes;
  }
  for (int i = 0; i < 32; i++) json_array_append_new(keep, json_boolean((keep_mask >> i) & 1u));
  json_t *req = json_pack("{s:s,s:i,s:s,s:o,s:o}", "op", "call", "module", module_id, "function", function,
                          "inputs", ins, "keep", keep);
  json_t *resp = NULL;
  uint8_t *bin = NULL;
  uint64_t bin_len = 0;
  mx_status_t st = req ? roundtrip(w, req, blobs, lens, n_blobs, &resp, &bin, &bin_len)
                       : mx_status_make(MX_STAGE_PROTOCOL, BUILD_REMEDY, "cannot build the call request");
  json_decref(req);
  free(blobs);
  free(lens);
  if (st) return st;
  json_t *outs = json_object_get(resp, "outputs");
  size_t n = json_array_size(outs);
  if ((int)n > max_outputs) {
    st = mx_status_make(MX_STAGE_CALL, "pass a larger output array", "%s returned %zu outputs; room for %d",
                        function, n, max_outputs);
    /* The worker may have kept some as handles: free them so nothing leaks on the device. */
    for (size_t i = 0; i < n; i++) {
      json_t *h = json_object_get(json_array_get(outs, i), "handle");
      uint64_t hv = h ? (uint64_t)json_integer_value(h) : 0;
      /* Best effort: the first failure (too many outputs) is the one to report. */
      if (hv) mx_status_ignore(mx_worker_free_handles(w, &hv, 1));
    }
  }
  for (size_t i = 0; !st && i < n; i++) {
    st = parse_output(json_array_get(outs, i), bin, bin_len, &outputs[i]);
    if (st) {
      for (size_t k = 0; k < i; k++) mx_tensor_release(&outputs[k]);
    }
  }
  if (!st) *n_outputs = (int)n;
  json_decref(resp);
  free(bin);
  return st;
}

mx_status_t mx_worker_free_handles(mx_worker_t *w, const uint64_t *handles, int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(a, json_integer((json_int_t)handles[i]));
  json_t *resp;
  MX_RETURN_IF_ERROR(simple(w, json_pack("{s:s,s:o}", "op", "free", "handles", a), &resp));
  json_decref(resp);
  return NULL;
}

mx_status_t mx_worker_stats(mx_worker_t *w, mx_alloc_stats_t *out) {
  json_t *resp;
  MX_RETURN_IF_ERROR(simple(w, json_pack("{s:s}", "op", "stats"), &resp));
  json_t *s = json_object_get(resp, "stats");
  out->device_bytes_peak = json_integer_value(json_object_get(s, "device_bytes_peak"));
  out->device_bytes_allocated = json_integer_value(json_object_get(s, "device_bytes_allocated"));
  out->device_bytes_freed = json_integer_value(json_object_get(s, "device_bytes_freed"));
  out->host_bytes_peak = json_integer_value(json_object_get(s, "host_bytes_peak"));
  out->live_handles = json_integer_value(json_object_get(s, "live_handles"));
  json_decref(resp);
  return NULL;
}

mx_status_t mx_worker_debug_sleep(mx_worker_t *w, int ms) {
  json_t *resp;
  MX_RETURN_IF_ERROR(simple(w, json_pack("{s:s,s:i}", "op", "sleep", "ms", ms), &resp));
  json_decref(resp);
  return NULL;
}
