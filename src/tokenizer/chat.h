/* Chat templates: the model's own Jinja template (tokenizer_config.json, chat_template.jinja or
 * the GGUF's tokenizer.chat_template), or one from --chat-template FILE, rendered by the Jinja engine
 * (template/jinja.h) with the variables transformers' apply_chat_template gives it: messages,
 * add_generation_prompt, bos_token, eos_token (and tools, when a request has them). Checked against
 * transformers on the project's templates (tests/oracle/template_parity.py). */
#ifndef MX_TOKENIZER_CHAT_H
#define MX_TOKENIZER_CHAT_H

#include <jansson.h>
#include <stdbool.h>

#include "base/status.h"
#include "base/strbuf.h"
#include "template/jinja.h"
#include "tokenizer/tokenizer.h"

typedef struct {
  const char *role, *content;
} mx_chat_msg_t;

typedef struct {
  mx_jinja_t *jinja;
  char *bos_text, *eos_text; /* the special tokens' texts, "" when the model has none */
} mx_chat_template_t;

/* Parses `template_text` (NULL: the model has none, an error naming --chat-template). bos_text and
 * eos_text may be NULL. */
MX_MUST_USE mx_status_t mx_chat_template_parse(const char *template_text, const char *bos_text, const char *eos_text,
                                               mx_chat_template_t *out);
void mx_chat_template_free(mx_chat_template_t *t);
/* Reads a template file (--chat-template), checks that it parses and makes it the tokenizer's. */
MX_MUST_USE mx_status_t mx_chat_template_load(const char *path, mx_tokenizer_t *t);
MX_MUST_USE mx_status_t mx_chat_render(const mx_chat_template_t *t, const mx_chat_msg_t *msgs, int n, bool add_generation_prompt,
                                       mx_strbuf_t *out);
/* Renders with a whole context (messages, tools, ...); bos_token, eos_token and add_generation_prompt
 * are filled in where the context leaves them out. */
MX_MUST_USE mx_status_t mx_chat_render_context(const mx_chat_template_t *t, const json_t *context, bool add_generation_prompt,
                                               mx_strbuf_t *out);

#endif
