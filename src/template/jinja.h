/* A Jinja engine for chat templates: the subset the templates models ship use, rendered the way
 * transformers' apply_chat_template renders them with jinja2 (an immutable sandbox, trim_blocks and
 * lstrip_blocks, the loopcontrols extension, raise_exception, strftime_now, and a tojson filter
 * that is json.dumps with ensure_ascii off). Checked byte for byte against jinja2 on the shipped
 * templates (tests/oracle/template_parity.py).
 *
 * Supported: text with whitespace control ({%- -%}, {{- -}}, {#- -#}); if/elif/else, for (tuple
 * targets, an inline if, else, loop.*, break, continue), set (names, namespace attributes, blocks),
 * macro (defaults, keyword arguments, recursion), generation blocks (rendered as they are);
 * expressions with Python's literals, lists, dicts, attributes, subscripts, slices, calls, filters,
 * tests, arithmetic, comparisons, `in`, `~`, and the conditional expression. What a template uses
 * beyond that is refused by name, at parse time when it can be. */
#ifndef MX_TEMPLATE_JINJA_H
#define MX_TEMPLATE_JINJA_H

#include <jansson.h>

#include "base/status.h"
#include "base/strbuf.h"

typedef struct mx_jinja mx_jinja_t;

/* Parses a template; `name` names it in errors (a file, "the model's chat template"). */
MX_MUST_USE mx_status_t mx_jinja_parse(const char *text, const char *name, mx_jinja_t **out);
void mx_jinja_free(mx_jinja_t *t);

/* Renders with the variables of `context`, a JSON object (messages, tools, add_generation_prompt,
 * bos_token, ...). Appends to out. */
MX_MUST_USE mx_status_t mx_jinja_render(const mx_jinja_t *t, const json_t *context, mx_strbuf_t *out);

#endif
