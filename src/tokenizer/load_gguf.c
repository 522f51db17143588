/* Loading a tokenizer from GGUF metadata (tokenizer.ggml.*), for byte-level BPE ("gpt2") vocabularies
 * and Gemma's SentencePiece ones ("llama", load_spm.c).
 * tokenizer.ggml.pre names the pre-tokenizer the vocabulary was trained with; we map the names we
 * know to the HF pre-tokenizer they stand for and refuse the rest by name. */
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "format/mapped_file.h"
#include "tokenizer/internal.h"

#define LLAMA3_SPLIT \
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"

/* Qwen2's: digits one at a time (transformers' PRETOKENIZE_REGEX of Qwen2Tokenizer, which its GGUF
 * conversion puts in front of the byte-level step). */
#define QWEN2_SPLIT \
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"

/* GGUF token types (llama.cpp): 1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte. */
enum { TOKEN_CONTROL = 3, TOKEN_USER_DEFINED = 4 };

static bool str_eq(const char *s, size_t len, const char *lit) { return len == strlen(lit) && !memcmp(s, lit, len); }

/* Pre-tokenizer steps for a tokenizer.ggml.pre value; *llama3_family tells BOS and merge policy. */
static mx_status_t set_pre(mx_tokenizer_t *t, const char *pre, size_t len, bool *llama3_family) {
  static const char *const llama3[] = {"llama-bpe", "llama3", "llama-v3", "smaug-bpe", "dbrx", "falcon3"};
  *llama3_family = false;
  for (size_t i = 0; i < sizeof llama3 / sizeof llama3[0]; i++)
    if (str_eq(pre, len, llama3[i])) {
      *llama3_family = true;
      MX_RETURN_IF_ERROR(mx_tok_add_split(t, LLAMA3_SPLIT));
      return mx_tok_add_bytelevel(t, false, false);
    }
  if (str_eq(pre, len, "qwen2") || str_eq(pre, len, "deepseek-r1-qwen")) {
    MX_RETURN_IF_ERROR(mx_tok_add_split(t, QWEN2_SPLIT));
    return mx_tok_add_bytelevel(t, false, false);
  }
  if (str_eq(pre, len, "smollm")) { /* HF's SmolLM tokenizers: every digit alone, then the GPT-2 split */
    MX_RETURN_IF_ERROR(mx_tok_add_digits(t, true));
    return mx_tok_add_bytelevel(t, false, true);
  }
  if (str_eq(pre, len, "gpt2") || str_eq(pre, len, "gpt-2") || str_eq(pre, len, "default"))
    return mx_tok_add_bytelevel(t, false, true);
  return mx_status_make(MX_STAGE_IO, "use the model's HF directory (tokenizer.json) instead",
                        "%s: GGUF pre-tokenizer '%.*s' is not supported (known: llama-bpe/llama3, qwen2, smollm, gpt2)", t->source,
                        (int)(len > 40 ? 40 : len), pre);
}

