/* The JSON-object recognizer behind response_format json_object (engine/json_constraint.c): whole
 * documents are accepted and end it, every proper prefix of them is accepted without ending it, and
 * what RFC 8259 forbids (or the object rule, or the limits) is refused at the byte where it goes wrong.
 * The end-to-end oracle is Python's json module on the server's answers (tests/server/). */
#include "testutil.h"

#include "engine/json_constraint.h"
#include "engine/json_schema.h"

static bool feed_str(mx_json_state_t *s, const char *t) { return mx_json_feed(s, (const uint8_t *)t, strlen(t)); }

static void whole_documents_end_it_and_their_prefixes_do_not(void **state) {
  (void)state;
  static const char *const docs[] = {
      "{}",
      " {\"a\":1}",
      "{\"a\": [1, -0.5e+3, 0, 10E-2, true, false, null, \"x\\u00e9\\n\\\"\"], \"b\": {\"c\": {}, \"d\": []}}",
      "{\n  \"caf\xc3\xa9\": \"\xe2\x82\xac \xf0\x9f\x98\x80\",\n  \"n\": [[[]]]\n}",
  };
  for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
    size_t n = strlen(docs[i]);
    for (size_t cut = 0; cut <= n; cut++) {
      mx_json_state_t s;
      mx_json_init(&s);
      assert_true(mx_json_feed(&s, (const uint8_t *)docs[i], cut));
      assert_int_equal(s.done, cut == n);
    }
  }
}

static void what_json_forbids_is_refused(void **state) {
  (void)state;
  static const char *const bad[] = {
      "[]",             /* the top level must be an object */
      "\"a\"",          /* ... */
      "{\"a\" 1}",      /* no colon */
      "{\"a\":01}",     /* leading zero */
      "{\"a\":1.}",     /* no fraction digits */
      "{\"a\":-}",      /* a lone minus */
      "{\"a\":1e}",     /* no exponent digits */
      "{'a':1}",        /* single quotes */
      "{\"a\":tru}",    /* a broken literal */
      "{\"a\":True}",   /* ... */
      "{} ",            /* anything after the object */
      "{}{}",           /* ... */
      "{\"a\":\"\x01\"}", /* a raw control character in a string */
      "{\"a\":\"\\x\"}",  /* an unknown escape */
      "{\"a\":\"\\u12g4\"}", /* a bad \u digit */
      "{\"a\":\"\xc0\x80\"}", /* an overlong UTF-8 lead byte */
      "{\"a\":\"\xe2\x82\"}", /* a character cut short */
      "{,}",            /* no key */
      "{\"a\":1,}",     /* a trailing comma */
      "{\"a\":[1,]}",   /* ... */
      "{\"a\":[}",      /* the wrong bracket */
      "{\"a\":1]",      /* ... */
      "{a:1}",          /* an unquoted key */
      "{\"a\":nan}",    /* not a JSON number */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mx_json_state_t s;
    mx_json_init(&s);
    if (feed_str(&s, bad[i])) fail_msg("accepted: %s", bad[i]);
  }
}

static void the_limits_hold(void **state) {
  (void)state;
  char buf[256];
  mx_json_state_t s;
  mx_json_init(&s);
  memset(buf, ' ', MX_JSON_MAX_SPACES);
  assert_true(mx_json_feed(&s, (const uint8_t *)buf, MX_JSON_MAX_SPACES));
  assert_false(feed_str(&s, " ")); /* one space over */
  mx_json_init(&s);
  assert_true(feed_str(&s, "{\"n\":"));
  memset(buf, '7', MX_JSON_MAX_NUMBER);
  assert_true(mx_json_feed(&s, (const uint8_t *)buf, MX_JSON_MAX_NUMBER));
  assert_false(feed_str(&s, "7")); /* one digit over */
  mx_json_init(&s);
  assert_true(feed_str(&s, "{\"d\":"));
  for (int d = 1; d < MX_JSON_MAX_DEPTH; d++) assert_true(feed_str(&s, "["));
  assert_false(feed_str(&s, "[")); /* one level over */
}

