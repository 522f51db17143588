/* Ctrl-C (SIGINT) and SIGTERM during a long step: a compile (tens of seconds), a weight preparation
 * (seconds to minutes), a cache check (hashing gigabytes). Such a step stops promptly, kills what it
 * started, removes its temporary files and returns an "interrupted" status; the command then exits
 * 130 with one line (mx_cli_report).
 *
 * Outside those steps nothing changes: a signal keeps whatever disposition the process has, by
 * default ending it as before. A step brackets itself with mx_interrupt_enter/leave, which install a
 * handler that only records the signal — for a signal whose disposition is the default; one the
 * process was started with ignored (a background job of a script) stays ignored, and one some other
 * code handles keeps its handler (that code calls mx_interrupt_raise). The step polls
 * mx_interrupt_signal().
 *
 * A command that takes the signals itself (serve: it must drain requests on SIGTERM once running)
 * uses the watcher below instead: the signals are blocked in every thread and one thread waits for
 * them with sigwait, so a signal during start-up reaches the compile as well. */
#ifndef MX_BASE_INTERRUPT_H
#define MX_BASE_INTERRUPT_H

#include "base/status.h"

/* Nestable and callable from any thread; the outermost pair installs and restores the handlers. */
void mx_interrupt_enter(void);
void mx_interrupt_leave(void);

/* Records sig as the interrupt (the first one wins). Async-signal-safe. */
void mx_interrupt_raise(int sig);
/* The recorded signal, 0 when none. */
int mx_interrupt_signal(void);
/* Forgets the recorded signal (tests). */
void mx_interrupt_clear(void);

/* NULL when no signal was recorded; else "SIGINT while <what>: <done>" (stage busy: the process is
 * shutting down; the CLI prints it as "interrupted" and exits 130). `done` says what was cleaned up. */
MX_MUST_USE mx_status_t mx_interrupt_status(const char *what, const char *done);

/* The watcher: blocks SIGINT and SIGTERM in the calling thread — call it before any other thread or
 * child exists, so that all inherit the mask — and starts a thread that waits for them and records the
 * first with mx_interrupt_raise. */
MX_MUST_USE mx_status_t mx_interrupt_watch_start(void);
/* Waits until the watcher has seen a signal; returns it. */
int mx_interrupt_watch_wait(void);
/* Stops a watcher that has seen no signal (a start-up that failed otherwise). */
void mx_interrupt_watch_stop(void);

#endif
