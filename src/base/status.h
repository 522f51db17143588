/* Status values: every fallible call in mlxcel returns one.
 *
 * NULL means success. A failure carries the stage that failed (so a user can tell a driver problem
 * from a compile problem at a glance), a one-line message, and a remedy: what to do about it. The
 * caller owns a returned status and must free it or hand it up. */
#ifndef MX_BASE_STATUS_H
#define MX_BASE_STATUS_H

#include <stdio.h>

typedef enum {
  MX_STAGE_USAGE = 1, /* bad flag, env value or argument */
  MX_STAGE_TOOLCHAIN, /* pinned IREE not installed or not runnable */
  MX_STAGE_COMPILE,   /* iree-compile */
  MX_STAGE_SPAWN,     /* starting the device worker */
  MX_STAGE_PROTOCOL,  /* malformed frame between client and worker */
  MX_STAGE_DRIVER,    /* HAL driver missing or cannot be created */
  MX_STAGE_DEVICE,    /* device URI unknown or device cannot be opened */
  MX_STAGE_MODULE_LOAD, /* VMFB or parameter file rejected */
  MX_STAGE_CALL,      /* function lookup, argument check or execution */
  MX_STAGE_TRANSFER,  /* host <-> device copies, handles */
  MX_STAGE_WORKER,    /* the worker died or stopped answering */
  MX_STAGE_IO,        /* local files */
  MX_STAGE_CHECK,     /* a numeric check failed */
  MX_STAGE_BUSY,      /* the scheduler is full or shutting down: retry later */
} mx_stage_t;

typedef struct mx_status *mx_status_t;

/* Builds a failure. `remedy` may be NULL; `fmt` is printf-style. Newlines in the message are folded
 * so that every status prints as one line. Never returns NULL (allocation failure yields a static
 * out-of-memory status that is safe to free). */
mx_status_t mx_status_make(mx_stage_t stage, const char *remedy, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

mx_stage_t mx_status_stage(mx_status_t st);
const char *mx_status_message(mx_status_t st);
const char *mx_status_remedy(mx_status_t st); /* "" when none */
const char *mx_stage_name(mx_stage_t stage);
/* Parses a stage name as the worker sends it ("driver", "module_load", ...); MX_STAGE_WORKER if unknown. */
mx_stage_t mx_stage_from_name(const char *name);

/* "mlxcel: <stage>: <message>; remedy: <remedy>\n" */
void mx_status_print(FILE *f, mx_status_t st);
void mx_status_free(mx_status_t st);

#define MX_RETURN_IF_ERROR(expr)      \
  do {                                \
    mx_status_t mx_st__ = (expr);     \
    if (mx_st__) return mx_st__;      \
  } while (0)

#endif
