/* Loading a tokenizer from HF files: tokenizer.json (model, added tokens, normalizer, pre-tokenizer,
 * post-processor, decoder) and tokenizer_config.json / chat_template.jinja (chat template, BOS policy).
 * Two families: byte-level BPE (GPT-2, Llama 3, SmolLM, Qwen) and SentencePiece-style BPE with byte
 * fallback (Llama 2, Mistral, Phi-3, Gemma: spaces spelled U+2581 by a normalizer or a Metaspace
 * pre-tokenizer). Anything else is refused by name rather than approximated. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "tokenizer/internal.h"

#define MAX_TOKENIZER_BYTES (256u << 20)
#define UNSUPPORTED "mlxcel supports byte-level BPE tokenizers (GPT-2, Llama 3, SmolLM) and SentencePiece-style BPE (Llama 2, Phi-3, Gemma)"
#define SPACE_MARK "\xe2\x96\x81" /* U+2581, SentencePiece's space */

static mx_status_t refuse(const mx_tokenizer_t *t, const char *what, const char *name) {
  return mx_status_make(MX_STAGE_IO, UNSUPPORTED, "%s: %s '%s' is not supported", t->source, what, name ? name : "(none)");
}

/* Escapes a literal string for use as a PCRE2 pattern. */
static char *regex_escape(const char *s) {
  size_t n = strlen(s);
  char *out = malloc(2 * n + 1), *o = out;
  if (!out) return NULL;
  for (size_t i = 0; i < n; i++) {
    if (strchr("\\^$.|?*+()[]{}", s[i])) *o++ = '\\';
    *o++ = s[i];
  }
  *o = '\0';
  return out;
}

static mx_status_t add_pre_step(mx_tokenizer_t *t, json_t *p) {
  const char *type = json_string_value(json_object_get(p, "type"));
  if (!type) return refuse(t, "pre-tokenizer", "(untyped)");
  if (!strcmp(type, "Sequence")) {
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(p, "pretokenizers"), i, e) MX_RETURN_IF_ERROR(add_pre_step(t, e));
    return NULL;
  }
  if (!strcmp(type, "ByteLevel"))
    return mx_tok_add_bytelevel(t, json_is_true(json_object_get(p, "add_prefix_space")),
                                !json_is_false(json_object_get(p, "use_regex")));
  if (!strcmp(type, "Digits")) return mx_tok_add_digits(t, json_is_true(json_object_get(p, "individual_digits")));
  if (!strcmp(type, "Split")) {
    const char *behavior = json_string_value(json_object_get(p, "behavior"));
    if (!behavior || strcmp(behavior, "Isolated") != 0) return refuse(t, "Split behaviour", behavior);
    if (json_is_true(json_object_get(p, "invert"))) return refuse(t, "Split option", "invert");
    json_t *pat = json_object_get(p, "pattern");
    const char *re = json_string_value(json_object_get(pat, "Regex"));
    if (re) return mx_tok_add_split(t, re);
    const char *lit = json_string_value(json_object_get(pat, "String"));
    if (!lit) return refuse(t, "Split pattern", "(missing)");
    char *esc = regex_escape(lit);
    if (!esc) return mx_status_oom();
    mx_status_t st = mx_tok_add_split(t, esc);
    free(esc);
    return st;
  }
  return refuse(t, "pre-tokenizer", type);
}

/* BOS from a TemplateProcessing post-processor whose single template starts with a special token. */
static void bos_from_post(mx_tokenizer_t *t, json_t *post) {
  const char *type = json_string_value(json_object_get(post, "type"));
  if (!type) return;
  if (!strcmp(type, "Sequence")) {
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(post, "processors"), i, e) bos_from_post(t, e);
    return;
  }
  if (strcmp(type, "TemplateProcessing") != 0) return;
  json_t *first = json_array_get(json_object_get(post, "single"), 0);
  const char *name = json_string_value(json_object_get(json_object_get(first, "SpecialToken"), "id"));
  if (!name) return;
  json_t *ids = json_object_get(json_object_get(json_object_get(post, "special_tokens"), name), "ids");
  if (json_array_size(ids) == 1 && json_is_integer(json_array_get(ids, 0))) {
    t->bos_id = (int)json_integer_value(json_array_get(ids, 0));
    t->add_bos = true;
  }
}

