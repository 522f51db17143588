/* Child processes for the qualification kit: each phase step is a command (mostly `mlxcel <cmd>`)
 * run in its own process group with its output in a log file and a deadline, so a hang is reported
 * as a hang, an interrupt (Ctrl-C) stops it and everything it started (the device worker too), and
 * nothing is left running behind the kit. */
#ifndef MX_QUALIFY_RUN_H
#define MX_QUALIFY_RUN_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/status.h"

typedef struct {
  int exit_code;    /* the child's exit status; -1 when it did not exit by itself */
  int signal;       /* the signal that ended it, else 0 */
  bool timed_out;   /* killed at the deadline */
  bool interrupted; /* killed because the kit was interrupted */
  bool left_behind; /* processes of its group were still alive after it ended (they were killed) */
  double wall_ms;
} mx_qrun_result_t;

/* SIGINT/SIGTERM set the kit's interrupt flag instead of killing it, so partial results get written. */
void mx_qrun_install_interrupt_handler(void);
bool mx_qrun_interrupted(void);
/* For tests: sets or clears the flag. */
void mx_qrun_set_interrupted(bool on);

/* Starts argv (argv[0] a path; NULL-terminated) with stdout and stderr appended to log_path (stdin
 * from /dev/null) in a new process group; env_extra ("K=V", NULL-terminated, may be NULL) is added
 * to the environment. */
MX_MUST_USE mx_status_t mx_qrun_spawn(char *const argv[], char *const env_extra[], const char *log_path, pid_t *pid);
/* Waits for a spawned child up to timeout_s (<= 0: no deadline), killing its group at the deadline
 * or on an interrupt, and reaps it. */
void mx_qrun_wait(pid_t pid, double timeout_s, mx_qrun_result_t *r);
/* Asks a spawned child to stop (SIGTERM), waits up to grace_s, then kills its group; reaps it. */
void mx_qrun_stop(pid_t pid, double grace_s, mx_qrun_result_t *r);
/* Spawn and wait. */
MX_MUST_USE mx_status_t mx_qrun(char *const argv[], char *const env_extra[], const char *log_path, double timeout_s,
                                mx_qrun_result_t *r);
/* Runs argv into log_path (truncated first) and returns its output in *text (malloc'd) when it
 * exited 0 and left nothing behind, else *text = NULL; r says how it ended. */
MX_MUST_USE mx_status_t mx_qrun_capture(char *const argv[], const char *log_path, double timeout_s, mx_qrun_result_t *r,
                                        char **text);
/* True when the run ended by itself with exit status 0 and left nothing behind. */
bool mx_qrun_ok(const mx_qrun_result_t *r);
/* One line saying how the run ended: "exit 0 in 1.2 s", "timed out after 60 s", ... */
void mx_qrun_describe(const mx_qrun_result_t *r, char *out, size_t cap);

#endif
