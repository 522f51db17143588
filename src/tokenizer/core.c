/* The tokenizer core: building the tables, encoding (added tokens, pre-tokenization, byte-level BPE)
 * and decoding. */
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "tokenizer/internal.h"

#define MAX_VOCAB (1 << 22)

void mx_ids_free(mx_ids_t *ids) {
  free(ids->ids);
  memset(ids, 0, sizeof *ids);
}

bool mx_ids_push(mx_ids_t *ids, int32_t id) {
  if (ids->n == ids->cap) {
    size_t c = ids->cap ? ids->cap * 2 : 64;
    int32_t *p = realloc(ids->ids, c * sizeof *p);
    if (!p) return false;
    ids->ids = p;
    ids->cap = c;
  }
  ids->ids[ids->n++] = id;
  return true;
}

/* ------------------------------------------------------------------------------------ building */

mx_tokenizer_t *mx_tok_alloc(const char *source, int vocab_size) {
  if (vocab_size < 1 || vocab_size > MAX_VOCAB) return NULL;
  mx_tokenizer_t *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->source = strdup(source);
  t->vocab_size = vocab_size;
  t->tok_bytes = calloc((size_t)vocab_size, sizeof *t->tok_bytes);
  t->tok_len = calloc((size_t)vocab_size, sizeof *t->tok_len);
  t->is_special = calloc((size_t)vocab_size, 1);
  t->bos_id = -1;
  t->eos_id = -1;
  for (int i = 0; i < 256; i++) t->byte_id[i] = -1;
  if (!t->source || !t->tok_bytes || !t->tok_len || !t->is_special || !mx_strmap_init(&t->vocab, (size_t)vocab_size) ||
      !mx_u64map_init(&t->merges, (size_t)vocab_size * 2)) {
    mx_tokenizer_close(t);
    return NULL;
  }
  return t;
}

void mx_tokenizer_close(mx_tokenizer_t *t) {
  if (!t) return;
  for (int i = 0; t->tok_bytes && i < t->vocab_size; i++) free(t->tok_bytes[i]);
  free(t->tok_bytes);
  free(t->tok_len);
  free(t->is_special);
  mx_strmap_free(&t->vocab);
  mx_u64map_free(&t->merges);
  for (int i = 0; i < t->n_added; i++) free(t->added[i].content);
  free(t->added);
  for (int i = 0; i < t->n_steps; i++) pcre2_code_free(t->steps[i].re);
  for (int i = 0; i < t->n_retired; i++) free(t->retired[i]);
  for (int i = 0; t->spelled && i < t->vocab_size; i++) free(t->spelled[i]);
  free(t->spelled);
  free(t->retired);
  free(t->chat_template);
  free(t->source);
  free(t);
}

mx_status_t mx_tok_set_token(mx_tokenizer_t *t, int32_t id, const char *bytes, size_t len, bool in_model_vocab) {
  if (id < 0 || id >= t->vocab_size)
    return mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: token id %d is outside 0..%d", t->source, id,
                          t->vocab_size - 1);
  if (len > 4096) return mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: token %d is %zu bytes long", t->source, id, len);
  char *old = t->tok_bytes[id], *copy;
  if (old && t->tok_len[id] == len && !memcmp(old, bytes, len)) {
    copy = old; /* an added token restating its vocabulary entry */
  } else {
    copy = malloc(len + 1);
    if (!copy) return mx_status_oom();
    memcpy(copy, bytes, len);
    copy[len] = '\0';
    if (old) { /* the vocabulary map may still point at the old spelling: keep it alive */
      char **r = realloc(t->retired, sizeof *r * (size_t)(t->n_retired + 1));
      if (!r) {
        free(copy);
        return mx_status_oom();
      }
      t->retired = r;
      t->retired[t->n_retired++] = old;
    }
  }
  t->tok_bytes[id] = copy;
  t->tok_len[id] = (uint32_t)len;
  if (in_model_vocab) {
    if (!mx_strmap_put(&t->vocab, copy, len, id)) return mx_status_oom();
    if (len == 1 && t->byte_id[(uint8_t)copy[0]] < 0) t->byte_id[(uint8_t)copy[0]] = id;
  }
  return NULL;
}

