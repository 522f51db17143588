/* One tensor of a model file, as found on disk (pointing into the mapped file). */
#ifndef MX_FORMAT_WEIGHT_H
#define MX_FORMAT_WEIGHT_H

#include <stdbool.h>
#include <stdint.h>

#include "format/wtype.h"

#define MX_WEIGHT_NAME_MAX 128
#define MX_WEIGHT_MAX_RANK 4

typedef struct {
  char name[MX_WEIGHT_NAME_MAX]; /* as in the file */
  mx_wtype_t type;
  int rank;
  int64_t shape[MX_WEIGHT_MAX_RANK]; /* outermost first (PyTorch order): [out, in] for a linear */
  const uint8_t *data;
  uint64_t nbytes;
  uint64_t file_offset; /* where the bytes start in their file (for runtime parameter loading) */
  int file;             /* index of the file among the model's files */
} mx_weight_t;

int64_t mx_weight_count(const mx_weight_t *w);

/* Byte ranges of tensors in a file, for the overlap check both file parsers make. */
typedef struct {
  uint64_t begin, end;
  int index;
} mx_span_t;

/* Sorts spans by start; returns the position (> 0) of the first span that overlaps the one before
 * it, or -1 when none do. */
int mx_spans_first_overlap(mx_span_t *spans, int n);

#endif
