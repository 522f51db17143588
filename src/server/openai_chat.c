/* Chat request fields that become the chat template's variables: messages (with tool calls and tool
 * results) and tools, and tool_choice. The template gets them as transformers' apply_chat_template
 * would from the same Python objects, after two normalisations that vLLM also makes, because
 * templates are written for them: a tool call's "arguments" (JSON text in OpenAI's API) becomes the
 * object it holds, and a tool result without "name" gets the name of the call it answers. */
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "engine/json_schema.h"
#include "server/openai_internal.h"

#define MAX_MESSAGES 4096
#define MAX_TOOLS 128

/* Appends one message content (a string, or an array of {"type":"text","text":...} parts joined by
 * newlines) to `out`. */
static mx_status_t message_content(const json_t *c, const char *param, mx_strbuf_t *out, mx_api_error_t *err) {
  if (json_is_string(c)) {
    mx_strbuf_append(out, json_string_value(c), json_string_length(c));
    return NULL;
  }
  if (!json_is_array(c))
    return mx_api_bad(err, param, "invalid_type", "%s must be a string or an array of text parts, not %s", param, mx_api_json_kind(c));
  size_t k;
  json_t *part;
  json_array_foreach(c, k, part) {
    const json_t *type = json_is_object(part) ? json_object_get(part, "type") : NULL;
    const json_t *text = json_is_object(part) ? json_object_get(part, "text") : NULL;
    if (!json_is_string(type) || strcmp(json_string_value(type), "text") != 0)
      return mx_api_bad(err, param, "unsupported_content",
                        "%s[%zu] is not a text part; only {\"type\":\"text\",\"text\":...} is supported", param, k);
    if (!json_is_string(text) || json_object_size(part) != 2)
      return mx_api_bad(err, param, "invalid_type", "%s[%zu] must be {\"type\":\"text\",\"text\":STRING}", param, k);
    if (k) mx_strbuf_append(out, "\n", 1);
    mx_strbuf_append(out, json_string_value(text), json_string_length(text));
  }
  return NULL;
}

/* A function name as OpenAI allows it: 1 to 64 of a-z, A-Z, 0-9, '_' and '-'. */
static bool valid_name(const json_t *v) {
  size_t n = json_string_length(v);
  const char *s = json_string_value(v);
  return s && n >= 1 && n <= 64 &&
         strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* Only `allowed` keys (NULL-terminated) in object o; the first other one is refused by name. */
static mx_status_t only_keys(const json_t *o, const char *where, const char *const *allowed, mx_api_error_t *err) {
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)o, key, v) {
    const char *const *a = allowed;
    while (*a && strcmp(*a, key)) a++;
    if (!*a) {
      char param[64];
      snprintf(param, sizeof param, "%.20s.%.40s", where, key);
      return mx_api_bad(err, param, "unknown_parameter", "%s.%.60s is not a field this server knows", where, key);
    }
  }
  return NULL;
}

/* messages[i].tool_calls[k]: {"id", "type": "function", "function": {"name", "arguments"}}, appended
 * to `calls` with its arguments as the object they hold. */
static mx_status_t parse_tool_call(const json_t *tc, size_t i, size_t k, json_t *calls, mx_api_error_t *err) {
  char param[64];
  snprintf(param, sizeof param, "messages[%zu].tool_calls[%zu]", i, k);
  static const char *const call_keys[] = {"id", "type", "function", NULL}, *const fn_keys[] = {"name", "arguments", NULL};
  if (!json_is_object(tc)) return mx_api_bad(err, param, "invalid_type", "%s must be an object, not %s", param, mx_api_json_kind(tc));
  MX_RETURN_IF_ERROR(only_keys(tc, "tool_calls[]", call_keys, err));
  const json_t *id = json_object_get(tc, "id"), *type = json_object_get(tc, "type"), *fn = json_object_get(tc, "function");
  if (!json_is_string(id)) return mx_api_bad(err, param, "invalid_type", "%s.id must be a string", param);
  if (!json_is_string(type) || strcmp(json_string_value(type), "function"))
    return mx_api_bad(err, param, "invalid_value", "%s.type must be \"function\"", param);
  if (!json_is_object(fn)) return mx_api_bad(err, param, "invalid_type", "%s.function must be an object", param);
  MX_RETURN_IF_ERROR(only_keys(fn, "function", fn_keys, err));
  const json_t *name = json_object_get(fn, "name"), *args = json_object_get(fn, "arguments");
  if (!json_is_string(name)) return mx_api_bad(err, param, "invalid_type", "%s.function.name must be a string", param);
  if (!json_is_string(args)) return mx_api_bad(err, param, "invalid_type", "%s.function.arguments must be a string (JSON text)", param);
  json_t *obj = json_loads(json_string_value(args), JSON_REJECT_DUPLICATES, NULL);
  if (!json_is_object(obj)) {
    json_decref(obj);
    return mx_api_bad(err, param, "invalid_value", "%s.function.arguments must be the JSON text of an object", param);
  }
  json_t *call = json_pack("{s:O, s:s, s:{s:O, s:o}}", "id", id, "type", "function", "function", "name", name, "arguments", obj);
  if (!call || json_array_append_new(calls, call)) return mx_api_oom(err);
  return NULL;
}

