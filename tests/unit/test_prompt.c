/* Prompt text to token ids (engine/prompt), the one way generate and serve encode prompts, on the
 * shared Llama 3 tokenizer. */
#include "testutil.h"

#include "engine/prompt.h"

static void prompt_helper_places_bos_once(void **state) {
  (void)state;
  mx_tokenizer_t *t;
  assert_ok(mx_tokenizer_load_hf(mx_test_llama3_tokenizer_dir(), &t));
  int bos = mx_tokenizer_bos(t);
  assert_true(bos >= 0);
  mx_ids_t raw = {0}, chat = {0};
  assert_ok(mx_prompt_encode_text(t, "Hello", 5, &raw));
  assert_int_equal(raw.ids[0], bos);
  mx_chat_msg_t msgs[] = {{"system", "Be brief."}, {"user", "Hello"}};
  assert_ok(mx_prompt_encode_chat(t, msgs, 2, &chat));
  /* The template holds BOS; encoding must not add a second one. */
  assert_int_equal(chat.ids[0], bos);
  assert_true(chat.ids[1] != bos);
  mx_strbuf_t text;
  mx_strbuf_init(&text);
  assert_ok(mx_tokenizer_decode(t, chat.ids, chat.n, false, &text));
  assert_non_null(strstr(text.data, "<|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|>"));
  assert_non_null(strstr(text.data, "<|start_header_id|>assistant<|end_header_id|>\n\n"));
  mx_strbuf_free(&text);
  mx_ids_free(&raw);
  mx_ids_free(&chat);
  /* Invalid UTF-8 in a raw prompt is a usage error, not a crash. */
  mx_ids_t bad = {0};
  assert_status(mx_prompt_encode_text(t, "a\xff", 2, &bad), MX_STAGE_USAGE, NULL);
  mx_ids_free(&bad);
  mx_tokenizer_close(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(prompt_helper_places_bos_once),
  };
  return cmocka_run_group_tests_name("engine/prompt", tests, NULL, NULL);
}
