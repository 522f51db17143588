#include "device/launch.h"

#include <stdlib.h>
#include <string.h>

#include "base/toolchain.h"

static mx_status_t timeout_from_env(int *out) {
  const char *v = getenv("MLXCEL_XLA_WORKER_TIMEOUT_MS");
  *out = 0;
  if (!v || !v[0]) return NULL;
  char *end;
  long ms = strtol(v, &end, 10);
  if (*end || ms <= 0 || ms > 86400000)
    return mx_status_make(MX_STAGE_USAGE, "give a whole number of milliseconds, 1 to 86400000",
                          "MLXCEL_XLA_WORKER_TIMEOUT_MS=%s is not a valid timeout", v);
  *out = (int)ms;
  return NULL;
}

mx_status_t mx_worker_launch(int timeout_ms, mx_worker_t **out) {
  char python[MX_PATH_MAX], script[MX_PATH_MAX];
  *out = NULL;
  if (timeout_ms <= 0) MX_RETURN_IF_ERROR(timeout_from_env(&timeout_ms));
  MX_RETURN_IF_ERROR(mx_toolchain_python(python, sizeof python));
  MX_RETURN_IF_ERROR(mx_toolchain_worker_script(script, sizeof script));
  mx_worker_options_t opts = {.python = python, .script = script, .timeout_ms = timeout_ms};
  mx_worker_t *w;
  MX_RETURN_IF_ERROR(mx_worker_spawn(&opts, &w));
  if (strcmp(mx_worker_runtime_version(w), mx_toolchain_version()) != 0) {
    mx_status_t st = mx_status_make(MX_STAGE_TOOLCHAIN,
                                    "run `make iree` and eval \"$(scripts/iree/setup-cpu.sh --env)\" so "
                                    "compiler and runtime match",
                                    "the worker's IREE runtime is %s but this build is pinned to %s (%s)",
                                    mx_worker_runtime_version(w), mx_toolchain_version(), python);
    mx_worker_destroy(w);
    return st;
  }
  *out = w;
  return NULL;
}