/* The name of the call an earlier assistant message made with this id, or NULL. */
static json_t *called_name(const json_t *messages, const char *id) {
  size_t i, k;
  json_t *m, *tc;
  json_array_foreach(messages, i, m) json_array_foreach(json_object_get(m, "tool_calls"), k, tc) {
    if (!strcmp(json_string_value(json_object_get(tc, "id")) ?: "", id)) return json_object_get(json_object_get(tc, "function"), "name");
  }
  return NULL;
}

/* One message, normalised into `out` (an object): role (developer -> system), content (text; null for
 * an assistant's tool calls without text), name, tool_calls, tool_call_id. */
static mx_status_t parse_message(const json_t *m, size_t i, const json_t *earlier, json_t *out, mx_api_error_t *err) {
  char param[64];
  snprintf(param, sizeof param, "messages[%zu]", i);
  if (!json_is_object(m)) return mx_api_bad(err, param, "invalid_type", "%s must be an object, not %s", param, mx_api_json_kind(m));
  json_t *role = json_object_get(m, "role"), *content = json_object_get(m, "content"), *name = json_object_get(m, "name");
  json_t *calls = json_object_get(m, "tool_calls"), *call_id = json_object_get(m, "tool_call_id");
  snprintf(param, sizeof param, "messages[%zu].role", i);
  if (!role) return mx_api_bad(err, param, "missing_required_parameter", "%s is missing", param);
  if (!json_is_string(role)) return mx_api_bad(err, param, "invalid_type", "%s must be a string, not %s", param, mx_api_json_kind(role));
  const char *rs = json_string_value(role);
  if (!strcmp(rs, "developer")) rs = "system"; /* OpenAI's newer name for the system role */
  if (strcmp(rs, "system") && strcmp(rs, "user") && strcmp(rs, "assistant") && strcmp(rs, "tool"))
    return mx_api_bad(err, param, "invalid_value", "%s is '%.40s'; use system, developer, user, assistant or tool", param, rs);
  bool assistant = !strcmp(rs, "assistant"), tool = !strcmp(rs, "tool");
  const char *key;
  json_t *fv;
  json_object_foreach((json_t *)m, key, fv) {
    bool known = !strcmp(key, "role") || !strcmp(key, "content") || !strcmp(key, "name") ||
                 (assistant && !strcmp(key, "tool_calls")) || (tool && !strcmp(key, "tool_call_id"));
    if (known || json_is_null(fv)) continue;
    snprintf(param, sizeof param, "messages[%zu].%.40s", i, key);
    return mx_api_bad(err, param, "unsupported_parameter", "%s is not supported on a message of role %s", param, rs);
  }
  if (json_object_set_new(out, "role", json_string(rs))) return mx_api_oom(err);
  snprintf(param, sizeof param, "messages[%zu].content", i);
  bool has_calls = json_is_array(calls) && json_array_size(calls) > 0;
  if (!content && !has_calls) return mx_api_bad(err, param, "missing_required_parameter", "%s is missing", param);
  if (json_is_null(content) && !has_calls) /* null only for an assistant's tool calls */
    return mx_api_bad(err, param, "invalid_type", "%s must be a string or an array of text parts, not null", param);
  if (content && !json_is_null(content)) {
    mx_strbuf_t text;
    mx_strbuf_init(&text);
    mx_strbuf_append(&text, "", 0);
    mx_status_t st = message_content(content, param, &text, err);
    /* not checked as UTF-8 here: the tokenizer refuses invalid text with its offset */
    if (!st && (text.failed || json_object_set_new(out, "content", json_stringn_nocheck(text.data, text.len)))) st = mx_api_oom(err);
    mx_strbuf_free(&text);
    if (st) return st;
  } else if (json_object_set_new(out, "content", json_null())) {
    return mx_api_oom(err);
  }
  snprintf(param, sizeof param, "messages[%zu].name", i);
  if (name && !json_is_null(name) && (!json_is_string(name) || json_object_set(out, "name", name)))
    return json_is_string(name) ? mx_api_oom(err) : mx_api_bad(err, param, "invalid_type", "%s must be a string", param);
  if (calls && !json_is_null(calls)) {
    snprintf(param, sizeof param, "messages[%zu].tool_calls", i);
    if (!json_is_array(calls)) return mx_api_bad(err, param, "invalid_type", "%s must be an array, not %s", param, mx_api_json_kind(calls));
    json_t *list = json_array();
    if (!list || json_object_set_new(out, "tool_calls", list)) return mx_api_oom(err);
    size_t k;
    json_t *tc;
    json_array_foreach(calls, k, tc) MX_RETURN_IF_ERROR(parse_tool_call(tc, i, k, list, err));
  }
  if (tool) {
    snprintf(param, sizeof param, "messages[%zu].tool_call_id", i);
    if (!json_is_string(call_id)) return mx_api_bad(err, param, "missing_required_parameter", "%s (a string) is missing", param);
    json_t *called = called_name(earlier, json_string_value(call_id));
    if (json_object_set(out, "tool_call_id", call_id) || (!json_object_get(out, "name") && called && json_object_set(out, "name", called)))
      return mx_api_oom(err);
  }
  return NULL;
}

