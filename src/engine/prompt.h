/* Prompt text to token ids, the same way for every front end (generate, serve): a raw prompt gets
 * BOS as the tokenizer's configuration says; a conversation goes through the model's chat template,
 * which places BOS itself, so it is encoded without adding special tokens (as transformers'
 * apply_chat_template followed by encode(add_special_tokens=False)). */
#ifndef MX_ENGINE_PROMPT_H
#define MX_ENGINE_PROMPT_H

#include <stddef.h>

#include "base/status.h"
#include "tokenizer/chat.h"
#include "tokenizer/tokenizer.h"

/* Appends the ids of a raw prompt (valid UTF-8; otherwise a usage error naming the byte). */
MX_MUST_USE mx_status_t mx_prompt_encode_text(const mx_tokenizer_t *t, const char *text, size_t len, mx_ids_t *ids);
/* The tokenizer's chat template, parsed, with its BOS and EOS texts. */
MX_MUST_USE mx_status_t mx_prompt_chat_template(const mx_tokenizer_t *t, mx_chat_template_t *ct);
/* Renders msgs with the tokenizer's chat template, with the assistant's generation prompt, into
 * `text`. Fails with a usage error when the model has no template or it cannot be rendered. */
MX_MUST_USE mx_status_t mx_prompt_render_chat(const mx_tokenizer_t *t, const mx_chat_msg_t *msgs, int n, mx_strbuf_t *text);
/* mx_prompt_render_chat, then the text's ids appended (the template places BOS itself). */
MX_MUST_USE mx_status_t mx_prompt_encode_chat(const mx_tokenizer_t *t, const mx_chat_msg_t *msgs, int n, mx_ids_t *ids);

/* The same with the template's whole variables (messages, tools, ...; chat.h), then `suffix` appended
 * to the text (a forced tool call's opening, "" for none). */
MX_MUST_USE mx_status_t mx_prompt_render_chat_context(const mx_tokenizer_t *t, const json_t *context, const char *suffix,
                                                      mx_strbuf_t *text);
MX_MUST_USE mx_status_t mx_prompt_encode_chat_context(const mx_tokenizer_t *t, const json_t *context, const char *suffix,
                                                      mx_ids_t *ids);

#endif
