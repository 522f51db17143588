/* The tokenizer's internals, shared by its loaders (load_hf.c, load_gguf.c) and its core. */
#ifndef MX_TOKENIZER_INTERNAL_H
#define MX_TOKENIZER_INTERNAL_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "base/hashmap.h"
#include "tokenizer/tokenizer.h"

#define MX_TOK_MAX_STEPS 4

typedef enum {
  MX_PRE_SPLIT,     /* a regex; matches and the gaps between them become pieces ("Isolated") */
  MX_PRE_BYTELEVEL, /* optional prefix space, then (use_regex) the GPT-2 split */
} mx_pre_kind_t;

typedef struct {
  mx_pre_kind_t kind;
  pcre2_code *re; /* NULL for a ByteLevel step without regex */
  bool add_prefix_space;
} mx_pre_step_t;

/* SentencePiece's prefix space, as HF's tokenizer.json spells it. */
typedef enum {
  MX_SPM_PREFIX_NONE = 0, /* Gemma: spaces become U+2581, nothing is added */
  MX_SPM_PREFIX_PREPEND,  /* normalizer Prepend (Llama 2, Phi-3 files): in front of every non-empty segment */
  MX_SPM_PREFIX_ALWAYS,   /* Metaspace prepend_scheme always: in front of a segment that does not start with a space */
  MX_SPM_PREFIX_FIRST,    /* Metaspace prepend_scheme first: the same, only for a segment at the text's start */
} mx_spm_prefix_t;

typedef struct {
  char *content;
  uint32_t len;
  int32_t id;
  bool special, lstrip, rstrip;
} mx_added_token_t;

struct mx_tokenizer {
  char *source;
  int vocab_size;    /* max id + 1 over the model vocabulary and added tokens */
  char **tok_bytes;  /* raw bytes of each id (NULL where no token has that id) */
  uint32_t *tok_len;
  uint8_t *is_special;
  mx_strmap_t vocab;  /* raw bytes -> id, the BPE model's vocabulary */
  mx_u64map_t merges; /* (left << 32 | right) -> (rank << 32 | merged) */
  int32_t byte_id[256];
  bool ignore_merges; /* a word that is itself in the vocabulary is not merged (Llama 3) */
  bool nfc;           /* the normalizer NFC runs on each segment before the pre-tokenizer (Qwen) */
  /* SentencePiece-style BPE (load_spm.c): the vocabulary map is keyed by the tokens' spellings, where
   * a space is U+2581; the text's spaces become U+2581 before BPE, whose symbols are characters, and a
   * character outside the vocabulary falls back to its bytes' <0xXX> tokens. tok_bytes hold what a
   * token decodes to (spaces, raw bytes). */
  bool spm;
  mx_spm_prefix_t spm_prefix; /* spm: whether a U+2581 goes in front of a segment of text (one between added tokens) */
  bool spm_split;             /* spm: each U+2581 starts a piece of its own (Metaspace split) */
  bool strip_leading_space;   /* the decoder drops one leading space of the text (HF's Strip decoder) */
  char **spelled;            /* spm: each id's spelling, the vocabulary map's keys */
  int32_t byte_fallback[256]; /* spm: the <0xXX> token of each byte, -1 if none */
  mx_added_token_t *added;
  int n_added;
  bool added_first_byte[256];
  mx_pre_step_t steps[MX_TOK_MAX_STEPS];
  int n_steps;
  int bos_id, eos_id; /* -1: none */
  bool add_bos;
  char *chat_template;
  char **retired; /* spellings replaced by an added token, still referenced by the vocab map */
  int n_retired;
};

/* GPT-2's byte <-> printable code point table. */
uint32_t mx_bytelevel_char(uint8_t b);
/* Converts a token spelled in byte-level code points (UTF-8) to its raw bytes, in place-safe
 * fashion into out (at most len bytes). Characters outside the table are copied as UTF-8. */
size_t mx_bytelevel_decode(const char *s, size_t len, char *out);

/* Builder steps used by the loaders. */
mx_tokenizer_t *mx_tok_alloc(const char *source, int vocab_size);
MX_MUST_USE mx_status_t mx_tok_set_token(mx_tokenizer_t *t, int32_t id, const char *bytes, size_t len, bool in_model_vocab);
MX_MUST_USE mx_status_t mx_tok_add_merge(mx_tokenizer_t *t, const char *left, size_t llen, const char *right, size_t rlen, int rank);
MX_MUST_USE mx_status_t mx_tok_add_added(mx_tokenizer_t *t, int32_t id, const char *content, size_t len, bool special, bool lstrip,
                                         bool rstrip);
MX_MUST_USE mx_status_t mx_tok_add_split(mx_tokenizer_t *t, const char *pattern);
MX_MUST_USE mx_status_t mx_tok_add_bytelevel(mx_tokenizer_t *t, bool add_prefix_space, bool use_regex);
/* Digits pre-tokenizer: each digit alone (individual) or runs of digits. */
MX_MUST_USE mx_status_t mx_tok_add_digits(mx_tokenizer_t *t, bool individual);
/* Final checks: every byte has a token, ids are consistent. */
MX_MUST_USE mx_status_t mx_tok_finish(mx_tokenizer_t *t);

/* One token of a SentencePiece vocabulary spelled as the file spells it (U+2581 for a space, <0xAB> for a
 * byte): its spelling (t->spelled, the vocabulary map's key; the caller puts it there), what it decodes
 * to, and, byte_ok, its byte-fallback slot. load_spm.c. */
MX_MUST_USE mx_status_t mx_tok_spm_token(mx_tokenizer_t *t, int32_t id, const char *spelling, size_t len, bool byte_ok);
/* Starts a SentencePiece vocabulary (t->spm, no byte fallback yet, the spellings' table). */
MX_MUST_USE mx_status_t mx_tok_spm_begin(mx_tokenizer_t *t);
/* A SentencePiece vocabulary from GGUF (tokenizer.ggml.model "llama"): gemma, Gemma's flavour (space runs
 * respelled, merges ranked by position); else Llama 2's and Phi-3's (merges ranked by the scores, which
 * must hold one per token). load_spm.c. */
MX_MUST_USE mx_status_t mx_tok_load_spm(mx_tokenizer_t *t, const char *const *toks, const size_t *lens, const int32_t *types,
                                        uint64_t n_types, const float *scores, bool gemma);

/* Splits one segment of text into pre-token pieces: appends (start, end) offsets, relative to text. */
MX_MUST_USE mx_status_t mx_pretokenize(const mx_tokenizer_t *t, const char *text, size_t len, size_t **spans, size_t *n_spans,
                                       size_t *cap);

#endif
