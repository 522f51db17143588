/* Starting a worker from the pinned toolchain: resolves the interpreter and script (base/toolchain)
 * and refuses a runtime whose version differs from the pin the binary was built with. */
#ifndef MX_DEVICE_LAUNCH_H
#define MX_DEVICE_LAUNCH_H

#include "device/worker.h"

/* timeout_ms 0 = $MLXCEL_XLA_WORKER_TIMEOUT_MS, else the worker default. */
MX_MUST_USE mx_status_t mx_worker_launch(int timeout_ms, mx_worker_t **out);

#endif
