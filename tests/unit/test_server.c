/* The server's pure parts: OpenAI request validation (every bad-input class gets a 4xx naming the
 * field), the answer and stream-chunk JSON, SSE framing and the metrics text (the prompt helper the
 * server shares with generate is test_prompt.c).
 * The live server is tested by tests/server/openai_client_test.py with the official client. */
#include "testutil.h"

#include <jansson.h>
#include <pthread.h>

#include "server/metrics.h"
#include "server/openai.h"
#include "server/sse.h"
#include "server/tools.h"
#include "engine/json_schema.h"

static const mx_api_limits_t lim = {.max_tokens = 512, .vocab = 1000, .max_n = 4};

static mx_status_t parse(mx_api_kind_t kind, const char *body, mx_api_request_t *r, mx_api_error_t *e) {
  return mx_api_parse(kind, body, strlen(body), &lim, r, e);
}

/* Expects a refusal: HTTP status, param ("" for null), and a message fragment; one line. */
static void expect_bad(mx_api_kind_t kind, const char *body, int http, const char *param, const char *needle) {
  mx_api_request_t r;
  mx_api_error_t e;
  mx_status_t st = parse(kind, body, &r, &e);
  if (!st) fail_msg("accepted: %s", body);
  if (e.http_status != http || strcmp(e.param, param) != 0 || !strstr(mx_status_message(st), needle))
    fail_msg("body %s: got %d param '%s' message '%s'; expected %d '%s' '%s'", body, e.http_status, e.param,
             mx_status_message(st), http, param, needle);
  assert_string_equal(e.type, "invalid_request_error");
  assert_null(strchr(mx_status_message(st), '\n'));
  /* Nothing is left allocated in the request after a refusal. */
  assert_null(r.prompt);
  assert_null(r.context);
  assert_int_equal(r.n_stops, 0);
  mx_status_free(st);
}

static void expect_ok(mx_api_kind_t kind, const char *body, mx_api_request_t *r) {
  mx_api_error_t e;
  mx_status_t st = parse(kind, body, r, &e);
  if (st) fail_msg("refused %s: %s", body, mx_status_message(st));
}

static void malformed_bodies_are_refused(void **state) {
  (void)state;
  expect_bad(MX_API_COMPLETION, "", 400, "", "not valid JSON");
  expect_bad(MX_API_COMPLETION, "{\"prompt\": \"hi\"", 400, "", "not valid JSON");
  expect_bad(MX_API_COMPLETION, "{\"prompt\": \"hi\"} trailing", 400, "", "not valid JSON");
  expect_bad(MX_API_COMPLETION, "[\"prompt\"]", 400, "", "must be a JSON object");
  expect_bad(MX_API_COMPLETION, "\"prompt\"", 400, "", "must be a JSON object");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":\"a\",\"prompt\":\"b\"}", 400, "", "duplicate");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":\"\xff\xfe\"}", 400, "", "not valid UTF-8 (byte offset 11)");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":\"\xc0\xaf\"}", 400, "", "not valid UTF-8"); /* overlong */
  expect_bad(MX_API_COMPLETION, "{\"prompt\":\"\xed\xa0\x80\"}", 400, "", "not valid UTF-8"); /* surrogate */
  expect_bad(MX_API_COMPLETION, "{\"prompt\":\"a\\u0000b\"}", 400, "", "not valid JSON");    /* NUL inside */
  expect_bad(MX_API_COMPLETION, "{\"prompt\":\"\\ud800\"}", 400, "", "not valid JSON");      /* lone surrogate escape */
  /* A body with a NUL byte in the middle: the length, not the NUL, ends it. */
  mx_api_request_t r;
  mx_api_error_t e;
  mx_status_t st = mx_api_parse(MX_API_COMPLETION, "{\"prompt\":\"a\"}\0{", 15, &lim, &r, &e);
  assert_non_null(st);
  assert_int_equal(e.http_status, 400);
  mx_status_free(st);
}

static void wrong_types_name_the_field(void **state) {
  (void)state;
  const mx_api_kind_t C = MX_API_COMPLETION;
  expect_bad(C, "{\"prompt\":5}", 400, "prompt", "prompt must be a string, not an integer");
  expect_bad(C, "{\"prompt\":null}", 400, "prompt", "prompt must be a string, not null");
  expect_bad(C, "{\"prompt\":{}}", 400, "prompt", "must be a string");
  expect_bad(C, "{\"prompt\":\"a\",\"model\":3}", 400, "model", "model must be a string");
  expect_bad(C, "{\"prompt\":\"a\",\"max_tokens\":\"10\"}", 400, "max_tokens", "must be an integer, not a string");
  expect_bad(C, "{\"prompt\":\"a\",\"max_tokens\":1.5}", 400, "max_tokens", "must be an integer, not a number");
  expect_bad(C, "{\"prompt\":\"a\",\"temperature\":\"hot\"}", 400, "temperature", "must be a number, not a string");
  expect_bad(C, "{\"prompt\":\"a\",\"top_p\":true}", 400, "top_p", "must be a number, not a boolean");
  expect_bad(C, "{\"prompt\":\"a\",\"seed\":1.5}", 400, "seed", "seed must be an integer");
  expect_bad(C, "{\"prompt\":\"a\",\"stream\":\"yes\"}", 400, "stream", "must be a boolean");
  expect_bad(C, "{\"prompt\":\"a\",\"stop\":5}", 400, "stop", "string or an array of strings");
  expect_bad(C, "{\"prompt\":\"a\",\"stop\":[\"x\",1]}", 400, "stop", "stop[1] must be a string");
  expect_bad(C, "{\"prompt\":\"a\",\"stream\":true,\"stream_options\":[]}", 400, "stream_options", "must be an object");
  expect_bad(C, "{\"prompt\":\"a\",\"stream\":true,\"stream_options\":{\"include_usage\":1}}", 400,
             "stream_options.include_usage", "must be a boolean");
  expect_bad(C, "{\"prompt\":\"a\",\"user\":7}", 400, "user", "user must be a string");
  expect_bad(C, "{\"prompt\":\"a\",\"top_k\":2.5}", 400, "top_k", "must be an integer");
  const mx_api_kind_t K = MX_API_CHAT;
  expect_bad(K, "{\"messages\":\"hi\"}", 400, "messages", "must be an array, not a string");
  expect_bad(K, "{\"messages\":[1]}", 400, "messages[0]", "must be an object, not an integer");
  expect_bad(K, "{\"messages\":[{\"role\":5,\"content\":\"x\"}]}", 400, "messages[0].role", "must be a string");
  expect_bad(K, "{\"messages\":[{\"role\":\"user\",\"content\":5}]}", 400, "messages[0].content", "string or an array");
  expect_bad(K, "{\"messages\":[{\"role\":\"user\",\"content\":null}]}", 400, "messages[0].content", "string or an array");
  expect_bad(K, "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":3}]}]}", 400,
             "messages[0].content", "must be {\"type\":\"text\",\"text\":STRING}");
}

