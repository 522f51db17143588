/* UTF-8 helpers. Validation follows the Unicode definition exactly (no overlongs, no surrogates,
 * nothing above U+10FFFF); lossy conversion replaces each maximal invalid subpart with U+FFFD, which
 * is what Rust's String::from_utf8_lossy (and so HF tokenizers' decode) does. */
#ifndef MX_BASE_UTF8_H
#define MX_BASE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

/* Length of the valid sequence at p (1-4) and its code point, or 0 when invalid; then *bad_len is
 * the length of the maximal invalid subpart (>= 1). A sequence cut short by the end of the buffer
 * is invalid with *truncated set. */
int mx_utf8_next(const uint8_t *p, size_t n, uint32_t *cp, int *bad_len, bool *truncated);
/* Offset of the first invalid byte, or n when the whole buffer is valid UTF-8. */
size_t mx_utf8_valid_prefix(const uint8_t *p, size_t n);
/* Appends p as UTF-8, replacing invalid subparts with U+FFFD. */
void mx_utf8_append_lossy(mx_strbuf_t *out, const uint8_t *p, size_t n);
/* Unicode normalization form C of valid UTF-8 p[0, n) (what HF tokenizers' NFC normalizer does):
 * 0 when p is NFC already by a quick check (every code point below U+0300, which no normalization
 * changes), 1 with the normalized text in *out (malloc'd, *out_len bytes), -1 when out of memory. */
int mx_utf8_nfc(const uint8_t *p, size_t n, uint8_t **out, size_t *out_len);
/* Encodes cp (<= 0x10FFFF) into out; returns its length. */
int mx_utf8_encode(uint32_t cp, char out[4]);

#endif