static int max_id(json_t *vocab, json_t *added) {
  int m = -1;
  const char *k;
  json_t *v;
  json_object_foreach(vocab, k, v) if (json_is_integer(v) && json_integer_value(v) > m) m = (int)json_integer_value(v);
  size_t i;
  json_array_foreach(added, i, v) {
    json_t *id = json_object_get(v, "id");
    if (json_is_integer(id) && json_integer_value(id) > m) m = (int)json_integer_value(id);
  }
  return m;
}

/* The vocabulary and the merges: byte-level ones as raw bytes; SentencePiece ones (t->spm) as spelled. */
static mx_status_t load_vocab_and_merges(mx_tokenizer_t *t, json_t *model) {
  const char *k;
  json_t *v;
  char *buf = malloc(8192);
  if (!buf) return mx_status_oom();
  mx_status_t st = t->spm ? mx_tok_spm_begin(t) : NULL;
  json_object_foreach(json_object_get(model, "vocab"), k, v) {
    size_t len = strlen(k);
    if (st) break;
    if (!json_is_integer(v) || len >= 8192 || len == 0) {
      st = mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: bad vocabulary entry", t->source);
      break;
    }
    int32_t id = (int32_t)json_integer_value(v);
    if (t->spm) {
      if (!(st = mx_tok_spm_token(t, id, k, len, true)) && !mx_strmap_put(&t->vocab, t->spelled[id], len, id)) st = mx_status_oom();
      continue;
    }
    size_t n = mx_bytelevel_decode(k, len, buf);
    if ((st = mx_tok_set_token(t, id, buf, n, true))) break;
  }
  size_t i;
  json_t *m;
  char *right = malloc(8192);
  if (!right && !st) st = mx_status_oom();
  json_array_foreach(json_object_get(model, "merges"), i, m) {
    if (st) break;
    const char *a, *b;
    size_t alen, blen;
    const char *s = json_string_value(m);
    if (s) { /* "left right" (older files) */
      const char *sp = strchr(s, ' ');
      if (!sp) {
        st = mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: merge %zu has no space", t->source, i);
        break;
      }
      a = s, alen = (size_t)(sp - s), b = sp + 1, blen = strlen(sp + 1);
    } else if (json_array_size(m) == 2 && json_is_string(json_array_get(m, 0)) && json_is_string(json_array_get(m, 1))) {
      a = json_string_value(json_array_get(m, 0)), alen = json_string_length(json_array_get(m, 0));
      b = json_string_value(json_array_get(m, 1)), blen = json_string_length(json_array_get(m, 1));
    } else {
      st = mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: merge %zu is malformed", t->source, i);
      break;
    }
    if (alen >= 8192 || blen >= 8192) {
      st = mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: merge %zu is too long", t->source, i);
      break;
    }
    if (t->spm) {
      st = mx_tok_add_merge(t, a, alen, b, blen, (int)i);
      continue;
    }
    size_t an = mx_bytelevel_decode(a, alen, buf), bn = mx_bytelevel_decode(b, blen, right);
    st = mx_tok_add_merge(t, buf, an, right, bn, (int)i);
  }
  free(buf);
  free(right);
  return st;
}

static mx_status_t load_added(mx_tokenizer_t *t, json_t *added) {
  size_t i;
  json_t *a;
  json_array_foreach(added, i, a) {
    json_t *id = json_object_get(a, "id");
    const char *content = json_string_value(json_object_get(a, "content"));
    if (!json_is_integer(id) || !content)
      return mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: added token %zu is malformed", t->source, i);
    if (json_is_true(json_object_get(a, "single_word"))) return refuse(t, "added-token option", "single_word");
    MX_RETURN_IF_ERROR(mx_tok_add_added(t, (int32_t)json_integer_value(id), content, json_string_length(json_object_get(a, "content")),
                                        json_is_true(json_object_get(a, "special")), json_is_true(json_object_get(a, "lstrip")),
                                        json_is_true(json_object_get(a, "rstrip"))));
  }
  return NULL;
}