static void missing_and_empty_fields_are_refused(void **state) {
  (void)state;
  expect_bad(MX_API_COMPLETION, "{}", 400, "prompt", "prompt is missing");
  expect_bad(MX_API_COMPLETION, "{\"model\":\"m\",\"max_tokens\":5}", 400, "prompt", "prompt is missing");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":\"\"}", 400, "prompt", "prompt is empty");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":[]}", 400, "prompt", "prompt is empty");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":[\"a\",\"b\"]}", 400, "prompt", "holds 2 prompts; batches are not supported");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":[[1],[2]]}", 400, "prompt", "holds 2 prompts; batches are not supported");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":[1,1000]}", 400, "prompt", "prompt[1] is 1000, not a token id of this model (0 .. 999)");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":[1,-1]}", 400, "prompt", "prompt[1] is -1");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":[1,\"a\"]}", 400, "prompt", "prompt[1] must be a token id (an integer), not");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":[true]}", 400, "prompt", "a string or an array of token ids");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":[[]]}", 400, "prompt", "prompt is empty");
  mx_api_request_t r;
  expect_ok(MX_API_COMPLETION, "{\"prompt\":[5,0,999]}", &r); /* token ids, as given */
  assert_null(r.prompt);
  assert_int_equal(r.n_prompt_ids, 3);
  assert_int_equal(r.prompt_ids[0], 5);
  assert_int_equal(r.prompt_ids[2], 999);
  mx_api_request_free(&r);
  expect_ok(MX_API_COMPLETION, "{\"prompt\":[[7]]}", &r); /* one prompt in a one-element array */
  assert_int_equal(r.n_prompt_ids, 1);
  assert_int_equal(r.prompt_ids[0], 7);
  mx_api_request_free(&r);
  expect_bad(MX_API_COMPLETION, "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", 400, "messages",
             "/v1/completions takes prompt");
  expect_bad(MX_API_CHAT, "{}", 400, "messages", "messages is missing");
  expect_bad(MX_API_CHAT, "{\"messages\":[]}", 400, "messages", "messages is empty");
  expect_bad(MX_API_CHAT, "{\"prompt\":\"hi\"}", 400, "prompt", "/v1/chat/completions takes messages");
  expect_bad(MX_API_CHAT, "{\"messages\":[{\"content\":\"x\"}]}", 400, "messages[0].role", "is missing");
  expect_bad(MX_API_CHAT, "{\"messages\":[{\"role\":\"user\"}]}", 400, "messages[0].content", "is missing");
  expect_bad(MX_API_CHAT, "{\"messages\":[{\"role\":\"wizard\",\"content\":\"x\"}]}", 400, "messages[0].role", "'wizard'");
  expect_bad(MX_API_COMPLETION, "{\"prompt\":\"a\",\"stop\":\"\"}", 400, "stop", "stop[0] is empty");
}

static void numbers_out_of_range_are_refused(void **state) {
  (void)state;
  const mx_api_kind_t C = MX_API_COMPLETION;
  expect_bad(C, "{\"prompt\":\"a\",\"max_tokens\":0}", 400, "max_tokens", "at least 1");
  expect_bad(C, "{\"prompt\":\"a\",\"max_tokens\":-5}", 400, "max_tokens", "-5");
  expect_bad(C, "{\"prompt\":\"a\",\"max_tokens\":513}", 400, "max_tokens", "at most 512");
  expect_bad(C, "{\"prompt\":\"a\",\"max_tokens\":1000000000000000000}", 400, "max_tokens", "at most 512");
  expect_bad(C, "{\"prompt\":\"a\",\"max_tokens\":99999999999999999999999}", 400, "", "too big integer");
  expect_bad(MX_API_CHAT, "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_completion_tokens\":0}", 400,
             "max_completion_tokens", "at least 1");
  expect_bad(C, "{\"prompt\":\"a\",\"temperature\":-0.1}", 400, "temperature", "at least 0");
  expect_bad(C, "{\"prompt\":\"a\",\"temperature\":2.5}", 400, "temperature", "at most 2");
  expect_bad(C, "{\"prompt\":\"a\",\"top_p\":0}", 400, "top_p", "above 0");
  expect_bad(C, "{\"prompt\":\"a\",\"top_p\":1.01}", 400, "top_p", "at most 1");
  expect_bad(C, "{\"prompt\":\"a\",\"top_k\":-1}", 400, "top_k", "-1");
  expect_bad(C, "{\"prompt\":\"a\",\"min_p\":1}", 400, "min_p", "at most");
  expect_bad(C, "{\"prompt\":\"a\",\"repetition_penalty\":0}", 400, "repetition_penalty", "at least 0.01");
  /* Below ~1e-38 the penalty used to overflow the logits into NaN (issue 14, defect 6). */
  expect_bad(C, "{\"prompt\":\"a\",\"repetition_penalty\":1e-39}", 400, "repetition_penalty", "at least 0.01");
  expect_bad(C, "{\"prompt\":\"a\",\"stop\":[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\",\"9\"]}", 400, "stop", "at most 8");
  char body[600];
  snprintf(body, sizeof body, "{\"prompt\":\"a\",\"stop\":\"%0300d\"}", 0);
  expect_bad(C, body, 400, "stop", "at most 256");
}

static void unsupported_fields_are_refused_not_ignored(void **state) {
  (void)state;
  const mx_api_kind_t C = MX_API_COMPLETION, K = MX_API_CHAT;
  expect_bad(C, "{\"prompt\":\"a\",\"n\":5}", 400, "n", "n is 5; this server generates at most 4 choices per request");
  expect_bad(C, "{\"prompt\":\"a\",\"n\":0}", 400, "n", "n is 0; it must be 1 to 4");
  expect_bad(C, "{\"prompt\":\"a\",\"n\":\"2\"}", 400, "n", "n must be an integer");
  expect_bad(C, "{\"prompt\":\"a\",\"best_of\":3}", 400, "best_of", "not supported");
  expect_bad(C, "{\"prompt\":\"a\",\"echo\":1}", 400, "echo", "echo must be a boolean"); /* echo: true is served */
  expect_bad(C, "{\"prompt\":\"a\",\"suffix\":\"end\"}", 400, "suffix", "not supported");
  expect_bad(C, "{\"prompt\":\"a\",\"bogus\":1}", 400, "bogus", "unknown field 'bogus'");
  expect_bad(C, "{\"prompt\":\"a\",\"stream_options\":{\"include_usage\":true}}", 400, "stream_options",
             "only allowed when stream is true");
  expect_bad(C, "{\"prompt\":\"a\",\"stream\":true,\"stream_options\":{\"x\":true}}", 400, "stream_options", "not supported");
  expect_bad(C, "{\"prompt\":\"a\",\"tools\":[]}", 400, "tools", "unknown field"); /* a chat field */
  const char *msg = "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]";
  char body[512];
  static const struct {
    const char *field, *param;
  } chat_bad[] = {{"\"n\":9", "n"},
                  {"\"tools\":[{\"function\":{\"name\":\"f\"}}]", "tools[0]"},
                  {"\"tool_choice\":\"auto\"", "tool_choice"},
                  {"\"functions\":[{\"name\":\"f\"}]", "functions"},
                  {"\"function_call\":\"auto\"", "function_call"},
                  {"\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{}}", "response_format"},
                  {"\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"x\",\"schema\":"
                   "{\"type\":\"object\",\"properties\":{\"a\":{\"oneOf\":[]}}}}}", "response_format"},
                  {"\"response_format\":{\"type\":\"yaml\"}", "response_format"},
                  {"\"response_format\":\"json_object\"", "response_format"},
                  {"\"echo\":true", "echo"}, /* a completions field */
                  {"\"audio\":{}", "audio"}};
  for (size_t i = 0; i < sizeof chat_bad / sizeof chat_bad[0]; i++) {
    snprintf(body, sizeof body, "{%s,%s}", msg, chat_bad[i].field);
    expect_bad(K, body, 400, chat_bad[i].param, chat_bad[i].param);
  }
  expect_bad(K, "{\"messages\":[{\"role\":\"robot\",\"content\":\"x\"}]}", 400, "messages[0].role", "'robot'");
  expect_bad(K, "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]}]}",
             400, "messages[0].content", "not a text part");
}

/* Function calling: tools, tool_choice, assistant tool calls and tool results in messages. */
#define WEATHER                                                                                                        \
  "{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"description\":\"d\",\"parameters\":{\"type\":"     \
  "\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}}}"
#define CLOCK                                                                                                          \
  "{\"type\":\"function\",\"function\":{\"name\":\"get_time\",\"parameters\":{\"type\":\"object\",\"properties\":{"   \
  "\"zone\":{\"type\":\"string\",\"pattern\":\"^[A-Z]\"}}}}}"
#define ASK "{\"role\":\"user\",\"content\":\"w?\"}"

