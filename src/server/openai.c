#include "server/openai.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "engine/json_schema.h"
#include "server/openai_internal.h"

/* A stop string longer than this is almost certainly a mistake (and costs a scan per token). */
#define MAX_STOP_BYTES 256

void mx_api_error_set(mx_api_error_t *err, int http_status, const char *type, const char *param, const char *code) {
  err->http_status = http_status;
  err->type = type;
  snprintf(err->param, sizeof err->param, "%s", param ? param : "");
  snprintf(err->code, sizeof err->code, "%s", code ? code : "");
}

/* The stage -> HTTP table; openai.h gives the reasons. The assert fails when the last stage has no
 * row, and test_status checks every row. */
#define SERVER_ERROR "server_error"
static const struct {
  int http_status;
  const char *type, *code;
} stage_http[] = {
    [MX_STAGE_USAGE] = {400, "invalid_request_error", NULL},
    [MX_STAGE_TOOLCHAIN] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_COMPILE] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_SPAWN] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_PROTOCOL] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_DRIVER] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_DEVICE] = {503, SERVER_ERROR, "unavailable"},
    [MX_STAGE_MODULE_LOAD] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_CALL] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_TRANSFER] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_WORKER] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_IO] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_CHECK] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_BUSY] = {503, SERVER_ERROR, "overloaded"},
    [MX_STAGE_INTERNAL] = {500, SERVER_ERROR, NULL},
    [MX_STAGE_OOM] = {500, SERVER_ERROR, NULL},
};
_Static_assert(sizeof stage_http / sizeof stage_http[0] == MX_STAGE_LAST + 1, "every stage has an HTTP answer");

void mx_api_error_for_status(mx_api_error_t *err, mx_status_t st, const char *param, const char *code) {
  size_t s = (size_t)mx_status_stage(st);
  /* A hole or an unknown stage is still a failure: the server's, as 500. */
  int http = s < sizeof stage_http / sizeof stage_http[0] ? stage_http[s].http_status : 0;
  if (!http) {
    mx_api_error_set(err, 500, SERVER_ERROR, param, code);
    return;
  }
  mx_api_error_set(err, http, stage_http[s].type, param, code ? code : stage_http[s].code);
}

/* A refusal naming `param`, as a usage status (400 invalid_request_error through the table). The
 * message names the field and what it accepts, which is the remedy: none is added. */
mx_status_t __attribute__((format(printf, 4, 5))) mx_api_bad(mx_api_error_t *err, const char *param, const char *code, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mx_status_t st = mx_status_make(MX_STAGE_USAGE, NULL, "%s", msg);
  mx_api_error_for_status(err, st, param, code);
  return st;
}

/* Out of memory while parsing: the server's failure (500), not the body's. */
mx_status_t mx_api_oom(mx_api_error_t *err) {
  mx_status_t st = mx_status_oom();
  mx_api_error_for_status(err, st, NULL, NULL);
  return st;
}

const char *mx_api_json_kind(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  default: return "null";
  }
}

static mx_status_t want_number(const char *name, const json_t *v, double lo, double hi, bool lo_open, double *out,
                               mx_api_error_t *err) {
  if (!json_is_number(v)) return mx_api_bad(err, name, "invalid_type", "%s must be a number, not %s", name, mx_api_json_kind(v));
  double d = json_number_value(v);
  if (!(lo_open ? d > lo : d >= lo) || !(d <= hi))
    return mx_api_bad(err, name, "invalid_value", "%s is %g; it must be %s %g and at most %g", name, d, lo_open ? "above" : "at least",
               lo, hi);
  *out = d;
  return NULL;
}

static mx_status_t want_bool(const char *name, const json_t *v, bool *out, mx_api_error_t *err) {
  if (!json_is_boolean(v)) return mx_api_bad(err, name, "invalid_type", "%s must be a boolean, not %s", name, mx_api_json_kind(v));
  *out = json_is_true(v);
  return NULL;
}

static mx_status_t want_count(const char *name, const json_t *v, int lo, int hi, int *out, mx_api_error_t *err) {
  if (!json_is_integer(v)) return mx_api_bad(err, name, "invalid_type", "%s must be an integer, not %s", name, mx_api_json_kind(v));
  json_int_t n = json_integer_value(v);
  if (n < lo || n > hi) return mx_api_bad(err, name, "invalid_value", "%s is %lld; it must be %d to %d", name, (long long)n, lo, hi);
  *out = (int)n;
  return NULL;
}

static mx_status_t want_max_tokens(const char *name, const json_t *v, const mx_api_limits_t *lim, int *out,
                                   mx_api_error_t *err) {
  if (!json_is_integer(v)) return mx_api_bad(err, name, "invalid_type", "%s must be an integer, not %s", name, mx_api_json_kind(v));
  json_int_t n = json_integer_value(v);
  if (n < 1) return mx_api_bad(err, name, "invalid_value", "%s is %lld; it must be at least 1", name, (long long)n);
  if (n > lim->max_tokens)
    return mx_api_bad(err, name, "invalid_value", "%s is %lld; this server's context capacity allows at most %d", name, (long long)n,
               lim->max_tokens);
  *out = (int)n;
  return NULL;
}

