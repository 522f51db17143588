/* The smallest end-to-end proof of a device path (`mlxcel smoke`): an f32 add (2x3) and matmul
 * (64x128 by 128x32) emitted, compiled for the device, run through the worker N times on fixed
 * pseudo-random inputs and compared with a C reference computed in double; plus what one bridge
 * round trip costs (a ping, and a call of an empty function), since every decode step pays it.
 * Also the list of the runtime's drivers and devices (`mlxcel devices`). */
#ifndef MX_ENGINE_PROBE_H
#define MX_ENGINE_PROBE_H

#include "base/status.h"
#include "base/toolchain.h"
#include "compiler/target.h"
#include "device/worker.h"

#define MX_SMOKE_MAX_REL_ERR 1e-5

typedef struct {
  const char *device;
  long repeat;
  mx_target_options_t target;
  const char *compile_only; /* compile into this directory and stop */
  const char *prebuilt;     /* load add.vmfb and matmul.vmfb from here instead of compiling */
} mx_smoke_options_t;

typedef struct {
  const char *name;
  char *mlir;
  char vmfb[MX_PATH_MAX];
  double compile_ms, load_ms;
  int module;
  double *call_ms;
  double max_rel_err;
} mx_smoke_case_t;

typedef struct {
  double spawn_ms, open_ms;
  mx_device_desc_t dev;
  char runtime[32];
  double *ping_ms, *empty_ms;
  mx_alloc_stats_t stats;
  mx_target_t target; /* what was compiled for ("prebuilt" with --prebuilt) */
} mx_smoke_run_t;

/* Compiles (into `dir`, a work directory the caller made, or --compile-only's), loads and runs both
 * cases; run->ping_ms and run->empty_ms must hold `repeat` doubles each. *passed: both within
 * MX_SMOKE_MAX_REL_ERR (or the modules were compiled, with compile_only). */
MX_MUST_USE mx_status_t mx_smoke_run(const mx_smoke_options_t *a, mx_smoke_case_t cases[2], char *dir, mx_smoke_run_t *run, int *passed);
/* Removes what the smoke wrote into its work directory, and the directory. */
void mx_smoke_remove_work_dir(const char *dir, mx_smoke_case_t *cases, int n);

/* Starts a worker and lists the runtime's drivers (up to `cap`) and its version. */
MX_MUST_USE mx_status_t mx_probe_devices(mx_driver_desc_t *drivers, int cap, int *n, char *runtime, size_t runtime_cap);

#endif
