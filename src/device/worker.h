/* The device worker client: starts a worker process hosting the pinned IREE runtime and talks to it.
 *
 * One worker opens at most one device. Every operation has a deadline: a worker that crashes (EOF),
 * stops answering (timeout) or sends garbage is killed and reaped, and the operation fails with a
 * status naming the stage; the worker object is then dead and every later call fails fast. The
 * caller never hangs and no worker process outlives its client (the child also gets
 * PR_SET_PDEATHSIG, so even a SIGKILLed client leaves no orphan). */
#ifndef MX_DEVICE_WORKER_H
#define MX_DEVICE_WORKER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/dtype.h"
#include "base/status.h"

typedef struct mx_worker mx_worker_t;

typedef struct {
  const char *python;        /* interpreter with the pinned iree-base-runtime */
  const char *script;        /* mlxcel_worker.py */
  int startup_timeout_ms;    /* spawn + runtime import; 0 = 60 s */
  int timeout_ms;            /* every later request; 0 = 120 s */
} mx_worker_options_t;

/* A tensor crossing the bridge. As an input: host bytes (data, nbytes) or a device handle (handle
 * != 0). As an output: host bytes owned by the tensor (release with mx_tensor_release) or a handle
 * owned by the caller (free with mx_worker_free_handles). */
typedef struct {
  mx_dtype_t dtype;
  int rank;
  int64_t shape[MX_MAX_RANK];
  void *data;
  size_t nbytes;
  uint64_t handle;
} mx_tensor_t;

mx_tensor_t mx_tensor_host(mx_dtype_t dtype, int rank, const int64_t *shape, void *data);
mx_tensor_t mx_tensor_device(uint64_t handle);
int64_t mx_tensor_count(const mx_tensor_t *t);
void mx_tensor_release(mx_tensor_t *t);

typedef struct {
  char uri[64];
  char name[128];
  char arch[64]; /* "sm_90", "gfx942", "x86_64"; "" when the driver does not say */
} mx_device_desc_t;

#define MX_MAX_LISTED_DEVICES 16
typedef struct {
  char name[32];
  bool available;
  char error[512];  /* why the driver cannot be created (available == false) */
  char remedy[256];
  int n_devices;
  mx_device_desc_t devices[MX_MAX_LISTED_DEVICES];
} mx_driver_desc_t;

typedef struct {
  int64_t device_bytes_peak, device_bytes_allocated, device_bytes_freed;
  int64_t host_bytes_peak;
  int64_t live_handles;
} mx_alloc_stats_t;

MX_MUST_USE mx_status_t mx_worker_spawn(const mx_worker_options_t *opts, mx_worker_t **out);
/* Asks the worker to shut down, waits briefly, kills it if needed, reaps it. NULL is fine. */
void mx_worker_destroy(mx_worker_t *w);
pid_t mx_worker_pid(const mx_worker_t *w);
/* False once a call found the worker dead or hung (it was then stopped): every later call fails. */
bool mx_worker_alive(const mx_worker_t *w);
const char *mx_worker_runtime_version(const mx_worker_t *w);
void mx_worker_set_timeout(mx_worker_t *w, int timeout_ms);

MX_MUST_USE mx_status_t mx_worker_ping(mx_worker_t *w);
/* A ping that must answer within timeout_ms (the liveness probe of an idle worker: a hung one is
 * stopped after that, not after the call timeout). */
MX_MUST_USE mx_status_t mx_worker_ping_within(mx_worker_t *w, int timeout_ms);
MX_MUST_USE mx_status_t mx_worker_list(mx_worker_t *w, mx_driver_desc_t *out, int cap, int *n_out);
MX_MUST_USE mx_status_t mx_worker_open(mx_worker_t *w, const char *uri, mx_device_desc_t *out);
/* Loads a VMFB; `param_files` (may be NULL) are bound under parameter scope "model". */
MX_MUST_USE mx_status_t mx_worker_load(mx_worker_t *w, const char *vmfb_path, const char *const *param_files, int n_params,
                                       int *module_id);
/* Calls `function`. Output i stays on the device (as a handle) when bit i of keep_mask is set,
 * otherwise it is copied to the host. Fails if the function returns more than max_outputs values. */
MX_MUST_USE mx_status_t mx_worker_call(mx_worker_t *w, int module_id, const char *function, const mx_tensor_t *inputs,
                                       int n_inputs, uint32_t keep_mask, mx_tensor_t *outputs, int max_outputs,
                                       int *n_outputs);
MX_MUST_USE mx_status_t mx_worker_free_handles(mx_worker_t *w, const uint64_t *handles, int n);
MX_MUST_USE mx_status_t mx_worker_stats(mx_worker_t *w, mx_alloc_stats_t *out);
/* Test hook: the worker sleeps `ms` inside a request, so tests can kill or stop it mid-call. */
MX_MUST_USE mx_status_t mx_worker_debug_sleep(mx_worker_t *w, int ms);

#endif