/* tokenizer_config.json: the chat template and, without a BOS-adding post-processor, add_bos_token. */
static mx_status_t load_config(mx_tokenizer_t *t, const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tokenizer_config.json", dir);
  json_t *cfg = NULL;
  if (mx_file_exists(path)) {
    char *text;
    MX_RETURN_IF_ERROR(mx_read_file(path, 64u << 20, &text, NULL));
    json_error_t jerr;
    cfg = json_loads(text, JSON_DECODE_INT_AS_REAL, &jerr); /* model_max_length can exceed 64 bits */
    free(text);
    if (!json_is_object(cfg)) {
      json_decref(cfg);
      return mx_status_make(MX_STAGE_IO, "fix or remove the file", "%s: not a JSON object (line %d: %s)", path, jerr.line, jerr.text);
    }
  }
  json_t *bos = json_object_get(cfg, "bos_token");
  const char *bos_text = json_is_string(bos) ? json_string_value(bos) : json_string_value(json_object_get(bos, "content"));
  if (bos_text && t->bos_id < 0) {
    for (int i = 0; i < t->n_added; i++)
      if (strlen(bos_text) == t->added[i].len && !memcmp(bos_text, t->added[i].content, t->added[i].len)) t->bos_id = t->added[i].id;
    if (t->bos_id < 0) t->bos_id = mx_strmap_get(&t->vocab, bos_text, strlen(bos_text));
  }
  json_t *eos = json_object_get(cfg, "eos_token");
  const char *eos_text = json_is_string(eos) ? json_string_value(eos) : json_string_value(json_object_get(eos, "content"));
  for (int i = 0; eos_text && i < t->n_added && t->eos_id < 0; i++)
    if (strlen(eos_text) == t->added[i].len && !memcmp(eos_text, t->added[i].content, t->added[i].len)) t->eos_id = t->added[i].id;
  if (eos_text && t->eos_id < 0) t->eos_id = mx_strmap_get(&t->vocab, eos_text, strlen(eos_text));
  json_t *add_bos = json_object_get(cfg, "add_bos_token");
  if (json_is_boolean(add_bos)) t->add_bos = json_is_true(add_bos) && t->bos_id >= 0;
  json_t *tmpl = json_object_get(cfg, "chat_template");
  const char *ct = json_string_value(tmpl);
  size_t i;
  json_t *e;
  if (json_is_array(tmpl)) /* named templates: take "default" */
    json_array_foreach(tmpl, i, e) if (!strcmp(json_string_value(json_object_get(e, "name")) ? json_string_value(json_object_get(e, "name")) : "", "default"))
        ct = json_string_value(json_object_get(e, "template"));
  if (ct) t->chat_template = strdup(ct);
  json_decref(cfg);
  snprintf(path, sizeof path, "%s/chat_template.jinja", dir);
  if (!t->chat_template && mx_file_exists(path)) MX_RETURN_IF_ERROR(mx_read_file(path, 1u << 20, &t->chat_template, NULL));
  return NULL;
}

static bool str_is(json_t *obj, const char *key, const char *want) {
  const char *s = json_string_value(json_object_get(obj, key));
  return s && !strcmp(s, want);
}

/* A byte-level BPE's normalizer: NFC (Qwen2/2.5/3), alone or in a Sequence. */
static mx_status_t bytelevel_normalizer(mx_tokenizer_t *t, json_t *n) {
  const char *type = json_string_value(json_object_get(n, "type"));
  json_t *seq = json_object_get(n, "normalizers");
  if (type && !strcmp(type, "Sequence") && json_array_size(seq) == 1) return bytelevel_normalizer(t, json_array_get(seq, 0));
  if (!type || strcmp(type, "NFC") != 0) return refuse(t, "normalizer", type ? type : "(untyped)");
  t->nfc = true;
  return NULL;
}