mx_status_t mx_tokenizer_load_gguf(const mx_gguf_t *g, const char *path, mx_tokenizer_t **out) {
  *out = NULL;
  const char *model, *pre = "default";
  size_t mlen, plen = 7;
  if (!mx_gguf_get_str(g, "tokenizer.ggml.model", &model, &mlen))
    return mx_status_make(MX_STAGE_IO, "the GGUF has no embedded tokenizer; use the model's HF directory",
                          "%s: no tokenizer.ggml.model", path);
  const char *arch = "";
  size_t alen = 0;
  mx_gguf_get_str(g, "general.architecture", &arch, &alen);
  /* SentencePiece vocabularies differ by family in how transformers rebuilds them (merges, prefix
   * space): Gemma's (2 and 3), Llama's (Llama 2, Mistral: Metaspace "first") and Phi-3's (Prepend). */
  bool gemma = str_eq(arch, alen, "gemma3") || str_eq(arch, alen, "gemma2"), phi3 = str_eq(arch, alen, "phi3");
  bool spm = str_eq(model, mlen, "llama") && (gemma || phi3 || str_eq(arch, alen, "llama"));
  if (str_eq(model, mlen, "llama") && !spm)
    return mx_status_make(MX_STAGE_IO, "use the model's HF directory",
                          "%s: SentencePiece GGUF vocabularies of architecture '%.*s' are not supported (llama, phi3, gemma2, gemma3 are)",
                          path, (int)(alen > 40 ? 40 : alen), arch);
  if (!spm && !str_eq(model, mlen, "gpt2"))
    return mx_status_make(MX_STAGE_IO, "mlxcel supports byte-level BPE tokenizers (tokenizer.ggml.model \"gpt2\") and SentencePiece ones (\"llama\")",
                          "%s: tokenizer model '%.*s' is not supported", path, (int)(mlen > 40 ? 40 : mlen), model);
  mx_gguf_get_str(g, "tokenizer.ggml.pre", &pre, &plen);
  const char **toks = NULL, **merges = NULL;
  size_t *tok_lens = NULL, *merge_lens = NULL;
  int32_t *types = NULL;
  uint64_t n_tok = 0, n_merges = 0, n_types = 0;
  if (!mx_gguf_get_str_array(g, "tokenizer.ggml.tokens", &toks, &tok_lens, &n_tok) || n_tok == 0) {
    free(toks); /* an empty array was still allocated (found by fuzz_gguf) */
    free(tok_lens);
    return mx_status_make(MX_STAGE_IO, "the GGUF's tokenizer is incomplete", "%s: no tokenizer.ggml.tokens", path);
  }
  mx_status_t st = NULL;
  if (!spm && !mx_gguf_get_str_array(g, "tokenizer.ggml.merges", &merges, &merge_lens, &n_merges))
    st = mx_status_make(MX_STAGE_IO, "the GGUF's tokenizer is incomplete", "%s: no tokenizer.ggml.merges", path);
  if (!mx_gguf_get_i32_array(g, "tokenizer.ggml.token_type", &types, &n_types)) n_types = 0;
  float *scores = NULL;
  uint64_t n_scores = 0;
  if (!st && spm && !gemma && (!mx_gguf_get_f32_array(g, "tokenizer.ggml.scores", &scores, &n_scores) || n_scores != n_tok))
    st = mx_status_make(MX_STAGE_IO, "the GGUF's tokenizer is incomplete", "%s: a SentencePiece vocabulary needs one tokenizer.ggml.scores per token",
                        path);
  mx_tokenizer_t *t = st ? NULL : mx_tok_alloc(path, (int)(n_tok > (1u << 22) ? 0 : n_tok));
  if (!st && !t) st = mx_status_make(MX_STAGE_IO, "the GGUF's tokenizer is corrupt", "%s: unusable vocabulary size %llu", path,
                                     (unsigned long long)n_tok);
  bool llama3_family = false;
  if (!st && spm) {
    st = mx_tok_load_spm(t, toks, tok_lens, types, n_types, scores, gemma);
    /* transformers' LlamaTokenizer: Metaspace "first" and a decoder that strips the prefix space; Phi-3's
     * builder puts the space in with a Prepend normalizer instead (gguf_tokenizer_mapping.py). */
    if (!gemma) t->spm_prefix = phi3 ? MX_SPM_PREFIX_PREPEND : MX_SPM_PREFIX_FIRST;
    t->strip_leading_space = !gemma;
  }
  if (!st && !spm) st = set_pre(t, pre, plen, &llama3_family);
  char *buf = st ? NULL : malloc(8192), *right = st ? NULL : malloc(8192);
  if (!st && (!buf || !right)) st = mx_status_oom();
  for (uint64_t i = 0; !st && !spm && i < n_tok; i++) {
    int type = i < n_types ? types[i] : 1;
    if (tok_lens[i] >= 8192) st = mx_status_make(MX_STAGE_IO, "the GGUF's tokenizer is corrupt", "%s: token %llu is too long", path, (unsigned long long)i);
    else if (type == TOKEN_CONTROL || type == TOKEN_USER_DEFINED) {
      st = mx_tok_set_token(t, (int32_t)i, toks[i], tok_lens[i], true);
      if (!st) st = mx_tok_add_added(t, (int32_t)i, toks[i], tok_lens[i], type == TOKEN_CONTROL, false, false);
    } else {
      size_t n = mx_bytelevel_decode(toks[i], tok_lens[i], buf);
      st = mx_tok_set_token(t, (int32_t)i, buf, n, true);
    }
  }
  for (uint64_t i = 0; !st && i < n_merges; i++) {
    const char *sp = memchr(merges[i], ' ', merge_lens[i]);
    if (!sp || merge_lens[i] >= 8192) {
      st = mx_status_make(MX_STAGE_IO, "the GGUF's tokenizer is corrupt", "%s: merge %llu is malformed", path, (unsigned long long)i);
      break;
    }
    size_t alen = (size_t)(sp - merges[i]);
    size_t an = mx_bytelevel_decode(merges[i], alen, buf), bn = mx_bytelevel_decode(sp + 1, merge_lens[i] - alen - 1, right);
    st = mx_tok_add_merge(t, buf, an, right, bn, (int)i);
  }
  if (!st) {
    uint32_t v;
    bool b;
    t->ignore_merges = llama3_family;
    if (mx_gguf_get_u32(g, "tokenizer.ggml.bos_token_id", &v)) t->bos_id = (int)v;
    if (mx_gguf_get_u32(g, "tokenizer.ggml.eos_token_id", &v) && v < (uint32_t)t->vocab_size) t->eos_id = (int)v;
    t->add_bos = mx_gguf_get_bool(g, "tokenizer.ggml.add_bos_token", &b) ? b : llama3_family || spm; /* transformers' default */
    const char *ct;
    size_t clen;
    if (mx_gguf_get_str(g, "tokenizer.chat_template", &ct, &clen) && (t->chat_template = malloc(clen + 1))) {
      memcpy(t->chat_template, ct, clen);
      t->chat_template[clen] = '\0';
    }
    st = mx_tok_finish(t);
  }
  free(buf);
  free(right);
  free(toks);
  free(tok_lens);
  free(merges);
  free(merge_lens);
  free(types);
  free(scores);
  if (st) {
    mx_tokenizer_close(t);
    return st;
  }
  *out = t;
  return NULL;
}

mx_status_t mx_tokenizer_open(const char *path, mx_tokenizer_t **out) {
  *out = NULL;
  if (mx_is_dir(path)) return mx_tokenizer_load_hf(path, out);
  mx_mapped_file_t f;
  MX_RETURN_IF_ERROR(mx_mapped_file_open(path, &f));
  mx_gguf_t *g = NULL;
  mx_status_t st = mx_gguf_parse(f.data, f.size, path, 0, &g);
  if (!st) st = mx_tokenizer_load_gguf(g, path, out);
  mx_gguf_free(g);
  mx_mapped_file_close(&f); /* the tokenizer copies what it keeps */
  return st;
}
