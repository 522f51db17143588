/* The OpenAI API's JSON: request bodies of /v1/completions and /v1/chat/completions turned into
 * validated parameters, and the response, stream-chunk, model-list and error objects.
 *
 * Nothing here knows HTTP sockets or the engine's threads, so every bad-input class is unit-tested
 * (tests/unit/test_server.c). Validation is strict on purpose: a field we do not implement (audio,
 * functions, ...) is refused with an OpenAI-style error naming it, never silently
 * ignored, because a client that asked for it would otherwise get a different answer than it
 * believes. Fields whose value cannot change the output (user, n = 1, logprobs = null, ...) pass. */
#ifndef MX_SERVER_OPENAI_H
#define MX_SERVER_OPENAI_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"
#include "base/strbuf.h"
#include "engine/logprobs.h"
#include "engine/sampler.h"
#include "engine/scheduler.h"
#include "server/tools.h"
#include "tokenizer/chat.h"
#include "tokenizer/tokenizer.h"

typedef enum { MX_API_COMPLETION = 0, MX_API_CHAT } mx_api_kind_t;

/* What an HTTP error answer needs beyond the status's one-line message. */
typedef struct {
  int http_status;  /* 400, 401, 404, 413, 503, ... */
  const char *type; /* "invalid_request_error", "server_error", ... */
  char param[64];   /* the offending field; "" for none (JSON null) */
  char code[48];    /* a machine-readable reason; "" for none (JSON null) */
} mx_api_error_t;

typedef struct {
  int max_tokens; /* the largest max_tokens accepted: the context capacity */
  int vocab;      /* logit_bias ids must lie below it; 0: not checked here (the sequence checks them) */
  int max_n;      /* the largest n accepted (the slots of one device); 0: 1 */
} mx_api_limits_t;

/* The most choices one request may ask for (n): the most slots a session has. */
#define MX_API_MAX_N 8

typedef struct {
  mx_api_kind_t kind;
  char *model;            /* NULL when the request names none */
  char *prompt;           /* completions: NUL-terminated, valid UTF-8, non-empty; or NULL and: */
  size_t prompt_len;
  int32_t *prompt_ids;    /* completions: the prompt as token ids (each below the vocabulary size), used as given */
  size_t n_prompt_ids;
  json_t *context;        /* chat: the template's variables: "messages" (normalised, openai_chat.c) and "tools" */
  int n_tools;            /* chat: functions in context.tools */
  mx_tool_choice_t tool_choice;
  int tool_named;         /* tool_choice naming a function: its index in tools */
  bool stream, include_usage;
  int max_tokens;         /* 0: not given (the caller picks the default) */
  mx_sampling_t sampling; /* OpenAI defaults: temperature 1, top_p 1 */
  bool has_seed;          /* false: the caller draws a seed */
  char *stops[MX_MAX_STOPS];
  int n_stops;
  bool ignore_eos;        /* extension (as vLLM): keep going past end-of-sequence tokens */
  bool logprobs;          /* chat logprobs: true, or completions logprobs: N */
  int top_logprobs;       /* alternatives per token: chat top_logprobs 0..20, completions logprobs 0..5 */
  bool echo;              /* completions: the prompt comes back in front of the text (and its tokens' logprobs) */
  int n;                  /* choices to generate, 1 .. limits.max_n */
  bool json_object;       /* chat response_format {"type": "json_object"}: the answer is one JSON object */
  char *json_schema;      /* chat response_format json_schema: the schema (compact JSON text; it compiles) */
} mx_api_request_t;

/* Parses and validates a request body. On failure the status holds the one-line message (stage
 * usage for a bad body, oom when the host runs out) and *err the HTTP status, type, param and
 * code; *out is left empty. */
MX_MUST_USE mx_status_t mx_api_parse(mx_api_kind_t kind, const char *body, size_t len, const mx_api_limits_t *limits,
                                     mx_api_request_t *out, mx_api_error_t *err);
