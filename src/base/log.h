/* Progress and diagnostic lines from library modules (compile cache, synth, server request log).
 *
 * Library code never writes to stderr itself: it calls mx_log, which hands each line to the sink.
 * The default sink writes the line and a newline to stderr, exactly what the modules printed before,
 * so the CLI's output is unchanged; an embedder (or a test) installs its own to route or capture it.
 *
 * The sink is the one process-wide setting in mlxcel, against the rule of no mutable globals outside
 * main, because the lines come from deep inside calls (mx_compile_cached under session start,
 * request logging on server threads) whose every caller would otherwise need a logger parameter.
 * main (or a test) sets it once at start-up, before any thread that logs is running; the pointer is
 * atomic so that a reader on another thread never sees a torn value even if that rule is bent. */
#ifndef MX_BASE_LOG_H
#define MX_BASE_LOG_H

typedef enum {
  MX_LOG_DEBUG,
  MX_LOG_INFO,  /* progress: "compiling ...", "compile cache hit ..." */
  MX_LOG_WARN,
  MX_LOG_ERROR,
} mx_log_level_t;

typedef struct {
  /* One line, without its newline; folded to one line (no '\n' inside). Called from any thread
   * that logs, so it must be thread-safe. */
  void (*write)(void *user, mx_log_level_t level, const char *line);
  void *user;
} mx_log_sink_t;

/* Installs `sink` (NULL: back to the default stderr sink). The sink must outlive every mx_log call;
 * set it before starting threads that log. */
void mx_log_set_sink(const mx_log_sink_t *sink);

/* Formats one line (printf-style, no trailing newline) and hands it to the sink. */
void mx_log(mx_log_level_t level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

const char *mx_log_level_name(mx_log_level_t level);

#endif
