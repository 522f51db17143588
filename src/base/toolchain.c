#include "base/toolchain.h"

#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MX_IREE_VERSION
#error "MX_IREE_VERSION must come from scripts/iree/pin.env (see Makefile)"
#endif
#ifndef MX_SOURCE_WORKER
#define MX_SOURCE_WORKER ""
#endif

#define CACHE_PATH_REMEDY "set XDG_CACHE_HOME to a shorter directory"
#define SETUP_REMEDY "run `make iree` (or scripts/iree/setup-cpu.sh), then eval \"$(scripts/iree/setup-cpu.sh --env)\""

const char *mx_toolchain_version(void) { return MX_IREE_VERSION; }

static mx_status_t copy_path(char *out, size_t cap, const char *path, const char *what) {
  if (strlen(path) + 1 > cap)
    return mx_status_make(MX_STAGE_TOOLCHAIN, "point it at a shorter path", "%s path too long: %s", what, path);
  memcpy(out, path, strlen(path) + 1);
  return NULL;
}

mx_status_t mx_cache_root(char *out, size_t cap) {
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  int n;
  if (xdg && xdg[0])
    n = snprintf(out, cap, "%s/mlxcel", xdg);
  else if (home && home[0])
    n = snprintf(out, cap, "%s/.cache/mlxcel", home);
  else
    return mx_status_make(MX_STAGE_TOOLCHAIN, "set HOME or XDG_CACHE_HOME",
                          "cannot locate the cache: neither XDG_CACHE_HOME nor HOME is set");
  if (n < 0 || (size_t)n >= cap) return mx_status_make(MX_STAGE_TOOLCHAIN, CACHE_PATH_REMEDY, "cache path too long");
  return NULL;
}

mx_status_t mx_toolchain_home(char *out, size_t cap) {
  MX_RETURN_IF_ERROR(mx_cache_root(out, cap));
  size_t len = strlen(out);
  int n = snprintf(out + len, cap - len, "/iree-%s", MX_IREE_VERSION);
  if (n < 0 || (size_t)n >= cap - len) return mx_status_make(MX_STAGE_TOOLCHAIN, CACHE_PATH_REMEDY, "cache path too long");
  return NULL;
}

/* An override from the environment must exist and be executable: a stale export from an old pin
 * should fail loudly here rather than as a confusing error later. */
static mx_status_t from_env(const char *var, char *out, size_t cap, int *found) {
  const char *v = getenv(var);
  *found = v && v[0];
  if (!*found) return NULL;
  if (access(v, X_OK) != 0)
    return mx_status_make(MX_STAGE_TOOLCHAIN, SETUP_REMEDY, "%s=%s is not an executable file", var, v);
  return copy_path(out, cap, v, var);
}

mx_status_t mx_toolchain_compiler(char *out, size_t cap) {
  int found;
  MX_RETURN_IF_ERROR(from_env("MLXCEL_XLA_IREE_COMPILE", out, cap, &found));
  if (found) return NULL;
  char home[MX_PATH_MAX], pattern[MX_PATH_MAX + 128];
  MX_RETURN_IF_ERROR(mx_toolchain_home(home, sizeof home));
  snprintf(pattern, sizeof pattern, "%s/venv/lib/python3*/site-packages/iree/compiler/_mlir_libs/iree-compile", home);
  glob_t g;
  int rc = glob(pattern, 0, NULL, &g);
  mx_status_t st = NULL;
  if (rc != 0 || g.gl_pathc == 0)
    st = mx_status_make(MX_STAGE_TOOLCHAIN, SETUP_REMEDY, "IREE %s compiler not found in %s", MX_IREE_VERSION, home);
  else
    st = copy_path(out, cap, g.gl_pathv[0], "iree-compile");
  globfree(&g);
  return st;
}

mx_status_t mx_toolchain_python(char *out, size_t cap) {
  int found;
  MX_RETURN_IF_ERROR(from_env("MLXCEL_XLA_WORKER_PYTHON", out, cap, &found));
  if (found) return NULL;
  char home[MX_PATH_MAX], path[MX_PATH_MAX + 32];
  MX_RETURN_IF_ERROR(mx_toolchain_home(home, sizeof home));
  snprintf(path, sizeof path, "%s/venv/bin/python", home);
  if (access(path, X_OK) != 0)
    return mx_status_make(MX_STAGE_TOOLCHAIN, SETUP_REMEDY, "IREE %s runtime not found in %s", MX_IREE_VERSION, home);
  return copy_path(out, cap, path, "python");
}

mx_status_t mx_toolchain_worker_script(char *out, size_t cap) {
  const char *v = getenv("MLXCEL_XLA_WORKER_SCRIPT");
  if (v && v[0]) {
    if (access(v, R_OK) != 0)
      return mx_status_make(MX_STAGE_TOOLCHAIN, "unset it or point it at src/device/worker/mlxcel_worker.py",
                            "MLXCEL_XLA_WORKER_SCRIPT=%s is not readable", v);
    return copy_path(out, cap, v, "worker script");
  }
  char exe[MX_PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      char path[MX_PATH_MAX + 32];
      *slash = '\0';
      snprintf(path, sizeof path, "%s/mlxcel-worker.py", exe);
      if (access(path, R_OK) == 0) return copy_path(out, cap, path, "worker script");
    }
  }
  if (MX_SOURCE_WORKER[0] && access(MX_SOURCE_WORKER, R_OK) == 0)
    return copy_path(out, cap, MX_SOURCE_WORKER, "worker script");
  return mx_status_make(MX_STAGE_TOOLCHAIN, "rebuild with `make`, or set MLXCEL_XLA_WORKER_SCRIPT",
                        "device worker script mlxcel-worker.py not found beside the executable");
}
