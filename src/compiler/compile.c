#include "compiler/compile.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/toolchain.h"

extern char **environ;

static mx_status_t write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) return mx_status_make(MX_STAGE_IO, "check the directory is writable", "cannot write %s: %s", path, strerror(errno));
  size_t n = strlen(text);
  bool ok = fwrite(text, 1, n, f) == n;
  ok = (fclose(f) == 0) && ok;
  if (!ok) return mx_status_make(MX_STAGE_IO, "check free disk space", "short write to %s", path);
  return NULL;
}

/* The first line of the log that carries "error:", for a one-line status. */
static void first_error(const char *log_path, char *out, size_t cap) {
  FILE *f = fopen(log_path, "r");
  char line[1024];
  out[0] = '\0';
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    if (strstr(line, "error:")) {
      line[strcspn(line, "\n")] = '\0';
      snprintf(out, cap, "%s", line);
      break;
    }
  }
  fclose(f);
}

mx_status_t mx_compile_mlir(const char *compiler, const mx_target_t *target, const char *mlir_text,
                            const char *vmfb_path, double *elapsed_ms) {
  char mlir_path[MX_PATH_MAX], log_path[MX_PATH_MAX];
  if (snprintf(mlir_path, sizeof mlir_path, "%s.mlir", vmfb_path) >= (int)sizeof mlir_path ||
      snprintf(log_path, sizeof log_path, "%s.log", vmfb_path) >= (int)sizeof log_path)
    return mx_status_make(MX_STAGE_IO, NULL, "output path too long: %s", vmfb_path);
  MX_RETURN_IF_ERROR(write_file(mlir_path, mlir_text));

  const char *argv[MX_TARGET_MAX_FLAGS + 8];
  int n = 0;
  argv[n++] = compiler;
  argv[n++] = "--iree-input-type=stablehlo";
  for (int i = 0; i < target->n_flags; i++) argv[n++] = target->flags[i];
  argv[n++] = mlir_path;
  argv[n++] = "-o";
  argv[n++] = vmfb_path;
  argv[n] = NULL;

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  double t0 = mx_now_ms();
  pid_t pid;
  int rc = posix_spawn(&pid, compiler, &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    return mx_status_make(MX_STAGE_TOOLCHAIN, "run `make iree` or set MLXCEL_XLA_IREE_COMPILE",
                          "cannot run %s: %s", compiler, strerror(rc));
  int wstatus;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (elapsed_ms) *elapsed_ms = mx_now_ms() - t0;
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) return NULL;
  char err[768];
  first_error(log_path, err, sizeof err);
  char label[96];
  mx_target_label(target, label, sizeof label);
  if (WIFSIGNALED(wstatus))
    return mx_status_make(MX_STAGE_COMPILE, "see the log and report a compiler bug with the .mlir beside it",
                          "iree-compile crashed (signal %d) compiling for %s; log: %s", WTERMSIG(wstatus), label, log_path);
  return mx_status_make(MX_STAGE_COMPILE, "see the full diagnostics in the log",
                        "iree-compile failed for %s: %s (log: %s)", label, err[0] ? err : "no error line", log_path);
}
