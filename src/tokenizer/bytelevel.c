/* GPT-2 byte-level alphabet: every byte gets a printable code point, so that BPE vocabularies can be
 * stored as text. Printable Latin-1 bytes map to themselves; the other 68 bytes map, in byte order, to
 * U+0100 onwards. */
#include "base/utf8.h"
#include "tokenizer/internal.h"

static bool printable(int b) { return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255); }

uint32_t mx_bytelevel_char(uint8_t b) {
  if (printable(b)) return b;
  uint32_t n = 0;
  for (int i = 0; i < b; i++)
    if (!printable(i)) n++;
  return 256 + n;
}

/* Inverse table, computed on the fly: code points below U+0144 only. */
static int byte_of(uint32_t cp) {
  if (cp < 256) return printable((int)cp) ? (int)cp : -1;
  uint32_t n = 256;
  for (int b = 0; b < 256; b++)
    if (!printable(b) && n++ == cp) return b;
  return -1;
}

size_t mx_bytelevel_decode(const char *s, size_t len, char *out) {
  size_t i = 0, o = 0;
  const uint8_t *p = (const uint8_t *)s;
  while (i < len) {
    uint32_t cp;
    int bad;
    bool trunc;
    int k = mx_utf8_next(p + i, len - i, &cp, &bad, &trunc);
    if (!k) { /* not UTF-8: keep the byte as it is */
      out[o++] = s[i++];
      continue;
    }
    int b = byte_of(cp);
    if (b >= 0) {
      out[o++] = (char)b;
    } else {
      for (int j = 0; j < k; j++) out[o++] = s[i + (size_t)j];
    }
    i += (size_t)k;
  }
  return o;
}
