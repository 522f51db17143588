/* libFuzzer target: the server's request parser (src/server/openai.c) on arbitrary bodies, the one
 * parser every HTTP client reaches. The first byte picks completions or chat (bit 0), or with bit 1
 * set /tokenize or /detokenize (bit 0), or /v1/embeddings (bit 2); the rest is the body
 * (not NUL-terminated: the parser must go by the length). A body is either accepted, with every
 * field in range and the prompt valid UTF-8, or refused with a 4xx/5xx whose message is one line
 * and whose error JSON parses; nothing leaks either way (LeakSanitizer). */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "engine/json_schema.h"
#include "server/openai.h"
#include "server/tools.h"

/* The utility endpoints' parsers: accepted bodies hold what they promise, refusals are one line. */
static void utility(int which, const char *body, size_t n) {
  mx_api_error_t e;
  mx_status_t st;
  if (which == 0) {
    mx_api_tokenize_t t;
    st = mx_api_parse_tokenize(body, n, &t, &e);
    if (!st && (!t.content || mx_utf8_valid_prefix((const uint8_t *)t.content, t.len) != t.len)) abort();
    if (!st) mx_api_tokenize_free(&t);
  } else if (which == 1) {
    mx_ids_t ids;
    st = mx_api_parse_detokenize(body, n, 1000, &ids, &e);
    for (size_t i = 0; !st && i < ids.n; i++)
      if (ids.ids[i] < 0 || ids.ids[i] >= 1000) abort();
    if (!st) mx_ids_free(&ids);
  } else { /* /v1/embeddings: every input a non-empty valid string or non-empty in-vocabulary ids */
    mx_api_embeddings_t r;
    mx_api_embed_limits_t lim = {.vocab = 1000, .dim = 8};
    st = mx_api_parse_embeddings(body, n, &lim, &r, &e);
    if (!st && (r.n < 1 || r.n > MX_API_MAX_EMBED_INPUTS)) abort();
    for (size_t i = 0; !st && i < r.n; i++) {
      const mx_api_embedding_input_t *in = &r.in[i];
      if (!in->text == !in->ids) abort();
      if (in->text && (!in->len || mx_utf8_valid_prefix((const uint8_t *)in->text, in->len) != in->len)) abort();
      for (size_t k = 0; in->ids && k < in->n_ids; k++)
        if (in->ids[k] < 0 || in->ids[k] >= 1000) abort();
      if (in->ids && !in->n_ids) abort();
    }
    if (!st) mx_api_embeddings_free(&r);
  }
  if (st && (e.http_status < 400 || strchr(mx_status_message(st), '\n'))) abort();
  mx_status_free(st);
}

/* A chat request's template variables and tools are as openai_chat.c promises; a forced call's schema
 * compiles (it is what the decoder will run); the first message's text read as a model's answer gives
 * calls of the request's tools only, with objects as arguments, and spans inside it. */
