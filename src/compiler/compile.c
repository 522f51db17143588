#include "compiler/compile.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/file.h"
#include "base/interrupt.h"
#include "base/log.h"
#include "base/toolchain.h"

extern char **environ;

#define DISK_REMEDY "free space on that disk, or put the cache on a disk with room (XDG_CACHE_HOME=/path/with/space)"

/* How iree-compile and LLVM say that a write failed. iree-compile 3.13 writing to a full disk (-o
 * /dev/full) prints "error opening input file: No space left on device" (its handler for every
 * output error says "input") and then "LLVM ERROR: IO failure on output stream: No space left on
 * device"; neither carries "error:". lld (linking CPU code through temporary files) says "failed to
 * write"; LLVM's tools "error writing". */
static const char *const write_failures[] = {
    "No space left on device", "Disk quota exceeded", "ENOSPC", "EDQUOT", "IO failure on output stream",
    "failed to write", "error writing", "could not write", "File too large",
};

static bool is_write_failure(const char *line) {
  for (size_t i = 0; i < sizeof write_failures / sizeof *write_failures; i++)
    if (strcasestr(line, write_failures[i])) return true;
  return false;
}

/* The line of the log that says why: the first write failure, else the first "error:" line. */
static void reason_line(const char *log_path, char *out, size_t cap, bool *disk) {
  FILE *f = fopen(log_path, "r");
  char line[1024], first_error[1024] = "";
  out[0] = '\0';
  *disk = false;
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (is_write_failure(line)) {
      snprintf(out, cap, "%s", line);
      *disk = true;
      break;
    }
    if (!first_error[0] && strstr(line, "error:")) snprintf(first_error, sizeof first_error, "%s", line);
  }
  fclose(f);
  if (!*disk) snprintf(out, cap, "%s", first_error);
}

/* "0 bytes free in /a, 5368709120 bytes free in /tmp". */
static void describe_room(const mx_disk_room_t *room, int n, char *out, size_t cap) {
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    size_t len = strlen(out);
    if (room[i].free_bytes < 0)
      snprintf(out + len, cap - len, "%sfree space unknown in %s", i ? ", " : "", room[i].dir);
    else
      snprintf(out + len, cap - len, "%s%lld bytes free in %s", i ? ", " : "", room[i].free_bytes, room[i].dir);
  }
}

static bool low_on_disk(const mx_disk_room_t *room, int n) {
  for (int i = 0; i < n; i++)
    if (room[i].free_bytes >= 0 && room[i].free_bytes < MX_COMPILE_LOW_DISK_BYTES) return true;
  return false;
}

mx_status_t mx_compile_failure(const char *label, const char *log_path, int wstatus, const mx_disk_room_t *room, int n_room,
                               const char *mlir_path) {
  char err[768], where[1024];
  bool disk;
  reason_line(log_path, err, sizeof err, &disk);
  describe_room(room, n_room, where, sizeof where);
  if (disk)
    return mx_status_make(MX_STAGE_IO, DISK_REMEDY,
                          "iree-compile could not write its output for %s, the disk is full or failing: %s (%s; log: %s)", label,
                          err, where, log_path);
  if (!err[0] && low_on_disk(room, n_room))
    return mx_status_make(MX_STAGE_IO, DISK_REMEDY,
                          "iree-compile failed for %s without an error line, and the disk is (nearly) full: %s (log: %s)", label,
                          where, log_path);
  if (WIFSIGNALED(wstatus)) {
    char remedy[MX_PATH_MAX + 96];
    snprintf(remedy, sizeof remedy, "see the log and report a compiler bug with %s", mlir_path);
    return mx_status_make(MX_STAGE_COMPILE, remedy, "iree-compile crashed (signal %d) compiling for %s; log: %s", WTERMSIG(wstatus),
                          label, log_path);
  }
  return mx_status_make(MX_STAGE_COMPILE, "see the full diagnostics in the log", "iree-compile failed for %s: %s (log: %s)", label,
                        err[0] ? err : "no error line", log_path);
}