static const char SCHEMA[] =
    "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"age\":{\"type\":\"integer\"},"
    "\"score\":{\"type\":\"number\"},\"ok\":{\"type\":\"boolean\"},\"none\":{\"type\":\"null\"},"
    "\"tags\":{\"type\":\"array\",\"items\":{\"enum\":[\"a\",\"ab\",1,12,true]}},"
    "\"inner\":{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}},"
    "\"required\":[\"name\",\"age\"],\"additionalProperties\":false,\"title\":\"t\"}";

static bool schema_accepts(const mx_schema_t *sc, const char *doc, bool *done) {
  mx_schema_state_t st;
  mx_schema_start(&st, sc);
  bool ok = mx_schema_feed(&st, (const uint8_t *)doc, strlen(doc));
  *done = st.done;
  return ok;
}

/* A document with every property in the schema's order is accepted and ends it, every prefix is
 * accepted without ending it; the wrong order, a missing or extra member, a wrong type, an integer
 * with a fraction, an enum value not listed, are refused. */
static void a_schema_takes_its_documents_only(void **state) {
  (void)state;
  mx_schema_t *sc;
  assert_null(mx_schema_compile(SCHEMA, strlen(SCHEMA), &sc));
  const char *good[] = {
      "{\"name\":\"Al\\u00e9\",\"age\":-3,\"score\":1.5e2,\"ok\":false,\"none\":null,\"tags\":[\"ab\",12,1,true],\"inner\":{}}",
      "{ \"name\" : \"\" , \"age\" : 0 , \"score\" : 0 , \"ok\" : true , \"none\" : null , \"tags\" : [ ] , \"inner\" : { } }",
  };
  for (size_t i = 0; i < 2; i++) {
    size_t n = strlen(good[i]);
    for (size_t cut = 0; cut <= n; cut++) {
      char buf[256];
      memcpy(buf, good[i], cut);
      buf[cut] = 0;
      bool done;
      if (!schema_accepts(sc, buf, &done)) fail_msg("refused a prefix of %zu bytes of %s", cut, good[i]);
      assert_int_equal(done, cut == n);
    }
  }
  const char *bad[] = {
      "{\"age\":1,",                           /* the schema's order: name first */
      "{\"name\":\"a\"}",                     /* a member missing */
      "{\"name\":\"a\",\"x\":1",            /* a member not listed */
      "{\"name\":1",                            /* a number for a string */
      "{\"name\":\"a\",\"age\":1.5",        /* a fraction in an integer */
      "{\"name\":\"a\",\"age\":1e3",        /* an exponent in an integer */
      "{\"name\":\"a\",\"age\":1,\"score\":1,\"ok\":1",              /* a number for a boolean */
      "{\"name\":\"a\",\"age\":1,\"score\":1,\"ok\":true,\"none\":0", /* not null */
      "{\"name\":\"a\",\"age\":1,\"score\":1,\"ok\":true,\"none\":null,\"tags\":[\"b\"", /* not in the enum */
      "{\"name\":\"a\",\"age\":1,\"score\":1,\"ok\":true,\"none\":null,\"tags\":[123",    /* ... */
      "{\"name\":\"a\",\"age\":1,\"score\":1,\"ok\":true,\"none\":null,\"tags\":[],\"inner\":{\"k\"", /* none listed */
      "[",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    bool done;
    if (schema_accepts(sc, bad[i], &done)) fail_msg("accepted: %s", bad[i]);
  }
  mx_schema_free(sc);
}

/* A discriminated union: the first property's const picks the object the rest is read by. */
#define TAG_A "{\"type\":\"object\",\"properties\":{\"name\":{\"const\":\"a\"},\"x\":{\"type\":\"integer\"}}}"
#define TAG_AB "{\"type\":\"object\",\"properties\":{\"name\":{\"const\":\"ab\"},\"y\":{\"enum\":[\"p\",\"q\"]}}}"
#define TAG_B "{\"type\":\"object\",\"properties\":{\"name\":{\"const\":\"b\"},\"z\":{\"type\":\"object\"}}}"