/* A field we do not implement: fine when its value is the neutral one, refused otherwise. */
static bool is_neutral(const char *key, const json_t *v) {
  if (json_is_null(v)) return true;
  if (!strcmp(key, "best_of")) return json_is_integer(v) && json_integer_value(v) == 1;
  if (!strcmp(key, "suffix")) return json_is_string(v) && json_string_length(v) == 0;
  if (!strcmp(key, "functions")) return json_is_array(v) && json_array_size(v) == 0;
  if (!strcmp(key, "function_call")) return json_is_string(v) && !strcmp(json_string_value(v), "none");
  return false;
}

static const char *const unsupported_common[] = {NULL};
static const char *const unsupported_completion[] = {"best_of", "suffix", NULL};
static const char *const unsupported_chat[] = {"functions", "function_call", "audio", "modalities",
                                               "prediction", "web_search_options", NULL};

static bool in_list(const char *const *list, const char *key) {
  for (; *list; list++)
    if (!strcmp(*list, key)) return true;
  return false;
}

/* A prompt given as token ids (an array of integers), each one of the vocabulary's. */
static mx_status_t parse_prompt_ids(const json_t *v, const mx_api_limits_t *lim, mx_api_request_t *r, mx_api_error_t *err) {
  size_t n = json_array_size(v), i;
  json_t *e;
  if (!(r->prompt_ids = malloc(sizeof *r->prompt_ids * n))) return mx_api_oom(err);
  json_array_foreach(v, i, e) {
    json_int_t id = json_integer_value(e);
    if (!json_is_integer(e)) return mx_api_bad(err, "prompt", "invalid_type", "prompt[%zu] must be a token id (an integer), not %s", i, mx_api_json_kind(e));
    if (id < 0 || id >= lim->vocab)
      return mx_api_bad(err, "prompt", "invalid_value", "prompt[%zu] is %lld, not a token id of this model (0 .. %d)", i, (long long)id,
                 lim->vocab - 1);
    r->prompt_ids[i] = (int32_t)id;
  }
  r->n_prompt_ids = n;
  return NULL;
}

static mx_status_t parse_prompt(const json_t *v, const mx_api_limits_t *lim, mx_api_request_t *r, mx_api_error_t *err) {
  /* One prompt: a string, token ids, or either in a one-element array (what some clients send); more
   * elements would be a batch. */
  const json_t *first = json_array_get(v, 0);
  if (json_is_array(v) && json_array_size(v) == 1 && (json_is_string(first) || json_is_array(first))) v = first;
  if (json_is_array(v) && json_array_size(v) > 0 && json_is_integer(json_array_get(v, 0))) return parse_prompt_ids(v, lim, r, err);
  if (json_is_array(v) && json_array_size(v) > 1 && (json_is_string(first) || json_is_array(first)))
    return mx_api_bad(err, "prompt", "unsupported_parameter", "prompt holds %zu prompts; batches are not supported (send one request each)",
               json_array_size(v));
  if (json_is_array(v) && json_array_size(v) == 0) return mx_api_bad(err, "prompt", "invalid_value", "prompt is empty");
  if (json_is_array(v)) return mx_api_bad(err, "prompt", "invalid_type", "prompt must be a string or an array of token ids");
  if (!json_is_string(v)) return mx_api_bad(err, "prompt", "invalid_type", "prompt must be a string, not %s", mx_api_json_kind(v));
  if (json_string_length(v) == 0) return mx_api_bad(err, "prompt", "invalid_value", "prompt is empty");
  r->prompt_len = json_string_length(v);
  r->prompt = malloc(r->prompt_len + 1);
  if (!r->prompt) return mx_api_oom(err);
  memcpy(r->prompt, json_string_value(v), r->prompt_len + 1);
  return NULL;
}

static mx_status_t parse_stop(const json_t *v, mx_api_request_t *r, mx_api_error_t *err) {
  if (json_is_null(v)) return NULL;
  json_t *one = json_is_string(v) ? json_array() : NULL;
  if (one) json_array_append(one, (json_t *)v);
  const json_t *arr = one ? one : v;
  mx_status_t st = NULL;
  if (!json_is_array(arr)) st = mx_api_bad(err, "stop", "invalid_type", "stop must be a string or an array of strings, not %s", mx_api_json_kind(v));
  else if (json_array_size(arr) > MX_MAX_STOPS)
    st = mx_api_bad(err, "stop", "invalid_value", "stop has %zu strings; at most %d are accepted", json_array_size(arr), MX_MAX_STOPS);
  for (size_t i = 0; !st && i < json_array_size(arr); i++) {
    const json_t *s = json_array_get(arr, i);
    if (!json_is_string(s)) st = mx_api_bad(err, "stop", "invalid_type", "stop[%zu] must be a string, not %s", i, mx_api_json_kind(s));
    else if (json_string_length(s) == 0) st = mx_api_bad(err, "stop", "invalid_value", "stop[%zu] is empty", i);
    else if (json_string_length(s) > MAX_STOP_BYTES)
      st = mx_api_bad(err, "stop", "invalid_value", "stop[%zu] is %zu bytes; at most %d are accepted", i, json_string_length(s), MAX_STOP_BYTES);
    else if (strlen(json_string_value(s)) != json_string_length(s))
      st = mx_api_bad(err, "stop", "invalid_value", "stop[%zu] contains a NUL character", i);
    else if (!(r->stops[r->n_stops++] = strdup(json_string_value(s)))) st = mx_api_oom(err);
  }
  json_decref(one);
  return st;
}

/* logit_bias: {"ID": BIAS, ...}, each ID a token id written in decimal as OpenAI writes them (no
 * sign, no leading zero, so two keys never name one token), each BIAS a number in [-100, 100]. */
