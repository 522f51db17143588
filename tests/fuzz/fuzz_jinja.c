/* libFuzzer target: chat templates are untrusted input (a model file carries its own), so the Jinja
 * engine parses any bytes and renders what parses against a conversation with tools, within its
 * bounds: a one-line error or text, never a crash, a hang or a leak. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "template/jinja.h"

static json_t *context;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  context = json_loads(
      "{\"messages\": [{\"role\": \"system\", \"content\": \"Be brief.\"}, {\"role\": \"user\", \"content\": \"Hi \\u00e9\"},"
      " {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"id\": \"a1b2c3d4e\", \"type\": \"function\","
      " \"function\": {\"name\": \"f\", \"arguments\": {\"x\": 1}}}]}, {\"role\": \"tool\", \"name\": \"f\", \"content\": \"2\"}],"
      " \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"parameters\":"
      " {\"type\": \"object\", \"properties\": {\"x\": {\"type\": \"integer\"}}}}}],"
      " \"add_generation_prompt\": true, \"bos_token\": \"<s>\", \"eos_token\": \"</s>\"}",
      0, NULL);
  return context ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *src = malloc(size + 1);
  if (!src) return 0;
  memcpy(src, data, size);
  src[size] = '\0'; /* a template is text: a NUL ends it */
  mx_jinja_t *t = NULL;
  mx_status_t st = mx_jinja_parse(src, "fuzz", &t);
  if (!st) {
    mx_strbuf_t out;
    mx_strbuf_init(&out);
    st = mx_jinja_render(t, context, &out);
    mx_strbuf_free(&out);
  }
  mx_status_free(st);
  mx_jinja_free(t);
  free(src);
  return 0;
}