mx_status_t mx_api_parse_messages(const json_t *v, mx_api_request_t *r, mx_api_error_t *err) {
  if (!json_is_array(v)) return mx_api_bad(err, "messages", "invalid_type", "messages must be an array, not %s", mx_api_json_kind(v));
  size_t n = json_array_size(v);
  if (n == 0) return mx_api_bad(err, "messages", "invalid_value", "messages is empty; give at least one message");
  if (n > MAX_MESSAGES) return mx_api_bad(err, "messages", "invalid_value", "messages has %zu entries; at most 4096 are accepted", n);
  if (!r->context && !(r->context = json_object())) return mx_api_oom(err);
  json_t *list = json_array();
  if (!list || json_object_set_new(r->context, "messages", list)) return mx_api_oom(err);
  size_t i;
  json_t *m;
  json_array_foreach(v, i, m) {
    json_t *out = json_object();
    if (!out || json_array_append_new(list, out)) return mx_api_oom(err);
    MX_RETURN_IF_ERROR(parse_message(m, i, list, out, err));
  }
  return NULL;
}

/* tools[i]: {"type": "function", "function": {"name", "description", "parameters", "strict"}}. A
 * strict function's parameters must be of the schema subset the decoder enforces (json_schema.h). */
static mx_status_t parse_tool(const json_t *t, size_t i, const json_t *earlier, mx_api_error_t *err) {
  char param[64];
  snprintf(param, sizeof param, "tools[%zu]", i);
  static const char *const tool_keys[] = {"type", "function", NULL};
  static const char *const fn_keys[] = {"name", "description", "parameters", "strict", NULL};
  if (!json_is_object(t)) return mx_api_bad(err, param, "invalid_type", "%s must be an object, not %s", param, mx_api_json_kind(t));
  MX_RETURN_IF_ERROR(only_keys(t, "tools[]", tool_keys, err));
  const json_t *type = json_object_get(t, "type"), *fn = json_object_get(t, "function");
  if (!json_is_string(type) || strcmp(json_string_value(type), "function"))
    return mx_api_bad(err, param, "invalid_value", "%s.type must be \"function\" (the only tool type served)", param);
  if (!json_is_object(fn)) return mx_api_bad(err, param, "invalid_type", "%s.function must be an object", param);
  MX_RETURN_IF_ERROR(only_keys(fn, "function", fn_keys, err));
  const json_t *name = json_object_get(fn, "name"), *desc = json_object_get(fn, "description");
  const json_t *params = json_object_get(fn, "parameters"), *strict = json_object_get(fn, "strict");
  if (!valid_name(name))
    return mx_api_bad(err, param, "invalid_value", "%s.function.name must be 1 to 64 letters, digits, '_' or '-'", param);
  for (size_t k = 0; k < i; k++)
    if (json_equal(json_object_get(json_object_get(json_array_get(earlier, k), "function"), "name"), name))
      return mx_api_bad(err, param, "invalid_value", "%s.function.name '%s' is given twice", param, json_string_value(name));
  if (desc && !json_is_string(desc)) return mx_api_bad(err, param, "invalid_type", "%s.function.description must be a string", param);
  if (params && !json_is_object(params))
    return mx_api_bad(err, param, "invalid_type", "%s.function.parameters must be a JSON schema object", param);
  if (strict && !json_is_boolean(strict) && !json_is_null(strict))
    return mx_api_bad(err, param, "invalid_type", "%s.function.strict must be a boolean", param);
  if (json_is_true(strict)) { /* the arguments must then follow the schema: it has to be one we enforce */
    if (!params) return mx_api_bad(err, param, "invalid_value", "%s.function is strict but has no parameters", param);
    char *text = json_dumps(params, JSON_COMPACT);
    mx_schema_t *s = NULL;
    mx_status_t st = text ? mx_schema_compile(text, strlen(text), &s) : mx_status_oom();
    mx_schema_free(s);
    free(text);
    if (st) {
      mx_status_t b = mx_status_stage(st) == MX_STAGE_OOM
                          ? mx_api_oom(err)
                          : mx_api_bad(err, param, "invalid_value", "%s.function.parameters (strict): %s", param, mx_status_message(st));
      mx_status_free(st);
      return b;
    }
  }
  return NULL;
}

