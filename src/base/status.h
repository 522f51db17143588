/* Status values: every fallible call in mlxcel returns one.
 *
 * NULL means success. A failure carries the stage that failed (so a user can tell a driver problem
 * from a compile problem at a glance), a one-line message, and a remedy: what to do about it. The
 * caller owns a returned status and must free it or hand it up; MX_MUST_USE on every function that
 * returns one makes the compiler catch a status dropped on the floor (a leak and a lost error).
 *
 * Context on the way up (as IREE's iree_status_annotate does): a caller that knows what it was
 * doing when a callee failed prepends that to the message and keeps the callee's stage and remedy,
 * which are what the user acts on. The convention is outermost context first, joined with ": ",
 * like an error chain read from the user's action down to the cause:
 *
 *   mlxcel: io: loading model.gguf: reading tokenizer.json: no such file; remedy: <callee's remedy>
 *
 * Prefixing (rather than appending "(while ...)") matches the wraps the code already had
 * ("starting the device worker: ...", "generation failed: ..."), keeps the callee's message intact
 * as a substring for tests and greps, and stays one line however deep the nesting. */
#ifndef MX_BASE_STATUS_H
#define MX_BASE_STATUS_H

#include <stdio.h>

/* On every declaration of a function that returns mx_status_t. GCC ignores a (void) cast on such
 * calls, so a status that really may be dropped goes through mx_status_ignore. */
#define MX_MUST_USE __attribute__((warn_unused_result))

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
  MX_STAGE_INTERNAL,  /* a bug in mlxcel (a broken invariant, not the user's input): report it */
  MX_STAGE_OOM,       /* the host ran out of memory */
} mx_stage_t;
/* The last stage, for tables indexed by stage (new stages go at the end: the values are stable). */
#define MX_STAGE_LAST MX_STAGE_OOM

typedef struct mx_status *mx_status_t;

/* Builds a failure. `remedy` NULL or "" means the stage's default remedy (mx_stage_default_remedy:
 * only internal and oom have one, so that every bug report and out-of-memory line says what to
 * do); `fmt` is printf-style. Newlines in the message are folded so that every status prints as one
 * line. Never returns NULL (allocation failure yields a static out-of-memory status that is safe to
 * annotate, clone and free). */
MX_MUST_USE mx_status_t mx_status_make(mx_stage_t stage, const char *remedy, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends printf-style context to st's message ("<context>: <message>"), keeping its stage and
 * remedy. Takes ownership of st and returns the annotated status (maybe another pointer, as realloc
 * does); NULL stays NULL, so `return mx_status_annotate(f(), ...)` is fine. If the context cannot be
 * allocated the status comes back unannotated: losing the context beats losing the error. */
MX_MUST_USE mx_status_t mx_status_annotate(mx_status_t st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A copy with the same stage, message and remedy that a second owner frees on its own (a failure
 * that ends several requests, say). NULL for NULL; the static out-of-memory status if the copy
 * cannot be allocated. */
MX_MUST_USE mx_status_t mx_status_clone(mx_status_t st);

/* The shared out-of-memory status (stage oom, message "out of memory", the default remedy). It needs
 * no allocation, so it is what a failed allocation returns; annotate, clone and free it like any
 * other status. */
MX_MUST_USE mx_status_t mx_status_oom(void);

/* Frees a status that is deliberately dropped; every call says why at the call site (a best-effort
 * cleanup step whose failure must not mask the first error, say). */
void mx_status_ignore(mx_status_t st);

mx_stage_t mx_status_stage(mx_status_t st);
const char *mx_status_message(mx_status_t st);
const char *mx_status_remedy(mx_status_t st); /* "" when none */
const char *mx_stage_name(mx_stage_t stage);
/* What to do about a failure of this stage when its maker knew nothing better; "" if none. */
const char *mx_stage_default_remedy(mx_stage_t stage);
/* Parses a stage name as the worker sends it ("driver", "module_load", ...); MX_STAGE_WORKER if unknown. */
mx_stage_t mx_stage_from_name(const char *name);

/* "mlxcel: <stage>: <message>; remedy: <remedy>\n" */
void mx_status_print(FILE *f, mx_status_t st);
void mx_status_free(mx_status_t st);

/* Hands a failure up unchanged. */
#define MX_RETURN_IF_ERROR(expr)      \
  do {                                \
    mx_status_t mx_st__ = (expr);     \
    if (mx_st__) return mx_st__;      \
  } while (0)

/* Hands a failure up with context, as mx_status_annotate: MX_RETURN_IF_ERROR_CTX(f(p), "loading %s", p).
 * A second macro rather than an optional argument to MX_RETURN_IF_ERROR: C11 has no __VA_OPT__, so
 * an optional format needs GNU's `, ##__VA_ARGS__`; this way both stay standard C and the format is
 * checked. The context is formatted only on failure. */
#define MX_RETURN_IF_ERROR_CTX(expr, ...)                        \
  do {                                                           \
    mx_status_t mx_st__ = (expr);                                \
    if (mx_st__) return mx_status_annotate(mx_st__, __VA_ARGS__); \
  } while (0)

#endif