void mx_api_request_free(mx_api_request_t *r);

/* The prompt's token count against the session's context capacity (the longest prompt it takes): over
 * it is a 400 with code context_length_exceeded. */
MX_MUST_USE mx_status_t mx_api_check_prompt(int n_prompt, int capacity, mx_api_error_t *err);

/* Fills *err for the common non-validation answers. */
void mx_api_error_set(mx_api_error_t *err, int http_status, const char *type, const char *param, const char *code);

/* The one mapping from a failure's stage to its HTTP answer; every answer made from a status goes
 * through it:
 *   usage                 400 invalid_request_error  (the client can fix the request)
 *   busy                  503 server_error, code "overloaded"  (full or stopping: retry later)
 *   device                503 server_error, code "unavailable" (no healthy device: retry elsewhere)
 *   every other stage     500 server_error  (the server's fault: toolchain, worker, oom, internal, ...)
 * `param` names the offending field (NULL: none); `code` (NULL: the stage's) is for a caller that
 * knows a more precise reason ("shutting_down", "context_length_exceeded"). Only the HTTP status
 * of refusals decided by the request itself (404 route, 405, 401, 413) is set by the server. */
void mx_api_error_for_status(mx_api_error_t *err, mx_status_t st, const char *param, const char *code);

/* {"error":{"message":..., "type":..., "param":..., "code":...}}; the message is the status's
 * message, its remedy appended when it has one. Never NULL (falls back to a static text). */
char *mx_api_error_json(mx_status_t st, const mx_api_error_t *err);

/* The utility endpoints, in llama.cpp's server's shapes (its README names them; clients such as
 * token counters and prompt editors use them): POST /tokenize {"content", "add_special" (default
 * false), "with_pieces" (default false)}; POST /detokenize {"tokens": [ids]}; POST /apply-template
 * takes a chat completion body and answers the prompt text its messages render to. */
typedef struct {
  char *content; /* valid UTF-8, may be empty */
  size_t len;
  bool add_special, with_pieces;
} mx_api_tokenize_t;

MX_MUST_USE mx_status_t mx_api_parse_tokenize(const char *body, size_t len, mx_api_tokenize_t *out, mx_api_error_t *err);
void mx_api_tokenize_free(mx_api_tokenize_t *t);
/* {"tokens": [...]}: every id must lie in 0..vocab-1 (a 400 naming tokens[i] otherwise). */
MX_MUST_USE mx_status_t mx_api_parse_detokenize(const char *body, size_t len, int vocab, mx_ids_t *out, mx_api_error_t *err);

/* {"tokens":[1,2]} or, with pieces, {"tokens":[{"id":1,"piece":"text"},...]}: a piece that is not
 * valid UTF-8 on its own (part of a character) is its bytes as an array of numbers, as llama.cpp. */
char *mx_api_tokens_json(const int32_t *ids, size_t n, const char *const *pieces, const size_t *piece_lens);
/* {"content": TEXT} (detokenize) or {"prompt": TEXT} (apply-template); text need not be valid UTF-8. */
char *mx_api_text_json(const char *field, const char *text, size_t len);

/* POST /v1/embeddings (OpenAI's shape): input is a string, an array of token ids, or an array of
 * up to MX_API_MAX_EMBED_INPUTS of either; encoding_format "float" (default) or "base64";
 * dimensions, when given, must be the model's; model and user are taken and not used. */
#define MX_API_MAX_EMBED_INPUTS 2048
typedef struct {
  char *text; /* a string input (valid UTF-8, not empty), or NULL */
  size_t len;
  int32_t *ids; /* a token-id input (each of the vocabulary), or NULL */
  size_t n_ids;
} mx_api_embedding_input_t;

typedef struct {
  mx_api_embedding_input_t *in;
  size_t n;
  bool base64;
} mx_api_embeddings_t;

typedef struct {
  int vocab, dim;
} mx_api_embed_limits_t;