mx_status_t mx_tok_add_merge(mx_tokenizer_t *t, const char *left, size_t llen, const char *right, size_t rlen, int rank) {
  int32_t a = mx_strmap_get(&t->vocab, left, llen), b = mx_strmap_get(&t->vocab, right, rlen);
  char joined[8192];
  int32_t m = -1;
  if (a >= 0 && b >= 0 && llen + rlen <= sizeof joined) {
    memcpy(joined, left, llen);
    memcpy(joined + llen, right, rlen);
    m = mx_strmap_get(&t->vocab, joined, llen + rlen);
  }
  if (a < 0 || b < 0 || m < 0)
    return mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: merge %d joins tokens that are not in the vocabulary",
                          t->source, rank);
  uint64_t key = ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
  if (!mx_u64map_put(&t->merges, key, ((uint64_t)(uint32_t)rank << 32) | (uint32_t)m))
    return mx_status_oom();
  return NULL;
}

mx_status_t mx_tok_add_added(mx_tokenizer_t *t, int32_t id, const char *content, size_t len, bool special, bool lstrip,
                             bool rstrip) {
  if (len == 0) return mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: added token %d is empty", t->source, id);
  MX_RETURN_IF_ERROR(mx_tok_set_token(t, id, content, len, false));
  mx_added_token_t *a = realloc(t->added, sizeof *a * (size_t)(t->n_added + 1));
  if (!a) return mx_status_oom();
  t->added = a;
  a[t->n_added] = (mx_added_token_t){.content = malloc(len), .len = (uint32_t)len, .id = id, .special = special,
                                     .lstrip = lstrip, .rstrip = rstrip};
  if (!a[t->n_added].content) return mx_status_oom();
  memcpy(a[t->n_added].content, content, len);
  t->n_added++;
  t->is_special[id] = special;
  t->added_first_byte[(uint8_t)content[0]] = true;
  return NULL;
}

mx_status_t mx_tok_finish(mx_tokenizer_t *t) {
  int known = 0;
  for (int b = 0; b < 256; b++) known += (t->spm ? t->byte_fallback[b] : t->byte_id[b]) >= 0;
  if (known < 128) /* a byte-level vocabulary spells (nearly) every byte as a token, a SentencePiece one has byte tokens */
    return mx_status_make(MX_STAGE_IO, "only byte-level BPE vocabularies (GPT-2, Llama 3 style) are supported",
                          "%s: only %d of the 256 bytes have tokens", t->source, known);
  if (t->bos_id >= t->vocab_size || (t->bos_id >= 0 && !t->tok_bytes[t->bos_id]))
    return mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: BOS id %d has no token", t->source, t->bos_id);
  return NULL;
}

int mx_tokenizer_vocab_size(const mx_tokenizer_t *t) { return t->vocab_size; }
int mx_tokenizer_bos(const mx_tokenizer_t *t) { return t->bos_id; }
bool mx_tokenizer_adds_bos(const mx_tokenizer_t *t) { return t->add_bos && t->bos_id >= 0; }
bool mx_tokenizer_is_special(const mx_tokenizer_t *t, int32_t id) { return id >= 0 && id < t->vocab_size && t->is_special[id]; }
const char *mx_tokenizer_chat_template(const mx_tokenizer_t *t) { return t->chat_template; }
int mx_tokenizer_eos(const mx_tokenizer_t *t) { return t->eos_id >= 0 && t->eos_id < t->vocab_size && t->tok_bytes[t->eos_id] ? t->eos_id : -1; }

mx_status_t mx_tokenizer_set_chat_template(mx_tokenizer_t *t, const char *text) {
  char *copy = strdup(text);
  if (!copy) return mx_status_oom();
  free(t->chat_template);
  t->chat_template = copy;
  return NULL;
}

const char *mx_tokenizer_token_bytes(const mx_tokenizer_t *t, int32_t id, size_t *len) {
  if (id < 0 || id >= t->vocab_size || !t->tok_bytes[id]) return NULL;
  *len = t->tok_len[id];
  return t->tok_bytes[id];
}

/* --------------------------------------------------------------------------------------- BPE */

typedef struct {
  uint32_t rank, pos;
  int32_t merged;
} merge_t;

typedef struct {
  int32_t id, prev, next;
  uint32_t len; /* 0 once merged into its left neighbour */
} symbol_t;

/* Scratch space reused across the pieces of one encode call. */
typedef struct {
  symbol_t *sym;
  merge_t *heap;
  size_t sym_cap, heap_cap, heap_n;
} bpe_scratch_t;

static bool merge_less(const merge_t *a, const merge_t *b) { return a->rank < b->rank || (a->rank == b->rank && a->pos < b->pos); }

