/* Writing safetensors files: the header for a list of tensors (written in that order), padded to
 * 8 bytes like the reference writer. The caller then writes each tensor's bytes in order. An entry may
 * instead be a view: a name for the bytes of consecutive entries before it (a stacked weight over its
 * parts, for a reader that takes tensors by name, as IREE's parameter index does). Views overlap their
 * parts, which this project's own reader refuses (format/safetensors.c): they are for the runtime. */
#ifndef MX_FORMAT_ST_WRITER_H
#define MX_FORMAT_ST_WRITER_H

#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "format/wtype.h"

typedef struct {
  char name[128];
  mx_wtype_t dtype; /* F32, F16 or BF16 */
  int rank;
  int64_t shape[4];
  int view_parts; /* > 0: no bytes of its own; the bytes of the view_parts entries from view_first */
  int view_first;
} mx_st_entry_t;

uint64_t mx_st_entry_bytes(const mx_st_entry_t *e);
MX_MUST_USE mx_status_t mx_st_write_header(FILE *f, const mx_st_entry_t *e, int n, const char *path);

#endif
