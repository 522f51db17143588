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

mx_status_t mx_tok_spm_begin(mx_tokenizer_t *t) {
  t->spm = true;
  for (int b = 0; b < 256; b++) t->byte_fallback[b] = -1;
  t->spelled = calloc((size_t)t->vocab_size, sizeof *t->spelled);
  return t->spelled ? NULL : mx_status_oom();
}

mx_status_t mx_tok_spm_token(mx_tokenizer_t *t, int32_t id, const char *spelling, size_t len, bool byte_ok) {
  if (id < 0 || id >= t->vocab_size || len == 0 || len > 8192)
    return mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: token %d (%zu bytes) is malformed", t->source, id, len);
  if (t->spelled[id]) /* the vocabulary map keeps the first spelling: a second one is a corrupt file */
    return mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: token id %d is given twice", t->source, id);
  char *buf = malloc(len + 1);
  if (!buf || !(t->spelled[id] = malloc(len + 1))) {
    free(buf);
    return mx_status_oom();
  }
  memcpy(t->spelled[id], spelling, len);
  t->spelled[id][len] = '\0';
  mx_status_t st = mx_tok_set_token(t, id, buf, decoded(spelling, len, buf), false);
  free(buf);
  if (byte_ok && byte_token(spelling, len) >= 0) t->byte_fallback[byte_token(spelling, len)] = id;
  return st;
}

static mx_status_t spell_tokens(mx_tokenizer_t *t, const char *const *toks, const size_t *lens, const int32_t *types, uint64_t n_types,
                                bool gemma) {
  int n = t->vocab_size;
  MX_RETURN_IF_ERROR(mx_tok_spm_begin(t));
  char buf[3 * 2048];
  for (int i = 0; i < n; i++) {
    size_t len = lens[i];
    if (len == 0 || len > 2048)
      return mx_status_make(MX_STAGE_IO, "the GGUF's tokenizer is corrupt", "%s: token %d is %zu bytes long", t->source, i, len);
    /* transformers respells a token of two or more spaces ("  ") as U+2581 repeated. */
    bool respell = gemma && all_spaces(toks[i], len) && len >= 2;
    for (size_t k = 0; respell && k < len; k++) memcpy(buf + 3 * k, SPACE_MARK, 3);
    int type = (uint64_t)i < n_types ? types[i] : 1;
    MX_RETURN_IF_ERROR(mx_tok_spm_token(t, i, respell ? buf : toks[i], respell ? 3 * len : len, type == TOKEN_BYTE));
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

/* One derived merge and what transformers' generate_merges sorts it by. */
typedef struct {
  float score;
  uint32_t left_chars, right_chars;
  int32_t token, left, right; /* ties: the token's first position, then the parts' ids (generate_merges' stable order) */
  uint32_t split;             /* bytes of the left part */
} scored_merge_t;

static uint32_t count_chars(const char *s, size_t n) {
  uint32_t c = 0;
  for (size_t i = 0; i < n; i++) c += ((uint8_t)s[i] & 0xC0) != 0x80;
  return c;
}

static int cmp_scored(const void *pa, const void *pb) {
  const scored_merge_t *a = pa, *b = pb;
  if (a->score != b->score) return a->score > b->score ? -1 : 1; /* best first */
  if (a->left_chars != b->left_chars) return a->left_chars > b->left_chars ? -1 : 1;
  if (a->right_chars != b->right_chars) return a->right_chars > b->right_chars ? -1 : 1;
  if (a->token != b->token) return a->token < b->token ? -1 : 1;
  if (a->left != b->left) return a->left < b->left ? -1 : 1;
  return (a->right > b->right) - (a->right < b->right);
}

/* transformers' generate_merges(vocab, scores) for the other SentencePiece GGUFs (Llama 2, Phi-3):
 * every split of a token into two tokens, sorted by the token's score (best first), then the longer
 * left part, then the longer right part (in characters), ties in the order the tokens come (a spelling
 * counted at its first position, with its last id's score, as a Python dict keeps them). */
static mx_status_t derive_scored_merges(mx_tokenizer_t *t, const float *scores) {
  size_t n = 0, cap = 1024;
  scored_merge_t *m = malloc(cap * sizeof *m);
  if (!m) return mx_status_oom();
  mx_strmap_t seen;
  if (!mx_strmap_init(&seen, (size_t)t->vocab_size)) {
    free(m);
    return mx_status_oom();
  }
  mx_status_t st = NULL;
  for (int i = 0; i < t->vocab_size && !st; i++) {
    const char *s = t->spelled[i];
    size_t len = strlen(s);
    if (mx_strmap_get(&seen, s, len) >= 0) continue;
    if (!mx_strmap_put(&seen, s, len, i)) st = mx_status_oom();
    int32_t id = mx_strmap_get(&t->vocab, s, len);
    for (size_t k = 1; !st && k < len; k++) {
      if ((s[k] & 0xC0) == 0x80) continue;
      int32_t l = mx_strmap_get(&t->vocab, s, k), r = mx_strmap_get(&t->vocab, s + k, len - k);
      if (l < 0 || r < 0) continue;
      if (n == cap) {
        scored_merge_t *g = realloc(m, 2 * cap * sizeof *m);
        if (!g) {
          st = mx_status_oom();
          break;
        }
        m = g, cap *= 2;
      }
      m[n++] = (scored_merge_t){scores[id], count_chars(s, k), count_chars(s + k, len - k), i, l, r, (uint32_t)k};
    }
  }
  mx_strmap_free(&seen);
  if (!st) qsort(m, n, sizeof *m, cmp_scored);
  for (size_t i = 0; i < n && !st; i++) {
    const char *s = t->spelled[m[i].token];
    st = mx_tok_add_merge(t, s, m[i].split, s + m[i].split, strlen(s) - m[i].split, (int)i);
  }
  free(m);
  return st;
}

mx_status_t mx_tok_load_spm(mx_tokenizer_t *t, const char *const *toks, const size_t *lens, const int32_t *types, uint64_t n_types,
                            const float *scores, bool gemma) {
  MX_RETURN_IF_ERROR(spell_tokens(t, toks, lens, types, n_types, gemma));
  return gemma ? derive_merges(t) : derive_scored_merges(t, scores);
}
