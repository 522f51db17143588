#include "server/tools.h"

#include <stdlib.h>
#include <string.h>

#include "engine/json_schema.h"

static const char OPEN[] = "<tool_call>", CLOSE[] = "</tool_call>", PYTHON_TAG[] = "<|python_tag|>";

mx_tool_format_t mx_tool_format_of(const char *t) {
  if (!t) return MX_TOOL_FORMAT_NONE;
  if (strstr(t, OPEN)) return MX_TOOL_FORMAT_HERMES;
  if (strstr(t, "ipython") && strstr(t, "\"parameters\"")) return MX_TOOL_FORMAT_LLAMA3_JSON;
  return strstr(t, "tools") ? MX_TOOL_FORMAT_UNPARSED : MX_TOOL_FORMAT_NONE;
}

const char *mx_tool_format_name(mx_tool_format_t f) {
  switch (f) {
    case MX_TOOL_FORMAT_HERMES: return "hermes";
    case MX_TOOL_FORMAT_LLAMA3_JSON: return "llama3-json";
    case MX_TOOL_FORMAT_UNPARSED: return "unparsed";
    default: return "none";
  }
}

const char *mx_tool_call_prefix(mx_tool_format_t f) { return f == MX_TOOL_FORMAT_HERMES ? "<tool_call>\n" : ""; }

static const char *args_key(mx_tool_format_t f) { return f == MX_TOOL_FORMAT_LLAMA3_JSON ? "parameters" : "arguments"; }

static const json_t *function_of(const json_t *tools, size_t i) { return json_object_get(json_array_get(tools, i), "function"); }

/* A function's parameters as a schema the recognizer takes, or any object. */
static json_t *arguments_schema(const json_t *fn) {
  json_t *params = json_object_get(fn, "parameters");
  char *text = json_is_object(params) ? json_dumps(params, JSON_COMPACT) : NULL;
  mx_schema_t *s = NULL;
  mx_status_t st = text ? mx_schema_compile(text, strlen(text), &s) : mx_status_oom();
  mx_schema_free(s);
  free(text);
  bool ok = !st;
  mx_status_free(st);
  return ok ? json_deep_copy(params) : json_pack("{s:s}", "type", "object");
}

/* {"name": {"const": the function's name}, ARGS: its arguments' schema}, in that order. */
static json_t *one_call_schema(mx_tool_format_t f, const json_t *fn) {
  json_t *args = arguments_schema(fn);
  json_t *schema = args ? json_pack("{s:s, s:{s:{s:O}, s:O}, s:[s, s], s:b}", "type", "object", "properties", "name", "const",
                                    json_object_get(fn, "name"), args_key(f), args, "required", "name", args_key(f),
                                    "additionalProperties", 0)
                        : NULL;
  json_decref(args);
  return schema;
}

char *mx_tool_call_schema(mx_tool_format_t f, const json_t *tools, int named) {
  size_t n = json_array_size(tools);
  json_t *schema;
  if (named >= 0 || n == 1) {
    schema = one_call_schema(f, function_of(tools, named >= 0 ? (size_t)named : 0));
  } else { /* any of them: the name, written first, picks the function's arguments schema */
    json_t *alts = json_array();
    for (size_t i = 0; alts && i < n; i++)
      if (json_array_append_new(alts, one_call_schema(f, function_of(tools, i)))) json_decref(alts), alts = NULL;
    schema = alts ? json_pack("{s:o}", "anyOf", alts) : NULL;
  }
  char *text = schema ? json_dumps(schema, JSON_COMPACT) : NULL;
  json_decref(schema);
  return text;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static size_t trim_end(const char *text, size_t len) {
  while (len && is_space(text[len - 1])) len--;
  return len;
}

static size_t skip_space(const char *text, size_t len, size_t at) {
  while (at < len && is_space(text[at])) at++;
  return at;
}

/* The first occurrence of `needle` in text[from, len), or len. */
static size_t find(const char *text, size_t len, size_t from, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = from; i + k <= len; i++)
    if (!memcmp(text + i, needle, k)) return i;
  return len;
}