/* The free space of dir's disk for an unprivileged writer; -1 when unknown. */
static long long free_bytes(const char *dir) {
  struct statvfs v;
  if (statvfs(dir, &v) != 0) return -1;
  return (long long)v.f_bavail * (long long)v.f_frsize;
}

/* The output's directory, and the compiler's temporary directory when it is on another disk. */
static int disk_room(const char *vmfb_path, char dirs[2][MX_PATH_MAX], mx_disk_room_t room[2]) {
  snprintf(dirs[0], MX_PATH_MAX, "%s", vmfb_path);
  char *slash = strrchr(dirs[0], '/');
  if (!slash) snprintf(dirs[0], MX_PATH_MAX, ".");
  else if (slash == dirs[0]) slash[1] = '\0';
  else *slash = '\0';
  const char *tmp = getenv("TMPDIR");
  snprintf(dirs[1], MX_PATH_MAX, "%s", tmp && tmp[0] ? tmp : "/tmp");
  room[0] = (mx_disk_room_t){dirs[0], free_bytes(dirs[0])};
  struct stat a, b;
  if (stat(dirs[0], &a) != 0 || stat(dirs[1], &b) != 0 || a.st_dev == b.st_dev) return 1;
  room[1] = (mx_disk_room_t){dirs[1], free_bytes(dirs[1])};
  return 2;
}

/* Moves the failed compile's MLIR and log to <dir>/last.mlir and last.log; the paths to name. */
static void keep_last_failure(const char *dir, char *mlir_path, char *log_path) {
  char mlir[MX_PATH_MAX + 16], log[MX_PATH_MAX + 16];
  snprintf(mlir, sizeof mlir, "%s/last.mlir", dir);
  snprintf(log, sizeof log, "%s/last.log", dir);
  mx_status_t st = mx_mkdirs(dir);
  if (st) { /* they stay beside the output: the message still names real files */
    mx_status_ignore(st);
    return;
  }
  if (rename(mlir_path, mlir) == 0) snprintf(mlir_path, MX_PATH_MAX, "%s", mlir);
  if (rename(log_path, log) == 0) snprintf(log_path, MX_PATH_MAX, "%s", log);
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* SIGTERM (LLVM's handler removes the compiler's own output files), SIGKILL after half a second; reaps. */
static void stop_child(pid_t pid, int *wstatus) {
  kill(pid, SIGTERM);
  for (int i = 0; i < 50; i++) {
    if (waitpid(pid, wstatus, WNOHANG) == pid) return;
    sleep_ms(10);
  }
  kill(pid, SIGKILL);
  while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR) {
  }
}

/* The compiler starts with no signal blocked and SIGPIPE at its default, whatever this process set
 * for itself (serve blocks SIGINT/SIGTERM for its sigwait and ignores SIGPIPE): a Ctrl-C from the
 * terminal reaches it, and an interrupt here kills it. A signal this process was started with
 * ignored stays ignored, as it would for any child. */
static int spawn_compiler(pid_t *pid, const char *compiler, const char *const *argv, const char *log_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, dfl;
  sigemptyset(&none);
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &dfl);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  int rc = posix_spawn(pid, compiler, &fa, &attr, (char *const *)argv, environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  return rc;
}

/* Waits for the compiler, saying every 10 s that a long compile is still going (full models take
 * minutes) and stopping it when the process is interrupted. 0, or the errno of a failed wait. */
static int wait_compiler(pid_t pid, double t0, const char *progress, int *wstatus, bool *interrupted) {
  double next_note = t0 + 10000;
  *interrupted = false;
  for (;;) {
    pid_t r = waitpid(pid, wstatus, WNOHANG);
    if (r == pid) return 0;
    if (r < 0 && errno != EINTR) return errno;
    if (mx_interrupt_signal()) {
      stop_child(pid, wstatus);
      *interrupted = true;
      return 0;
    }
    if (progress && mx_now_ms() > next_note) {
      mx_log(MX_LOG_INFO, "mlxcel: still compiling %s (%.0f s)", progress, (mx_now_ms() - t0) / 1000);
      next_note += 10000;
    }
    sleep_ms(20);
  }
}

