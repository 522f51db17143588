#include "engine/prompt.h"

#include <stdlib.h>
#include <string.h>

mx_status_t mx_prompt_encode_text(const mx_tokenizer_t *t, const char *text, size_t len, mx_ids_t *ids) {
  return mx_tokenizer_encode(t, text, len, true, ids);
}

/* The text of a special token, "" when the tokenizer has none (malloc'd). */
static char *token_text(const mx_tokenizer_t *t, int id) {
  size_t n = 0;
  const char *s = id >= 0 ? mx_tokenizer_token_bytes(t, id, &n) : NULL;
  return strndup(s ? s : "", n);
}

mx_status_t mx_prompt_chat_template(const mx_tokenizer_t *t, mx_chat_template_t *ct) {
  char *bos = token_text(t, mx_tokenizer_bos(t)), *eos = token_text(t, mx_tokenizer_eos(t));
  mx_status_t st = bos && eos ? mx_chat_template_parse(mx_tokenizer_chat_template(t), bos, eos, ct) : mx_status_oom();
  free(bos);
  free(eos);
  return st;
}

mx_status_t mx_prompt_render_chat(const mx_tokenizer_t *t, const mx_chat_msg_t *msgs, int n, mx_strbuf_t *text) {
  mx_chat_template_t ct;
  mx_status_t st = mx_prompt_chat_template(t, &ct);
  if (st) return st;
  st = mx_chat_render(&ct, msgs, n, true, text);
  if (!st && text->failed) st = mx_status_oom();
  mx_chat_template_free(&ct);
  return st;
}

mx_status_t mx_prompt_render_chat_context(const mx_tokenizer_t *t, const json_t *context, const char *suffix, mx_strbuf_t *text) {
  mx_chat_template_t ct;
  mx_status_t st = mx_prompt_chat_template(t, &ct);
  if (st) return st;
  st = mx_chat_render_context(&ct, context, true, text);
  if (!st) mx_strbuf_append(text, suffix, strlen(suffix));
  if (!st && text->failed) st = mx_status_oom();
  mx_chat_template_free(&ct);
  return st;
}

/* The template already holds BOS where the model wants it: the text is encoded without it. */
static mx_status_t encode_rendered(const mx_tokenizer_t *t, mx_status_t st, mx_strbuf_t *text, mx_ids_t *ids) {
  if (!st) st = mx_tokenizer_encode(t, text->data ? text->data : "", text->len, false, ids);
  mx_strbuf_free(text);
  return st;
}

mx_status_t mx_prompt_encode_chat(const mx_tokenizer_t *t, const mx_chat_msg_t *msgs, int n, mx_ids_t *ids) {
  mx_strbuf_t text;
  mx_strbuf_init(&text);
  return encode_rendered(t, mx_prompt_render_chat(t, msgs, n, &text), &text, ids);
}

mx_status_t mx_prompt_encode_chat_context(const mx_tokenizer_t *t, const json_t *context, const char *suffix, mx_ids_t *ids) {
  mx_strbuf_t text;
  mx_strbuf_init(&text);
  return encode_rendered(t, mx_prompt_render_chat_context(t, context, suffix, &text), &text, ids);
}