static bool heap_push(bpe_scratch_t *s, merge_t m) {
  if (s->heap_n == s->heap_cap) {
    size_t c = s->heap_cap ? s->heap_cap * 2 : 256;
    merge_t *h = realloc(s->heap, c * sizeof *h);
    if (!h) return false;
    s->heap = h;
    s->heap_cap = c;
  }
  size_t i = s->heap_n++;
  while (i > 0 && merge_less(&m, &s->heap[(i - 1) / 2])) {
    s->heap[i] = s->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  s->heap[i] = m;
  return true;
}

static merge_t heap_pop(bpe_scratch_t *s) {
  merge_t top = s->heap[0], last = s->heap[--s->heap_n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= s->heap_n) break;
    if (c + 1 < s->heap_n && merge_less(&s->heap[c + 1], &s->heap[c])) c++;
    if (!merge_less(&s->heap[c], &last)) break;
    s->heap[i] = s->heap[c];
    i = c;
  }
  if (s->heap_n) s->heap[i] = last;
  return top;
}

static bool lookup_merge(const mx_tokenizer_t *t, int32_t a, int32_t b, uint32_t *rank, int32_t *merged) {
  uint64_t v;
  if (!mx_u64map_get(&t->merges, ((uint64_t)(uint32_t)a << 32) | (uint32_t)b, &v)) return false;
  *rank = (uint32_t)(v >> 32);
  *merged = (int32_t)(uint32_t)v;
  return true;
}

static bool queue_pair(const mx_tokenizer_t *t, bpe_scratch_t *s, int32_t left) {
  int32_t right = s->sym[left].next;
  uint32_t rank;
  int32_t merged;
  if (right < 0 || !lookup_merge(t, s->sym[left].id, s->sym[right].id, &rank, &merged)) return true;
  return heap_push(s, (merge_t){rank, (uint32_t)left, merged});
}

/* Byte-level BPE of one pre-token: lowest merge rank first, leftmost first among equal ranks. */
static bool bpe_piece(const mx_tokenizer_t *t, const char *p, size_t n, bpe_scratch_t *s, mx_ids_t *out) {
  if (t->ignore_merges || (n == 1 && !t->spm)) {
    int32_t whole = mx_strmap_get(&t->vocab, p, n);
    if (whole >= 0) return mx_ids_push(out, whole);
  }
  if (n > s->sym_cap) {
    symbol_t *sym = realloc(s->sym, n * sizeof *sym);
    if (!sym) return false;
    s->sym = sym;
    s->sym_cap = n;
  }
  /* A byte without a token is dropped, as HF's BPE does for a character outside its vocabulary
   * when there is no unknown token; its neighbours become adjacent and may merge. */
  size_t k = 0;
  if (t->spm) {
    /* Characters; one outside the vocabulary becomes its bytes' <0xXX> tokens (byte fallback). */
    for (size_t i = 0; i < n;) {
      size_t c = 1;
      while (i + c < n && ((uint8_t)p[i + c] & 0xC0) == 0x80) c++;
      int32_t id = mx_strmap_get(&t->vocab, p + i, c);
      if (id >= 0) s->sym[k] = (symbol_t){id, (int32_t)k - 1, (int32_t)k + 1, (uint32_t)c}, k++;
      for (size_t b = 0; id < 0 && b < c; b++) {
        int32_t bid = t->byte_fallback[(uint8_t)p[i + b]];
        if (bid >= 0) s->sym[k] = (symbol_t){bid, (int32_t)k - 1, (int32_t)k + 1, 1}, k++;
      }
      i += c;
    }
  } else {
    for (size_t i = 0; i < n; i++) {
      int32_t id = t->byte_id[(uint8_t)p[i]];
      if (id >= 0) s->sym[k] = (symbol_t){id, (int32_t)k - 1, (int32_t)k + 1, 1}, k++;
    }
  }
  if (k == 0) return true;
  s->sym[k - 1].next = -1;
  s->heap_n = 0;
  for (size_t i = 0; i + 1 < k; i++)
    if (!queue_pair(t, s, (int32_t)i)) return false;
  while (s->heap_n) {
    merge_t m = heap_pop(s);
    symbol_t *l = &s->sym[m.pos];
    if (l->len == 0 || l->next < 0) continue; /* stale: the left symbol was merged away */
    symbol_t *r = &s->sym[l->next];
    uint32_t rank;
    int32_t merged;
    if (!lookup_merge(t, l->id, r->id, &rank, &merged) || merged != m.merged) continue; /* stale pair */
    l->id = merged;
    l->len += r->len;
    r->len = 0;
    l->next = r->next;
    if (r->next >= 0) s->sym[r->next].prev = (int32_t)m.pos;
    if (l->prev >= 0 && !queue_pair(t, s, l->prev)) return false;
    if (!queue_pair(t, s, (int32_t)m.pos)) return false;
  }
  for (int32_t i = 0; i >= 0; i = s->sym[i].next)
    if (!mx_ids_push(out, s->sym[i].id)) return false;
  return true;
}