MX_MUST_USE mx_status_t mx_api_parse_embeddings(const char *body, size_t len, const mx_api_embed_limits_t *lim,
                                                mx_api_embeddings_t *out, mx_api_error_t *err);
void mx_api_embeddings_free(mx_api_embeddings_t *r);
/* {"object": "list", "data": [{"object": "embedding", "index", "embedding"}], "model", "usage"}; NULL
 * when out of memory. */
char *mx_api_embeddings_json(const char *model, const float *const *vectors, int n, int dim, bool base64, int prompt_tokens);

typedef struct {
  const char *id;    /* "cmpl-..." / "chatcmpl-..." */
  long long created; /* Unix seconds */
  const char *model; /* the served model id */
} mx_api_meta_t;

/* The log-probabilities of an answer's tokens, or of the tokens a stream chunk adds. Chat writes
 * {"content": [{"token", "logprob", "bytes", "top_logprobs": [...]}], "refusal": null}; completions
 * {"tokens", "token_logprobs", "top_logprobs": [{token: logprob} with the chosen token added, as
 * OpenAI's legacy API], "text_offset"}. A token's text is its bytes (U+FFFD for part of a
 * character; chat's "bytes" keeps them exact); an impossible token's logprob is -9999 (OpenAI's
 * stand-in, JSON has no infinity). */
typedef struct {
  const mx_token_logprob_t *v; /* an entry with n_top < 0 has no logprob (null: an echoed prompt's first token) */
  size_t n;
  const mx_tokenizer_t *tok;
  size_t *text_offset; /* completions: characters of the text before v[0]; advanced past the entries */
} mx_api_logprobs_t;

/* One choice of an answer: its text, finish reason ("stop" / "length" / "tool_calls") and logprobs
 * (NULL: "logprobs": null); chat: the tool calls read out of the text (NULL or none: no
 * "tool_calls"; with some, the content is the text's first calls->content_len bytes, null when none). */
typedef struct {
  const char *text;
  size_t len;
  const char *finish;
  const mx_api_logprobs_t *lp;
  const mx_tool_calls_t *calls;
} mx_api_choice_t;

/* An answer's usage: the prompt counted once, every choice's tokens, and the prompt tokens a slot held
 * already (prefix reuse; OpenAI's prompt_tokens_details.cached_tokens). */
typedef struct {
  int prompt_tokens, completion_tokens, cached_tokens;
} mx_api_usage_t;

/* The whole non-streaming answer with its n choices (index 0 .. n-1). NULL only when out of memory. */
char *mx_api_response_json(mx_api_kind_t kind, const mx_api_meta_t *m, const mx_api_choice_t *choices, int n,
                           const mx_api_usage_t *usage);
/* One stream chunk of choice `index`: text (may be NULL/empty), finish (NULL while running), lp (NULL:
 * none). Chat chunks carry the assistant role in a choice's first one (first = true). */
char *mx_api_chunk_json(mx_api_kind_t kind, const mx_api_meta_t *m, int index, const char *text, size_t len, const char *finish,
                        bool first, const mx_api_logprobs_t *lp);
/* A chat stream chunk of choice `index` with its tool calls, whole, as one delta (OpenAI sends the
 * arguments in pieces; a client joins them the same way). */
char *mx_api_tool_calls_chunk_json(const mx_api_meta_t *m, int index, const mx_tool_calls_t *calls);
/* One piece of a call as it is written, as OpenAI streams it: the call's first delta has its id, type
 * and name (id and name non-NULL) and arguments ""; the next ones a piece of the arguments' text each. */
char *mx_api_tool_call_delta_json(const mx_api_meta_t *m, int index, int call, const char *id, const char *name, const char *args,
                                  size_t args_len);
/* The last chunk when stream_options.include_usage was asked: no choices, the usage. */
char *mx_api_usage_chunk_json(mx_api_kind_t kind, const mx_api_meta_t *m, const mx_api_usage_t *usage);
/* GET /v1/models. */
char *mx_api_models_json(const char *const *names, int n, long long created);

#endif
