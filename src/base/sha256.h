/* SHA-256 (FIPS 180-4), for cache keys. */
#ifndef MX_BASE_SHA256_H
#define MX_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t h[8];
  uint64_t len;
  uint8_t buf[64];
  size_t n;
} mx_sha256_t;

void mx_sha256_init(mx_sha256_t *s);
void mx_sha256_update(mx_sha256_t *s, const void *data, size_t len);
/* Writes 64 lowercase hex digits and a NUL into hex. */
void mx_sha256_hex(mx_sha256_t *s, char hex[65]);

#endif