/* ------------------------------------------------------------------------------------ encode */

/* The leftmost, then longest, added token occurring in text[from, len). */
static const mx_added_token_t *find_added(const mx_tokenizer_t *t, const char *text, size_t from, size_t len,
                                          size_t *at) {
  for (size_t i = from; i < len; i++) {
    if (!t->added_first_byte[(uint8_t)text[i]]) continue;
    const mx_added_token_t *best = NULL;
    for (int k = 0; k < t->n_added; k++) {
      const mx_added_token_t *a = &t->added[k];
      if (a->len <= len - i && memcmp(text + i, a->content, a->len) == 0 && (!best || a->len > best->len)) best = a;
    }
    if (best) {
      *at = i;
      return best;
    }
  }
  return NULL;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

#define SPACE_MARK "\xe2\x96\x81" /* U+2581 */

/* SentencePiece: every space of a segment (text between added tokens; `first`: at the text's start)
 * becomes U+2581, with one in front as the tokenizer's prefix scheme says; BPE then runs on the whole
 * segment, or (Metaspace split) on each piece that a U+2581 starts. */
static mx_status_t encode_spm(const mx_tokenizer_t *t, const char *text, size_t len, bool first, bpe_scratch_t *s, mx_ids_t *out) {
  char *norm = malloc(3 * len + 4);
  if (!norm) return mx_status_oom();
  size_t n = 0;
  bool prefix = t->spm_prefix == MX_SPM_PREFIX_PREPEND ||
                ((t->spm_prefix == MX_SPM_PREFIX_ALWAYS || (t->spm_prefix == MX_SPM_PREFIX_FIRST && first)) && text[0] != ' ');
  if (prefix) memcpy(norm, SPACE_MARK, 3), n = 3;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == ' ') memcpy(norm + n, SPACE_MARK, 3), n += 3;
    else norm[n++] = text[i];
  }
  bool ok = true;
  for (size_t a = 0, b; ok && a < n; a = b) {
    b = n;
    for (size_t i = a + 1; t->spm_split && i + 3 <= n; i++)
      if (!memcmp(norm + i, SPACE_MARK, 3)) {
        b = i;
        break;
      }
    ok = bpe_piece(t, norm + a, b - a, s, out);
  }
  free(norm);
  return ok ? NULL : mx_status_make(MX_STAGE_OOM, NULL, "out of memory while tokenizing");
}

static mx_status_t encode_plain(const mx_tokenizer_t *t, const char *text, size_t len, bool first, bpe_scratch_t *s, mx_ids_t *out) {
  if (len == 0) return NULL;
  if (t->spm) return encode_spm(t, text, len, first, s, out);
  uint8_t *normalized = NULL;
  size_t nlen = 0;
  if (t->nfc) { /* per segment, after the added tokens are found: HF's order */
    int r = mx_utf8_nfc((const uint8_t *)text, len, &normalized, &nlen);
    if (r < 0) return mx_status_make(MX_STAGE_OOM, NULL, "out of memory while normalizing");
    if (r > 0) text = (const char *)normalized, len = nlen;
  }
  size_t *spans = NULL, n = 0, cap = 0;
  mx_status_t st = mx_pretokenize(t, text, len, &spans, &n, &cap);
  bool ok = true;
  for (size_t i = 0; !st && ok && i < n; i += 2) ok = bpe_piece(t, text + spans[i], spans[i + 1] - spans[i], s, out);
  free(spans);
  free(normalized);
  if (st) return st;
  return ok ? NULL : mx_status_make(MX_STAGE_OOM, NULL, "out of memory while tokenizing");
}

