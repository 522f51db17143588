#include "base/status.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct mx_status {
  mx_stage_t stage;
  int is_static;
  char *message;
  char *remedy;
};

#define OOM_REMEDY "free host memory (stop other processes, or use a smaller model, --context or --slots) and retry"

static const char *const stage_names[] = {
    [MX_STAGE_USAGE] = "usage",         [MX_STAGE_TOOLCHAIN] = "toolchain",
    [MX_STAGE_COMPILE] = "compile",     [MX_STAGE_SPAWN] = "spawn",
    [MX_STAGE_PROTOCOL] = "protocol",   [MX_STAGE_DRIVER] = "driver",
    [MX_STAGE_DEVICE] = "device",       [MX_STAGE_MODULE_LOAD] = "module_load",
    [MX_STAGE_CALL] = "call",           [MX_STAGE_TRANSFER] = "transfer",
    [MX_STAGE_WORKER] = "worker",       [MX_STAGE_IO] = "io",
    [MX_STAGE_CHECK] = "check",         [MX_STAGE_BUSY] = "busy",
    [MX_STAGE_INTERNAL] = "internal",   [MX_STAGE_OOM] = "oom",
};
#define N_STAGES (sizeof stage_names / sizeof stage_names[0])
_Static_assert(N_STAGES == MX_STAGE_LAST + 1, "every stage has a name");

/* Only stages whose failures all call for the same action have a default: a bug is reported, an
 * out-of-memory run frees memory. Every other stage's remedy depends on what failed. */
static const char *const default_remedies[N_STAGES] = {
    [MX_STAGE_INTERNAL] = "this is a bug in mlxcel: please report it on the mlxcel issue tracker with this whole "
                          "line and the command that printed it",
    [MX_STAGE_OOM] = OOM_REMEDY,
};

/* What an allocation failure returns: it needs no memory. Never written (is_static guards free and
 * annotate), so it is constant state, not mutable global state; the casts below only drop the
 * const that mx_status_t cannot carry. */
static const struct mx_status oom_status = {MX_STAGE_OOM, 1, "out of memory", OOM_REMEDY};
#define OOM ((mx_status_t)&oom_status)

/* Folds newlines and tabs into spaces and trims trailing blanks, so a status is always one line even
 * when it quotes a multi-line IREE or compiler diagnostic. */
static void fold_to_one_line(char *s) {
  for (char *p = s; *p; p++)
    if (*p == '\n' || *p == '\r' || *p == '\t') *p = ' ';
  size_t n = strlen(s);
  while (n > 0 && s[n - 1] == ' ') s[--n] = '\0';
}

/* A malloc'ed, formatted string; NULL when out of memory. */
static char *vformat(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  char *s = malloc(n > 0 ? (size_t)n + 1 : 1);
  if (!s) return NULL;
  if (n > 0)
    vsnprintf(s, (size_t)n + 1, fmt, ap);
  else
    s[0] = '\0';
  return s;
}

const char *mx_stage_default_remedy(mx_stage_t stage) {
  if ((size_t)stage < N_STAGES && default_remedies[stage]) return default_remedies[stage];
  return "";
}

/* Takes ownership of message; remedy is copied. */
static mx_status_t build(mx_stage_t stage, const char *remedy, char *message) {
  if (!remedy || !remedy[0]) remedy = mx_stage_default_remedy(stage);
  struct mx_status *st = message ? calloc(1, sizeof *st) : NULL;
  char *r = st ? strdup(remedy) : NULL;
  if (!r) {
    free(st);
    free(message);
    return OOM;
  }
  fold_to_one_line(message);
  fold_to_one_line(r);
  st->stage = stage;
  st->message = message;
  st->remedy = r;
  return st;
}

mx_status_t mx_status_make(mx_stage_t stage, const char *remedy, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *message = vformat(fmt, ap);
  va_end(ap);
  return build(stage, remedy, message);
}

mx_status_t mx_status_annotate(mx_status_t st, const char *fmt, ...) {
  if (!st) return NULL;
  va_list ap;
  va_start(ap, fmt);
  char *ctx = vformat(fmt, ap);
  va_end(ap);
  if (!ctx) return st;
  fold_to_one_line(ctx);
  size_t nc = strlen(ctx), nm = strlen(st->message);
  if (!nc) {
    free(ctx);
    return st;
  }
  char *msg = malloc(nc + 2 + nm + 1);
  if (!msg) {
    free(ctx);
    return st;
  }
  memcpy(msg, ctx, nc);
  if (nm) {
    memcpy(msg + nc, ": ", 2);
    memcpy(msg + nc + 2, st->message, nm + 1);
  } else {
    msg[nc] = '\0';
  }
  free(ctx);
  if (st->is_static) {
    /* The shared status cannot change: the context goes into a heap copy, or is lost if that fails. */
    mx_status_t copy = build(st->stage, st->remedy, msg);
    return copy;
  }
  free(st->message);
  st->message = msg;
  return st;
}

mx_status_t mx_status_clone(mx_status_t st) {
  if (!st) return NULL;
  if (st->is_static) return st; /* shared and never freed: the "copy" is itself */
  return build(st->stage, st->remedy, strdup(st->message));
}

mx_status_t mx_status_oom(void) { return OOM; }

mx_stage_t mx_status_stage(mx_status_t st) { return st ? st->stage : 0; }
const char *mx_status_message(mx_status_t st) { return st ? st->message : "ok"; }
const char *mx_status_remedy(mx_status_t st) { return st ? st->remedy : ""; }

const char *mx_stage_name(mx_stage_t stage) {
  if ((size_t)stage < N_STAGES && stage_names[stage]) return stage_names[stage];
  return "unknown";
}

mx_stage_t mx_stage_from_name(const char *name) {
  for (size_t i = 0; name && i < N_STAGES; i++)
    if (stage_names[i] && strcmp(stage_names[i], name) == 0) return (mx_stage_t)i;
  return MX_STAGE_WORKER;
}

void mx_status_print(FILE *f, mx_status_t st) {
  if (!st) return;
  if (st->remedy[0])
    fprintf(f, "mlxcel: %s: %s; remedy: %s\n", mx_stage_name(st->stage), st->message, st->remedy);
  else
    fprintf(f, "mlxcel: %s: %s\n", mx_stage_name(st->stage), st->message);
}

void mx_status_free(mx_status_t st) {
  if (!st || st->is_static) return;
  free(st->message);
  free(st->remedy);
  free(st);
}

void mx_status_ignore(mx_status_t st) { mx_status_free(st); }
