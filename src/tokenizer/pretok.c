/* Pre-tokenization: the pipeline of regex splits that HF's pre_tokenizer Sequence describes. Every
 * supported step (Split with "Isolated" behaviour, ByteLevel's GPT-2 split, Digits) reduces to the
 * same operation: matches of a regex and the gaps between them become separate pieces, and each
 * step splits every piece the previous steps produced, independently (a lookahead never sees past
 * the end of its piece). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenizer/internal.h"

/* The split HF's ByteLevel pre-tokenizer applies when use_regex is true. */
static const char gpt2_split[] = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/* The Unicode White_Space set, which is what \s means to the regex engine HF tokenizers uses.
 * PCRE2's own \s also matches U+180E (MONGOLIAN VOWEL SEPARATOR, no longer a space since Unicode
 * 6.3), which changed ids on our parity corpus; so \s and \S are spelled out before compiling. */
#define WHITE_SPACE "\\t\\n\\x{0B}\\f\\r\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}"

/* Rewrites \s and \S (outside and, for \s, inside character classes); NULL if \S appears in a class. */
static char *spell_out_spaces(const char *p) {
  size_t n = strlen(p), cap = n * 8 + 256, o = 0;
  char *out = malloc(cap);
  if (!out) return NULL;
  bool in_class = false;
  for (size_t i = 0; i < n; i++) {
    if (o + sizeof WHITE_SPACE + 8 > cap) {
      cap *= 2;
      char *q = realloc(out, cap);
      if (!q) {
        free(out);
        return NULL;
      }
      out = q;
    }
    if (p[i] == '\\' && i + 1 < n) {
      char c = p[i + 1];
      if (c == 's' || c == 'S') {
        if (in_class && c == 'S') {
          free(out);
          return NULL;
        }
        o += (size_t)sprintf(out + o, "%s%s%s", in_class ? "" : (c == 's' ? "[" : "[^"), WHITE_SPACE, in_class ? "" : "]");
      } else {
        out[o++] = p[i];
        out[o++] = c;
      }
      i++;
      continue;
    }
    if (p[i] == '[' && !in_class) {
      in_class = true;
      out[o++] = p[i];
      if (i + 1 < n && p[i + 1] == '^') out[o++] = p[++i];
      if (i + 1 < n && p[i + 1] == ']') out[o++] = p[++i]; /* a leading ] is literal */
      continue;
    }
    if (p[i] == ']' && in_class) in_class = false;
    out[o++] = p[i];
  }
  out[o] = '\0';
  return out;
}

static mx_status_t add_regex_step(mx_tokenizer_t *t, mx_pre_kind_t kind, const char *pattern) {
  if (t->n_steps >= MX_TOK_MAX_STEPS)
    return mx_status_make(MX_STAGE_IO, "this tokenizer's pre-tokenizer sequence is not supported; use a byte-level BPE tokenizer",
                          "%s: more than %d pre-tokenizer steps", t->source, MX_TOK_MAX_STEPS);
  char *spelled = spell_out_spaces(pattern);
  if (!spelled)
    return mx_status_make(MX_STAGE_IO, "the tokenizer's pre-tokenizer regex is not supported",
                          "%s: the split regex uses \\S inside a character class", t->source);
  int err;
  PCRE2_SIZE off;
  /* UCP: \w, \d and POSIX classes use Unicode properties, as the HF regex engine does. */
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)spelled, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP, &err, &off, NULL);
  free(spelled);
  if (!re) {
    PCRE2_UCHAR msg[160];
    pcre2_get_error_message(err, msg, sizeof msg);
    return mx_status_make(MX_STAGE_IO, "the tokenizer's pre-tokenizer regex is not supported",
                          "%s: cannot compile the split regex at offset %zu: %s", t->source, (size_t)off, (char *)msg);
  }
  pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* an optimisation only: matching works without it */
  t->steps[t->n_steps++] = (mx_pre_step_t){.kind = kind, .re = re};
  return NULL;
}

