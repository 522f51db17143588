/* What the request parsers of the OpenAI API (openai.c, openai_chat.c) share: refusals in one shape. */
#ifndef MX_SERVER_OPENAI_INTERNAL_H
#define MX_SERVER_OPENAI_INTERNAL_H

#include <jansson.h>

#include "server/openai.h"

/* A refusal naming `param`, as a usage status (400 invalid_request_error through the stage table). */
MX_MUST_USE mx_status_t __attribute__((format(printf, 4, 5)))
mx_api_bad(mx_api_error_t *err, const char *param, const char *code, const char *fmt, ...);
/* Out of memory while parsing: the server's failure (500), not the body's. */
MX_MUST_USE mx_status_t mx_api_oom(mx_api_error_t *err);
/* The body as a JSON object (valid UTF-8, no duplicate keys), or a 400 saying what is wrong with it. */
MX_MUST_USE mx_status_t mx_api_load_object(const char *body, size_t len, json_t **root, mx_api_error_t *err);
/* "an object", "a string", ... for messages. */
const char *mx_api_json_kind(const json_t *v);

/* chat: messages, tools, tool_choice and parallel_tool_calls (openai_chat.c). */
MX_MUST_USE mx_status_t mx_api_parse_messages(const json_t *v, mx_api_request_t *r, mx_api_error_t *err);
MX_MUST_USE mx_status_t mx_api_parse_tools(const json_t *v, mx_api_request_t *r, mx_api_error_t *err);
/* After every field: tool_choice (the raw value, NULL when not given) against the tools, and the
 * default (auto with tools, none without). */
MX_MUST_USE mx_status_t mx_api_settle_tool_choice(const json_t *choice, mx_api_request_t *r, mx_api_error_t *err);

#endif
