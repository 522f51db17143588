/* Where the pinned IREE toolchain lives.
 *
 * The setup scripts install IREE into ${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel/iree-<version>/; the
 * version is compiled in from scripts/iree/pin.env, so a binary built against one pin never picks up
 * another pin's cache. Environment variables (printed by `setup-*.sh --env`) override each path. */
#ifndef MX_BASE_TOOLCHAIN_H
#define MX_BASE_TOOLCHAIN_H

#include <stddef.h>

#include "base/status.h"

#define MX_PATH_MAX 4096

const char *mx_toolchain_version(void);
/* ${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel: the root of every mlxcel cache (whether or not it exists). */
MX_MUST_USE mx_status_t mx_cache_root(char *out, size_t cap);
/* Cache directory of the pinned release, <cache root>/iree-<version> (whether or not it exists). */
MX_MUST_USE mx_status_t mx_toolchain_home(char *out, size_t cap);
/* The native iree-compile: $MLXCEL_XLA_IREE_COMPILE, else the one in the pinned cache. */
MX_MUST_USE mx_status_t mx_toolchain_compiler(char *out, size_t cap);
/* The interpreter with the pinned runtime: $MLXCEL_XLA_WORKER_PYTHON, else the cache's venv. */
MX_MUST_USE mx_status_t mx_toolchain_python(char *out, size_t cap);
/* The worker script: $MLXCEL_XLA_WORKER_SCRIPT, else mlxcel-worker.py beside the executable,
 * else the source tree's copy. */
MX_MUST_USE mx_status_t mx_toolchain_worker_script(char *out, size_t cap);

#endif
