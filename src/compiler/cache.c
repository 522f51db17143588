#include "compiler/cache.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/log.h"
#include "base/sha256.h"
#include "compiler/compile.h"

mx_status_t mx_compile_cached(const mx_target_t *target, const char *mlir_text, const char *what, mx_vmfb_t *out) {
  memset(out, 0, sizeof *out);
  char compiler[MX_PATH_MAX], home[MX_PATH_MAX], version[1024], dir[MX_PATH_MAX + 16];
  MX_RETURN_IF_ERROR(mx_toolchain_compiler(compiler, sizeof compiler));
  MX_RETURN_IF_ERROR(mx_compiler_version(compiler, version, sizeof version));
  MX_RETURN_IF_ERROR(mx_toolchain_home(home, sizeof home));
  mx_sha256_t s;
  mx_sha256_init(&s);
  const char tag[] = "mlxcel-vmfb-v1";
  mx_sha256_update(&s, tag, sizeof tag);
  mx_sha256_update(&s, version, strlen(version) + 1);
  char label[96];
  mx_target_label(target, label, sizeof label);
  mx_sha256_update(&s, label, strlen(label) + 1);
  for (int i = 0; i < target->n_flags; i++) mx_sha256_update(&s, target->flags[i], strlen(target->flags[i]) + 1);
  mx_sha256_update(&s, mlir_text, strlen(mlir_text));
  mx_sha256_hex(&s, out->key);
  snprintf(dir, sizeof dir, "%s/vmfb", home);
  MX_RETURN_IF_ERROR(mx_mkdirs(dir));
  snprintf(out->path, sizeof out->path, "%s/%.24s.vmfb", dir, out->key);
  if (access(out->path, R_OK) == 0) {
    out->hit = true;
    mx_log(MX_LOG_INFO, "mlxcel: compile cache hit for %s (%s)", what, label);
    return NULL;
  }
  char tmp[MX_PATH_MAX + 32];
  snprintf(tmp, sizeof tmp, "%s.tmp%d", out->path, (int)getpid());
  mx_log(MX_LOG_INFO, "mlxcel: compiling %s for %s (cold cache) ...", what, label);
  mx_status_t st = mx_compile_mlir_progress(compiler, target, mlir_text, tmp, what, &out->compile_ms);
  char side[MX_PATH_MAX + 48];
  if (st) /* keep the MLIR and log beside the failed output for the report */
    return mx_status_annotate(st, "compiling %s", what);
  if (rename(tmp, out->path) != 0)
    return mx_status_make(MX_STAGE_IO, "check that the compile cache directory is writable (XDG_CACHE_HOME)", "cannot store %s: %s",
                          out->path, strerror(errno));
  snprintf(side, sizeof side, "%s.mlir", tmp);
  unlink(side);
  snprintf(side, sizeof side, "%s.log", tmp);
  unlink(side);
  mx_log(MX_LOG_INFO, "mlxcel: compiled %s in %.1f s", what, out->compile_ms / 1000);
  return NULL;
}
