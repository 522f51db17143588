/* Constrained decoding to one JSON object (OpenAI's response_format {"type": "json_object"}).
 *
 * A byte-level recognizer of JSON text (RFC 8259) whose top-level value must be an object: its state
 * says which bytes may come next. Before each sampled token, every vocabulary token whose bytes the
 * recognizer would not accept from the current state is masked out (its logit set to -inf), so the
 * text generated is always a prefix of a JSON object, and the generation ends (finish "stop") as soon
 * as the object closes. Special tokens (end-of-sequence included) are never allowed: the object's end
 * is the end. Two limits keep a model from running on in place: at most MX_JSON_MAX_SPACES whitespace
 * bytes in a row and at most MX_JSON_MAX_NUMBER bytes per number; nesting deeper than
 * MX_JSON_MAX_DEPTH is not offered. Strings are valid UTF-8 (lead and continuation bytes checked). */
#ifndef MX_ENGINE_JSON_CONSTRAINT_H
#define MX_ENGINE_JSON_CONSTRAINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tokenizer/tokenizer.h"

#define MX_JSON_MAX_DEPTH 32
#define MX_JSON_MAX_SPACES 64
#define MX_JSON_MAX_NUMBER 32

typedef struct {
  uint8_t stack[MX_JSON_MAX_DEPTH]; /* open containers: '{' or '[' */
  uint8_t depth;
  uint8_t mode;   /* what the next byte may be (json_constraint.c) */
  uint8_t sub;    /* inside a token: escape / \u digits / literal letters / number phase */
  uint8_t need;   /* inside a string: UTF-8 continuation bytes still due */
  uint8_t key;    /* the string being read is an object key */
  uint8_t lit;    /* the literal being read: 't', 'f' or 'n' */
  uint16_t run;   /* whitespace bytes in a row, or the current number's length */
  bool done;      /* the top-level object has closed */
  bool integer;   /* a scalar read for a schema (below): the number may have no fraction or exponent */
} mx_json_state_t;

void mx_json_init(mx_json_state_t *s);
/* Feeds bytes; false (state unspecified) when they cannot continue a JSON object's text. */
bool mx_json_feed(mx_json_state_t *s, const uint8_t *p, size_t n);
/* Sets logits[id] to -inf for every token id < vocab that cannot come next from s: its bytes are
 * rejected, or it is a special token, or it has no bytes. Returns how many stay allowed. */
int mx_json_mask(const mx_json_state_t *s, const mx_tokenizer_t *tok, int vocab, float *logits);
/* The same for any recognizer: `state` (size bytes, copied per token) and its feed function. */
typedef bool (*mx_feed_fn)(void *state, const uint8_t *p, size_t n);
int mx_constraint_mask(const void *state, size_t size, mx_feed_fn feed, const mx_tokenizer_t *tok, int vocab, float *logits);

/* One string (from its opening quote) or number, byte by byte, for json_schema.c: start, then feed
 * each byte; a number ends at the first byte that cannot extend it, which is then not consumed. */
typedef enum {
  MX_JSON_TAKEN,          /* consumed; the scalar goes on */
  MX_JSON_REJECTED,       /* cannot start or continue it */
  MX_JSON_ENDED_BEFORE,   /* a number ended just before this byte, which was not consumed */
  MX_JSON_TAKEN_AND_ENDED /* consumed, and the scalar ended with it (a string's closing quote) */
} mx_json_scalar_t;
void mx_json_scalar_start(mx_json_state_t *s, bool integer);
mx_json_scalar_t mx_json_scalar_byte(mx_json_state_t *s, uint8_t c);

#endif
