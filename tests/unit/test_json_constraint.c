/* The JSON-object recognizer behind response_format json_object (engine/json_constraint.c): whole
 * documents are accepted and end it, every proper prefix of them is accepted without ending it, and
 * what RFC 8259 forbids (or the object rule, or the limits) is refused at the byte where it goes wrong.
 * The end-to-end oracle is Python's json module on the server's answers (tests/server/). */
#include "testutil.h"

#include "engine/json_constraint.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(whole_documents_end_it_and_their_prefixes_do_not),
      cmocka_unit_test(what_json_forbids_is_refused),
      cmocka_unit_test(the_limits_hold),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