mx_status_t mx_tok_add_split(mx_tokenizer_t *t, const char *pattern) { return add_regex_step(t, MX_PRE_SPLIT, pattern); }

mx_status_t mx_tok_add_bytelevel(mx_tokenizer_t *t, bool add_prefix_space, bool use_regex) {
  if (add_prefix_space)
    return mx_status_make(MX_STAGE_IO, "use a tokenizer whose ByteLevel pre-tokenizer has add_prefix_space false",
                          "%s: ByteLevel add_prefix_space=true is not supported", t->source);
  if (!use_regex) return NULL; /* the byte mapping itself is implicit: we work on raw bytes */
  return add_regex_step(t, MX_PRE_BYTELEVEL, gpt2_split);
}

mx_status_t mx_tok_add_digits(mx_tokenizer_t *t, bool individual) {
  return add_regex_step(t, MX_PRE_SPLIT, individual ? "\\p{N}" : "\\p{N}+");
}

static bool push_span(size_t **spans, size_t *n, size_t *cap, size_t a, size_t b) {
  if (*n + 2 > *cap) {
    size_t c = *cap ? *cap * 2 : 64;
    size_t *p = realloc(*spans, c * sizeof *p);
    if (!p) return false;
    *spans = p;
    *cap = c;
  }
  (*spans)[(*n)++] = a;
  (*spans)[(*n)++] = b;
  return true;
}

/* Splits text[a, b) by re: gaps and matches, in order, non-empty. */
static bool split_piece(const pcre2_code *re, pcre2_match_data *md, const char *text, size_t a, size_t b,
                        size_t **out, size_t *n, size_t *cap) {
  const char *subject = text + a;
  size_t len = b - a, pos = 0, last = 0;
  while (pos <= len) {
    int rc = pcre2_match(re, (PCRE2_SPTR)subject, len, pos, PCRE2_NO_UTF_CHECK, md, NULL);
    if (rc < 0) break; /* no (further) match; errors cannot occur on validated UTF-8 */
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    size_t s = ov[0], e = ov[1];
    if (e == s) { /* an empty match: step over one character */
      pos = s + 1;
      while (pos < len && ((uint8_t)subject[pos] & 0xC0) == 0x80) pos++;
      continue;
    }
    if (s > last && !push_span(out, n, cap, a + last, a + s)) return false;
    if (!push_span(out, n, cap, a + s, a + e)) return false;
    last = pos = e;
  }
  if (last < len && !push_span(out, n, cap, a + last, a + len)) return false;
  return true;
}

mx_status_t mx_pretokenize(const mx_tokenizer_t *t, const char *text, size_t len, size_t **spans, size_t *n_spans,
                           size_t *cap) {
  size_t *cur = NULL, ncur = 0, ccur = 0;
  if (!push_span(&cur, &ncur, &ccur, 0, len)) return mx_status_oom();
  pcre2_match_data *md = NULL;
  for (int s = 0; s < t->n_steps; s++) {
    const mx_pre_step_t *step = &t->steps[s];
    if (!step->re) continue;
    if (!md) md = pcre2_match_data_create(4, NULL);
    size_t *next = NULL, nnext = 0, cnext = 0;
    bool ok = md != NULL;
    for (size_t i = 0; ok && i < ncur; i += 2) ok = split_piece(step->re, md, text, cur[i], cur[i + 1], &next, &nnext, &cnext);
    free(cur);
    cur = next, ncur = nnext, ccur = cnext;
    if (!ok) {
      free(cur);
      pcre2_match_data_free(md);
      return mx_status_make(MX_STAGE_OOM, NULL, "out of memory while pre-tokenizing");
    }
  }
  pcre2_match_data_free(md);
  for (size_t i = 0; i < ncur; i += 2) {
    if (cur[i + 1] == cur[i]) continue;
    if (!push_span(spans, n_spans, cap, cur[i], cur[i + 1])) {
      free(cur);
      return mx_status_make(MX_STAGE_OOM, NULL, "out of memory while pre-tokenizing");
    }
  }
  free(cur);
  return NULL;
}