static mx_status_t parse_logit_bias(const json_t *v, const mx_api_limits_t *lim, mx_sampling_t *sp, mx_api_error_t *err) {
  const char *P = "logit_bias";
  if (!json_is_object(v)) return mx_api_bad(err, P, "invalid_type", "logit_bias must be an object of token ids to numbers, not %s", mx_api_json_kind(v));
  if (json_object_size(v) > MX_SAMPLING_MAX_BIASED)
    return mx_api_bad(err, P, "invalid_value", "logit_bias has %zu entries; at most %d are accepted", json_object_size(v),
               MX_SAMPLING_MAX_BIASED);
  const char *key;
  json_t *b;
  sp->n_bias = 0;
  json_object_foreach((json_t *)v, key, b) {
    size_t n = strlen(key);
    bool digits = n > 0 && n <= 9 && strspn(key, "0123456789") == n && (key[0] != '0' || n == 1);
    if (!digits) return mx_api_bad(err, P, "invalid_value", "logit_bias key '%.40s' is not a token id (a decimal integer)", key);
    long id = strtol(key, NULL, 10);
    if (lim->vocab > 0 && id >= lim->vocab)
      return mx_api_bad(err, P, "invalid_value", "logit_bias token id %ld is outside the vocabulary of %d tokens", id, lim->vocab);
    if (!json_is_number(b)) return mx_api_bad(err, P, "invalid_type", "logit_bias[\"%s\"] must be a number, not %s", key, mx_api_json_kind(b));
    double d = json_number_value(b);
    if (!(d >= -MX_SAMPLING_MAX_BIAS && d <= MX_SAMPLING_MAX_BIAS))
      return mx_api_bad(err, P, "invalid_value", "logit_bias[\"%s\"] is %g; it must be at least -100 and at most 100", key, d);
    sp->bias[sp->n_bias++] = (mx_logit_bias_t){.id = (int32_t)id, .bias = (float)d};
  }
  return NULL;
}

/* One top-level field. */
/* response_format {"type": "json_schema", "json_schema": {"name", "schema", "strict", "description"}}:
 * the schema, compiled once here so that what the engine cannot take is refused by name. */
static mx_status_t parse_json_schema(const json_t *v, mx_api_request_t *r, mx_api_error_t *err) {
  const char *const P = "response_format";
  json_t *js = json_object_get(v, "json_schema"), *schema = json_object_get(js, "schema");
  if (json_object_size(v) != 2 || !json_is_object(js))
    return mx_api_bad(err, P, "invalid_value", "response_format of type json_schema takes a json_schema object and no other fields");
  const char *k;
  json_t *f;
  json_object_foreach(js, k, f)
    if (strcmp(k, "name") && strcmp(k, "schema") && strcmp(k, "strict") && strcmp(k, "description"))
      return mx_api_bad(err, P, "invalid_value", "response_format.json_schema has an unknown field '%.64s'", k);
  if (!json_is_string(json_object_get(js, "name")))
    return mx_api_bad(err, P, "invalid_value", "response_format.json_schema.name must be a string");
  if (!json_is_object(schema)) return mx_api_bad(err, P, "invalid_value", "response_format.json_schema.schema must be an object");
  char *text = json_dumps(schema, JSON_COMPACT);
  if (!text) return mx_api_oom(err);
  mx_schema_t *compiled = NULL;
  mx_status_t st = mx_schema_compile(text, strlen(text), &compiled);
  mx_schema_free(compiled);
  if (st) {
    free(text);
    if (mx_status_stage(st) == MX_STAGE_OOM) {
      mx_status_free(st);
      return mx_api_oom(err);
    }
    mx_status_t b = mx_api_bad(err, P, "invalid_value", "response_format.json_schema.schema: %s; %s", mx_status_message(st),
                        mx_status_remedy(st));
    mx_status_free(st);
    return b;
  }
  free(r->json_schema);
  r->json_schema = text;
  return NULL;
}

/* Fields read after the others, because they depend on them. */
typedef struct {
  const json_t *stream_options, *tool_choice;
} later_t;

