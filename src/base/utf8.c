#include "base/utf8.h"

#include <utf8proc.h>

int mx_utf8_next(const uint8_t *p, size_t n, uint32_t *cp, int *bad_len, bool *truncated) {
  *truncated = false;
  uint8_t b0 = p[0];
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  int need;
  uint8_t lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  uint32_t v;
  if (b0 >= 0xC2 && b0 <= 0xDF) need = 1, v = b0 & 0x1F;
  else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2, v = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F; /* no surrogates */
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3, v = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    *bad_len = 1;
    return 0;
  }
  for (int i = 1; i <= need; i++) {
    if ((size_t)i >= n) {
      *bad_len = i;
      *truncated = true;
      return 0;
    }
    uint8_t b = p[i];
    uint8_t l = i == 1 ? lo : 0x80, h = i == 1 ? hi : 0xBF;
    if (b < l || b > h) {
      *bad_len = i;
      return 0;
    }
    v = (v << 6) | (b & 0x3F);
  }
  *cp = v;
  return need + 1;
}

size_t mx_utf8_valid_prefix(const uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (p[i] < 0x80) {
      i++;
      continue;
    }
    uint32_t cp;
    int bad;
    bool trunc;
    int k = mx_utf8_next(p + i, n - i, &cp, &bad, &trunc);
    if (!k) return i;
    i += (size_t)k;
  }
  return n;
}

void mx_utf8_append_lossy(mx_strbuf_t *out, const uint8_t *p, size_t n) {
  size_t i = 0;
  while (i < n) {
    size_t ok = mx_utf8_valid_prefix(p + i, n - i);
    mx_strbuf_append(out, p + i, ok);
    i += ok;
    if (i >= n) break;
    uint32_t cp;
    int bad;
    bool trunc;
    mx_utf8_next(p + i, n - i, &cp, &bad, &trunc);
    mx_strbuf_append(out, "\xEF\xBF\xBD", 3);
    i += (size_t)bad;
  }
}

int mx_utf8_encode(uint32_t cp, char out[4]) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

int mx_utf8_nfc(const uint8_t *p, size_t n, uint8_t **out, size_t *out_len) {
  *out = NULL;
  *out_len = 0;
  size_t i = 0;
  while (i < n && p[i] < 0xCC) i++; /* 0xCC leads U+0300, the first code point NFC can change */
  if (i == n) return 0;
  utf8proc_uint8_t *dst = NULL;
  utf8proc_ssize_t len = utf8proc_map(p, (utf8proc_ssize_t)n, &dst, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
  if (len < 0) return -1; /* p is valid UTF-8, so only out of memory is left */
  *out = dst;
  *out_len = (size_t)len;
  return 1;
}
