/* Function calling (OpenAI's `tools`): what a chat template's tool-call format is, the JSON schema a
 * forced call is decoded under, and the parse of generated text back into tool calls.
 *
 * Two formats are parsed, the ones whose shape their model families document:
 *   hermes       Hermes / Qwen2.5 / Qwen3: each call is <tool_call>{"name": N, "arguments": {...}}</tool_call>,
 *                after any text (the template says <tool_call>);
 *   llama3-json  Llama 3.1 / 3.2 / 3.3 JSON tool calling: the whole answer is one
 *                {"name": N, "parameters": {...}} (optionally after <|python_tag|>; the template names the
 *                ipython role and "parameters").
 * A template that mentions `tools` in another format (Mistral's [TOOL_CALLS], Gemma's pythonic calls,
 * Phi-4's <|tool|>) renders tools and tool results, but its calls are not parsed: a request that wants
 * calls back is refused naming the formats that are. Nothing here knows HTTP or the engine. */
#ifndef MX_SERVER_TOOLS_H
#define MX_SERVER_TOOLS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"

typedef enum {
  MX_TOOL_FORMAT_NONE = 0, /* the template never mentions tools */
  MX_TOOL_FORMAT_UNPARSED, /* it renders tools, in a format not parsed here */
  MX_TOOL_FORMAT_HERMES,
  MX_TOOL_FORMAT_LLAMA3_JSON,
} mx_tool_format_t;

/* OpenAI's tool_choice: none (tools are rendered, no call is parsed), auto (the model decides; its
 * calls are parsed), required (one call is forced, to any of the tools), or a named function. */
typedef enum { MX_TOOL_CHOICE_NONE = 0, MX_TOOL_CHOICE_AUTO, MX_TOOL_CHOICE_REQUIRED, MX_TOOL_CHOICE_NAMED } mx_tool_choice_t;

/* The format a chat template's text asks for (NULL: no template). */
mx_tool_format_t mx_tool_format_of(const char *template_text);
const char *mx_tool_format_name(mx_tool_format_t f);

/* Text the prompt ends with when a call is forced (tool_choice required or a named function), so the
 * answer is the call's JSON alone: "<tool_call>\n" for hermes, "" for llama3-json. */
const char *mx_tool_call_prefix(mx_tool_format_t f);

/* The JSON schema (compact text, malloc'd; NULL when out of memory) of one call in format f, over
 * `tools` (an array of {"type":"function","function":{name, parameters, ...}}): the name is function
 * `named`'s (or, named < 0, any of theirs: an anyOf told apart by the name, which comes first), and
 * the arguments that function's parameters when they are of the subset json_schema.h compiles, any
 * JSON object otherwise. */
char *mx_tool_call_schema(mx_tool_format_t f, const json_t *tools, int named);

typedef struct {
  char *name;
  char *arguments; /* JSON text of an object, as the model wrote it (compact when it wrote a string holding one) */
  char id[40];     /* "call_...": the caller names it */
} mx_tool_call_t;

typedef struct {
  mx_tool_call_t *calls;
  int n;
  size_t content_len; /* the text before the first call (trailing whitespace dropped); the whole text when n = 0 */
} mx_tool_calls_t;

#define MX_TOOL_MAX_CALLS 16

/* Reads the calls out of an answer's text. forced: the text is one call's JSON alone (it was decoded
 * under mx_tool_call_schema after mx_tool_call_prefix). A call whose name is not one of `tools`, or
 * whose JSON does not parse, makes the whole text content (n = 0). Fails only when out of memory. */
MX_MUST_USE mx_status_t mx_tool_calls_parse(mx_tool_format_t f, const json_t *tools, bool forced, const char *text, size_t len,
                                            mx_tool_calls_t *out);
void mx_tool_calls_free(mx_tool_calls_t *c);

/* A forced call being written (its text so far, `{"name": N, "arguments": {...}}` in the schema's
 * order), for streaming it as OpenAI does: the name once it is whole (false before, or when it does not
 * fit cap), then the arguments' text as far as it goes, [*a, *b), *done once their object closed
 * (false until they have begun). A stream that sends text[a, b) as it grows sends exactly the
 * arguments mx_tool_calls_parse gives: the text the model wrote. */
bool mx_tool_call_name(const char *text, size_t len, char *out, size_t cap);
bool mx_tool_call_arguments(mx_tool_format_t f, const char *text, size_t len, size_t *a, size_t *b, bool *done);

/* Streaming an answer that may hold calls: how many bytes from the start of `text` can go out as
 * content now, holding back a call's start and anything that may still become one. */
size_t mx_tool_content_ready(mx_tool_format_t f, const char *text, size_t len);

#endif