static mx_status_t parse_field(const char *key, const json_t *v, const mx_api_limits_t *lim, mx_api_request_t *r, later_t *later,
                               mx_api_error_t *err) {
  bool chat = r->kind == MX_API_CHAT;
  double d;
  if (in_list(unsupported_common, key) || in_list(chat ? unsupported_chat : unsupported_completion, key)) {
    if (is_neutral(key, v)) return NULL;
    return mx_api_bad(err, key, "unsupported_parameter", "%s is not supported by this server (send it as null or leave it out)", key);
  }
  static const char *const nullable[] = {"stream", "stream_options", "max_tokens", "max_completion_tokens", "temperature",
                                         "top_p", "min_p", "repetition_penalty", "top_k", "seed", "stop", "ignore_eos", "user",
                                         "presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "top_logprobs",
                                         "echo", "n", "response_format", NULL};
  if (json_is_null(v) && in_list(nullable, key) && (chat || (strcmp(key, "max_completion_tokens") && strcmp(key, "top_logprobs"))))
    return NULL; /* default */
  if (!strcmp(key, "model")) {
    if (!json_is_string(v)) return mx_api_bad(err, "model", "invalid_type", "model must be a string, not %s", mx_api_json_kind(v));
    if (!(r->model = strdup(json_string_value(v)))) return mx_api_oom(err);
  } else if (!chat && !strcmp(key, "prompt")) {
    return parse_prompt(v, lim, r, err);
  } else if (chat && !strcmp(key, "messages")) {
    return mx_api_parse_messages(v, r, err);
  } else if (chat && !strcmp(key, "tools")) {
    return json_is_null(v) ? NULL : mx_api_parse_tools(v, r, err);
  } else if (chat && !strcmp(key, "tool_choice")) {
    later->tool_choice = v;
  } else if (chat && !strcmp(key, "parallel_tool_calls")) {
    /* accepted: auto takes as many calls as the model writes; required and a named function force one */
    return json_is_null(v) || json_is_boolean(v) ? NULL
                                                 : mx_api_bad(err, key, "invalid_type", "parallel_tool_calls must be a boolean");
  } else if (!strcmp(key, "stream")) {
    return want_bool("stream", v, &r->stream, err);
  } else if (chat && !strcmp(key, "response_format")) {
    const char *type = json_string_value(json_object_get(v, "type"));
    if (!json_is_object(v) || !type)
      return mx_api_bad(err, "response_format", "invalid_type", "response_format must be an object with a string type");
    if (!strcmp(type, "json_object") || !strcmp(type, "text")) {
      if (json_object_size(v) != 1)
        return mx_api_bad(err, "response_format", "invalid_value", "response_format of type %s takes no other fields", type);
      r->json_object = !strcmp(type, "json_object");
      return NULL;
    }
    if (!strcmp(type, "json_schema")) return parse_json_schema(v, r, err);
    return mx_api_bad(err, "response_format", "invalid_value", "response_format type '%.64s' is not one of text, json_object, json_schema", type);
  } else if (!strcmp(key, "n")) {
    int hi = lim->max_n > 0 ? lim->max_n : 1;
    if (json_is_integer(v) && json_integer_value(v) > hi)
      return mx_api_bad(err, "n", "invalid_value", "n is %lld; this server generates at most %d choices per request (its slots "
                 "per device, --slots)", (long long)json_integer_value(v), hi);
    return want_count("n", v, 1, hi, &r->n, err);
  } else if (!chat && !strcmp(key, "echo")) {
    return want_bool("echo", v, &r->echo, err);
  } else if (!strcmp(key, "stream_options")) {
    if (!json_is_object(v)) return mx_api_bad(err, key, "invalid_type", "stream_options must be an object, not %s", mx_api_json_kind(v));
    later->stream_options = v;
  } else if (!strcmp(key, "max_tokens") || (chat && !strcmp(key, "max_completion_tokens"))) {
    int n = 0;
    MX_RETURN_IF_ERROR(want_max_tokens(key, v, lim, &n, err));
    /* max_completion_tokens is the newer spelling; it wins when both are given. */
    if (!strcmp(key, "max_completion_tokens") || !r->max_tokens) r->max_tokens = n;
  } else if (!strcmp(key, "temperature")) {
    MX_RETURN_IF_ERROR(want_number(key, v, 0, 2, false, &d, err));
    r->sampling.temperature = (float)d;
  } else if (!strcmp(key, "top_p")) {
    MX_RETURN_IF_ERROR(want_number(key, v, 0, 1, true, &d, err));
    r->sampling.top_p = (float)d;
  } else if (!strcmp(key, "min_p")) {
    MX_RETURN_IF_ERROR(want_number(key, v, 0, 0.999999, false, &d, err));
    r->sampling.min_p = (float)d;
  } else if (!strcmp(key, "repetition_penalty")) {
    MX_RETURN_IF_ERROR(want_number(key, v, MX_SAMPLING_MIN_REPEAT_PENALTY, 10, false, &d, err));
    r->sampling.repeat_penalty = (float)d;
  } else if (!strcmp(key, "presence_penalty")) {
    MX_RETURN_IF_ERROR(want_number(key, v, -MX_SAMPLING_MAX_PENALTY, MX_SAMPLING_MAX_PENALTY, false, &d, err));
    r->sampling.presence_penalty = (float)d;
  } else if (!strcmp(key, "frequency_penalty")) {
    MX_RETURN_IF_ERROR(want_number(key, v, -MX_SAMPLING_MAX_PENALTY, MX_SAMPLING_MAX_PENALTY, false, &d, err));
    r->sampling.frequency_penalty = (float)d;
  } else if (!strcmp(key, "logit_bias")) {
    return parse_logit_bias(v, lim, &r->sampling, err);
  } else if (chat && !strcmp(key, "logprobs")) {
    return want_bool(key, v, &r->logprobs, err);
  } else if (chat && !strcmp(key, "top_logprobs")) {
    return want_count(key, v, 0, MX_MAX_TOP_LOGPROBS, &r->top_logprobs, err);
  } else if (!strcmp(key, "logprobs")) { /* completions: how many alternatives, 0..5 */
    if (json_is_false(v)) return NULL;     /* what some clients send for "none" */
    MX_RETURN_IF_ERROR(want_count(key, v, 0, 5, &r->top_logprobs, err));
    r->logprobs = true;
  } else if (!strcmp(key, "top_k")) {
    if (!json_is_integer(v)) return mx_api_bad(err, key, "invalid_type", "top_k must be an integer, not %s", mx_api_json_kind(v));
    if (json_integer_value(v) < 0 || json_integer_value(v) > (1 << 22))
      return mx_api_bad(err, key, "invalid_value", "top_k is %lld; use 0 (off) up to %d", (long long)json_integer_value(v), 1 << 22);
    r->sampling.top_k = (int)json_integer_value(v);
  } else if (!strcmp(key, "seed")) {
    if (!json_is_integer(v)) return mx_api_bad(err, key, "invalid_type", "seed must be an integer, not %s", mx_api_json_kind(v));
    r->sampling.seed = (uint64_t)json_integer_value(v);
    r->has_seed = true;
  } else if (!strcmp(key, "stop")) {
    return parse_stop(v, r, err);
  } else if (!strcmp(key, "ignore_eos")) {
    return want_bool(key, v, &r->ignore_eos, err);
  } else if (!strcmp(key, "user")) {
    if (!json_is_string(v)) return mx_api_bad(err, key, "invalid_type", "user must be a string, not %s", mx_api_json_kind(v));
  } else if (!chat && !strcmp(key, "messages")) {
    return mx_api_bad(err, key, "unknown_parameter", "messages belongs to /v1/chat/completions; /v1/completions takes prompt");
  } else if (chat && !strcmp(key, "prompt")) {
    return mx_api_bad(err, key, "unknown_parameter", "prompt belongs to /v1/completions; /v1/chat/completions takes messages");
  } else {
    return mx_api_bad(err, key, "unknown_parameter", "unknown field '%.60s'", key);
  }
  return NULL;
}