/* SentencePiece's normalizers: Replace(" " -> U+2581) and Prepend(U+2581), alone or in a Sequence. */
static mx_status_t spm_normalizer(mx_tokenizer_t *t, json_t *n, bool *replaces) {
  const char *type = json_string_value(json_object_get(n, "type"));
  if (!type) return refuse(t, "normalizer", "(untyped)");
  if (!strcmp(type, "Sequence")) {
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(n, "normalizers"), i, e) MX_RETURN_IF_ERROR(spm_normalizer(t, e, replaces));
    return NULL;
  }
  if (!strcmp(type, "Replace") && str_is(json_object_get(n, "pattern"), "String", " ") && str_is(n, "content", SPACE_MARK)) {
    *replaces = true;
    return NULL;
  }
  if (!strcmp(type, "Prepend") && str_is(n, "prepend", SPACE_MARK)) {
    t->spm_prefix = MX_SPM_PREFIX_PREPEND;
    return NULL;
  }
  return refuse(t, "SentencePiece normalizer", type);
}

/* Their pre-tokenizers: none, Metaspace (the space mark, its prefix scheme, split or not), or Gemma's
 * Split on " " after a normalizer that left no spaces (so it splits nothing). */
static mx_status_t spm_pre_tokenizer(mx_tokenizer_t *t, json_t *p, bool *replaces) {
  if (!p || json_is_null(p)) return NULL;
  const char *type = json_string_value(json_object_get(p, "type"));
  if (type && !strcmp(type, "Metaspace")) {
    if (!str_is(p, "replacement", SPACE_MARK)) return refuse(t, "Metaspace replacement", json_string_value(json_object_get(p, "replacement")));
    const char *scheme = json_string_value(json_object_get(p, "prepend_scheme"));
    if (!scheme) scheme = json_is_false(json_object_get(p, "add_prefix_space")) ? "never" : "always"; /* older files */
    if (!strcmp(scheme, "always")) t->spm_prefix = MX_SPM_PREFIX_ALWAYS;
    else if (!strcmp(scheme, "first")) t->spm_prefix = MX_SPM_PREFIX_FIRST;
    else if (strcmp(scheme, "never") != 0) return refuse(t, "Metaspace prepend_scheme", scheme);
    t->spm_split = !json_is_false(json_object_get(p, "split"));
    *replaces = true;
    return NULL;
  }
  if (type && !strcmp(type, "Split") && *replaces && str_is(json_object_get(p, "pattern"), "String", " ")) return NULL;
  return refuse(t, "SentencePiece pre-tokenizer", type);
}

/* Their decoders: U+2581 back to a space, byte tokens to bytes, joined, and Strip(" ", 1, 0) or a
 * Metaspace decoder with a prefix scheme dropping the prefix space again. */
static mx_status_t spm_decoder(mx_tokenizer_t *t, json_t *d) {
  if (!d || json_is_null(d)) return NULL;
  const char *type = json_string_value(json_object_get(d, "type"));
  if (!type) return refuse(t, "decoder", "(untyped)");
  if (!strcmp(type, "Sequence")) {
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(d, "decoders"), i, e) MX_RETURN_IF_ERROR(spm_decoder(t, e));
    return NULL;
  }
  if (!strcmp(type, "ByteFallback") || !strcmp(type, "Fuse")) return NULL;
  if (!strcmp(type, "Replace") && str_is(json_object_get(d, "pattern"), "String", SPACE_MARK) && str_is(d, "content", " ")) return NULL;
  json_t *start = json_object_get(d, "start"), *stop = json_object_get(d, "stop");
  if (!strcmp(type, "Strip") && str_is(d, "content", " ") && json_integer_value(start) == 1 && json_integer_value(stop) == 0) {
    t->strip_leading_space = true;
    return NULL;
  }
  if (!strcmp(type, "Metaspace") && str_is(d, "replacement", SPACE_MARK)) {
    t->strip_leading_space = !str_is(d, "prepend_scheme", "never") && !json_is_false(json_object_get(d, "add_prefix_space"));
    return NULL;
  }
  return refuse(t, "SentencePiece decoder", type);
}

