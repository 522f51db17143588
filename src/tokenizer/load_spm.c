/* SentencePiece-style vocabularies from GGUF (tokenizer.ggml.model "llama") as transformers rebuilds
 * them for Gemma (integrations/gguf/gguf_tokenizer_mapping.py, gemma_tokenizer): a BPE model over
 * characters with byte fallback, whose merges are not in the file but derived from the vocabulary:
 * every token that is the concatenation of two tokens yields that pair as a merge, ranked by the
 * token's position in the file (earlier first) and, within one token, by the longer left part first
 * (transformers' generate_merges with the positions as scores). Tokens made only of spaces are
 * spelled with U+2581 as the text is. The normalizer turns spaces into U+2581; nothing splits the text
 * further. Control and user-defined tokens are added tokens, matched whole before that (control ones
 * special). */
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "tokenizer/internal.h"

#define SPACE_MARK "\xe2\x96\x81" /* U+2581 LOWER ONE EIGHTH BLOCK */

enum { TOKEN_CONTROL = 3, TOKEN_USER_DEFINED = 4, TOKEN_BYTE = 6 };

/* "<0xAB>" -> 0xAB; -1 for anything else. */
static int byte_token(const char *s, size_t n) {
  if (n != 6 || memcmp(s, "<0x", 3) != 0 || s[5] != '>') return -1;
  int v = 0;
  for (int i = 3; i < 5; i++) {
    char c = s[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

static bool all_spaces(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] != ' ') return false;
  return n > 0;
}

/* What a token decodes to: its spelling with U+2581 as a space; a byte token, its byte. */
static size_t decoded(const char *s, size_t n, char *out) {
  int b = byte_token(s, n);
  if (b >= 0) {
    out[0] = (char)b;
    return 1;
  }
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    if (n - i >= 3 && !memcmp(s + i, SPACE_MARK, 3)) out[o++] = ' ', i += 3;
    else out[o++] = s[i++];
  }
  return o;
}

static mx_status_t spell_tokens(mx_tokenizer_t *t, const char *const *toks, const size_t *lens, const int32_t *types, uint64_t n_types) {
  int n = t->vocab_size;
  t->spelled = calloc((size_t)n, sizeof *t->spelled);
  if (!t->spelled) return mx_status_oom();
  char buf[8192];
  for (int i = 0; i < n; i++) {
    size_t len = lens[i];
    if (len == 0 || len > 2048)
      return mx_status_make(MX_STAGE_IO, "the GGUF's tokenizer is corrupt", "%s: token %d is %zu bytes long", t->source, i, len);
    /* transformers respells a token of two or more spaces ("  ") as U+2581 repeated. */
    bool respell = all_spaces(toks[i], len) && len >= 2;
    size_t sl = respell ? 3 * len : len;
    if (!(t->spelled[i] = malloc(sl + 1))) return mx_status_oom();
    for (size_t k = 0; respell && k < len; k++) memcpy(t->spelled[i] + 3 * k, SPACE_MARK, 3);
    if (!respell) memcpy(t->spelled[i], toks[i], len);
    t->spelled[i][sl] = '\0';
    int type = (uint64_t)i < n_types ? types[i] : 1;
    MX_RETURN_IF_ERROR(mx_tok_set_token(t, i, buf, decoded(t->spelled[i], sl, buf), false));
    if (type == TOKEN_BYTE && byte_token(toks[i], len) >= 0) t->byte_fallback[byte_token(toks[i], len)] = i;
    /* transformers adds a user-defined token only when its spelling is in the vocabulary: a respelled
     * run of spaces is not, and stays a BPE token (matched after the normalizer, not in the raw text). */
    if (type == TOKEN_CONTROL || (type == TOKEN_USER_DEFINED && !respell))
      MX_RETURN_IF_ERROR(mx_tok_add_added(t, i, toks[i], len, type == TOKEN_CONTROL, false, false));
  }
  /* Every token is in the BPE model's vocabulary; of two with one spelling the later id wins, as in
   * the dict transformers builds. */
  for (int i = n - 1; i >= 0; i--)
    if (!mx_strmap_put(&t->vocab, t->spelled[i], strlen(t->spelled[i]), i)) return mx_status_oom();
  return NULL;
}

/* transformers' generate_merges(vocab, positions): tokens in file order, each split at every
 * character boundary into two tokens, the longer left part first. */
static mx_status_t derive_merges(mx_tokenizer_t *t) {
  int rank = 0;
  for (int i = 0; i < t->vocab_size; i++) {
    const char *s = t->spelled[i];
    size_t n = strlen(s);
    if (mx_strmap_get(&t->vocab, s, n) != i) continue; /* a spelling a later id also has: ranked there */
    for (size_t k = n; k-- > 1;) {
      if ((s[k] & 0xC0) == 0x80) continue; /* inside a character */
      if (mx_strmap_get(&t->vocab, s, k) < 0 || mx_strmap_get(&t->vocab, s + k, n - k) < 0) continue;
      MX_RETURN_IF_ERROR(mx_tok_add_merge(t, s, k, s + k, n - k, rank++));
    }
  }
  return NULL;
}

mx_status_t mx_tok_load_spm(mx_tokenizer_t *t, const char *const *toks, const size_t *lens, const int32_t *types, uint64_t n_types) {
  t->spm = true;
  for (int b = 0; b < 256; b++) t->byte_fallback[b] = -1;
  MX_RETURN_IF_ERROR(spell_tokens(t, toks, lens, types, n_types));
  return derive_merges(t);
}