/* The body as a JSON object, with the checks every endpoint's body gets (UTF-8, JSON, an object,
 * no duplicate keys). */
mx_status_t mx_api_load_object(const char *body, size_t len, json_t **root, mx_api_error_t *err) {
  *root = NULL;
  mx_api_error_set(err, 400, "invalid_request_error", NULL, NULL);
  size_t valid = mx_utf8_valid_prefix((const uint8_t *)body, len);
  if (valid != len) return mx_api_bad(err, NULL, "invalid_json", "the body is not valid UTF-8 (byte offset %zu)", valid);
  json_error_t je;
  json_t *j = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
  if (!j) return mx_api_bad(err, NULL, "invalid_json", "the body is not valid JSON: %s (line %d, column %d)", je.text, je.line, je.column);
  if (!json_is_object(j)) {
    mx_status_t st = mx_api_bad(err, NULL, "invalid_json", "the body must be a JSON object, not %s", mx_api_json_kind(j));
    json_decref(j);
    return st;
  }
  *root = j;
  return NULL;
}

mx_status_t mx_api_parse(mx_api_kind_t kind, const char *body, size_t len, const mx_api_limits_t *lim, mx_api_request_t *r,
                         mx_api_error_t *err) {
  memset(r, 0, sizeof *r);
  r->kind = kind;
  r->sampling = (mx_sampling_t){.temperature = 1, .top_p = 1, .repeat_penalty = 1};
  r->top_logprobs = -1; /* not given */
  r->n = 1;
  json_t *root;
  MX_RETURN_IF_ERROR(mx_api_load_object(body, len, &root, err));
  mx_status_t st = NULL;
  later_t later = {0};
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    if ((st = parse_field(key, v, lim, r, &later, err))) break;
  }
  const char *need = kind == MX_API_CHAT ? "messages" : "prompt";
  if (!st && (kind == MX_API_CHAT ? !json_object_get(r->context, "messages") : !r->prompt && !r->prompt_ids))
    st = mx_api_bad(err, need, "missing_required_parameter", "%s is missing", need);
  /* OpenAI refuses top_logprobs without logprobs: true rather than ignore it. */
  if (!st && kind == MX_API_CHAT && r->top_logprobs >= 0 && !r->logprobs)
    st = mx_api_bad(err, "top_logprobs", "invalid_value", "top_logprobs needs logprobs: true");
  if (r->top_logprobs < 0) r->top_logprobs = 0;
  if (!st && kind == MX_API_CHAT) st = mx_api_settle_tool_choice(later.tool_choice, r, err);
  /* One constraint per answer: a forced call is decoded under its own schema. */
  if (!st && (r->tool_choice == MX_TOOL_CHOICE_REQUIRED || r->tool_choice == MX_TOOL_CHOICE_NAMED) && (r->json_object || r->json_schema))
    st = mx_api_bad(err, "response_format", "invalid_value", "response_format json_object / json_schema cannot be combined with a forced tool call (tool_choice required or a function)");
  const json_t *stream_options = later.stream_options;
  if (!st && stream_options) {
    if (!r->stream) st = mx_api_bad(err, "stream_options", "invalid_value", "stream_options is only allowed when stream is true");
    json_object_foreach((json_t *)stream_options, key, v) {
      if (st) break;
      if (!strcmp(key, "include_usage")) st = json_is_null(v) ? NULL : want_bool("stream_options.include_usage", v, &r->include_usage, err);
      else st = mx_api_bad(err, "stream_options", "unknown_parameter", "stream_options.%.60s is not supported", key);
    }
  }
  if (!st) {
    /* A backstop: the ranges above are the sampler's or narrower. */
    st = mx_sampling_validate(&r->sampling);
    if (st) mx_api_error_for_status(err, st, NULL, "invalid_value");
  }
  json_decref(root);
  if (st) mx_api_request_free(r);
  return st;
}

