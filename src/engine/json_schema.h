/* Constrained decoding to a JSON schema (OpenAI's response_format {"type": "json_schema"}).
 *
 * mx_schema_compile turns a schema of the supported subset into a tree; a recognizer walks it byte by
 * byte, so that, as with json_object (json_constraint.h), every token whose bytes cannot continue a
 * document valid against the schema is masked out, and the answer ends when the root object closes.
 *
 * The subset, as OpenAI's strict mode uses it: "type" one of object, array, string, number, integer,
 * boolean, null; "properties" (an object's members are written in the schema's order, every one of
 * them: a document that has all properties satisfies any "required"), "required" (names of
 * properties), "additionalProperties" (false, or true: only the listed properties are written; an
 * object schema with no "properties" that does not say false takes any JSON object),
 * "items" (one schema), "enum" and "const" (strings, numbers, booleans, null), "anyOf" in one form
 * (objects whose first property is the same key with a string const of its own in each: a
 * discriminated union, whose first value picks the object; forced tool calls over several functions
 * use it), and the annotations "title", "description", "$schema", "default", "examples". Anything else
 * (other anyOf, oneOf, $ref, $defs, pattern, format, minimum, minItems, a list of types, ...) is refused
 * by name at compile time. The root must be an object. Nesting deeper than MX_JSON_MAX_DEPTH is refused. */
#ifndef MX_ENGINE_JSON_SCHEMA_H
#define MX_ENGINE_JSON_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "engine/json_constraint.h"

typedef struct mx_schema mx_schema_t;

/* Compiles a schema given as JSON text. Fails (stage usage) naming the keyword or the place it cannot take. */
MX_MUST_USE mx_status_t mx_schema_compile(const char *json, size_t len, mx_schema_t **out);
void mx_schema_free(mx_schema_t *s);

typedef struct {
  const void *node; /* the container */
  uint16_t i;       /* object: the property being read; array: items read */
} mx_schema_frame_t;

typedef struct {
  const mx_schema_t *schema;
  mx_schema_frame_t fr[MX_JSON_MAX_DEPTH];
  uint8_t depth;
  uint8_t mode;        /* what the next byte may be (json_schema.c) */
  const void *cur;     /* the value being started or read */
  mx_json_state_t lex; /* strings and numbers: the json_object recognizer's lexer state */
  uint64_t cand;       /* a literal being matched: the candidates still possible */
  uint16_t off;        /* ... and the bytes matched */
  uint16_t run;        /* whitespace bytes in a row */
  bool done;
} mx_schema_state_t;

void mx_schema_start(mx_schema_state_t *st, const mx_schema_t *s);
/* Feeds bytes; false when they cannot continue a document valid against the schema. */
bool mx_schema_feed(mx_schema_state_t *st, const uint8_t *p, size_t n);
/* Masks (-inf) every token id < vocab that cannot come next; returns how many stay allowed. */
int mx_schema_mask(const mx_schema_state_t *st, const mx_tokenizer_t *tok, int vocab, float *logits);

#endif