static void tool_fields(void **state) {
  (void)state;
  const mx_api_kind_t K = MX_API_CHAT;
  mx_api_request_t r;
  expect_ok(K,
            "{\"messages\":[" ASK ",{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":"
            "\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},{\"role\":"
            "\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"sunny\"}],\"tools\":[" WEATHER "," CLOCK "]}",
            &r);
  assert_int_equal(r.tool_choice, MX_TOOL_CHOICE_AUTO); /* the default with tools */
  assert_int_equal(r.n_tools, 2);
  const json_t *msgs = json_object_get(r.context, "messages");
  const json_t *call = json_array_get(json_object_get(json_array_get(msgs, 1), "tool_calls"), 0);
  assert_true(json_is_null(json_object_get(json_array_get(msgs, 1), "content")));
  /* arguments become the object they hold; the tool result gets its call's name */
  const json_t *args = json_object_get(json_object_get(call, "function"), "arguments");
  assert_string_equal(json_string_value(json_object_get(args, "city")), "Paris");
  assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 2), "name")), "get_weather");
  assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 2), "tool_call_id")), "call_1");
  assert_int_equal(json_array_size(json_object_get(r.context, "tools")), 2);
  mx_api_request_free(&r);
  static const struct {
    const char *choice;
    mx_tool_choice_t want;
    int named;
  } choices[] = {{"\"none\"", MX_TOOL_CHOICE_NONE, 0},
                 {"\"auto\"", MX_TOOL_CHOICE_AUTO, 0},
                 {"\"required\"", MX_TOOL_CHOICE_REQUIRED, 0},
                 {"{\"type\":\"function\",\"function\":{\"name\":\"get_time\"}}", MX_TOOL_CHOICE_NAMED, 1}};
  char body[1024];
  for (size_t i = 0; i < sizeof choices / sizeof choices[0]; i++) {
    snprintf(body, sizeof body, "{\"messages\":[" ASK "],\"tools\":[" WEATHER "," CLOCK "],\"tool_choice\":%s}", choices[i].choice);
    expect_ok(K, body, &r);
    assert_int_equal(r.tool_choice, choices[i].want);
    assert_int_equal(r.tool_named, choices[i].named);
    mx_api_request_free(&r);
  }
  static const struct {
    const char *field, *param, *needle;
  } bad[] = {
      {"\"tools\":[" WEATHER "],\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"nope\"}}", "tool_choice",
       "'nope', which is not one of tools"},
      {"\"tools\":[" WEATHER "],\"tool_choice\":\"sometimes\"", "tool_choice", "'sometimes' is not none"},
      {"\"tools\":[" WEATHER "],\"tool_choice\":5", "tool_choice", "tool_choice must be"},
      {"\"tool_choice\":\"required\"", "tool_choice", "needs tools"},
      {"\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"a b\"}}]", "tools[0]", "1 to 64 letters"},
      {"\"tools\":[{\"type\":\"retrieval\"}]", "tools[0]", "\"function\""},
      {"\"tools\":[" WEATHER "," WEATHER "]", "tools[1]", "given twice"},
      {"\"tools\":{}", "tools", "must be an array"},
      {"\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"strict\":true,\"parameters\":{\"type\":\"object\","
       "\"properties\":{\"x\":{\"type\":\"string\",\"format\":\"date\"}}}}}]",
       "tools[0]", "'format' is not supported"},
      {"\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"color\":1}}]", "function.color", "not a field"},
      {"\"tools\":[" WEATHER "],\"tool_choice\":\"required\",\"response_format\":{\"type\":\"json_object\"}",
       "response_format", "cannot be combined"},
      {"\"parallel_tool_calls\":\"yes\"", "parallel_tool_calls", "boolean"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    snprintf(body, sizeof body, "{\"messages\":[" ASK "],%s}", bad[i].field);
    expect_bad(K, body, 400, bad[i].param, bad[i].needle);
  }
  expect_bad(K, "{\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}", 400, "messages[0].tool_call_id", "is missing");
  expect_bad(K, "{\"messages\":[{\"role\":\"user\",\"content\":\"x\",\"tool_calls\":[]}]}", 400, "messages[0].tool_calls",
             "not supported on a message of role user");
  expect_bad(K, "{\"messages\":[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"a\",\"type\":\"function\",\"function\":{"
                "\"name\":\"f\",\"arguments\":\"[1]\"}}]}]}",
             400, "messages[0].tool_calls[0]", "JSON text of an object");
  expect_bad(K, "{\"messages\":[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"a\",\"type\":\"function\",\"function\":{"
                "\"name\":\"f\",\"arguments\":{}}}]}]}",
             400, "messages[0].tool_calls[0]", "must be a string (JSON text)");
  expect_bad(K, "{\"messages\":[{\"role\":\"assistant\",\"content\":null}]}", 400, "messages[0].content", "not null");
  expect_bad(K, "{\"messages\":[{\"role\":\"assistant\"}]}", 400, "messages[0].content", "is missing");
}

static bool schema_takes(const char *schema, const char *doc) {
  mx_schema_t *sc = NULL;
  if (mx_schema_compile(schema, strlen(schema), &sc)) fail_msg("does not compile: %s", schema);
  mx_schema_state_t st;
  mx_schema_start(&st, sc);
  bool ok = mx_schema_feed(&st, (const uint8_t *)doc, strlen(doc)) && st.done;
  mx_schema_free(sc);
  return ok;
}