static void a_union_is_picked_by_its_first_value(void **state) {
  (void)state;
  const char *schema = "{\"anyOf\":[" TAG_A "," TAG_AB "," TAG_B "]}";
  mx_schema_t *sc;
  assert_null(mx_schema_compile(schema, strlen(schema), &sc));
  const char *good[] = {"{\"name\":\"a\",\"x\":7}", "{\"name\": \"ab\", \"y\": \"q\"}", "{\"name\":\"b\",\"z\":{\"any\":[1]}}"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
    for (size_t cut = 0, n = strlen(good[i]); cut <= n; cut++) { /* every prefix, unfinished until the end */
      char buf[128];
      bool done;
      memcpy(buf, good[i], cut);
      buf[cut] = 0;
      if (!schema_accepts(sc, buf, &done) || done != (cut == n)) fail_msg("prefix %zu of %s", cut, good[i]);
    }
  const char *bad[] = {"{\"name\":\"a\",\"y\":\"p\"", "{\"name\":\"ab\",\"x\":1", "{\"name\":\"c\"",
                       "{\"x\":1", "{\"name\":\"b\",\"z\":1"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    bool done;
    if (schema_accepts(sc, bad[i], &done)) fail_msg("accepted: %s", bad[i]);
  }
  mx_schema_free(sc);
}

static void schemas_outside_the_subset_are_refused_by_name(void **state) {
  (void)state;
  static const struct {
    const char *schema, *message;
  } cases[] = {
      {"{\"type\":\"array\",\"items\":{\"type\":\"string\"}}", "the root must be of type object"},
      {"{\"type\":\"object\",\"properties\":{\"a\":{\"oneOf\":[]}}}", "at .properties.a: the keyword 'oneOf' is not supported"},
      {"{\"type\":\"object\",\"properties\":{\"a\":{\"anyOf\":[]}}}", "at .properties.a: anyOf must list objects"},
      {"{\"anyOf\":[{\"type\":\"string\"}]}", "anyOf[0]: anyOf must list objects whose first property"},
      {"{\"anyOf\":[" TAG_A "," TAG_A "]}", "this const repeats"},
      {"{\"anyOf\":[" TAG_A ",{\"type\":\"object\",\"properties\":{\"kind\":{\"const\":\"b\"}}}]}", "first key differs"},
      {"{\"anyOf\":[" TAG_A "],\"type\":\"object\"}", "anyOf stands alone"},
      {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"pattern\":\"x\"}}}", "'pattern' is not supported"},
      {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":[\"string\",\"null\"]}}}", "a list of types is not supported"},
      {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"array\"}}}", "an array needs items"},
      {"{\"type\":\"object\",\"required\":[\"b\"],\"properties\":{}}", "required names b that is not in properties"},
      {"{\"type\":\"object\",\"properties\":{\"a\":{\"enum\":[{}]}}}", "enum values must be strings, numbers"},
      {"{\"$ref\":\"#/x\"}", "'$ref' is not supported"},
      {"{\"type\":\"date\"}", "the type 'date' is not one of"},
      {"{\"type\":", "json_schema is not JSON"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mx_schema_t *sc = NULL;
    mx_status_t st = mx_schema_compile(cases[i].schema, strlen(cases[i].schema), &sc);
    assert_non_null(st);
    assert_null(sc);
    if (!strstr(mx_status_message(st), cases[i].message)) fail_msg("%s: %s", cases[i].schema, mx_status_message(st));
    mx_status_free(st);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(whole_documents_end_it_and_their_prefixes_do_not),
      cmocka_unit_test(what_json_forbids_is_refused),
      cmocka_unit_test(the_limits_hold),
      cmocka_unit_test(a_schema_takes_its_documents_only),
      cmocka_unit_test(a_union_is_picked_by_its_first_value),
      cmocka_unit_test(schemas_outside_the_subset_are_refused_by_name),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