mx_status_t mx_api_parse_tools(const json_t *v, mx_api_request_t *r, mx_api_error_t *err) {
  if (!json_is_array(v)) return mx_api_bad(err, "tools", "invalid_type", "tools must be an array, not %s", mx_api_json_kind(v));
  size_t n = json_array_size(v);
  if (n > MAX_TOOLS) return mx_api_bad(err, "tools", "invalid_value", "tools has %zu functions; at most 128 are accepted", n);
  size_t i;
  json_t *t;
  json_array_foreach(v, i, t) MX_RETURN_IF_ERROR(parse_tool(t, i, v, err));
  if (n == 0) return NULL; /* as none were given */
  if (!r->context && !(r->context = json_object())) return mx_api_oom(err);
  if (json_object_set(r->context, "tools", (json_t *)v)) return mx_api_oom(err);
  r->n_tools = (int)n;
  return NULL;
}

mx_status_t mx_api_settle_tool_choice(const json_t *choice, mx_api_request_t *r, mx_api_error_t *err) {
  const char *const P = "tool_choice";
  r->tool_choice = r->n_tools ? MX_TOOL_CHOICE_AUTO : MX_TOOL_CHOICE_NONE;
  if (!choice || json_is_null(choice)) return NULL;
  const char *s = json_string_value(choice);
  if (s && !strcmp(s, "none")) r->tool_choice = MX_TOOL_CHOICE_NONE;
  else if (s && !strcmp(s, "auto")) r->tool_choice = MX_TOOL_CHOICE_AUTO;
  else if (s && !strcmp(s, "required")) r->tool_choice = MX_TOOL_CHOICE_REQUIRED;
  else if (s) return mx_api_bad(err, P, "invalid_value", "tool_choice '%.40s' is not none, auto, required or a function", s);
  else {
    const json_t *fn = json_object_get(choice, "function"), *name = json_object_get(fn, "name");
    const json_t *type = json_object_get(choice, "type");
    if (!json_is_object(choice) || json_object_size(choice) != 2 || !json_is_string(type) ||
        strcmp(json_string_value(type), "function") || !json_is_object(fn) || json_object_size(fn) != 1 || !json_is_string(name))
      return mx_api_bad(err, P, "invalid_value", "tool_choice must be none, auto, required or {\"type\":\"function\",\"function\":{\"name\":NAME}}");
    const json_t *tools = json_object_get(r->context, "tools");
    for (int i = 0; i < r->n_tools; i++)
      if (json_equal(json_object_get(json_object_get(json_array_get(tools, (size_t)i), "function"), "name"), name)) {
        r->tool_choice = MX_TOOL_CHOICE_NAMED;
        r->tool_named = i;
        return NULL;
      }
    return mx_api_bad(err, P, "invalid_value", "tool_choice names the function '%.64s', which is not one of tools", json_string_value(name));
  }
  if (r->tool_choice != MX_TOOL_CHOICE_NONE && !r->n_tools)
    return mx_api_bad(err, P, "invalid_value", "tool_choice '%s' needs tools", s);
  return NULL;
}