/* The formats of templates, forced calls' schemas, and calls read back out of answers. */
static void tool_calls_read_back(void **state) {
  (void)state;
  assert_int_equal(mx_tool_format_of("{{ '<tool_call>' }}{% for t in tools %}"), MX_TOOL_FORMAT_HERMES);
  assert_int_equal(mx_tool_format_of("ipython {{ '\"parameters\": ' }} tools"), MX_TOOL_FORMAT_LLAMA3_JSON);
  assert_int_equal(mx_tool_format_of("{% if tools %}[TOOL_CALLS]{% endif %}"), MX_TOOL_FORMAT_UNPARSED);
  assert_int_equal(mx_tool_format_of("{{ messages[0].content }}"), MX_TOOL_FORMAT_NONE);
  assert_int_equal(mx_tool_format_of(NULL), MX_TOOL_FORMAT_NONE);
  json_t *tools = json_loads("[" WEATHER "," CLOCK "]", 0, NULL);
  assert_non_null(tools);
  const mx_tool_format_t H = MX_TOOL_FORMAT_HERMES, L = MX_TOOL_FORMAT_LLAMA3_JSON;
  static const struct {
    mx_tool_format_t f;
    bool forced;
    const char *text;
    int calls;
    size_t content;      /* content_len */
    const char *args0;   /* the first call's arguments */
  } cases[] = {
      {H, false, "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n"
                 "<tool_call>{\"name\":\"get_time\",\"arguments\":{}}</tool_call>",
       2, 13, "{\"city\": \"Paris\"}"}, /* the arguments as written */
      {H, false, "<tool_call>{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Oslo\\\"}\"}", 1, 0, "{\"city\":\"Oslo\"}"},
      {H, false, "<tool_call>{\"name\":\"launch\",\"arguments\":{}}</tool_call>", 0, 0, NULL},          /* not a tool */
      {H, false, "<tool_call>{\"name\":\"get_time\",\"arguments\":{</tool_call>", 0, 0, NULL},         /* broken JSON */
      {H, false, "<tool_call>{\"name\":\"get_time\",\"arguments\":{}}</tool_call> and more", 0, 0, NULL}, /* text after */
      {H, false, "<tool_call>{\"name\":\"get_time\",\"arguments\":{},\"x\":1}</tool_call>", 0, 0, NULL},
      {H, false, "Just text.", 0, 0, NULL},
      {L, false, " <|python_tag|>{\"name\":\"get_weather\",\"parameters\":{\"city\":\"Rome\"}}", 1, 0, "{\"city\":\"Rome\"}"},
      {L, false, "{\"name\":\"get_weather\",\"parameters\":{\"city\":\"Rome\"}} ok", 0, 0, NULL},
      {L, false, "The weather is nice.", 0, 0, NULL},
      {H, true, "{\"name\":\"get_time\",\"arguments\":{\"zone\":\"UTC\"}}", 1, 0, "{\"zone\":\"UTC\"}"},
      {L, true, "{\"name\":\"get_time\",\"parameters\":{\"zone\":\"UTC\"", 0, 0, NULL}, /* cut by max_tokens */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mx_tool_calls_t c;
    size_t len = strlen(cases[i].text);
    assert_null(mx_tool_calls_parse(cases[i].f, tools, cases[i].forced, cases[i].text, len, &c));
    if (c.n != cases[i].calls) fail_msg("case %zu: %d calls, want %d", i, c.n, cases[i].calls);
    assert_int_equal(c.content_len, cases[i].calls ? cases[i].content : len);
    if (cases[i].args0) assert_string_equal(c.calls[0].arguments, cases[i].args0);
    mx_tool_calls_free(&c);
  }
  /* Streaming holds back a call and what may become one, and the whitespace before it. */
  static const struct {
    mx_tool_format_t f;
    const char *text;
    size_t ready;
  } ready[] = {{H, "Hello <tool", 5}, {H, "Hello", 5}, {H, "Hi\n<tool_call>{", 2}, {H, "a <b> c", 7},
               {L, " {\"na", 0},      {L, "Sure", 4},  {L, "<|pyth", 0},          {L, "  ", 0}};
  for (size_t i = 0; i < sizeof ready / sizeof ready[0]; i++)
    if (mx_tool_content_ready(ready[i].f, ready[i].text, strlen(ready[i].text)) != ready[i].ready)
      fail_msg("ready '%s': %zu, want %zu", ready[i].text, mx_tool_content_ready(ready[i].f, ready[i].text, strlen(ready[i].text)),
               ready[i].ready);
  /* A forced call streamed as it is written: the name once whole, then pieces of the arguments that join
   * to exactly what the whole text reads back (strings with braces, escapes and nesting included). */
  const char *forced = "{\"name\": \"get_time\", \"arguments\": {\"zone\": \"U\\\"}TC\", \"n\": [1, {\"a\": \"]}\"}]} }";
  size_t flen = strlen(forced), sent = 0, name_at = strstr(forced, "\", \"arg") - forced + 1;
  char name[32], joined[256] = "";
  for (size_t L = 1; L <= flen; L++) {
    bool named = mx_tool_call_name(forced, L, name, sizeof name);
    if (named != (L >= name_at)) fail_msg("name at %zu: %d", L, named);
    size_t a, b;
    bool done;
    if (!mx_tool_call_arguments(H, forced, L, &a, &b, &done)) continue;
    if (sent < a) sent = a;
    strncat(joined, forced + sent, b - sent);
    sent = b;
    if (L == flen) assert_true(done);
  }
  assert_string_equal(name, "get_time");
  mx_tool_calls_t fc;
  assert_null(mx_tool_calls_parse(H, tools, true, forced, flen, &fc));
  assert_int_equal(fc.n, 1);
  assert_string_equal(fc.calls[0].arguments, joined);
  mx_tool_calls_free(&fc);
  /* A forced call's schema: the named function's parameters, or any object where they are not of the subset. */
  char *named = mx_tool_call_schema(H, tools, 0), *any = mx_tool_call_schema(H, tools, -1), *pattern = mx_tool_call_schema(L, tools, 1);
  assert_true(schema_takes(named, "{\"name\":\"get_weather\",\"arguments\":{\"city\":\"X\"}}"));
  assert_false(schema_takes(named, "{\"name\":\"get_time\",\"arguments\":{\"city\":\"X\"}}"));
  assert_false(schema_takes(named, "{\"name\":\"get_weather\",\"arguments\":{\"town\":\"X\"}}"));
  assert_true(schema_takes(any, "{\"name\":\"get_time\",\"arguments\":{\"zone\":{\"a\":[1,true,null]}}}"));
  assert_false(schema_takes(any, "{\"name\":\"get_date\",\"arguments\":{}}"));
  assert_false(schema_takes(any, "{\"name\":\"get_weather\",\"arguments\":{\"town\":\"X\"}}")); /* its own schema */
  assert_true(schema_takes(any, "{\"name\":\"get_weather\",\"arguments\":{\"city\":\"X\"}}"));
  assert_true(schema_takes(pattern, "{\"name\":\"get_time\",\"parameters\":{\"anything\":\"goes\"}}"));
  assert_false(schema_takes(pattern, "{\"name\":\"get_time\",\"arguments\":{}}"));
  free(named);
  free(any);
  free(pattern);
  json_decref(tools);
}

/* logprobs: chat's boolean and top_logprobs 0..20 (only with logprobs: true), completions' count 0..5. */
static void logprobs_fields(void **state) {
  (void)state;
  const mx_api_kind_t C = MX_API_COMPLETION, K = MX_API_CHAT;
  mx_api_request_t r;
  expect_ok(C, "{\"prompt\":\"a\",\"logprobs\":0}", &r); /* 0 still asks for the chosen token's */
  assert_true(r.logprobs);
  assert_int_equal(r.top_logprobs, 0);
  mx_api_request_free(&r);
  expect_ok(C, "{\"prompt\":\"a\",\"logprobs\":5}", &r);
  assert_true(r.logprobs);
  assert_int_equal(r.top_logprobs, 5);
  mx_api_request_free(&r);
  expect_ok(C, "{\"prompt\":\"a\",\"logprobs\":null}", &r);
  assert_false(r.logprobs);
  mx_api_request_free(&r);
  expect_bad(C, "{\"prompt\":\"a\",\"logprobs\":6}", 400, "logprobs", "0 to 5");
  expect_bad(C, "{\"prompt\":\"a\",\"logprobs\":true}", 400, "logprobs", "must be an integer");
  expect_bad(C, "{\"prompt\":\"a\",\"top_logprobs\":2}", 400, "top_logprobs", "unknown field");
  const char *msg = "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]";
  char body[256];
  snprintf(body, sizeof body, "%s,\"logprobs\":true,\"top_logprobs\":20}", msg);
  expect_ok(K, body, &r);
  assert_true(r.logprobs);
  assert_int_equal(r.top_logprobs, 20);
  mx_api_request_free(&r);
  snprintf(body, sizeof body, "%s,\"top_logprobs\":3,\"logprobs\":true}", msg); /* in either order */
  expect_ok(K, body, &r);
  assert_int_equal(r.top_logprobs, 3);
  mx_api_request_free(&r);
  snprintf(body, sizeof body, "%s,\"logprobs\":false,\"top_logprobs\":null}", msg);
  expect_ok(K, body, &r);
  assert_false(r.logprobs);
  mx_api_request_free(&r);
  snprintf(body, sizeof body, "%s,\"top_logprobs\":2}", msg);
  expect_bad(K, body, 400, "top_logprobs", "needs logprobs: true");
  snprintf(body, sizeof body, "%s,\"logprobs\":true,\"top_logprobs\":21}", msg);
  expect_bad(K, body, 400, "top_logprobs", "0 to 20");
  snprintf(body, sizeof body, "%s,\"logprobs\":1}", msg);
  expect_bad(K, body, 400, "logprobs", "must be a boolean");
}

