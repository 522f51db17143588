#include "qualify/run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/file.h"
#include "base/interrupt.h"

extern char **environ;
static volatile sig_atomic_t interrupted;

/* Also the engine's flag: a compile or weight preparation the kit runs in this process stops too. */
static void on_signal(int sig) {
  interrupted = 1;
  mx_interrupt_raise(sig);
}

void mx_qrun_install_interrupt_handler(void) {
  struct sigaction sa = {0};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

bool mx_qrun_interrupted(void) { return interrupted != 0; }
void mx_qrun_set_interrupted(bool on) { interrupted = on; }

mx_status_t mx_qrun_spawn(char *const argv[], char *const env_extra[], const char *log_path, pid_t *pid) {
  int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log < 0)
    return mx_status_make(MX_STAGE_IO, "check that the output directory is writable", "cannot open %s: %s", log_path,
                          strerror(errno));
  pid_t p = fork();
  if (p < 0) {
    close(log);
    return mx_status_make(MX_STAGE_IO, "free some processes or memory", "fork failed: %s", strerror(errno));
  }
  if (p == 0) {
    setpgid(0, 0);
    /* The kit ignores nothing; the child gets the default handlers back. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0);
    dup2(log, 1);
    dup2(log, 2);
    for (int i = 0; env_extra && env_extra[i]; i++) putenv(env_extra[i]);
    execv(argv[0], argv);
    dprintf(2, "mlxcel qualify: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  setpgid(p, p); /* also here, so the group exists before the parent signals it */
  close(log);
  *pid = p;
  return NULL;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Whether any process of group pgid is alive (zombies of reaped children are not). */
static bool group_alive(pid_t pgid) { return kill(-pgid, 0) == 0; }

/* SIGTERM to the group, then SIGKILL after grace_s; reaps pid. Returns its wait status. */
static int kill_group(pid_t pid, double grace_s) {
  int status = 0;
  kill(-pid, SIGTERM);
  double end = mx_now_ms() + grace_s * 1000;
  pid_t w = 0;
  while ((w = waitpid(pid, &status, WNOHANG)) == 0 && mx_now_ms() < end) sleep_ms(20);
  if (w == 0) {
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  return status;
}

/* After the child ended: anything of its group still alive is left behind; kill it. */
static bool sweep_group(pid_t pid) {
  if (!group_alive(pid)) return false;
  kill(-pid, SIGTERM);
  for (int i = 0; i < 100 && group_alive(pid); i++) sleep_ms(20);
  if (group_alive(pid)) kill(-pid, SIGKILL);
  return true;
}

static void fill(mx_qrun_result_t *r, int status) {
  r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

void mx_qrun_wait(pid_t pid, double timeout_s, mx_qrun_result_t *r) {
  double t0 = mx_now_ms(), end = timeout_s > 0 ? t0 + timeout_s * 1000 : 0;
  *r = (mx_qrun_result_t){0};
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    if (interrupted || (end && mx_now_ms() > end)) {
      r->interrupted = interrupted != 0;
      r->timed_out = !r->interrupted;
      status = kill_group(pid, 5);
      break;
    }
    sleep_ms(20);
  }
  fill(r, status);
  if (r->timed_out || r->interrupted) r->exit_code = -1;
  r->left_behind = sweep_group(pid);
  r->wall_ms = mx_now_ms() - t0;
}

void mx_qrun_stop(pid_t pid, double grace_s, mx_qrun_result_t *r) {
  double t0 = mx_now_ms();
  *r = (mx_qrun_result_t){0};
  int status = 0;
  kill(pid, SIGTERM);
  double end = t0 + grace_s * 1000;
  pid_t w = 0;
  while ((w = waitpid(pid, &status, WNOHANG)) == 0 && mx_now_ms() < end) sleep_ms(20);
  if (w == 0) {
    r->timed_out = true;
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  fill(r, status);
  if (r->timed_out) r->exit_code = -1;
  r->left_behind = sweep_group(pid);
  r->wall_ms = mx_now_ms() - t0;
}

mx_status_t mx_qrun(char *const argv[], char *const env_extra[], const char *log_path, double timeout_s, mx_qrun_result_t *r) {
  pid_t pid;
  MX_RETURN_IF_ERROR(mx_qrun_spawn(argv, env_extra, log_path, &pid));
  mx_qrun_wait(pid, timeout_s, r);
  return NULL;
}

mx_status_t mx_qrun_capture(char *const argv[], const char *log_path, double timeout_s, mx_qrun_result_t *r, char **text) {
  *text = NULL;
  unlink(log_path);
  MX_RETURN_IF_ERROR(mx_qrun(argv, NULL, log_path, timeout_s, r));
  if (mx_qrun_ok(r)) mx_status_ignore(mx_read_file(log_path, 16u << 20, text, NULL));
  return NULL;
}

bool mx_qrun_ok(const mx_qrun_result_t *r) {
  return r->exit_code == 0 && !r->timed_out && !r->interrupted && !r->left_behind;
}

void mx_qrun_describe(const mx_qrun_result_t *r, char *out, size_t cap) {
  double s = r->wall_ms / 1000;
  if (r->interrupted) snprintf(out, cap, "interrupted after %.1f s", s);
  else if (r->timed_out) snprintf(out, cap, "timed out after %.1f s (killed with its process group)", s);
  else if (r->signal) snprintf(out, cap, "killed by signal %d (%s) after %.1f s", r->signal, strsignal(r->signal), s);
  else snprintf(out, cap, "exit %d in %.1f s%s", r->exit_code, s, r->left_behind ? "; processes left behind were killed" : "");
}