mx_status_t mx_compile_mlir(const char *compiler, const mx_target_t *target, const char *mlir_text,
                            const char *vmfb_path, double *elapsed_ms) {
  return mx_compile_mlir_opts(compiler, target, mlir_text, vmfb_path, NULL, elapsed_ms);
}

static mx_status_t compile(const char *compiler, const mx_target_t *target, const char *mlir_text, const char *vmfb_path,
                           const mx_compile_options_t *o, double *elapsed_ms, char *mlir_path, char *log_path) {
  MX_RETURN_IF_ERROR(mx_write_file(mlir_path, mlir_text, strlen(mlir_text)));
  const char *argv[MX_TARGET_MAX_FLAGS + 9];
  int n = 0;
  argv[n++] = compiler;
  argv[n++] = "--iree-input-type=stablehlo";
  for (int i = 0; i < target->n_flags; i++) argv[n++] = target->flags[i];
  char tuning_flag[MX_PATH_MAX + 64];
  char tuning_path[MX_PATH_MAX + 16];
  snprintf(tuning_path, sizeof tuning_path, "%s.tuning.mlir", vmfb_path);
  if (target->tuning) { /* a file of ours, the same every time: removed when the compiler is done */
    MX_RETURN_IF_ERROR(mx_write_file(tuning_path, target->tuning->text, strlen(target->tuning->text)));
    snprintf(tuning_flag, sizeof tuning_flag, "--iree-codegen-transform-dialect-library=%s", tuning_path);
    argv[n++] = tuning_flag;
  }
  argv[n++] = mlir_path;
  argv[n++] = "-o";
  argv[n++] = vmfb_path;
  argv[n] = NULL;

  double t0 = mx_now_ms();
  pid_t pid;
  int rc = spawn_compiler(&pid, compiler, argv, log_path);
  if (rc != 0) {
    if (target->tuning) unlink(tuning_path);
    return mx_status_make(MX_STAGE_TOOLCHAIN, "run `make iree` or set MLXCEL_XLA_IREE_COMPILE",
                          "cannot run %s: %s", compiler, strerror(rc));
  }
  int wstatus = 0;
  bool interrupted;
  rc = wait_compiler(pid, t0, o->progress, &wstatus, &interrupted);
  if (target->tuning) unlink(tuning_path);
  if (elapsed_ms) *elapsed_ms = mx_now_ms() - t0;
  char label[96];
  mx_target_label(target, label, sizeof label);
  if (interrupted) {
    char what[160];
    snprintf(what, sizeof what, "compiling for %s", label);
    return mx_interrupt_status(what, "stopped iree-compile and removed its files");
  }
  if (rc != 0)
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "lost track of iree-compile (pid %d): %s", (int)pid, strerror(rc));
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) return NULL;
  char dirs[2][MX_PATH_MAX];
  mx_disk_room_t room[2];
  int n_room = disk_room(vmfb_path, dirs, room);
  if (o->failed_dir) keep_last_failure(o->failed_dir, mlir_path, log_path);
  return mx_compile_failure(label, log_path, wstatus, room, n_room, mlir_path);
}

mx_status_t mx_compile_mlir_opts(const char *compiler, const mx_target_t *target, const char *mlir_text,
                                 const char *vmfb_path, const mx_compile_options_t *o, double *elapsed_ms) {
  static const mx_compile_options_t defaults = {0};
  char mlir_path[MX_PATH_MAX], log_path[MX_PATH_MAX];
  if (snprintf(mlir_path, sizeof mlir_path, "%s.mlir", vmfb_path) >= (int)sizeof mlir_path ||
      snprintf(log_path, sizeof log_path, "%s.log", vmfb_path) >= (int)sizeof log_path)
    return mx_status_make(MX_STAGE_IO, "write the output to a shorter path", "output path too long: %s", vmfb_path);
  mx_interrupt_enter();
  mx_status_t st = compile(compiler, target, mlir_text, vmfb_path, o ? o : &defaults, elapsed_ms, mlir_path, log_path);
  mx_interrupt_leave();
  if (st && mx_interrupt_signal()) { /* nothing of an interrupted compile is worth keeping */
    unlink(vmfb_path);
    unlink(mlir_path);
    unlink(log_path);
  }
  return st;
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