static bool known_name(const json_t *tools, const char *name) {
  for (size_t i = 0; i < json_array_size(tools); i++)
    if (!strcmp(json_string_value(json_object_get(function_of(tools, i), "name")) ?: "", name)) return true;
  return false;
}

/* Skims one JSON value from text[at] (whitespace first) in text that is well-formed as far as it goes;
 * returns where it ends, and *closed false when the text ends first (the value is being written). */
static size_t skim(const char *t, size_t len, size_t at, bool *closed) {
  *closed = false;
  at = skip_space(t, len, at);
  if (at >= len) return len;
  if (t[at] == '"') {
    for (at++; at < len; at++)
      if (t[at] == '\\') at++;
      else if (t[at] == '"') return *closed = true, at + 1;
    return len;
  }
  if (t[at] != '{' && t[at] != '[') { /* a number or a literal: up to what cannot be in one */
    while (at < len && !strchr(",}] \t\n\r", t[at])) at++;
    *closed = at < len;
    return at;
  }
  for (int depth = 0; at < len; at++) {
    if (t[at] == '"') {
      bool done;
      at = skim(t, len, at, &done);
      if (!done) return len;
      at--; /* the loop steps past the closing quote */
    } else if (t[at] == '{' || t[at] == '[') {
      depth++;
    } else if ((t[at] == '}' || t[at] == ']') && --depth == 0) {
      return *closed = true, at + 1;
    }
  }
  return len;
}

/* The span [*a, *b) of member `key`'s value in the object that text starts with (*closed: the value
 * has ended); false while the key has not been written, or when the text is not such an object. */
static bool member(const char *t, size_t len, const char *key, size_t *a, size_t *b, bool *closed) {
  size_t at = skip_space(t, len, 0), k = strlen(key);
  if (at >= len || t[at] != '{') return false;
  for (at++;;) {
    at = skip_space(t, len, at);
    if (at >= len || t[at] != '"') return false;
    size_t key_at = at, key_end = skim(t, len, at, closed);
    if (!*closed) return false;
    at = skip_space(t, len, key_end);
    if (at >= len || t[at] != ':') return false;
    *a = skip_space(t, len, at + 1);
    *b = skim(t, len, *a, closed);
    if (key_end - key_at == k + 2 && !memcmp(t + key_at + 1, key, k)) return *a < len;
    if (!*closed) return false;
    at = skip_space(t, len, *b);
    if (at >= len || t[at] != ',') return false;
    at++;
  }
}

bool mx_tool_call_name(const char *text, size_t len, char *out, size_t cap) {
  size_t a, b;
  bool closed;
  if (!member(text, len, "name", &a, &b, &closed) || !closed) return false;
  json_t *j = json_loadb(text + a, b - a, JSON_DECODE_ANY, NULL);
  bool ok = json_is_string(j) && json_string_length(j) < cap;
  if (ok) memcpy(out, json_string_value(j), json_string_length(j) + 1);
  json_decref(j);
  return ok;
}

bool mx_tool_call_arguments(mx_tool_format_t f, const char *text, size_t len, size_t *a, size_t *b, bool *done) {
  return member(text, len, args_key(f), a, b, done) && text[*a] == '{';
}

/* One call's JSON, text[a, b): {"name": one of the tools', "arguments" or "parameters": an object
 * (or a string holding one, as some models write it)}. Returns false when it is not one. */
