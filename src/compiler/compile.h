/* Running iree-compile: the uncached step that the VMFB cache (compiler/cache.h) wraps. */
#ifndef MX_COMPILER_COMPILE_H
#define MX_COMPILER_COMPILE_H

#include "base/status.h"
#include "compiler/target.h"

/* Compiles MLIR text to `vmfb_path` for `target` with the compiler at `compiler`. The compiler's
 * diagnostics are saved next to the output as <vmfb_path>.log (the MLIR as <vmfb_path>.mlir); a
 * failure quotes the first error, and a failure to write (a full disk) is reported as such (stage io,
 * with the directory and its free bytes). Interruptible (base/interrupt.h): on SIGINT/SIGTERM the
 * compiler is killed within a fraction of a second and the output, MLIR and log are removed. */
MX_MUST_USE mx_status_t mx_compile_mlir(const char *compiler, const mx_target_t *target, const char *mlir_text,
                                        const char *vmfb_path, double *elapsed_ms);

typedef struct {
  const char *progress;   /* "still compiling <progress>" every 10 s; NULL: quiet */
  const char *failed_dir; /* a failure moves the MLIR and log to <failed_dir>/last.mlir and last.log, replacing
                             the previous failure's (bounded litter for a cache); NULL: they stay beside the output */
} mx_compile_options_t;

/* mx_compile_mlir with options (NULL: the defaults above). */
MX_MUST_USE mx_status_t mx_compile_mlir_opts(const char *compiler, const mx_target_t *target, const char *mlir_text,
                                             const char *vmfb_path, const mx_compile_options_t *o, double *elapsed_ms);

/* Below this many free bytes on the output's disk, a compile that failed without saying why is
 * reported as a full disk. */
#define MX_COMPILE_LOW_DISK_BYTES (64LL << 20)

/* The free space of one directory's disk, for the message of a failed compile. */
typedef struct {
  const char *dir;
  long long free_bytes; /* -1: unknown */
} mx_disk_room_t;

/* The status of a failed compile, from the log it left (exposed for the tests, which pass the free
 * space). room: the output's directory first, then any other the compiler writes to (its temporary
 * directory) when it is on another disk. wstatus: waitpid's. log_path and mlir_path are named in it. */
MX_MUST_USE mx_status_t mx_compile_failure(const char *label, const char *log_path, int wstatus, const mx_disk_room_t *room,
                                           int n_room, const char *mlir_path);

/* `iree-compile --version` output (part of every cache key). */
MX_MUST_USE mx_status_t mx_compiler_version(const char *compiler, char *out, size_t cap);

#endif