mx_status_t mx_api_parse_tokenize(const char *body, size_t len, mx_api_tokenize_t *out, mx_api_error_t *err) {
  memset(out, 0, sizeof *out);
  json_t *root;
  MX_RETURN_IF_ERROR(mx_api_load_object(body, len, &root, err));
  mx_status_t st = NULL;
  const char *key;
  json_t *v;
  json_object_foreach(root, key, v) {
    if (!strcmp(key, "content")) {
      if (!json_is_string(v)) st = mx_api_bad(err, "content", "invalid_type", "content must be a string, not %s", mx_api_json_kind(v));
      else if (!(out->content = malloc(json_string_length(v) + 1))) st = mx_api_oom(err);
      else {
        out->len = json_string_length(v);
        memcpy(out->content, json_string_value(v), out->len + 1);
      }
    } else if (!strcmp(key, "add_special")) {
      st = want_bool("add_special", v, &out->add_special, err);
    } else if (!strcmp(key, "with_pieces")) {
      st = want_bool("with_pieces", v, &out->with_pieces, err);
    } else {
      st = mx_api_bad(err, key, "unknown_parameter", "%.60s is not a field of /tokenize (content, add_special, with_pieces)", key);
    }
    if (st) break;
  }
  if (!st && !out->content) st = mx_api_bad(err, "content", "missing_required_parameter", "content is missing");
  json_decref(root);
  if (st) mx_api_tokenize_free(out);
  return st;
}

void mx_api_tokenize_free(mx_api_tokenize_t *t) {
  free(t->content);
  memset(t, 0, sizeof *t);
}

mx_status_t mx_api_parse_detokenize(const char *body, size_t len, int vocab, mx_ids_t *out, mx_api_error_t *err) {
  memset(out, 0, sizeof *out);
  json_t *root;
  MX_RETURN_IF_ERROR(mx_api_load_object(body, len, &root, err));
  mx_status_t st = NULL;
  const char *key;
  json_t *v, *tokens = NULL;
  json_object_foreach(root, key, v) {
    if (!strcmp(key, "tokens")) tokens = v;
    else if (!st) st = mx_api_bad(err, key, "unknown_parameter", "%.60s is not a field of /detokenize (tokens)", key);
  }
  if (!st && !tokens) st = mx_api_bad(err, "tokens", "missing_required_parameter", "tokens is missing");
  if (!st && !json_is_array(tokens)) st = mx_api_bad(err, "tokens", "invalid_type", "tokens must be an array of token ids, not %s", mx_api_json_kind(tokens));
  size_t i;
  json_array_foreach(tokens, i, v) {
    if (st) break;
    char param[32];
    snprintf(param, sizeof param, "tokens[%zu]", i);
    if (!json_is_integer(v)) st = mx_api_bad(err, param, "invalid_type", "%s must be an integer token id, not %s", param, mx_api_json_kind(v));
    else if (json_integer_value(v) < 0 || json_integer_value(v) >= vocab)
      st = mx_api_bad(err, param, "invalid_value", "%s is %lld, outside the vocabulary 0..%d", param, (long long)json_integer_value(v), vocab - 1);
    else if (!mx_ids_push(out, (int32_t)json_integer_value(v))) st = mx_api_oom(err);
  }
  json_decref(root);
  if (st) mx_ids_free(out);
  return st;
}

void mx_api_request_free(mx_api_request_t *r) {
  free(r->model);
  free(r->json_schema);
  free(r->prompt_ids);
  free(r->prompt);
  json_decref(r->context);
  for (int i = 0; i < r->n_stops; i++) free(r->stops[i]);
  mx_api_kind_t kind = r->kind;
  memset(r, 0, sizeof *r);
  r->kind = kind;
}

mx_status_t mx_api_check_prompt(int n_prompt, int capacity, mx_api_error_t *err) {
  if (n_prompt < 1) return mx_api_bad(err, "prompt", "invalid_value", "the prompt encodes to no tokens");
  if (n_prompt > capacity)
    return mx_api_bad(err, "prompt", "context_length_exceeded",
               "the prompt is %d tokens; this server accepts at most %d (its context capacity)", n_prompt, capacity);
  return NULL;
}

/* --- answers ------------------------------------------------------------------------------- */

/* JSON text from a (possibly invalid UTF-8) byte run; invalid bytes become U+FFFD. */
static json_t *text_json(const char *text, size_t len) {
  if (!text) return json_string("");
  if (mx_utf8_valid_prefix((const uint8_t *)text, len) == len) return json_stringn(text, len);
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  mx_utf8_append_lossy(&b, (const uint8_t *)text, len);
  json_t *s = json_stringn(b.data ? b.data : "", b.len);
  mx_strbuf_free(&b);
  return s;
}

static char *dump(json_t *j) {
  char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
  json_decref(j);
  return s;
}

static json_t *usage_json(const mx_api_usage_t *u) {
  return json_pack("{s:i, s:i, s:i, s:{s:i}}", "prompt_tokens", u->prompt_tokens, "completion_tokens", u->completion_tokens,
                   "total_tokens", u->prompt_tokens + u->completion_tokens, "prompt_tokens_details", "cached_tokens",
                   u->cached_tokens);
}

static json_t *head(const char *object, const mx_api_meta_t *m) {
  return json_pack("{s:s, s:s, s:I, s:s}", "id", m->id, "object", object, "created", (json_int_t)m->created, "model", m->model);
}

/* --- logprobs ------------------------------------------------------------------------------ */

static double logprob_value(float x) { return isfinite(x) ? (double)x : -9999.0; }

static json_t *bytes_json(const char *b, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < n; i++) json_array_append_new(a, json_integer((uint8_t)b[i]));
  return a;
}

/* {"token", "logprob", "bytes"} of one token (chat). */
static json_t *chat_token(const mx_tokenizer_t *tok, int32_t id, float logprob) {
  size_t n = 0;
  const char *b = mx_tokenizer_token_bytes(tok, id, &n);
  if (!b) b = "", n = 0;
  return json_pack("{s:o, s:f, s:o}", "token", text_json(b, n), "logprob", logprob_value(logprob), "bytes", bytes_json(b, n));
}

