/* Generated text as it is released (engine/textout), on the shared Llama 3 tokenizer. */
#include "testutil.h"

#include "engine/textout.h"

/* Text is released as it becomes final: the tail that could grow into a stop string is held back,
 * a stop string ends the text before it, and characters split across tokens come out whole. */
static void textout_holds_back_stop_prefixes(void **state) {
  (void)state;
  mx_tokenizer_t *tok;
  assert_ok(mx_tokenizer_load_hf(mx_test_llama3_tokenizer_dir(), &tok));
  const char *text = "Hello wor\xc3\xa9ld, then END here and more";
  mx_ids_t ids = {0};
  assert_ok(mx_tokenizer_encode(tok, text, strlen(text), false, &ids));
  const char *stops[2] = {"END", "never appears"};
  mx_textout_t o;
  mx_textout_init(&o, tok, stops, 2);
  mx_strbuf_t got;
  mx_strbuf_init(&got);
  size_t i = 0;
  for (; i < ids.n && !o.stopped; i++) {
    assert_ok(mx_textout_push(&o, ids.ids[i]));
    const char *p;
    size_t n = mx_textout_take(&o, &p);
    mx_strbuf_append(&got, p, n);
    /* Never more than the text before the stop string, and the held tail is at most 12 bytes. */
    assert_true(got.len <= strlen("Hello wor\xc3\xa9ld, then "));
    assert_true(o.text.len - got.len <= strlen("never appears") - 1 + 4 || o.stopped);
  }
  assert_true(o.stopped);
  mx_textout_finish(&o);
  const char *p;
  size_t n = mx_textout_take(&o, &p);
  mx_strbuf_append(&got, p, n);
  assert_string_equal(got.data, "Hello wor\xc3\xa9ld, then ");
  mx_textout_free(&o);
  /* Without stop strings, finish releases everything, equal to a whole decode. */
  mx_textout_init(&o, tok, NULL, 0);
  mx_strbuf_t all;
  mx_strbuf_init(&all);
  for (i = 0; i < ids.n; i++) {
    assert_ok(mx_textout_push(&o, ids.ids[i]));
    n = mx_textout_take(&o, &p);
    mx_strbuf_append(&all, p, n);
  }
  mx_textout_finish(&o);
  n = mx_textout_take(&o, &p);
  mx_strbuf_append(&all, p, n);
  assert_string_equal(all.data, text);
  mx_textout_free(&o);
  mx_strbuf_free(&all);
  mx_strbuf_free(&got);
  mx_ids_free(&ids);
  mx_tokenizer_close(tok);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(textout_holds_back_stop_prefixes),
  };
  return cmocka_run_group_tests_name("engine/textout", tests, NULL, NULL);
}
