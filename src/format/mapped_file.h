/* A read-only memory map of a whole file: model weights are read in place, never copied. */
#ifndef MX_FORMAT_MAPPED_FILE_H
#define MX_FORMAT_MAPPED_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

typedef struct {
  char *path;
  const uint8_t *data;
  size_t size;
} mx_mapped_file_t;

MX_MUST_USE mx_status_t mx_mapped_file_open(const char *path, mx_mapped_file_t *out);
void mx_mapped_file_close(mx_mapped_file_t *f);

#endif
