#include "tokenizer/chat.h"

#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "tokenizer/tokenizer.h"

#define NO_TEMPLATE_HINT "pass --chat-template FILE with the model's template, or a raw prompt (generate --no-chat)"

mx_status_t mx_chat_template_parse(const char *tmpl, const char *bos_text, const char *eos_text, mx_chat_template_t *out) {
  memset(out, 0, sizeof *out);
  if (!tmpl) return mx_status_make(MX_STAGE_USAGE, NO_TEMPLATE_HINT, "the model has no chat template");
  MX_RETURN_IF_ERROR(mx_jinja_parse(tmpl, "chat template", &out->jinja));
  out->bos_text = strdup(bos_text ? bos_text : "");
  out->eos_text = strdup(eos_text ? eos_text : "");
  if (!out->bos_text || !out->eos_text) {
    mx_chat_template_free(out);
    return mx_status_oom();
  }
  return NULL;
}

void mx_chat_template_free(mx_chat_template_t *t) {
  mx_jinja_free(t->jinja);
  free(t->bos_text);
  free(t->eos_text);
  memset(t, 0, sizeof *t);
}

mx_status_t mx_chat_render_context(const mx_chat_template_t *t, const json_t *context, bool add_generation_prompt,
                                   mx_strbuf_t *out) {
  json_t *ctx = json_is_object(context) ? json_copy((json_t *)context) : json_object();
  if (!ctx) return mx_status_oom();
  if (!json_object_get(ctx, "bos_token")) json_object_set_new(ctx, "bos_token", json_string(t->bos_text));
  if (!json_object_get(ctx, "eos_token")) json_object_set_new(ctx, "eos_token", json_string(t->eos_text));
  if (!json_object_get(ctx, "add_generation_prompt")) json_object_set_new(ctx, "add_generation_prompt", json_boolean(add_generation_prompt));
  mx_status_t st = mx_jinja_render(t->jinja, ctx, out);
  json_decref(ctx);
  return st;
}

mx_status_t mx_chat_render(const mx_chat_template_t *t, const mx_chat_msg_t *msgs, int n, bool add_generation_prompt,
                           mx_strbuf_t *out) {
  json_t *list = json_array(), *ctx = json_object();
  mx_status_t st = list && ctx ? NULL : mx_status_oom();
  for (int i = 0; !st && i < n; i++) {
    if (!msgs[i].role || !msgs[i].content)
      st = mx_status_make(MX_STAGE_USAGE, "give every message a role and a content", "chat message %d is incomplete", i);
    json_t *m = st ? NULL : json_object();
    /* not checked as UTF-8 here: the tokenizer refuses invalid text with its offset */
    if (!st && (!m || json_object_set_new(m, "role", json_string_nocheck(msgs[i].role)) ||
                json_object_set_new(m, "content", json_string_nocheck(msgs[i].content)) || json_array_append_new(list, m)))
      st = mx_status_oom();
  }
  if (!st && json_object_set(ctx, "messages", list)) st = mx_status_oom();
  if (!st) st = mx_chat_render_context(t, ctx, add_generation_prompt, out);
  json_decref(list);
  json_decref(ctx);
  return st;
}

mx_status_t mx_chat_template_load(const char *path, mx_tokenizer_t *t) {
  char *text;
  mx_status_t st = mx_read_file(path, 1u << 20, &text, NULL);
  if (st) return st;
  mx_jinja_t *j = NULL;
  st = mx_jinja_parse(text, path, &j);
  mx_jinja_free(j);
  if (!st) st = mx_tokenizer_set_chat_template(t, text);
  free(text);
  return st;
}
