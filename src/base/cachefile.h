/* Cache files that are checked before they are trusted: the compiled modules (compiler/cache.c) and
 * the prepared weights (engine/weights.c).
 *
 * Each cache file has a sidecar, <file>.sum, one line holding the format version, the file's size and
 * its 64-bit hash (base/hash64.h). The writer finishes the file under a temporary name, hashes it,
 * renames it into place and only then renames the sidecar into place, so a file without a valid
 * sidecar — one whose writer died between the renames, one from before sidecars, one damaged since —
 * is never trusted: a reader that finds one logs which file failed and why, deletes it and rebuilds it.
 *
 * Temporary names carry the writer's pid (<file>.tmp<pid>, and the compiler's <file>.tmp<pid>.mlir
 * and .log). A writer removes its own on every way out; a writer that was killed cannot, so every
 * start sweeps the cache directory for temporary files whose pid is not a running process. (The check
 * is by pid on this host: a cache directory shared by several hosts or pid namespaces could lose a
 * live writer's temporary file there, which fails that writer's rename; it then reports the error.) */
#ifndef MX_BASE_CACHEFILE_H
#define MX_BASE_CACHEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* The first line of every sidecar; a new hash or layout gets a new version, and old sidecars then fail
 * verification (their files are rebuilt once). */
#define MX_CACHE_SUM_VERSION "mlxcel-cache-sum-v1"

/* <path>.tmp<pid of this process>. */
void mx_cache_tmp_path(const char *path, char *out, size_t cap);

/* Whether `path` holds a complete, unchanged cache file: *trusted is true when it and its sidecar
 * agree. A missing file is simply not trusted. A file that fails — no sidecar, an unreadable one,
 * another size or hash — is logged as one line naming the file and the reason, deleted with its
 * sidecar and reported not trusted, so the caller rebuilds it. The only failure returned is an
 * interrupt (base/interrupt.h) while hashing: then nothing is deleted. */
MX_MUST_USE mx_status_t mx_cache_file_verify(const char *path, bool *trusted);

/* Puts the finished temporary file `tmp` in place as `path`: hashes it, writes the sidecar under a
 * temporary name, renames it to <path>.sum, then tmp to path (a concurrent reader never sees the file
 * without its sidecar). On any failure the temporary files are removed and nothing is left at path
 * that would be trusted. */
MX_MUST_USE mx_status_t mx_cache_file_seal(const char *tmp, const char *path);

/* Hashes a whole file (polling the interrupt flag between chunks): its size and hash. */
MX_MUST_USE mx_status_t mx_cache_file_hash(const char *path, uint64_t *size, uint64_t *hash);

/* Removes the temporary files in `dir` (not below it) whose writer is no longer running; logs each.
 * Returns how many it removed. */
int mx_cache_sweep(const char *dir);

/* The pid a temporary file's name carries ("x.tmp123", "x.tmp123.mlir", "x.tmp123.log"); 0 when the
 * name is not one of ours. */
long mx_cache_tmp_pid(const char *name);

#endif
