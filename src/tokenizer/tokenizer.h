/* Byte-level BPE tokenizer (GPT-2 / Llama 3 family), loaded from an HF tokenizer.json or a GGUF
 * vocabulary, with exactly HF `tokenizers` behaviour: added/special tokens matched first, the
 * pre-tokenizer's regex splits (PCRE2), byte-level BPE with merge ranks, BOS per the configuration,
 * and a decode that is exact byte for byte. Thread-compatible: concurrent encode/decode calls on one
 * tokenizer are safe (no mutable state is shared). */
#ifndef MX_TOKENIZER_TOKENIZER_H
#define MX_TOKENIZER_TOKENIZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "base/strbuf.h"
#include "format/gguf.h"

typedef struct mx_tokenizer mx_tokenizer_t;

typedef struct {
  int32_t *ids;
  size_t n, cap;
} mx_ids_t;

void mx_ids_free(mx_ids_t *ids);
bool mx_ids_push(mx_ids_t *ids, int32_t id);

/* From a directory holding tokenizer.json (and optionally tokenizer_config.json / chat_template.jinja). */
MX_MUST_USE mx_status_t mx_tokenizer_load_hf(const char *dir, mx_tokenizer_t **out);
/* From the tokenizer.ggml.* metadata of a GGUF file; `path` names it in errors. */
MX_MUST_USE mx_status_t mx_tokenizer_load_gguf(const mx_gguf_t *g, const char *path, mx_tokenizer_t **out);
/* A tokenizer from a path alone: a directory with tokenizer.json, or a GGUF file. */
MX_MUST_USE mx_status_t mx_tokenizer_open(const char *path, mx_tokenizer_t **out);
void mx_tokenizer_close(mx_tokenizer_t *t);

int mx_tokenizer_vocab_size(const mx_tokenizer_t *t);
/* BOS id (-1 if none) and whether encode adds it when asked for special tokens. */
int mx_tokenizer_bos(const mx_tokenizer_t *t);
/* The end-of-sequence token the tokenizer names (GGUF eos_token_id, tokenizer_config.json eos_token);
 * -1 when none. The model's EOS set (config.h) may hold more. */
int mx_tokenizer_eos(const mx_tokenizer_t *t);
bool mx_tokenizer_adds_bos(const mx_tokenizer_t *t);
bool mx_tokenizer_is_special(const mx_tokenizer_t *t, int32_t id);
/* The chat template text from the tokenizer's configuration, or NULL. */
const char *mx_tokenizer_chat_template(const mx_tokenizer_t *t);
/* Replaces the model's chat template (--chat-template FILE). */
MX_MUST_USE mx_status_t mx_tokenizer_set_chat_template(mx_tokenizer_t *t, const char *text);
/* The raw bytes of a token (its content for added tokens); NULL for an invalid id. */
const char *mx_tokenizer_token_bytes(const mx_tokenizer_t *t, int32_t id, size_t *len);

/* Appends the ids of `text` (which must be valid UTF-8: otherwise a usage error naming the byte
 * offset). add_special: prepend BOS when the configuration says so (as HF's add_special_tokens). */
MX_MUST_USE mx_status_t mx_tokenizer_encode(const mx_tokenizer_t *t, const char *text, size_t len, bool add_special, mx_ids_t *out);
/* Appends the decoded text; invalid UTF-8 produced by the ids becomes U+FFFD as in HF. */
MX_MUST_USE mx_status_t mx_tokenizer_decode(const mx_tokenizer_t *t, const int32_t *ids, size_t n, bool skip_special,
                                            mx_strbuf_t *out);

/* Streaming decode for generation: each push appends only complete UTF-8 characters; the
 * concatenation of every push and the final finish equals mx_tokenizer_decode of all the ids. */
typedef struct {
  uint8_t pending[4];
  int n_pending;
  bool begun; /* some text was emitted (a decoder that strips the leading space strips it once) */
} mx_detok_stream_t;

void mx_detok_stream_init(mx_detok_stream_t *s);
MX_MUST_USE mx_status_t mx_detok_stream_push(const mx_tokenizer_t *t, mx_detok_stream_t *s, int32_t id, bool skip_special,
                                             mx_strbuf_t *out);
void mx_detok_stream_finish(mx_detok_stream_t *s, mx_strbuf_t *out);

#endif
