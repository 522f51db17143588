#ifndef MX_BASE_FILE_H
#define MX_BASE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"

/* Reads a whole (small) file into a NUL-terminated malloc'd buffer; refuses files above max_bytes. */
MX_MUST_USE mx_status_t mx_read_file(const char *path, size_t max_bytes, char **text, size_t *len);
/* Reads a file whose size is not known in advance (/proc, /sys report 0) until its end, at most
 * max_bytes; NUL-terminated, malloc'd. */
MX_MUST_USE mx_status_t mx_read_stream(const char *path, size_t max_bytes, char **text);
/* Writes len bytes to path (created or truncated). */
MX_MUST_USE mx_status_t mx_write_file(const char *path, const char *data, size_t len);
bool mx_file_exists(const char *path);
bool mx_is_dir(const char *path);
/* mkdir -p. */
MX_MUST_USE mx_status_t mx_mkdirs(const char *path);

#endif