/* OpenAI's ranges and shapes for the penalties and logit_bias; the values reach the sampling. */
static void penalties_and_logit_bias(void **state) {
  (void)state;
  const mx_api_kind_t C = MX_API_COMPLETION;
  expect_bad(C, "{\"prompt\":\"a\",\"presence_penalty\":2.5}", 400, "presence_penalty", "at most 2");
  expect_bad(C, "{\"prompt\":\"a\",\"frequency_penalty\":-2.01}", 400, "frequency_penalty", "at least -2");
  expect_bad(C, "{\"prompt\":\"a\",\"frequency_penalty\":\"1\"}", 400, "frequency_penalty", "must be a number");
  expect_bad(C, "{\"prompt\":\"a\",\"logit_bias\":[1]}", 400, "logit_bias", "must be an object");
  expect_bad(C, "{\"prompt\":\"a\",\"logit_bias\":{\"x\":1}}", 400, "logit_bias", "'x' is not a token id");
  expect_bad(C, "{\"prompt\":\"a\",\"logit_bias\":{\"-1\":1}}", 400, "logit_bias", "'-1' is not a token id");
  expect_bad(C, "{\"prompt\":\"a\",\"logit_bias\":{\"007\":1}}", 400, "logit_bias", "'007' is not a token id");
  expect_bad(C, "{\"prompt\":\"a\",\"logit_bias\":{\"1000\":1}}", 400, "logit_bias", "outside the vocabulary of 1000");
  expect_bad(C, "{\"prompt\":\"a\",\"logit_bias\":{\"5\":101}}", 400, "logit_bias", "at most 100");
  expect_bad(C, "{\"prompt\":\"a\",\"logit_bias\":{\"5\":true}}", 400, "logit_bias", "must be a number");
  char body[8192];
  int n = snprintf(body, sizeof body, "{\"prompt\":\"a\",\"logit_bias\":{");
  for (int i = 0; i <= MX_SAMPLING_MAX_BIASED; i++) n += snprintf(body + n, sizeof body - (size_t)n, "%s\"%d\":1", i ? "," : "", i);
  snprintf(body + n, sizeof body - (size_t)n, "}}");
  expect_bad(C, body, 400, "logit_bias", "301 entries; at most 300");
  mx_api_request_t r;
  expect_ok(C, "{\"prompt\":\"a\",\"presence_penalty\":-2,\"frequency_penalty\":1.5,\"logit_bias\":{\"0\":-100,\"999\":2.5}}", &r);
  assert_true(r.sampling.presence_penalty == -2.0f && r.sampling.frequency_penalty == 1.5f);
  assert_int_equal(r.sampling.n_bias, 2);
  assert_true(r.sampling.bias[0].id == 0 && r.sampling.bias[0].bias == -100.0f);
  assert_true(r.sampling.bias[1].id == 999 && r.sampling.bias[1].bias == 2.5f);
  assert_false(mx_sampling_is_greedy(&r.sampling));
  mx_api_request_free(&r);
  expect_ok(MX_API_CHAT, "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"presence_penalty\":null,\"logit_bias\":null}", &r);
  assert_int_equal(r.sampling.n_bias, 0);
  mx_api_request_free(&r);
}

static void neutral_values_of_unsupported_fields_pass(void **state) {
  (void)state;
  mx_api_request_t r;
  expect_ok(MX_API_COMPLETION,
            "{\"prompt\":\"a\",\"n\":1,\"best_of\":1,\"echo\":false,\"suffix\":null,\"logprobs\":null,\"presence_penalty\":0,"
            "\"frequency_penalty\":0.0,\"logit_bias\":{},\"user\":\"u\",\"temperature\":null,\"stop\":null,\"max_tokens\":null}",
            &r);
  assert_int_equal(r.max_tokens, 0);
  assert_int_equal(r.n_stops, 0);
  assert_true(r.sampling.temperature == 1.0f);
  assert_false(r.echo);
  mx_api_request_free(&r);
  expect_ok(MX_API_CHAT, "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"response_format\":{\"type\":\"json_object\"}}", &r);
  assert_true(r.json_object);
  mx_api_request_free(&r);
  expect_ok(MX_API_CHAT,
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"response_format\":{\"type\":\"json_schema\",\"json_schema\":"
            "{\"name\":\"x\",\"strict\":true,\"schema\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}}}}}}",
            &r);
  assert_string_equal(r.json_schema, "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}}}");
  mx_api_request_free(&r);
  expect_ok(MX_API_COMPLETION, "{\"prompt\":\"a\",\"echo\":true,\"logprobs\":2}", &r);
  assert_true(r.echo && r.logprobs);
  assert_int_equal(r.top_logprobs, 2);
  mx_api_request_free(&r);
  expect_ok(MX_API_CHAT,
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\",\"name\":\"bob\"}],\"logprobs\":false,\"tools\":[],"
            "\"tool_choice\":\"none\",\"parallel_tool_calls\":true,\"response_format\":{\"type\":\"text\"},\"top_logprobs\":null}",
            &r);
  mx_api_request_free(&r);
}

static void valid_requests_carry_their_parameters(void **state) {
  (void)state;
  mx_api_request_t r;
  expect_ok(MX_API_COMPLETION,
            "{\"model\":\"smol\",\"prompt\":\"Once upon\",\"max_tokens\":7,\"temperature\":0,\"top_p\":0.9,\"seed\":42,"
            "\"stop\":\"\\n\",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"top_k\":5,\"min_p\":0.1,"
            "\"repetition_penalty\":1.1,\"ignore_eos\":true}",
            &r);
  assert_string_equal(r.model, "smol");
  assert_string_equal(r.prompt, "Once upon");
  assert_int_equal(r.prompt_len, 9);
  assert_int_equal(r.max_tokens, 7);
  assert_true(r.sampling.temperature == 0.0f);
  assert_true(r.sampling.top_p == 0.9f);
  assert_true(r.has_seed);
  assert_int_equal(r.sampling.seed, 42);
  assert_int_equal(r.sampling.top_k, 5);
  assert_true(r.stream && r.include_usage && r.ignore_eos);
  assert_int_equal(r.n_stops, 1);
  assert_string_equal(r.stops[0], "\n");
  mx_api_request_free(&r);
  expect_ok(MX_API_COMPLETION, "{\"prompt\":[\"only one\"],\"stop\":[\"a\",\"bb\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\"]}", &r);
  assert_string_equal(r.prompt, "only one");
  assert_int_equal(r.n_stops, 8);
  assert_string_equal(r.stops[7], "h");
  assert_false(r.has_seed);
  assert_null(r.model);
  mx_api_request_free(&r);
  expect_ok(MX_API_CHAT,
            "{\"messages\":[{\"role\":\"developer\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\","
            "\"text\":\"Hello\"},{\"type\":\"text\",\"text\":\"there\"}]},{\"role\":\"assistant\",\"content\":\"\"}],"
            "\"max_tokens\":9,\"max_completion_tokens\":11}",
            &r);
  const json_t *msgs = json_object_get(r.context, "messages");
  assert_int_equal(json_array_size(msgs), 3);
  assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 0), "role")), "system");
  assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 1), "content")), "Hello\nthere");
  assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 2), "content")), "");
  assert_null(json_object_get(r.context, "tools"));
  assert_int_equal(r.tool_choice, MX_TOOL_CHOICE_NONE);
  assert_int_equal(r.max_tokens, 11); /* max_completion_tokens wins */
  mx_api_request_free(&r);
  /* Unicode survives: escapes and raw UTF-8 alike. */
  expect_ok(MX_API_COMPLETION, "{\"prompt\":\"caf\\u00e9 \xe2\x9c\x93\"}", &r);
  assert_string_equal(r.prompt, "caf\xc3\xa9 \xe2\x9c\x93");
  mx_api_request_free(&r);
}

static void prompt_length_checks(void **state) {
  (void)state;
  mx_api_error_t e;
  assert_ok(mx_api_check_prompt(10, 512, &e));
  assert_ok(mx_api_check_prompt(512, 512, &e));
  mx_status_t st = mx_api_check_prompt(513, 512, &e);
  assert_non_null(st);
  assert_int_equal(e.http_status, 400);
  assert_string_equal(e.code, "context_length_exceeded");
  assert_non_null(strstr(mx_status_message(st), "513 tokens"));
  mx_status_free(st);
  st = mx_api_check_prompt(0, 512, &e);
  assert_non_null(st);
  mx_status_free(st);
}

