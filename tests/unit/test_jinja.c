/* The Jinja engine on its own: outputs jinja2 gives for the same source (each expected string below
 * was printed by transformers' jinja2 environment, tests/oracle/template_parity.py's oracle), and
 * every refusal and limit, which the parity gate cannot reach. */
#include "testutil.h"

#include <jansson.h>

#include "template/jinja.h"

static char *render(const char *src, const char *context_json, mx_status_t *st_out) {
  mx_jinja_t *t = NULL;
  mx_status_t st = mx_jinja_parse(src, "t.jinja", &t);
  mx_strbuf_t out;
  mx_strbuf_init(&out);
  json_t *ctx = json_loads(context_json ? context_json : "{}", 0, NULL);
  if (!st) st = mx_jinja_render(t, ctx, &out);
  json_decref(ctx);
  mx_jinja_free(t);
  *st_out = st;
  char *s = strdup(out.data ? out.data : "");
  mx_strbuf_free(&out);
  return s;
}

static void expect(const char *src, const char *want) {
  mx_status_t st;
  char *got = render(src, NULL, &st);
  if (st) {
    mx_status_print(stderr, st);
    mx_status_free(st);
    fail_msg("render failed: %s", src);
  }
  if (strcmp(got, want) != 0) fprintf(stderr, "source %s\n  got  [%s]\n  want [%s]\n", src, got, want);
  assert_string_equal(got, want);
  free(got);
}

static void expect_error(const char *src, const char *context_json, const char *needle) {
  mx_status_t st;
  char *got = render(src, context_json, &st);
  free(got);
  assert_status(st, MX_STAGE_USAGE, needle);
}

static void matches_jinja2(void **state) {
  (void)state;
  expect("a\n  {% if true %}\n  b\n  {% endif %}\nc", "a\n  b\nc"); /* trim_blocks and lstrip_blocks */
  expect("{{ [1, 'a', none, true, 1.5, 1e20, 0.1, -0.0, 1e-5, \"it's\"] }}|{{ {'k': [1]} }}",
         "[1, 'a', None, True, 1.5, 1e+20, 0.1, -0.0, 1e-05, \"it's\"]|{'k': [1]}");
  expect("{{ {'b': 1, 'a': [1, {'x': none}]} | tojson(indent=2) }}|{{ '\xc3\xa9\"\\n' | tojson }}",
         "{\n  \"b\": 1,\n  \"a\": [\n    1,\n    {\n      \"x\": null\n    }\n  ]\n}|\"\xc3\xa9\\\"\\n\"");
  expect("{% for x in 'abc' %}{{ loop.index }}{{ x }}{{ loop.revindex0 }}{% if not loop.last %},{% endif %}{% endfor %}", "1a2,2b1,3c0");
  expect("{{ 'Hello World'[::-1] }}|{{ [1,2,3,4][1:-1] }}|{{ 'a,b,,c'.split(',') }}|{{ '  x y  '.split() }}|{{ 7 // 2 }} {{ -7 // 2 }} "
         "{{ -7 % 3 }} {{ 2 ** 10 }} {{ 7 / 2 }}",
         "dlroW olleH|[2, 3]|['a', 'b', '', 'c']|['x', 'y']|3 -4 2 1024 3.5");
  expect("{%- set ns = namespace(n=0) -%}{%- for i in range(5) if i is odd -%}{%- set ns.n = ns.n + i -%}{%- endfor -%}{{ ns.n }}", "4");
  expect("{% macro f(a, b='B') %}[{{ a }}{{ b }}]{% endmacro %}{{ f(1) }}{{ f(2, b=3) }}{{ f(a='x') }}", "[1B][23][xB]");
  expect("{{ 'x' if false }}|{{ none is none }}|{{ 3 is divisibleby 3 }}|{{ [1,2] | map('string') | join('-') }}|"
         "{{ 'abc' | upper | replace('B', '_') }}",
         "|True|True|1-2|A_C");
  expect("  {#- c -#}  x {# y #}\n{{- ' z ' -}}\n  w", "x  z w");
  expect("{{ 'a' ~ 1 ~ none }}|{{ 1 < 2 < 3 }}|{{ 'b' in 'abc' }}|{{ 2 not in [1] }}|{{ (1, 2) }}", "a1None|True|True|True|(1, 2)");
}

/* What a template may not do is refused in one message naming the construct and its line. */
static void refusals_name_the_construct(void **state) {
  (void)state;
  expect_error("{% if x %}\nno end", NULL, "expected {% endif %}");
  expect_error("ok\n{{ x|wordcount }}", NULL, "line 2: the filter 'wordcount' is not supported");
  expect_error("{% if x is callable_thing %}{% endif %}", NULL, "the test 'callable_thing' is not supported");
  expect_error("{% call f() %}{% endcall %}", NULL, "{% call %} is not supported");
  expect_error("{% for x in y recursive %}{% endfor %}", NULL, "recursive for loops");
  expect_error("{{ f(*args) }}", NULL, "*args");
  expect_error("{{ 'a }}", NULL, "line 1: a string is not closed");
  expect_error("{{ 1 + }}", NULL, "unexpected '}}'");
  expect_error("\n\n{% endfor %}", NULL, "line 3: unexpected {% endfor %}");
  expect_error("{{ x ]", NULL, "unexpected ']'");
  expect_error("{{ x", NULL, "not closed");
  expect_error("{# open", NULL, "a comment is not closed");
}

static void render_errors_and_limits(void **state) {
  (void)state;
  expect_error("{{ raise_exception('roles must alternate') }}", NULL, "the template raised an error: roles must alternate");
  expect_error("\n{{ message.content }}", NULL, "line 2: 'message' is undefined");
  expect_error("{{ x + 1 }}", "{\"x\": \"s\"}", "unsupported operand types for +: 'str' and 'int'");
  expect_error("{{ 1 / 0 }}", NULL, "division by zero");
  expect_error("{% for x in 5 %}{% endfor %}", NULL, "'int' object is not iterable");
  expect_error("{% set x.y = 1 %}", "{\"x\": {}}", "not a namespace()");
  expect_error("{{ 'x'.append(1) }}", NULL, "'append' is undefined");
  expect_error("{{ messages.pop() }}", "{\"messages\": {}}", "'pop' is undefined");
  expect_error("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", NULL, "recurses deeper than 64");
  expect_error("{% for a in range(1000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}", NULL, "more than 300000 steps");
  expect_error("{{ 'a' * 100000000 }}", NULL, "more than 16 MB");
  expect_error("{{ range(10000000) }}", NULL, "more than a million");
  expect_error("{% break %}", NULL, "outside a for loop");
  expect_error("{{ x | tojson }}", NULL, "not JSON serializable");
  expect_error("{{ f(1, 2) }}{% macro f(a) %}{% endmacro %}", NULL, "'f' is undefined");
  expect_error("{% macro f(a) %}{% endmacro %}{{ f(1, 2) }}", NULL, "takes 1 arguments, 2 given");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(matches_jinja2),
      cmocka_unit_test(refusals_name_the_construct),
      cmocka_unit_test(render_errors_and_limits),
  };
  return cmocka_run_group_tests_name("template/jinja", tests, NULL, NULL);
}