static void check_chat(const mx_api_request_t *r) {
  const json_t *msgs = json_object_get(r->context, "messages"), *tools = json_object_get(r->context, "tools");
  if (json_array_size(msgs) < 1) abort();
  size_t i;
  json_t *m;
  json_array_foreach(msgs, i, m) {
    const char *role = json_string_value(json_object_get(m, "role"));
    const json_t *content = json_object_get(m, "content");
    if (!role || (strcmp(role, "system") && strcmp(role, "user") && strcmp(role, "assistant") && strcmp(role, "tool"))) abort();
    if (!json_is_string(content) && !(json_is_null(content) && json_array_size(json_object_get(m, "tool_calls")))) abort();
  }
  if ((int)json_array_size(tools) != r->n_tools) abort();
  if (r->tool_choice != MX_TOOL_CHOICE_NONE && r->n_tools < 1) abort();
  if (r->tool_choice == MX_TOOL_CHOICE_NAMED && (r->tool_named < 0 || r->tool_named >= r->n_tools)) abort();
  const json_t *first = json_object_get(json_array_get(msgs, 0), "content");
  const char *body = json_is_string(first) ? json_string_value(first) : "";
  size_t n = json_is_string(first) ? json_string_length(first) : 0;
  for (mx_tool_format_t f = MX_TOOL_FORMAT_HERMES; r->n_tools && f <= MX_TOOL_FORMAT_LLAMA3_JSON; f++) {
    if (r->tool_choice == MX_TOOL_CHOICE_REQUIRED || r->tool_choice == MX_TOOL_CHOICE_NAMED) {
      char *schema = mx_tool_call_schema(f, tools, r->tool_choice == MX_TOOL_CHOICE_NAMED ? r->tool_named : -1);
      mx_schema_t *sc = NULL;
      mx_status_t st = schema ? mx_schema_compile(schema, strlen(schema), &sc) : NULL;
      if (st) abort();
      mx_schema_free(sc);
      free(schema);
    }
    mx_tool_calls_t calls;
    if (mx_tool_calls_parse(f, tools, false, body, n, &calls)) continue; /* out of memory */
    if (calls.content_len > n) abort();
    for (int k = 0; k < calls.n; k++) {
      json_t *args = json_loads(calls.calls[k].arguments, 0, NULL);
      if (!json_is_object(args)) abort();
      json_decref(args);
    }
    mx_tool_calls_free(&calls);
    if (mx_tool_content_ready(f, body, n) > n) abort();
    char name[64];
    size_t a, b;
    bool done;
    if (mx_tool_call_name(body, n, name, sizeof name) && strlen(name) >= sizeof name) abort();
    if (mx_tool_call_arguments(f, body, n, &a, &b, &done) && (a > b || b > n || body[a] != '{')) abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  if (data[0] & 2) { /* bit 1: a utility endpoint (bit 0: which; with bit 2 also set, /v1/embeddings) */
    char *b = malloc(size > 1 ? size - 1 : 1);
    memcpy(b, data + 1, size - 1);
    utility(data[0] & 4 ? 2 : data[0] & 1, b, size - 1);
    free(b);
    return 0;
  }
  mx_api_kind_t kind = data[0] & 1 ? MX_API_CHAT : MX_API_COMPLETION;
  size_t n = size - 1;
  char *body = malloc(n ? n : 1); /* exactly the body's bytes: a read past them is ASan's */
  memcpy(body, data + 1, n);
  mx_api_limits_t lim = {.max_tokens = 512, .vocab = 1000, .max_n = 4};
  mx_api_request_t r;
  mx_api_error_t e;
  mx_status_t st = mx_api_parse(kind, body, n, &lim, &r, &e);
  if (st) {
    if (e.http_status < 400 || e.http_status > 599) abort();
    if (strchr(mx_status_message(st), '\n')) abort(); /* one line */
    char *json = mx_api_error_json(st, &e);
    json_error_t je;
    json_t *j = json_loads(json, 0, &je);
    if (!j || !json_is_object(json_object_get(j, "error"))) abort();
    json_decref(j);
    free(json);
    mx_status_free(st);
  } else {
    if (r.max_tokens < 0 || r.max_tokens > lim.max_tokens) abort();
    if (r.n_stops < 0 || r.n_stops > MX_MAX_STOPS) abort();
    /* A completion's prompt: UTF-8 text, or token ids each within the vocabulary. */
    if (kind == MX_API_COMPLETION && r.prompt && mx_utf8_valid_prefix((const uint8_t *)r.prompt, r.prompt_len) != r.prompt_len)
      abort();
    if (kind == MX_API_COMPLETION && !r.prompt && (!r.prompt_ids || r.n_prompt_ids < 1)) abort();
    for (size_t i = 0; i < r.n_prompt_ids; i++)
      if (r.prompt_ids[i] < 0 || r.prompt_ids[i] >= lim.vocab) abort();
    if (r.n < 1 || r.n > (lim.max_n > 0 ? lim.max_n : 1)) abort();
    if (kind == MX_API_CHAT) check_chat(&r);
    /* What the sampler is handed is within its ranges, every biased id within the vocabulary. */
    mx_status_t bad = mx_sampling_validate(&r.sampling);
    if (!bad) bad = mx_sampling_check_vocab(&r.sampling, lim.vocab);
    if (bad) abort();
    mx_api_request_free(&r);
  }
  free(body);
  return 0;
}
