/* The interrupt flag (base/interrupt.c): a step's handler only while the step runs and only over the
 * default disposition (an ignored signal stays ignored, another handler stays), the first signal wins,
 * and serve's watcher sees a signal sent to the process. */
#include "testutil.h"

#include <signal.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "fileutil.h"

static int clear(void **state) {
  (void)state;
  mx_interrupt_clear();
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  return 0;
}

static void (*handler_of(int sig))(int) {
  struct sigaction sa;
  sigaction(sig, NULL, &sa);
  return sa.sa_handler;
}

static void a_step_records_the_signal_and_then_restores_the_default(void **state) {
  (void)state;
  mx_interrupt_enter();
  mx_interrupt_enter(); /* nested: only the outermost leave restores */
  assert_true(handler_of(SIGINT) != SIG_DFL && handler_of(SIGTERM) != SIG_DFL);
  raise(SIGINT);
  mx_interrupt_leave();
  assert_true(handler_of(SIGINT) != SIG_DFL);
  mx_interrupt_leave();
  assert_int_equal(mx_interrupt_signal(), SIGINT);
  assert_true(handler_of(SIGINT) == SIG_DFL && handler_of(SIGTERM) == SIG_DFL);
  mx_interrupt_leave(); /* unbalanced: harmless */
  assert_true(handler_of(SIGINT) == SIG_DFL);
}

static void the_first_signal_wins(void **state) {
  (void)state;
  assert_int_equal(mx_interrupt_signal(), 0);
  assert_null(mx_interrupt_status("compiling", "stopped"));
  mx_interrupt_raise(SIGTERM);
  mx_interrupt_raise(SIGINT);
  assert_int_equal(mx_interrupt_signal(), SIGTERM);
  assert_status(mx_interrupt_status("compiling the graph", "stopped iree-compile"), MX_STAGE_BUSY,
                "SIGTERM while compiling the graph: stopped iree-compile");
}

/* A background job of a script starts with SIGINT ignored: it keeps ignoring it, as before. */
static void an_ignored_signal_stays_ignored(void **state) {
  (void)state;
  signal(SIGINT, SIG_IGN);
  mx_interrupt_enter();
  assert_true(handler_of(SIGINT) == SIG_IGN);
  raise(SIGINT);
  assert_int_equal(mx_interrupt_signal(), 0);
  mx_interrupt_leave();
  assert_true(handler_of(SIGINT) == SIG_IGN);
}

static int others;
static void other_handler(int sig) { others = sig; }

static void another_handler_is_kept(void **state) {
  (void)state;
  signal(SIGTERM, other_handler);
  mx_interrupt_enter();
  assert_true(handler_of(SIGTERM) == other_handler);
  raise(SIGTERM);
  mx_interrupt_leave();
  assert_int_equal(others, SIGTERM);
  assert_true(handler_of(SIGTERM) == other_handler);
}

/* In a child: the watcher blocks the signals, takes the one sent to the process and reports it. */
static void the_watcher_takes_a_signal_sent_to_the_process(void **state) {
  (void)state;
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    mx_status_t st = mx_interrupt_watch_start();
    if (st) _exit(2);
    kill(getpid(), SIGTERM); /* blocked here: only the watcher's sigwait takes it */
    _exit(mx_interrupt_watch_wait() == SIGTERM && mx_interrupt_signal() == SIGTERM ? 0 : 3);
  }
  assert_int_equal(mx_test_wait(child), 0);
  child = fork();
  if (child == 0) { /* no signal: stopped without one */
    mx_status_t st = mx_interrupt_watch_start();
    if (st) _exit(2);
    mx_interrupt_watch_stop();
    _exit(mx_interrupt_signal() == 0 ? 0 : 3);
  }
  assert_int_equal(mx_test_wait(child), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(a_step_records_the_signal_and_then_restores_the_default, clear, clear),
      cmocka_unit_test_setup_teardown(the_first_signal_wins, clear, clear),
      cmocka_unit_test_setup_teardown(an_ignored_signal_stays_ignored, clear, clear),
      cmocka_unit_test_setup_teardown(another_handler_is_kept, clear, clear),
      cmocka_unit_test_setup_teardown(the_watcher_takes_a_signal_sent_to_the_process, clear, clear),
  };
  return cmocka_run_group_tests_name("base/interrupt", tests, NULL, NULL);
}