static json_t *chat_logprobs(const mx_api_logprobs_t *lp) {
  json_t *content = json_array();
  for (size_t i = 0; content && i < lp->n; i++) {
    const mx_token_logprob_t *e = &lp->v[i];
    json_t *entry = chat_token(lp->tok, e->id, e->logprob), *top = json_array();
    for (int k = 0; top && k < e->n_top; k++) json_array_append_new(top, chat_token(lp->tok, e->top_id[k], e->top_logprob[k]));
    json_object_set_new(entry, "top_logprobs", top);
    json_array_append_new(content, entry);
  }
  return json_pack("{s:o, s:n}", "content", content, "refusal");
}

/* Characters (code points) of a token's text as JSON writes it. */
static size_t text_chars(const json_t *s) {
  size_t n = 0;
  for (const char *p = json_string_value(s); p && *p; p++) n += ((uint8_t)*p & 0xC0) != 0x80;
  return n;
}

static json_t *completion_logprobs(const mx_api_logprobs_t *lp) {
  json_t *tokens = json_array(), *values = json_array(), *tops = json_array(), *offsets = json_array();
  size_t at = lp->text_offset ? *lp->text_offset : 0;
  for (size_t i = 0; i < lp->n; i++) {
    const mx_token_logprob_t *e = &lp->v[i];
    size_t n = 0;
    const char *b = mx_tokenizer_token_bytes(lp->tok, e->id, &n);
    json_t *t = text_json(b ? b : "", b ? n : 0);
    json_t *top = json_object();
    for (int k = 0; k < e->n_top; k++) {
      b = mx_tokenizer_token_bytes(lp->tok, e->top_id[k], &n);
      json_t *key = text_json(b ? b : "", b ? n : 0);
      json_object_set_new(top, json_string_value(key), json_real(logprob_value(e->top_logprob[k])));
      json_decref(key);
    }
    json_object_set_new(top, json_string_value(t), json_real(logprob_value(e->logprob)));
    json_array_append_new(offsets, json_integer((json_int_t)at));
    at += text_chars(t);
    json_array_append_new(tokens, t);
    if (e->n_top < 0) { /* no logprob: an echoed prompt's first token, as OpenAI's null */
      json_decref(top);
      json_array_append_new(values, json_null());
      json_array_append_new(tops, json_null());
      continue;
    }
    json_array_append_new(values, json_real(logprob_value(e->logprob)));
    json_array_append_new(tops, top);
  }
  if (lp->text_offset) *lp->text_offset = at;
  return json_pack("{s:o, s:o, s:o, s:o}", "tokens", tokens, "token_logprobs", values, "top_logprobs", tops, "text_offset", offsets);
}

static json_t *logprobs_json(mx_api_kind_t kind, const mx_api_logprobs_t *lp) {
  if (!lp) return json_null();
  return kind == MX_API_CHAT ? chat_logprobs(lp) : completion_logprobs(lp);
}

/* [{"id", "type": "function", "function": {"name", "arguments"}}], with each call's "index" in a stream. */
static json_t *tool_calls_json(const mx_tool_calls_t *calls, bool indexed) {
  json_t *list = json_array();
  for (int k = 0; list && k < calls->n; k++) {
    const mx_tool_call_t *t = &calls->calls[k];
    json_t *call = json_pack("{s:s, s:s, s:{s:s, s:s}}", "id", t->id, "type", "function", "function", "name", t->name, "arguments",
                             t->arguments);
    if (call && indexed) json_object_set_new(call, "index", json_integer(k));
    if (!call || json_array_append_new(list, call)) {
      json_decref(list);
      return NULL;
    }
  }
  return list;
}

/* A chat answer's message: its text, or, with tool calls, the text before them (null when none) and the calls. */
static json_t *chat_message(const mx_api_choice_t *c) {
  if (!c->calls || !c->calls->n) return json_pack("{s:s, s:o}", "role", "assistant", "content", text_json(c->text, c->len));
  size_t n = c->calls->content_len;
  return json_pack("{s:s, s:o, s:o}", "role", "assistant", "content", n ? text_json(c->text, n) : json_null(), "tool_calls",
                   tool_calls_json(c->calls, false));
}

/* A chat chunk of choice `index` whose delta is {"tool_calls": list}. */
static char *tool_calls_chunk(const mx_api_meta_t *m, int index, json_t *list) {
  json_t *root = head("chat.completion.chunk", m);
  json_t *choice = json_pack("{s:i, s:{s:o}, s:n, s:n}", "index", index, "delta", "tool_calls", list, "logprobs", "finish_reason");
  if (!root || !choice) {
    json_decref(root);
    json_decref(choice);
    return NULL;
  }
  json_object_set_new(root, "choices", json_pack("[o]", choice));
  return dump(root);
}

char *mx_api_tool_calls_chunk_json(const mx_api_meta_t *m, int index, const mx_tool_calls_t *calls) {
  return tool_calls_chunk(m, index, tool_calls_json(calls, true));
}

char *mx_api_tool_call_delta_json(const mx_api_meta_t *m, int index, int call, const char *id, const char *name, const char *args,
                                  size_t args_len) {
  json_t *fn = json_pack("{s:o}", "arguments", text_json(args ? args : "", args_len));
  json_t *entry = json_pack("{s:i, s:o}", "index", call, "function", fn);
  if (entry && id && name) {
    json_object_set_new(entry, "id", json_string(id));
    json_object_set_new(entry, "type", json_string("function"));
    json_object_set_new(fn, "name", json_string(name));
  }
  return tool_calls_chunk(m, index, entry ? json_pack("[o]", entry) : NULL);
}

