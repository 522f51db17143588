#include "compiler/cache.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/cachefile.h"
#include "base/file.h"
#include "base/interrupt.h"
#include "base/log.h"
#include "base/sha256.h"
#include "compiler/compile.h"

/* A verified cached module, else a compile into a temporary file that is sealed into place. A failed
 * compile's MLIR and log go to <dir>/failed/last.mlir and last.log (the previous failure's are
 * replaced); every other way out removes the temporary files. */
static mx_status_t lookup_or_compile(const char *compiler, const mx_target_t *target, const char *mlir_text, const char *what,
                                     const char *label, const char *dir, mx_vmfb_t *out) {
  bool trusted;
  MX_RETURN_IF_ERROR(mx_cache_file_verify(out->path, &trusted));
  if (trusted) {
    out->hit = true;
    mx_log(MX_LOG_INFO, "mlxcel: compile cache hit for %s (%s)", what, label);
    return NULL;
  }
  char tmp[MX_PATH_MAX + 32], failed[MX_PATH_MAX + 16], side[MX_PATH_MAX + 48];
  mx_cache_tmp_path(out->path, tmp, sizeof tmp);
  snprintf(failed, sizeof failed, "%s/failed", dir);
  mx_log(MX_LOG_INFO, "mlxcel: compiling %s for %s (cold cache) ...", what, label);
  mx_compile_options_t o = {.progress = what, .failed_dir = failed};
  mx_status_t st = mx_compile_mlir_opts(compiler, target, mlir_text, tmp, &o, &out->compile_ms);
  snprintf(side, sizeof side, "%s.mlir", tmp); /* a success leaves them, a failure has moved them */
  unlink(side);
  snprintf(side, sizeof side, "%s.log", tmp);
  unlink(side);
  if (st) {
    unlink(tmp);
    return mx_status_annotate(st, "compiling %s", what);
  }
  MX_RETURN_IF_ERROR(mx_cache_file_seal(tmp, out->path));
  mx_log(MX_LOG_INFO, "mlxcel: compiled %s in %.1f s", what, out->compile_ms / 1000);
  return NULL;
}

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
  if (target->tuning) mx_sha256_update(&s, target->tuning->text, strlen(target->tuning->text) + 1);
  mx_sha256_update(&s, mlir_text, strlen(mlir_text));
  mx_sha256_hex(&s, out->key);
  snprintf(dir, sizeof dir, "%s/vmfb", home);
  MX_RETURN_IF_ERROR(mx_mkdirs(dir));
  mx_cache_sweep(dir); /* what killed compiles left behind */
  snprintf(out->path, sizeof out->path, "%s/%.24s.vmfb", dir, out->key);
  mx_interrupt_enter();
  mx_status_t st = lookup_or_compile(compiler, target, mlir_text, what, label, dir, out);
  mx_interrupt_leave();
  if (!st) { /* a signal at the very end: the module is in place, but the command is to stop */
    char doing[256];
    snprintf(doing, sizeof doing, "compiling %s", what);
    st = mx_interrupt_status(doing, "stopped before loading it");
  }
  return st;
}
