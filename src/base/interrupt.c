#include "base/interrupt.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

/* A lock-free atomic is async-signal-safe, and unlike a volatile sig_atomic_t it may be read on one
 * thread and written on another (the serve watcher, a scheduler thread) without a data race. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the interrupt flag must be lock-free to be set from a signal handler");
static atomic_int pending;

static const int watched[2] = {SIGINT, SIGTERM};

/* Which handlers the outermost mx_interrupt_enter replaced, to put back; guarded by lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int depth;
static struct sigaction saved[2];
static bool replaced[2];

void mx_interrupt_raise(int sig) {
  int none = 0;
  atomic_compare_exchange_strong(&pending, &none, sig);
}

int mx_interrupt_signal(void) { return atomic_load(&pending); }
void mx_interrupt_clear(void) { atomic_store(&pending, 0); }

static void on_signal(int sig) { mx_interrupt_raise(sig); }

void mx_interrupt_enter(void) {
  pthread_mutex_lock(&lock);
  if (depth++ == 0) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* the code around the step is not written for EINTR */
    for (int i = 0; i < 2; i++) {
      replaced[i] = sigaction(watched[i], NULL, &saved[i]) == 0 && !(saved[i].sa_flags & SA_SIGINFO) &&
                    saved[i].sa_handler == SIG_DFL;
      if (replaced[i]) sigaction(watched[i], &sa, NULL);
    }
  }
  pthread_mutex_unlock(&lock);
}

void mx_interrupt_leave(void) {
  pthread_mutex_lock(&lock);
  if (depth > 0 && --depth == 0)
    for (int i = 0; i < 2; i++)
      if (replaced[i]) sigaction(watched[i], &saved[i], NULL);
  pthread_mutex_unlock(&lock);
}

mx_status_t mx_interrupt_status(const char *what, const char *done) {
  int sig = mx_interrupt_signal();
  if (!sig) return NULL;
  return mx_status_make(MX_STAGE_BUSY, "run the command again; the step starts over",
                        "%s while %s: %s", sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal", what, done);
}

/* --- the watcher ------------------------------------------------------------------------------ */

static pthread_t watcher;
static bool watching;

static void *watch(void *arg) {
  (void)arg;
  sigset_t sigs;
  sigemptyset(&sigs);
  for (int i = 0; i < 2; i++) sigaddset(&sigs, watched[i]);
  int sig = 0;
  while (sigwait(&sigs, &sig) != 0) {
  }
  mx_interrupt_raise(sig);
  return NULL;
}

mx_status_t mx_interrupt_watch_start(void) {
  sigset_t sigs;
  sigemptyset(&sigs);
  for (int i = 0; i < 2; i++) sigaddset(&sigs, watched[i]);
  pthread_sigmask(SIG_BLOCK, &sigs, NULL);
  int rc = pthread_create(&watcher, NULL, watch, NULL);
  if (rc != 0)
    return mx_status_make(MX_STAGE_OOM, "free host memory or raise the process limit (ulimit -u) and retry",
                          "cannot start the signal thread: %s", strerror(rc));
  watching = true;
  return NULL;
}

int mx_interrupt_watch_wait(void) {
  if (watching) pthread_join(watcher, NULL);
  watching = false;
  return mx_interrupt_signal();
}

void mx_interrupt_watch_stop(void) {
  if (!watching) return;
  pthread_cancel(watcher); /* sigwait is a cancellation point */
  pthread_join(watcher, NULL);
  watching = false;
}
