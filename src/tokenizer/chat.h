/* Chat templates. Models ship Jinja templates; rather than embed a Jinja engine we recognise the two
 * template families our models use and render them in C, checked against transformers'
 * apply_chat_template (tests/oracle/chat_template_parity.py):
 *   Llama 3:  [bos] <|start_header_id|>ROLE<|end_header_id|>\n\n CONTENT(trimmed) <|eot_id|> ...
 *   ChatML:   [default system turn] <|im_start|>ROLE\n CONTENT <|im_end|>\n ...
 * Anything else is refused with a hint to pass a raw prompt. */
#ifndef MX_TOKENIZER_CHAT_H
#define MX_TOKENIZER_CHAT_H

#include <stdbool.h>

#include "base/status.h"
#include "base/strbuf.h"

typedef enum { MX_CHAT_LLAMA3 = 1, MX_CHAT_CHATML } mx_chat_format_t;

typedef struct {
  const char *role, *content;
} mx_chat_msg_t;

typedef struct {
  mx_chat_format_t format;
  bool trim_content;    /* Llama 3: `message['content'] | trim` */
  bool bos_first;       /* Llama 3: bos_token before the first turn */
  char *bos_text;
  char *default_system; /* ChatML: system turn added when the first message is not a system one */
} mx_chat_template_t;

/* Recognises `template_text` (NULL: the model has none). bos_text may be NULL. */
MX_MUST_USE mx_status_t mx_chat_template_parse(const char *template_text, const char *bos_text, mx_chat_template_t *out);
void mx_chat_template_free(mx_chat_template_t *t);
MX_MUST_USE mx_status_t mx_chat_render(const mx_chat_template_t *t, const mx_chat_msg_t *msgs, int n, bool add_generation_prompt,
                                       mx_strbuf_t *out);

#endif