/* --- answers --------------------------------------------------------------------------------- */

static json_t *load(char *text) {
  assert_non_null(text);
  json_error_t je;
  json_t *j = json_loads(text, 0, &je);
  if (!j) fail_msg("not JSON (%s): %s", je.text, text);
  assert_null(strchr(text, '\n')); /* compact: one SSE data line */
  free(text);
  return j;
}

static const char *str_at(json_t *j, const char *path) {
  json_t *v = j;
  char buf[128];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *tok = strtok(buf, "."); tok && v; tok = strtok(NULL, "."))
    v = (tok[0] >= '0' && tok[0] <= '9') ? json_array_get(v, (size_t)atoi(tok)) : json_object_get(v, tok);
  return json_is_string(v) ? json_string_value(v) : NULL;
}

static long long int_at(json_t *j, const char *obj, const char *key) {
  return json_integer_value(json_object_get(json_object_get(j, obj), key));
}

static void error_objects_have_the_openai_shape(void **state) {
  (void)state;
  mx_api_error_t e;
  mx_api_error_set(&e, 404, "invalid_request_error", "model", "model_not_found");
  mx_status_t st = mx_status_make(MX_STAGE_USAGE, "use GET /v1/models", "the model 'x' does not exist");
  json_t *j = load(mx_api_error_json(st, &e));
  mx_status_free(st);
  json_t *err = json_object_get(j, "error");
  assert_int_equal(json_object_size(j), 1);
  assert_int_equal(json_object_size(err), 4);
  assert_string_equal(str_at(j, "error.message"), "the model 'x' does not exist; use GET /v1/models");
  assert_string_equal(str_at(j, "error.type"), "invalid_request_error");
  assert_string_equal(str_at(j, "error.param"), "model");
  assert_string_equal(str_at(j, "error.code"), "model_not_found");
  json_decref(j);
  /* No param, no code: JSON nulls, not empty strings. */
  mx_api_error_set(&e, 400, "invalid_request_error", NULL, NULL);
  st = mx_status_make(MX_STAGE_USAGE, NULL, "bad \"quote\" and \xff byte");
  j = load(mx_api_error_json(st, &e));
  mx_status_free(st);
  assert_true(json_is_null(json_object_get(json_object_get(j, "error"), "param")));
  assert_true(json_is_null(json_object_get(json_object_get(j, "error"), "code")));
  assert_string_equal(str_at(j, "error.message"), "bad \"quote\" and \xef\xbf\xbd byte");
  json_decref(j);
}

static void responses_carry_text_finish_and_usage(void **state) {
  (void)state;
  mx_api_meta_t m = {.id = "cmpl-1", .created = 1700000000, .model = "smol"};
  mx_api_choice_t one = {.text = "Hello", .len = 5, .finish = "length"};
  json_t *j = load(mx_api_response_json(MX_API_COMPLETION, &m, &one, 1, &(mx_api_usage_t){3, 16, 0}));
  assert_string_equal(str_at(j, "object"), "text_completion");
  assert_string_equal(str_at(j, "id"), "cmpl-1");
  assert_string_equal(str_at(j, "model"), "smol");
  assert_int_equal(json_integer_value(json_object_get(j, "created")), 1700000000);
  assert_string_equal(str_at(j, "choices.0.text"), "Hello");
  assert_string_equal(str_at(j, "choices.0.finish_reason"), "length");
  assert_int_equal(int_at(j, "usage", "prompt_tokens"), 3);
  assert_int_equal(int_at(j, "usage", "completion_tokens"), 16);
  assert_int_equal(int_at(j, "usage", "total_tokens"), 19);
  json_decref(j);
  m.id = "chatcmpl-2";
  /* Bytes that are not UTF-8 (a split character) come out as U+FFFD, never as broken JSON. */
  one = (mx_api_choice_t){.text = "ok\xe2\x9c", .len = 4, .finish = "stop"};
  j = load(mx_api_response_json(MX_API_CHAT, &m, &one, 1, &(mx_api_usage_t){10, 2, 0}));
  assert_string_equal(str_at(j, "object"), "chat.completion");
  assert_string_equal(str_at(j, "choices.0.message.role"), "assistant");
  assert_string_equal(str_at(j, "choices.0.message.content"), "ok\xef\xbf\xbd");
  assert_string_equal(str_at(j, "choices.0.finish_reason"), "stop");
  json_decref(j);
  /* n choices: each with its index, text and finish; usage counts the prompt once. */
  mx_api_choice_t two[2] = {{.text = "a", .len = 1, .finish = "stop"}, {.text = "bc", .len = 2, .finish = "length"}};
  j = load(mx_api_response_json(MX_API_COMPLETION, &m, two, 2, &(mx_api_usage_t){3, 5, 0}));
  assert_int_equal(json_array_size(json_object_get(j, "choices")), 2);
  assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(j, "choices"), 1), "index")), 1);
  assert_string_equal(str_at(j, "choices.1.text"), "bc");
  assert_string_equal(str_at(j, "choices.1.finish_reason"), "length");
  assert_string_equal(str_at(j, "choices.0.text"), "a");
  assert_int_equal(int_at(j, "usage", "total_tokens"), 8);
  json_decref(j);
}

static void stream_chunks_follow_openai(void **state) {
  (void)state;
  mx_api_meta_t m = {.id = "chatcmpl-3", .created = 5, .model = "smol"};
  json_t *j = load(mx_api_chunk_json(MX_API_CHAT, &m, 0, "", 0, NULL, true, NULL));
  assert_string_equal(str_at(j, "object"), "chat.completion.chunk");
  assert_string_equal(str_at(j, "choices.0.delta.role"), "assistant");
  assert_string_equal(str_at(j, "choices.0.delta.content"), "");
  assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j, "choices"), 0), "finish_reason")));
  json_decref(j);
  j = load(mx_api_chunk_json(MX_API_CHAT, &m, 0, "Hi\n", 3, NULL, false, NULL));
  assert_null(str_at(j, "choices.0.delta.role"));
  assert_string_equal(str_at(j, "choices.0.delta.content"), "Hi\n");
  json_decref(j);
  j = load(mx_api_chunk_json(MX_API_CHAT, &m, 0, NULL, 0, "length", false, NULL));
  assert_int_equal(json_object_size(json_object_get(json_array_get(json_object_get(j, "choices"), 0), "delta")), 0);
  assert_string_equal(str_at(j, "choices.0.finish_reason"), "length");
  json_decref(j);
  j = load(mx_api_chunk_json(MX_API_COMPLETION, &m, 2, "tok", 3, NULL, false, NULL));
  assert_string_equal(str_at(j, "object"), "text_completion");
  assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(j, "choices"), 0), "index")), 2);
  assert_string_equal(str_at(j, "choices.0.text"), "tok");
  json_decref(j);
  j = load(mx_api_usage_chunk_json(MX_API_CHAT, &m, &(mx_api_usage_t){4, 6, 2}));
  assert_int_equal(json_array_size(json_object_get(j, "choices")), 0);
  assert_int_equal(int_at(j, "usage", "total_tokens"), 10);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(j, "usage"), "prompt_tokens_details"),
                                                      "cached_tokens")),
                   2);
  json_decref(j);
  const char *names[] = {"smol"};
  j = load(mx_api_models_json(names, 1, 9));
  assert_string_equal(str_at(j, "object"), "list");
  assert_string_equal(str_at(j, "data.0.id"), "smol");
  assert_string_equal(str_at(j, "data.0.object"), "model");
  json_decref(j);
}

