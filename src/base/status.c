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

static struct mx_status oom_status = {MX_STAGE_IO, 1, "out of memory", ""};

static const char *const stage_names[] = {
    [MX_STAGE_USAGE] = "usage",         [MX_STAGE_TOOLCHAIN] = "toolchain",
    [MX_STAGE_COMPILE] = "compile",     [MX_STAGE_SPAWN] = "spawn",
    [MX_STAGE_PROTOCOL] = "protocol",   [MX_STAGE_DRIVER] = "driver",
    [MX_STAGE_DEVICE] = "device",       [MX_STAGE_MODULE_LOAD] = "module_load",
    [MX_STAGE_CALL] = "call",           [MX_STAGE_TRANSFER] = "transfer",
    [MX_STAGE_WORKER] = "worker",       [MX_STAGE_IO] = "io",
    [MX_STAGE_CHECK] = "check",
    [MX_STAGE_BUSY] = "busy",
};
#define N_STAGES (sizeof stage_names / sizeof stage_names[0])

/* Folds newlines and tabs into spaces and trims trailing blanks, so a status is always one line even
 * when it quotes a multi-line IREE or compiler diagnostic. */
static void fold_to_one_line(char *s) {
  for (char *p = s; *p; p++)
    if (*p == '\n' || *p == '\r' || *p == '\t') *p = ' ';
  size_t n = strlen(s);
  while (n > 0 && s[n - 1] == ' ') s[--n] = '\0';
}

mx_status_t mx_status_make(mx_stage_t stage, const char *remedy, const char *fmt, ...) {
  struct mx_status *st = calloc(1, sizeof *st);
  if (!st) return &oom_status;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  st->message = malloc(n > 0 ? (size_t)n + 1 : 1);
  st->remedy = strdup(remedy ? remedy : "");
  if (!st->message || !st->remedy) {
    free(st->message);
    free(st->remedy);
    free(st);
    return &oom_status;
  }
  va_start(ap, fmt);
  vsnprintf(st->message, (size_t)n + 1, fmt, ap);
  va_end(ap);
  fold_to_one_line(st->message);
  fold_to_one_line(st->remedy);
  st->stage = stage;
  return st;
}

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
