#include "tokenizer/chat.h"

#include <stdlib.h>
#include <string.h>

#define RAW_HINT "pass a raw prompt instead (generate --no-chat)"

/* The default system turn of a ChatML template: the text of the literal
 * '<|im_start|>system\n...<|im_end|>' that the template emits when messages[0] is not a system
 * message. Jinja string escapes (\n, \t, \', \", \\) are undone. */
static char *chatml_default_system(const char *tmpl) {
  if (!strstr(tmpl, "!= 'system'") && !strstr(tmpl, "!= \"system\"")) return NULL;
  const char *p = strstr(tmpl, "<|im_start|>system");
  if (!p) return NULL;
  p += strlen("<|im_start|>system");
  if (*p == '\n') p++;
  else if (p[0] == '\\' && p[1] == 'n') p += 2;
  else return NULL;
  const char *end = strstr(p, "<|im_end|>");
  if (!end) return NULL;
  char *out = malloc((size_t)(end - p) + 1), *o = out;
  if (!out) return NULL;
  for (const char *q = p; q < end; q++) {
    if (*q == '\\' && q + 1 < end) {
      char c = *++q;
      *o++ = c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      *o++ = *q;
    }
  }
  *o = '\0';
  return out;
}

mx_status_t mx_chat_template_parse(const char *tmpl, const char *bos_text, mx_chat_template_t *out) {
  memset(out, 0, sizeof *out);
  if (!tmpl) return mx_status_make(MX_STAGE_USAGE, RAW_HINT, "the model has no chat template");
  if (strstr(tmpl, "<|start_header_id|>") && strstr(tmpl, "<|end_header_id|>") && strstr(tmpl, "<|eot_id|>")) {
    if (strstr(tmpl, "Cutting Knowledge Date") || strstr(tmpl, "tools"))
      return mx_status_make(MX_STAGE_USAGE, RAW_HINT,
                            "this Llama 3.1+ chat template (date header, tools) is not supported yet");
    out->format = MX_CHAT_LLAMA3;
    out->trim_content = strstr(tmpl, "| trim") != NULL;
    out->bos_first = strstr(tmpl, "bos_token") != NULL;
  } else if (strstr(tmpl, "<|im_start|>") && strstr(tmpl, "<|im_end|>")) {
    out->format = MX_CHAT_CHATML;
    out->default_system = chatml_default_system(tmpl);
  } else {
    return mx_status_make(MX_STAGE_USAGE, RAW_HINT,
                          "the model's chat template is not one mlxcel knows (Llama 3 headers or ChatML)");
  }
  out->bos_text = strdup(bos_text ? bos_text : "");
  return out->bos_text ? NULL : mx_status_oom();
}

void mx_chat_template_free(mx_chat_template_t *t) {
  free(t->bos_text);
  free(t->default_system);
  memset(t, 0, sizeof *t);
}

static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* Jinja's trim: Python str.strip(), i.e. Unicode whitespace; we strip the ASCII set and the common
 * Unicode spaces (U+00A0, U+2000..U+200A, U+3000, ...) by code point. */
static size_t ws_len_at(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  if (n >= 1 && (is_ws((char)p[0]) || p[0] == 0x1c || p[0] == 0x1d || p[0] == 0x1e || p[0] == 0x1f)) return 1;
  if (n >= 2 && p[0] == 0xC2 && (p[1] == 0x85 || p[1] == 0xA0)) return 2;
  if (n >= 3 && p[0] == 0xE1 && p[1] == 0x9A && p[2] == 0x80) return 3; /* U+1680 */
  if (n >= 3 && p[0] == 0xE2 && p[1] == 0x80 && ((p[2] >= 0x80 && p[2] <= 0x8A) || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF))
    return 3;
  if (n >= 3 && p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0x9F) return 3; /* U+205F */
  if (n >= 3 && p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80) return 3; /* U+3000 */
  return 0;
}

static void append_trimmed(mx_strbuf_t *out, const char *s) {
  size_t n = strlen(s), a = 0, k;
  while (a < n && (k = ws_len_at(s + a, n - a))) a += k;
  size_t b = n;
  for (;;) { /* strip from the end: find a whitespace sequence ending exactly at b */
    size_t found = 0;
    for (size_t back = 1; back <= 3 && back <= b - a; back++)
      if (ws_len_at(s + b - back, back) == back) {
        found = back;
        break;
      }
    if (!found) break;
    b -= found;
  }
  mx_strbuf_append(out, s + a, b - a);
}

mx_status_t mx_chat_render(const mx_chat_template_t *t, const mx_chat_msg_t *msgs, int n, bool add_generation_prompt,
                           mx_strbuf_t *out) {
  for (int i = 0; i < n; i++)
    if (!msgs[i].role || !msgs[i].content)
      return mx_status_make(MX_STAGE_USAGE, "give every message a role and a content", "chat message %d is incomplete", i);
  if (t->format == MX_CHAT_LLAMA3) {
    for (int i = 0; i < n; i++) {
      if (i == 0 && t->bos_first) mx_strbuf_printf(out, "%s", t->bos_text);
      mx_strbuf_printf(out, "<|start_header_id|>%s<|end_header_id|>\n\n", msgs[i].role);
      if (t->trim_content) append_trimmed(out, msgs[i].content);
      else mx_strbuf_printf(out, "%s", msgs[i].content);
      mx_strbuf_printf(out, "<|eot_id|>");
    }
    if (add_generation_prompt) mx_strbuf_printf(out, "<|start_header_id|>assistant<|end_header_id|>\n\n");
  } else {
    if (n > 0 && t->default_system && strcmp(msgs[0].role, "system") != 0)
      mx_strbuf_printf(out, "<|im_start|>system\n%s<|im_end|>\n", t->default_system);
    for (int i = 0; i < n; i++) mx_strbuf_printf(out, "<|im_start|>%s\n%s<|im_end|>\n", msgs[i].role, msgs[i].content);
    if (add_generation_prompt) mx_strbuf_printf(out, "<|im_start|>assistant\n");
  }
  return out->failed ? mx_status_oom() : NULL;
}