static void sse_framing(void **state) {
  (void)state;
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  mx_sse_event(&b, "{\"a\":1}");
  assert_string_equal(b.data, "data: {\"a\":1}\n\n");
  b.len = 0;
  /* A newline of any kind inside the data starts a new data line, never ends the event early. */
  mx_sse_event(&b, "one\ntwo\r\nthree\rfour");
  assert_string_equal(b.data, "data: one\ndata: two\ndata: three\ndata: four\n\n");
  b.len = 0;
  mx_sse_event(&b, "");
  assert_string_equal(b.data, "data: \n\n");
  b.len = 0;
  mx_sse_done(&b);
  assert_string_equal(b.data, "data: [DONE]\n\n");
  b.len = 0;
  mx_sse_comment(&b, "waiting\ninjected: x");
  assert_string_equal(b.data, ": waiting\n\n");
  mx_strbuf_free(&b);
}

/* --- metrics --------------------------------------------------------------------------------- */

static bool has_line(const char *text, const char *line) {
  size_t n = strlen(line);
  for (const char *p = text; (p = strstr(p, line)); p += n)
    if ((p == text || p[-1] == '\n') && p[n] == '\n') return true;
  return false;
}

static void metrics_text(void **state) {
  (void)state;
  mx_metrics_t *m = mx_metrics_create();
  mx_metrics_request(m, MX_EP_COMPLETIONS, 200);
  mx_metrics_request(m, MX_EP_COMPLETIONS, 200);
  mx_metrics_request(m, MX_EP_COMPLETIONS, 400);
  mx_metrics_request(m, MX_EP_CHAT, 200);
  mx_metrics_request(m, MX_EP_OTHER, 404);
  mx_metrics_generation(m, &(mx_metrics_generation_t){.prompt_tokens = 10, .completion_tokens = 5, .ttft_ms = 30,
                                                     .decode_ms = 80, .queue_ms = 2, .finish = "length"});
  mx_metrics_generation(m, &(mx_metrics_generation_t){.prompt_tokens = 7, .completion_tokens = 1, .ttft_ms = 2000,
                                                     .finish = "stop"});
  mx_metrics_generation(m, &(mx_metrics_generation_t){.prompt_tokens = 3, .completion_tokens = 2, .ttft_ms = 9000, .finish = "cancelled"});
  mx_metrics_device_t d[2] = {
      {.device = "local-task", .slots = 4, .active = 1, .queued = 2, .requests = 17, .healthy = true, .has_memory = true, .device_bytes = 1234,
       .device_bytes_peak = 5678},
      {.device = "we\"ird\\", .slots = 4},
  };
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  mx_metrics_render(m, d, 2, &b);
  const char *t = b.data;
  assert_true(has_line(t, "# TYPE mlxcel_http_requests_total counter"));
  assert_true(has_line(t, "mlxcel_http_requests_total{endpoint=\"/v1/completions\",status=\"200\"} 2"));
  assert_true(has_line(t, "mlxcel_http_requests_total{endpoint=\"/v1/completions\",status=\"400\"} 1"));
  assert_true(has_line(t, "mlxcel_http_requests_total{endpoint=\"/v1/chat/completions\",status=\"200\"} 1"));
  assert_true(has_line(t, "mlxcel_http_requests_total{endpoint=\"other\",status=\"404\"} 1"));
  assert_true(has_line(t, "mlxcel_prompt_tokens_total 20"));
  assert_true(has_line(t, "mlxcel_completion_tokens_total 8"));
  assert_true(has_line(t, "mlxcel_generations_total{reason=\"length\"} 1"));
  assert_true(has_line(t, "mlxcel_generations_total{reason=\"cancelled\"} 1"));
  /* Histograms: cumulative buckets; a cancelled generation's partial figures are left out. */
  assert_true(has_line(t, "# TYPE mlxcel_time_to_first_token_seconds histogram"));
  assert_true(has_line(t, "mlxcel_time_to_first_token_seconds_bucket{le=\"0.025\"} 0"));
  assert_true(has_line(t, "mlxcel_time_to_first_token_seconds_bucket{le=\"0.05\"} 1"));
  assert_true(has_line(t, "mlxcel_time_to_first_token_seconds_bucket{le=\"2.5\"} 2"));
  assert_true(has_line(t, "mlxcel_time_to_first_token_seconds_bucket{le=\"+Inf\"} 2"));
  assert_true(has_line(t, "mlxcel_time_to_first_token_seconds_count 2"));
  assert_true(has_line(t, "mlxcel_time_to_first_token_seconds_sum 2.030000"));
  /* 80 ms over 4 intervals: one 20 ms observation; one-token answers have none. */
  assert_true(has_line(t, "mlxcel_time_per_output_token_seconds_bucket{le=\"0.01\"} 0"));
  assert_true(has_line(t, "mlxcel_time_per_output_token_seconds_bucket{le=\"0.025\"} 1"));
  assert_true(has_line(t, "mlxcel_time_per_output_token_seconds_count 1"));
  assert_true(has_line(t, "mlxcel_active_slots{device=\"local-task\",backend=\"0\"} 1"));
  assert_true(has_line(t, "mlxcel_queue_depth{device=\"local-task\",backend=\"0\"} 2"));
  assert_true(has_line(t, "mlxcel_slots{device=\"we\\\"ird\\\\\",backend=\"1\"} 4"));
  assert_true(has_line(t, "mlxcel_device_healthy{device=\"we\\\"ird\\\\\",backend=\"1\"} 0"));
  assert_true(has_line(t, "mlxcel_device_memory_bytes{device=\"local-task\",backend=\"0\"} 1234"));
  assert_true(has_line(t, "mlxcel_device_memory_peak_bytes{device=\"local-task\",backend=\"0\"} 5678"));
  assert_null(strstr(t, "mlxcel_device_memory_bytes{device=\"we")); /* unknown is absent, not 0 */
  assert_true(has_line(t, "# TYPE mlxcel_device_requests_total counter"));
  assert_true(has_line(t, "mlxcel_device_requests_total{device=\"local-task\",backend=\"0\"} 17"));
  /* Every non-comment line is "name{labels} value" or "name value". */
  for (const char *p = t; *p;) {
    const char *nl = strchr(p, '\n');
    assert_non_null(nl);
    if (*p != '#') {
      const char *sp = nl;
      while (sp > p && sp[-1] != ' ') sp--;
      assert_true(sp > p + 1 && sp < nl);
      char *end;
      strtod(sp, &end);
      assert_ptr_equal(end, nl);
    }
    p = nl + 1;
  }
  mx_strbuf_free(&b);
  mx_metrics_destroy(m);
}

static void *hammer(void *arg) {
  mx_metrics_t *m = arg;
  for (int i = 0; i < 10000; i++) {
    mx_metrics_request(m, MX_EP_HEALTH, 200);
    mx_metrics_generation(m, &(mx_metrics_generation_t){.prompt_tokens = 1, .completion_tokens = 2, .ttft_ms = 1,
                                                       .decode_ms = 1, .finish = "stop"});
  }
  return NULL;
}

static void metrics_are_thread_safe(void **state) {
  (void)state;
  mx_metrics_t *m = mx_metrics_create();
  pthread_t th[4];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, hammer, m);
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  mx_metrics_render(m, NULL, 0, &b);
  assert_true(has_line(b.data, "mlxcel_http_requests_total{endpoint=\"/health\",status=\"200\"} 40000"));
  assert_true(has_line(b.data, "mlxcel_completion_tokens_total 80000"));
  assert_true(has_line(b.data, "mlxcel_time_to_first_token_seconds_count 40000"));
  mx_strbuf_free(&b);
  mx_metrics_destroy(m);
}

/* /v1/embeddings bodies: OpenAI's four input forms; refusals name the parameter; the answer's floats
 * and their base64 (little-endian float32, as the openai client decodes it). */
