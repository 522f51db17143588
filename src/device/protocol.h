/* Frames between the C client and the device worker (src/device/worker/mlxcel_worker.py).
 *
 *   header  16 bytes: magic "MXW1", u32 json_len, u64 bin_len, little endian
 *   payload json_len bytes of UTF-8 JSON (the request or response), then bin_len bytes of tensor data
 *
 * JSON keeps the protocol easy to extend and to debug; tensor bytes travel raw after it, referenced
 * by offset, so a large input is never encoded as text. */
#ifndef MX_DEVICE_PROTOCOL_H
#define MX_DEVICE_PROTOCOL_H

#include <stdint.h>

#include "base/status.h"

#define MX_FRAME_HEADER_SIZE 16
#define MX_FRAME_MAX_JSON (16u << 20)
/* Bound on one frame's tensor bytes: a corrupt length must not make the client allocate terabytes. */
#define MX_FRAME_MAX_BIN (64ull << 30)

typedef struct {
  uint32_t json_len;
  uint64_t bin_len;
} mx_frame_header_t;

void mx_frame_header_encode(uint8_t out[MX_FRAME_HEADER_SIZE], uint32_t json_len, uint64_t bin_len);
/* Rejects a wrong magic or out-of-bounds lengths (stage protocol). */
MX_MUST_USE mx_status_t mx_frame_header_decode(const uint8_t in[MX_FRAME_HEADER_SIZE], mx_frame_header_t *out);

#endif
