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
#include "base/file.h"
#include "base/log.h"
#include "base/toolchain.h"

extern char **environ;

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
  return mx_compile_mlir_progress(compiler, target, mlir_text, vmfb_path, NULL, elapsed_ms);
}

mx_status_t mx_compile_mlir_progress(const char *compiler, const mx_target_t *target, const char *mlir_text,
                                     const char *vmfb_path, const char *progress, double *elapsed_ms) {
  char mlir_path[MX_PATH_MAX], log_path[MX_PATH_MAX];
  if (snprintf(mlir_path, sizeof mlir_path, "%s.mlir", vmfb_path) >= (int)sizeof mlir_path ||
      snprintf(log_path, sizeof log_path, "%s.log", vmfb_path) >= (int)sizeof log_path)
    return mx_status_make(MX_STAGE_IO, "write the output to a shorter path", "output path too long: %s", vmfb_path);
  MX_RETURN_IF_ERROR(mx_write_file(mlir_path, mlir_text, strlen(mlir_text)));

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
  /* Wait, saying every 10 s that a long compile is still going (full models take minutes). */
  int wstatus;
  double next_note = t0 + 10000;
  for (;;) {
    pid_t r = waitpid(pid, &wstatus, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    if (progress && mx_now_ms() > next_note) {
      mx_log(MX_LOG_INFO, "mlxcel: still compiling %s (%.0f s)", progress, (mx_now_ms() - t0) / 1000);
      next_note += 10000;
    }
    usleep(20000);
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

mx_status_t mx_compiler_version(const char *compiler, char *out, size_t cap) {
  int fds[2];
  if (pipe(fds) != 0)
    return mx_status_make(MX_STAGE_TOOLCHAIN, "the process is out of file descriptors: raise `ulimit -n` and retry", "pipe: %s",
                          strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  char *argv[] = {(char *)compiler, "--version", NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, compiler, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  size_t n = 0;
  if (rc == 0) {
    ssize_t k;
    while (n + 1 < cap && (k = read(fds[0], out + n, cap - 1 - n)) > 0) n += (size_t)k;
    int ws;
    waitpid(pid, &ws, 0);
  }
  close(fds[0]);
  out[n] = '\0';
  if (rc != 0 || n == 0)
    return mx_status_make(MX_STAGE_TOOLCHAIN, "run `make iree` or set MLXCEL_XLA_IREE_COMPILE", "cannot run %s --version", compiler);
  return NULL;
}