/* A SentencePiece-style tokenizer.json: how its spaces become U+2581 and back. */
static mx_status_t spm_pipeline(mx_tokenizer_t *t, json_t *root) {
  bool replaces = false;
  json_t *norm = json_object_get(root, "normalizer");
  if (norm && !json_is_null(norm)) MX_RETURN_IF_ERROR(spm_normalizer(t, norm, &replaces));
  MX_RETURN_IF_ERROR(spm_pre_tokenizer(t, json_object_get(root, "pre_tokenizer"), &replaces));
  if (!replaces)
    return mx_status_make(MX_STAGE_IO, UNSUPPORTED, "%s: a byte-fallback BPE whose spaces no normalizer or Metaspace spells as U+2581",
                          t->source);
  return spm_decoder(t, json_object_get(root, "decoder"));
}

mx_status_t mx_tokenizer_load_hf(const char *dir, mx_tokenizer_t **out) {
  *out = NULL;
  char path[4096];
  snprintf(path, sizeof path, "%s/tokenizer.json", dir);
  if (!mx_file_exists(path))
    return mx_status_make(MX_STAGE_IO, "an HF model directory needs its tokenizer.json", "%s has no tokenizer.json", dir);
  char *text;
  MX_RETURN_IF_ERROR(mx_read_file(path, MAX_TOKENIZER_BYTES, &text, NULL));
  json_error_t jerr;
  json_t *root = json_loads(text, 0, &jerr);
  free(text);
  if (!json_is_object(root)) {
    json_decref(root);
    return mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: not a JSON object (line %d: %s)", path, jerr.line,
                          jerr.text);
  }
  json_t *model = json_object_get(root, "model"), *added = json_object_get(root, "added_tokens");
  int top = max_id(json_object_get(model, "vocab"), added);
  mx_tokenizer_t *t = mx_tok_alloc(path, top + 1);
  mx_status_t st = t ? NULL : mx_status_make(MX_STAGE_IO, "the tokenizer file is corrupt", "%s: no usable vocabulary", path);
  const char *mtype = json_string_value(json_object_get(model, "type"));
  if (!st && (!mtype || strcmp(mtype, "BPE") != 0)) st = refuse(t, "model type", mtype);
  if (!st) t->spm = json_is_true(json_object_get(model, "byte_fallback"));
  /* An empty prefix or suffix is no prefix or suffix (Qwen's files spell them ""). */
  if (!st && json_string_length(json_object_get(model, "continuing_subword_prefix")) > 0)
    st = refuse(t, "BPE option", "continuing_subword_prefix");
  if (!st && json_string_length(json_object_get(model, "end_of_word_suffix")) > 0) st = refuse(t, "BPE option", "end_of_word_suffix");
  json_t *norm = json_object_get(root, "normalizer");
  if (!st && t->spm) st = spm_pipeline(t, root);
  if (!st && !t->spm && norm && !json_is_null(norm)) st = bytelevel_normalizer(t, norm);
  json_t *dec = json_object_get(root, "decoder");
  const char *dtype = json_string_value(json_object_get(dec, "type"));
  if (!st && !t->spm && dec && !json_is_null(dec) && (!dtype || strcmp(dtype, "ByteLevel") != 0)) st = refuse(t, "decoder", dtype);
  if (!st) {
    t->ignore_merges = json_is_true(json_object_get(model, "ignore_merges"));
    st = load_vocab_and_merges(t, model);
  }
  if (!st) st = load_added(t, added);
  json_t *pre = json_object_get(root, "pre_tokenizer");
  if (!st && !t->spm && pre && !json_is_null(pre)) st = add_pre_step(t, pre);
  if (!st) bos_from_post(t, json_object_get(root, "post_processor"));
  json_decref(root);
  if (!st) st = load_config(t, dir);
  if (!st) st = mx_tok_finish(t);
  if (st) {
    mx_tokenizer_close(t);
    return st;
  }
  *out = t;
  return NULL;
}