static void embedding_bodies(void **state) {
  (void)state;
  mx_api_embed_limits_t lim = {.vocab = 10, .dim = 2};
  mx_api_embeddings_t r;
  mx_api_error_t e;
  const char *forms[] = {"{\"input\":\"hi\"}", "{\"input\":[1,2]}", "{\"input\":[\"a\",[3],\"b\"],\"encoding_format\":\"base64\"}",
                         "{\"input\":[[1],[2,3]],\"dimensions\":2,\"model\":\"x\",\"user\":\"u\",\"encoding_format\":null}"};
  size_t want_n[] = {1, 1, 3, 2};
  for (size_t i = 0; i < 4; i++) {
    assert_ok(mx_api_parse_embeddings(forms[i], strlen(forms[i]), &lim, &r, &e));
    assert_int_equal(r.n, want_n[i]);
    assert_int_equal(r.base64, i == 2);
    mx_api_embeddings_free(&r);
  }
  assert_ok(mx_api_parse_embeddings(forms[2], strlen(forms[2]), &lim, &r, &e));
  assert_memory_equal(r.in[0].text, "a", 2);
  assert_true(r.in[1].ids && r.in[1].n_ids == 1 && r.in[1].ids[0] == 3 && !r.in[1].text);
  mx_api_embeddings_free(&r);
  static const struct {
    const char *body, *param;
  } bad[] = {{"{}", "input"}, {"{\"input\":\"\"}", "input"}, {"{\"input\":[]}", "input"}, {"{\"input\":[1,10]}", "input"},
             {"{\"input\":[\"a\",1]}", "input"}, {"{\"input\":[[]]}", "input"}, {"{\"input\":true}", "input"},
             {"{\"input\":\"a\",\"dimensions\":3}", "dimensions"}, {"{\"input\":\"a\",\"encoding_format\":\"hex\"}", "encoding_format"},
             {"{\"input\":\"a\",\"model\":1}", "model"}, {"{\"input\":\"a\",\"x\":1}", "x"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mx_status_t st = mx_api_parse_embeddings(bad[i].body, strlen(bad[i].body), &lim, &r, &e);
    if (!st || e.http_status != 400 || strcmp(e.param, bad[i].param))
      fail_msg("%s: %s (param '%s')", bad[i].body, st ? mx_status_message(st) : "accepted", e.param);
    assert_null(r.in);
    mx_status_free(st);
  }
  /* 1.0f is 00 00 80 3f, -2.0f 00 00 00 c0: "AACAPwAAAMA=" */
  float v[2] = {1.0f, -2.0f};
  const float *vs[1] = {v};
  char *j = mx_api_embeddings_json("m", vs, 1, 2, true, 5);
  assert_string_equal(j, "{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,\"embedding\":\"AACAPwAAAMA=\"}],"
                         "\"model\":\"m\",\"usage\":{\"prompt_tokens\":5,\"total_tokens\":5}}");
  free(j);
  j = mx_api_embeddings_json("m", vs, 1, 2, false, 5);
  assert_non_null(strstr(j, "\"embedding\":[1.0,-2.0]"));
  free(j);
}

/* The utility endpoints' bodies: accepted ones carry their fields, refused ones name the field. */
static void utility_bodies(void **state) {
  (void)state;
  mx_api_tokenize_t t;
  mx_api_error_t e;
  const char *ok = "{\"content\":\"h\\u00e9x\",\"add_special\":true,\"with_pieces\":true}";
  assert_ok(mx_api_parse_tokenize(ok, strlen(ok), &t, &e));
  assert_int_equal(t.len, 4); /* h, the two bytes of U+00E9, x */
  assert_memory_equal(t.content, "h\xc3\xa9x", 4);
  assert_true(t.add_special && t.with_pieces);
  mx_api_tokenize_free(&t);
  assert_ok(mx_api_parse_tokenize("{\"content\":\"\"}", 14, &t, &e));
  assert_false(t.add_special || t.with_pieces); /* llama.cpp's defaults */
  mx_api_tokenize_free(&t);
  static const struct {
    const char *body, *param, *needle;
  } bad_tok[] = {{"{}", "content", "missing"},
                 {"{\"content\":1}", "content", "must be a string"},
                 {"{\"content\":\"a\",\"with_pieces\":1}", "with_pieces", "boolean"},
                 {"{\"content\":\"a\",\"parse_special\":true}", "parse_special", "not a field"},
                 {"[1]", "", "JSON object"},
                 {"{\"content\":\"a\\u0000b\"}", "", "not valid JSON"}}; /* NUL inside, as for a prompt */
  for (size_t i = 0; i < sizeof bad_tok / sizeof bad_tok[0]; i++) {
    mx_status_t st = mx_api_parse_tokenize(bad_tok[i].body, strlen(bad_tok[i].body), &t, &e);
    if (!st || e.http_status != 400 || strcmp(e.param, bad_tok[i].param) || !strstr(mx_status_message(st), bad_tok[i].needle))
      fail_msg("%s: %s (param '%s')", bad_tok[i].body, st ? mx_status_message(st) : "accepted", e.param);
    assert_null(t.content);
    mx_status_free(st);
  }
  mx_ids_t ids;
  assert_ok(mx_api_parse_detokenize("{\"tokens\":[0,5,9]}", 18, 10, &ids, &e));
  assert_int_equal(ids.n, 3);
  assert_int_equal(ids.ids[2], 9);
  mx_ids_free(&ids);
  static const struct {
    const char *body, *param;
  } bad_detok[] = {{"{}", "tokens"},           {"{\"tokens\":{}}", "tokens"},     {"{\"tokens\":[1,10]}", "tokens[1]"},
                   {"{\"tokens\":[-1]}", "tokens[0]"}, {"{\"tokens\":[1,\"2\"]}", "tokens[1]"}, {"{\"tokens\":[],\"x\":1}", "x"}};
  for (size_t i = 0; i < sizeof bad_detok / sizeof bad_detok[0]; i++) {
    mx_status_t st = mx_api_parse_detokenize(bad_detok[i].body, strlen(bad_detok[i].body), 10, &ids, &e);
    if (!st || e.http_status != 400 || strcmp(e.param, bad_detok[i].param))
      fail_msg("%s: %s (param '%s')", bad_detok[i].body, st ? mx_status_message(st) : "accepted", e.param);
    assert_int_equal(ids.n, 0);
    mx_status_free(st);
  }
  /* Answers: ids, pieces (bytes for part of a character), text. */
  int32_t tid[2] = {7, 8};
  const char *pieces[2] = {"ab", "\xe6\x9d"};
  size_t lens[2] = {2, 2};
  char *j = mx_api_tokens_json(tid, 2, NULL, NULL);
  assert_string_equal(j, "{\"tokens\":[7,8]}");
  free(j);
  j = mx_api_tokens_json(tid, 2, pieces, lens);
  assert_string_equal(j, "{\"tokens\":[{\"id\":7,\"piece\":\"ab\"},{\"id\":8,\"piece\":[230,157]}]}");
  free(j);
  j = mx_api_text_json("content", "a\xff", 2);
  assert_string_equal(j, "{\"content\":\"a\xef\xbf\xbd\"}"); /* U+FFFD for the byte that is not UTF-8 */
  free(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(malformed_bodies_are_refused),
      cmocka_unit_test(wrong_types_name_the_field),
      cmocka_unit_test(missing_and_empty_fields_are_refused),
      cmocka_unit_test(numbers_out_of_range_are_refused),
      cmocka_unit_test(unsupported_fields_are_refused_not_ignored),
      cmocka_unit_test(logprobs_fields),
      cmocka_unit_test(penalties_and_logit_bias),
      cmocka_unit_test(neutral_values_of_unsupported_fields_pass),
      cmocka_unit_test(valid_requests_carry_their_parameters),
      cmocka_unit_test(prompt_length_checks),
      cmocka_unit_test(error_objects_have_the_openai_shape),
      cmocka_unit_test(responses_carry_text_finish_and_usage),
      cmocka_unit_test(stream_chunks_follow_openai),
      cmocka_unit_test(sse_framing),
      cmocka_unit_test(metrics_text),
      cmocka_unit_test(metrics_are_thread_safe),
      cmocka_unit_test(utility_bodies),
      cmocka_unit_test(embedding_bodies),
      cmocka_unit_test(tool_fields),
      cmocka_unit_test(tool_calls_read_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
