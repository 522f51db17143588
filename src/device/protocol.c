#include "device/protocol.h"

#include <string.h>

static const uint8_t magic[4] = {'M', 'X', 'W', '1'};

static void put_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

void mx_frame_header_encode(uint8_t out[MX_FRAME_HEADER_SIZE], uint32_t json_len, uint64_t bin_len) {
  memcpy(out, magic, 4);
  put_le(out + 4, json_len, 4);
  put_le(out + 8, bin_len, 8);
}

mx_status_t mx_frame_header_decode(const uint8_t in[MX_FRAME_HEADER_SIZE], mx_frame_header_t *out) {
  if (memcmp(in, magic, 4) != 0)
    return mx_status_make(MX_STAGE_PROTOCOL, "check that MLXCEL_XLA_WORKER_SCRIPT is mlxcel's worker",
                          "bad frame magic from the device worker");
  out->json_len = (uint32_t)get_le(in + 4, 4);
  out->bin_len = get_le(in + 8, 8);
  if (out->json_len == 0 || out->json_len > MX_FRAME_MAX_JSON || out->bin_len > MX_FRAME_MAX_BIN)
    return mx_status_make(MX_STAGE_PROTOCOL, "client and worker versions differ; rebuild",
                          "frame lengths out of bounds (json %u bytes, data %llu bytes)", out->json_len,
                          (unsigned long long)out->bin_len);
  return NULL;
}
