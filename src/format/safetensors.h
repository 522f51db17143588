/* safetensors: 8-byte little-endian header length, a JSON header mapping tensor names to
 * {dtype, shape, data_offsets}, then the data. Parsed from a buffer (the mapped file), with every
 * offset, size and shape checked: the file is untrusted input. */
#ifndef MX_FORMAT_SAFETENSORS_H
#define MX_FORMAT_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "format/weight.h"

/* Header bigger than this is refused (real headers are tens of KB). */
#define MX_SAFETENSORS_MAX_HEADER (100u << 20)

/* Parses `buf` (the whole file). On success *weights is a malloc'd array of *n entries pointing
 * into buf, with .file = file_index. `name` is used in error messages. */
MX_MUST_USE mx_status_t mx_safetensors_parse(const uint8_t *buf, size_t size, const char *name, int file_index,
                                             mx_weight_t **weights, int *n);

#endif