static bool read_call(const json_t *tools, const char *text, size_t a, size_t b, mx_tool_call_t *out, bool *oom) {
  json_t *j = json_loadb(text + a, b - a, JSON_REJECT_DUPLICATES, NULL);
  const json_t *name = json_object_get(j, "name"), *args = json_object_get(j, "arguments");
  if (!args) args = json_object_get(j, "parameters");
  json_t *parsed = json_is_string(args) ? json_loads(json_string_value(args), JSON_REJECT_DUPLICATES, NULL) : NULL;
  if (parsed) args = parsed;
  bool ok = json_is_object(j) && json_object_size(j) == 2 && json_is_string(name) && json_is_object(args) &&
            known_name(tools, json_string_value(name));
  size_t at, end;
  bool closed;
  /* The arguments as the model wrote them (what a stream sends piece by piece), or compact when they
   * were a string holding an object. */
  bool raw = !parsed && (member(text + a, b - a, "arguments", &at, &end, &closed) ||
                         member(text + a, b - a, "parameters", &at, &end, &closed));
  if (ok) {
    out->name = strdup(json_string_value(name));
    out->arguments = raw ? strndup(text + a + at, end - at) : json_dumps(args, JSON_COMPACT);
    *oom = !out->name || !out->arguments;
  }
  json_decref(parsed);
  json_decref(j);
  return ok && !*oom;
}

mx_status_t mx_tool_calls_parse(mx_tool_format_t f, const json_t *tools, bool forced, const char *text, size_t len,
                                mx_tool_calls_t *out) {
  memset(out, 0, sizeof *out);
  out->content_len = len;
  if (f != MX_TOOL_FORMAT_HERMES && f != MX_TOOL_FORMAT_LLAMA3_JSON) return NULL;
  if (!(out->calls = calloc(MX_TOOL_MAX_CALLS, sizeof *out->calls))) return mx_status_oom();
  bool oom = false, ok = true;
  size_t content = 0;
  if (forced || f == MX_TOOL_FORMAT_LLAMA3_JSON) {
    size_t at = skip_space(text, len, 0);
    if (!forced && len - at >= strlen(PYTHON_TAG) && !memcmp(text + at, PYTHON_TAG, strlen(PYTHON_TAG))) at += strlen(PYTHON_TAG);
    ok = read_call(tools, text, at, len, &out->calls[0], &oom);
    out->n = ok;
  } else {
    size_t at = find(text, len, 0, OPEN);
    content = trim_end(text, at);
    while (ok && at < len) {
      size_t body = at + strlen(OPEN), end = find(text, len, body, CLOSE);
      ok = out->n < MX_TOOL_MAX_CALLS && read_call(tools, text, body, end, &out->calls[out->n], &oom);
      out->n += ok;
      at = skip_space(text, len, end < len ? end + strlen(CLOSE) : len);
      if (ok && at < len) ok = len - at >= strlen(OPEN) && !memcmp(text + at, OPEN, strlen(OPEN));
    }
  }
  if (oom) {
    mx_tool_calls_free(out);
    return mx_status_oom();
  }
  if (!ok || out->n == 0) { /* not calls after all: the text is the answer */
    mx_tool_calls_free(out);
    out->content_len = len;
    return NULL;
  }
  out->content_len = content;
  return NULL;
}

void mx_tool_calls_free(mx_tool_calls_t *c) {
  for (int i = 0; c->calls && i < MX_TOOL_MAX_CALLS; i++) {
    free(c->calls[i].name);
    free(c->calls[i].arguments);
  }
  free(c->calls);
  memset(c, 0, sizeof *c);
}

size_t mx_tool_content_ready(mx_tool_format_t f, const char *text, size_t len) {
  if (f == MX_TOOL_FORMAT_LLAMA3_JSON) { /* a call is the whole answer: hold it while it may be one */
    size_t at = skip_space(text, len, 0), k = len - at, tag = strlen(PYTHON_TAG);
    if (at == len || text[at] == '{' || !memcmp(text + at, PYTHON_TAG, k < tag ? k : tag)) return 0;
    return len;
  }
  if (f != MX_TOOL_FORMAT_HERMES) return len;
  size_t at = find(text, len, 0, OPEN);
  if (at == len) /* a tag may be starting at the end */
    for (size_t k = strlen(OPEN) - 1; k > 0; k--)
      if (k <= len && !memcmp(text + len - k, OPEN, k)) {
        at = len - k;
        break;
      }
  return trim_end(text, at); /* whitespace before a call is not part of the content */
}