char *mx_api_response_json(mx_api_kind_t kind, const mx_api_meta_t *m, const mx_api_choice_t *choices, int n,
                           const mx_api_usage_t *usage) {
  json_t *root = head(kind == MX_API_CHAT ? "chat.completion" : "text_completion", m), *list = json_array();
  for (int i = 0; root && list && i < n; i++) {
    const mx_api_choice_t *c = &choices[i];
    json_t *choice = kind == MX_API_CHAT
                         ? json_pack("{s:i, s:o, s:o, s:s}", "index", i, "message", chat_message(c), "logprobs",
                                     logprobs_json(kind, c->lp), "finish_reason", c->finish)
                         : json_pack("{s:i, s:o, s:o, s:s}", "index", i, "text", text_json(c->text, c->len), "logprobs",
                                     logprobs_json(kind, c->lp), "finish_reason", c->finish);
    if (!choice || json_array_append_new(list, choice)) {
      json_decref(root);
      root = NULL;
    }
  }
  if (!root || !list) {
    json_decref(root);
    json_decref(list);
    return NULL;
  }
  json_object_set_new(root, "choices", list);
  json_object_set_new(root, "usage", usage_json(usage));
  return dump(root);
}

char *mx_api_chunk_json(mx_api_kind_t kind, const mx_api_meta_t *m, int index, const char *text, size_t len, const char *finish,
                        bool first, const mx_api_logprobs_t *lp) {
  json_t *root = head(kind == MX_API_CHAT ? "chat.completion.chunk" : "text_completion", m);
  json_t *choice = json_pack("{s:i, s:o}", "index", index, "logprobs", logprobs_json(kind, lp && lp->n ? lp : NULL));
  if (!root || !choice) {
    json_decref(root);
    json_decref(choice);
    return NULL;
  }
  if (kind == MX_API_CHAT) {
    json_t *delta = json_object();
    if (first) json_object_set_new(delta, "role", json_string("assistant"));
    if (first || (text && len)) json_object_set_new(delta, "content", text_json(text, len));
    json_object_set_new(choice, "delta", delta);
  } else {
    json_object_set_new(choice, "text", text_json(text, len));
  }
  json_object_set_new(choice, "finish_reason", finish ? json_string(finish) : json_null());
  json_object_set_new(root, "choices", json_pack("[o]", choice));
  return dump(root);
}

char *mx_api_usage_chunk_json(mx_api_kind_t kind, const mx_api_meta_t *m, const mx_api_usage_t *usage) {
  json_t *root = head(kind == MX_API_CHAT ? "chat.completion.chunk" : "text_completion", m);
  if (!root) return NULL;
  json_object_set_new(root, "choices", json_array());
  json_object_set_new(root, "usage", usage_json(usage));
  return dump(root);
}

char *mx_api_models_json(const char *const *names, int n, long long created) {
  json_t *data = json_array();
  for (int i = 0; i < n; i++)
    json_array_append_new(data, json_pack("{s:s, s:s, s:I, s:s}", "id", names[i], "object", "model", "created",
                                          (json_int_t)created, "owned_by", "mlxcel"));
  return dump(json_pack("{s:s, s:o}", "object", "list", "data", data));
}

char *mx_api_tokens_json(const int32_t *ids, size_t n, const char *const *pieces, const size_t *piece_lens) {
  json_t *arr = json_array();
  for (size_t i = 0; arr && i < n; i++) {
    if (!pieces) {
      json_array_append_new(arr, json_integer(ids[i]));
      continue;
    }
    json_t *piece;
    if (mx_utf8_valid_prefix((const uint8_t *)pieces[i], piece_lens[i]) == piece_lens[i]) {
      piece = json_stringn(pieces[i], piece_lens[i]);
    } else { /* part of a character: its bytes, which a client can join with the next piece's */
      piece = json_array();
      for (size_t k = 0; k < piece_lens[i]; k++) json_array_append_new(piece, json_integer((unsigned char)pieces[i][k]));
    }
    json_array_append_new(arr, json_pack("{s:i, s:o}", "id", ids[i], "piece", piece));
  }
  return dump(arr ? json_pack("{s:o}", "tokens", arr) : NULL);
}

char *mx_api_text_json(const char *field, const char *text, size_t len) {
  return dump(json_pack("{s:o}", field, text_json(text, len)));
}

char *mx_api_error_json(mx_status_t st, const mx_api_error_t *err) {
  char msg[1024];
  const char *remedy = st ? mx_status_remedy(st) : "";
  snprintf(msg, sizeof msg, "%s%s%s", st ? mx_status_message(st) : "unknown error", remedy[0] ? "; " : "", remedy);
  json_t *e = json_pack("{s:{s:o, s:s, s:o, s:o}}", "error", "message", text_json(msg, strlen(msg)), "type",
                        err->type ? err->type : "invalid_request_error", "param",
                        err->param[0] ? json_string(err->param) : json_null(), "code",
                        err->code[0] ? json_string(err->code) : json_null());
  char *s = dump(e);
  return s ? s : strdup("{\"error\":{\"message\":\"out of memory\",\"type\":\"server_error\",\"param\":null,\"code\":null}}");
}
