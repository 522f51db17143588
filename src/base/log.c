#include "base/log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void stderr_write(void *user, mx_log_level_t level, const char *line) {
  (void)user, (void)level;
  /* One locked write per line, so lines from server threads never interleave mid-line. */
  flockfile(stderr);
  fputs(line, stderr);
  fputc('\n', stderr);
  funlockfile(stderr);
}

static const mx_log_sink_t default_sink = {stderr_write, NULL};

/* The process-wide sink (log.h says why it is the one global setting). */
static _Atomic(const mx_log_sink_t *) current_sink = &default_sink;

void mx_log_set_sink(const mx_log_sink_t *sink) { atomic_store(&current_sink, sink ? sink : &default_sink); }

void mx_log(mx_log_level_t level, const char *fmt, ...) {
  /* Most lines fit the stack buffer; a longer one is formatted again into the heap. */
  char small[512], *line = small;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof small) {
    char *big = malloc((size_t)n + 1);
    if (big) {
      va_start(ap, fmt);
      vsnprintf(big, (size_t)n + 1, fmt, ap);
      va_end(ap);
      line = big;
    } /* else the truncated line in `small` still goes out */
  }
  /* A sink gets exactly one line: a stray newline (a quoted diagnostic) becomes a space, and a
   * trailing one (a habit from fprintf) goes, so the default sink never prints a blank line. */
  size_t len = 0;
  for (char *p = line; *p; p++, len++)
    if (*p == '\n' || *p == '\r') *p = ' ';
  while (len > 0 && line[len - 1] == ' ') line[--len] = '\0';
  const mx_log_sink_t *sink = atomic_load(&current_sink);
  sink->write(sink->user, level, line);
  if (line != small) free(line);
}

const char *mx_log_level_name(mx_log_level_t level) {
  switch (level) {
  case MX_LOG_DEBUG: return "debug";
  case MX_LOG_INFO: return "info";
  case MX_LOG_WARN: return "warn";
  case MX_LOG_ERROR: return "error";
  }
  return "unknown";
}