mx_status_t mx_tokenizer_encode(const mx_tokenizer_t *t, const char *text, size_t len, bool add_special, mx_ids_t *out) {
  size_t valid = mx_utf8_valid_prefix((const uint8_t *)text, len);
  if (valid != len)
    return mx_status_make(MX_STAGE_USAGE, "pass text in UTF-8", "the input is not valid UTF-8 at byte %zu", valid);
  if (add_special && mx_tokenizer_adds_bos(t) && !mx_ids_push(out, t->bos_id))
    return mx_status_oom();
  bpe_scratch_t s = {0};
  mx_status_t st = NULL;
  size_t pos = 0;
  while (!st && pos < len) {
    size_t at = len, end;
    const mx_added_token_t *a = t->n_added ? find_added(t, text, pos, len, &at) : NULL;
    size_t seg_end = a ? at : len;
    end = a ? at + a->len : len;
    if (a && a->lstrip)
      while (seg_end > pos && is_space(text[seg_end - 1])) seg_end--;
    if (a && a->rstrip)
      while (end < len && is_space(text[end])) end++;
    st = encode_plain(t, text + pos, seg_end - pos, pos == 0, &s, out);
    if (!st && a && !mx_ids_push(out, a->id)) st = mx_status_oom();
    pos = end;
  }
  free(s.sym);
  free(s.heap);
  return st;
}

/* ------------------------------------------------------------------------------------ decode */

static mx_status_t check_id(const mx_tokenizer_t *t, int32_t id) {
  if (id < 0 || id >= t->vocab_size || !t->tok_bytes[id])
    return mx_status_make(MX_STAGE_USAGE, "ids must come from this tokenizer", "token id %d is not in the vocabulary (size %d)",
                          id, t->vocab_size);
  return NULL;
}

mx_status_t mx_tokenizer_decode(const mx_tokenizer_t *t, const int32_t *ids, size_t n, bool skip_special,
                                mx_strbuf_t *out) {
  mx_strbuf_t raw;
  mx_strbuf_init(&raw);
  for (size_t i = 0; i < n; i++) {
    mx_status_t st = check_id(t, ids[i]);
    if (st) {
      mx_strbuf_free(&raw);
      return st;
    }
    if (skip_special && t->is_special[ids[i]]) continue;
    mx_strbuf_append(&raw, t->tok_bytes[ids[i]], t->tok_len[ids[i]]);
  }
  size_t skip = t->strip_leading_space && raw.len > 0 && raw.data[0] == ' '; /* HF's Strip decoder */
  if (raw.len > skip) mx_utf8_append_lossy(out, (const uint8_t *)raw.data + skip, raw.len - skip); /* raw.data is NULL when empty */
  bool failed = raw.failed || out->failed;
  mx_strbuf_free(&raw);
  return failed ? mx_status_make(MX_STAGE_OOM, NULL, "out of memory while decoding") : NULL;
}

void mx_detok_stream_init(mx_detok_stream_t *s) { memset(s, 0, sizeof *s); }

mx_status_t mx_detok_stream_push(const mx_tokenizer_t *t, mx_detok_stream_t *s, int32_t id, bool skip_special,
                                 mx_strbuf_t *out) {
  MX_RETURN_IF_ERROR(check_id(t, id));
  if (skip_special && t->is_special[id]) return NULL;
  size_t n = (size_t)s->n_pending + t->tok_len[id];
  uint8_t small[64], *buf = n <= sizeof small ? small : malloc(n);
  if (!buf) return mx_status_oom();
  memcpy(buf, s->pending, (size_t)s->n_pending);
  memcpy(buf + s->n_pending, t->tok_bytes[id], t->tok_len[id]);
  size_t skip = 0; /* the decoder's leading space, once (mx_tokenizer_decode's rule) */
  if (n > 0 && !s->begun) {
    s->begun = true;
    skip = t->strip_leading_space && buf[0] == ' ';
  }
  /* Emit everything but a trailing sequence that more bytes could still complete. */
  size_t keep_from = n;
  for (size_t back = 1; back <= 3 && back <= n; back++) {
    size_t i = n - back;
    if ((buf[i] & 0xC0) == 0x80) continue; /* continuation byte: look further back */
    uint32_t cp;
    int bad;
    bool trunc;
    if (buf[i] >= 0xC0 && !mx_utf8_next(buf + i, n - i, &cp, &bad, &trunc) && trunc && (size_t)bad == back) keep_from = i;
    break;
  }
  mx_utf8_append_lossy(out, buf + skip, keep_from - skip);
  s->n_pending = (int)(n - keep_from);
  memcpy(s->pending, buf + keep_from, (size_t)s->n_pending);
  if (buf != small) free(buf);
  return out->failed ? mx_status_make(MX_STAGE_OOM, NULL, "out of memory while decoding") : NULL;
}

void mx_detok_stream_finish(mx_detok_stream_t *s, mx_strbuf_t *out) {
  mx_utf8_append_lossy(out, s->pending, (size_t)s->n_pending);
  s->n_pending = 0;
}
