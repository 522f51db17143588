/* Tokenizer properties that the HF parity corpus does not pin down on its own: input validation,
 * lossy and streaming decode, refusals, chat-template recognition. (Token-id parity with HF itself is
 * tests/oracle/tokenizer_parity.py.) */
#include "testutil.h"

#include <unistd.h>

#include "base/utf8.h"
#include "gguf_writer.h"
#include "format/gguf.h"
#include "tokenizer/chat.h"
#include "tokenizer/tokenizer.h"

static mx_tokenizer_t *tiny_tokenizer(void) {
  size_t n;
  uint8_t *b = gw_tiny_llama(&n);
  mx_gguf_t *g;
  assert_ok(mx_gguf_parse(b, n, "tiny.gguf", 0, &g));
  mx_tokenizer_t *t;
  assert_ok(mx_tokenizer_load_gguf(g, "tiny.gguf", &t));
  mx_gguf_free(g);
  free(b);
  return t;
}

static mx_tokenizer_t *spm_tokenizer(const char *arch) {
  size_t n;
  uint8_t *b = gw_spm_vocab(arch, &n);
  mx_gguf_t *g;
  assert_ok(mx_gguf_parse(b, n, "spm.gguf", 0, &g));
  mx_tokenizer_t *t = NULL;
  mx_status_t st = mx_tokenizer_load_gguf(g, "spm.gguf", &t);
  mx_gguf_free(g);
  free(b);
  if (st) {
    assert_null(t);
    assert_status(st, MX_STAGE_IO, "SentencePiece GGUF vocabularies of architecture 'phi2' are not supported");
  }
  return t;
}

/* transformers' rebuild of such a vocabulary (tests/oracle/gguf_hf_tokenizer.py runs it on Gemma 3's):
 * merges from the vocabulary in file order, spaces as U+2581, byte fallback, the run of spaces a BPE
 * token rather than an added one, added tokens matched whole. */
static void sentencepiece_vocabulary_from_gguf(void **state) {
  (void)state;
  assert_null(spm_tokenizer("phi2"));
  mx_tokenizer_t *t = spm_tokenizer("gemma3");
  enum { P = 4 + 256, SPACE = P, A, B, AB, SA, SAB, SPACES, NL, SOT };
  mx_ids_t ids = {0};
  /* "ab ab": a,b merge first (rank 0), then U+2581 with ab (U+2581 a is never formed: a was taken). */
  const char *s = "ab ab\n<start_of_turn>x\xc3\xa9  b";
  assert_ok(mx_tokenizer_encode(t, s, strlen(s), true, &ids));
  int32_t want[] = {2, AB, SAB, NL, SOT, 4 + 'x', 4 + 0xC3, 4 + 0xA9, SPACES, B};
  assert_int_equal(ids.n, sizeof want / sizeof want[0]);
  for (size_t i = 0; i < ids.n; i++) assert_int_equal(ids.ids[i], want[i]);
  assert_true(mx_tokenizer_is_special(t, SOT));
  assert_false(mx_tokenizer_is_special(t, NL));
  mx_strbuf_t out;
  mx_strbuf_init(&out);
  assert_ok(mx_tokenizer_decode(t, ids.ids + 1, ids.n - 1, false, &out));
  assert_string_equal(out.data, s); /* U+2581 back to spaces, byte tokens back to bytes */
  mx_strbuf_free(&out);
  mx_ids_free(&ids);
  const char *alone = " a";
  assert_ok(mx_tokenizer_encode(t, alone, strlen(alone), false, &ids));
  assert_int_equal(ids.n, 1);
  assert_int_equal(ids.ids[0], SA);
  mx_ids_free(&ids);
  mx_tokenizer_close(t);

  /* Llama's and Phi-3's rebuilds: merges by score (-position here: a+b, U+2581+a, then of U+2581ab the
   * longer left part first), a prefix space (Metaspace "first" / Prepend), and a decode that drops it. */
  const char *archs[] = {"llama", "phi3"};
  for (int a = 0; a < 2; a++) {
    t = spm_tokenizer(archs[a]);
    const char *two = "ab ab", *lead = " ab";
    assert_ok(mx_tokenizer_encode(t, two, strlen(two), true, &ids));
    assert_int_equal(ids.n, 3);
    assert_true(ids.ids[0] == 2 && ids.ids[1] == SAB && ids.ids[2] == SAB);
    mx_strbuf_init(&out);
    assert_ok(mx_tokenizer_decode(t, ids.ids + 1, 2, false, &out));
    assert_string_equal(out.data, two);
    mx_strbuf_free(&out);
    mx_ids_free(&ids);
    /* a leading space: Metaspace adds none; Prepend adds one regardless */
    assert_ok(mx_tokenizer_encode(t, lead, strlen(lead), false, &ids));
    assert_int_equal(ids.n, a == 0 ? 1 : 2);
    assert_int_equal(ids.ids[ids.n - 1], SAB);
    if (a == 1) assert_int_equal(ids.ids[0], SPACE);
    mx_ids_free(&ids);
    mx_tokenizer_close(t);
  }
}

static void invalid_utf8_is_refused_with_offset(void **state) {
  (void)state;
  mx_tokenizer_t *t = tiny_tokenizer();
  mx_ids_t ids = {0};
  const char bad[] = "ok \xC3\x28 then";
  assert_status(mx_tokenizer_encode(t, bad, sizeof bad - 1, true, &ids), MX_STAGE_USAGE, "not valid UTF-8 at byte 3");
  const char surrogate[] = "\xED\xA0\x80";
  assert_status(mx_tokenizer_encode(t, surrogate, 3, true, &ids), MX_STAGE_USAGE, "at byte 0");
  assert_int_equal(ids.n, 0);
  mx_ids_free(&ids);
  mx_tokenizer_close(t);
}

static void special_tokens_are_matched_before_bpe(void **state) {
  (void)state;
  mx_tokenizer_t *t = tiny_tokenizer();
  mx_ids_t ids = {0};
  const char *s = "a<|im_start|>b<|im_end";
  assert_ok(mx_tokenizer_encode(t, s, strlen(s), false, &ids));
  /* 'a', <|im_start|> (id 0), 'b', then the unfinished token as plain bytes */
  assert_int_equal(ids.ids[0], 2 + 'a');
  assert_int_equal(ids.ids[1], 0);
  assert_int_equal(ids.ids[2], 2 + 'b');
  assert_int_equal(ids.n, 3 + strlen("<|im_end"));
  assert_true(mx_tokenizer_is_special(t, 0));
  assert_false(mx_tokenizer_is_special(t, 2 + 'a'));
  mx_strbuf_t out;
  mx_strbuf_init(&out);
  assert_ok(mx_tokenizer_decode(t, ids.ids, ids.n, false, &out));
  assert_string_equal(out.data, s);
  mx_strbuf_free(&out);
  mx_strbuf_init(&out);
  assert_ok(mx_tokenizer_decode(t, ids.ids, ids.n, true, &out));
  assert_string_equal(out.data, "ab<|im_end");
  mx_strbuf_free(&out);
  int32_t bogus = 99999;
  assert_status(mx_tokenizer_decode(t, &bogus, 1, false, &out), MX_STAGE_USAGE, "not in the vocabulary");
  mx_ids_free(&ids);
  mx_tokenizer_close(t);
}

static void lossy_decode_replaces_maximal_subparts(void **state) {
  (void)state;
  struct {
    const char *in, *out;
  } cases[] = {
      {"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"},                    /* valid emoji */
      {"\xF0\x9F", "\xEF\xBF\xBD"},                                /* truncated: one U+FFFD */
      {"\xE0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD"},                    /* E0 needs A0..BF: two */
      {"a\xFF" "b", "a\xEF\xBF\xBD" "b"},                          /* never valid */
      {"\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},    /* surrogate: three */
      {"\xF4\x90\x80\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"}, /* above U+10FFFF */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mx_strbuf_t out;
    mx_strbuf_init(&out);
    mx_utf8_append_lossy(&out, (const uint8_t *)cases[i].in, strlen(cases[i].in));
    assert_string_equal(out.data, cases[i].out);
    mx_strbuf_free(&out);
  }
}

/* NFC: composition, canonical reordering of marks, Hangul, singletons; text below U+0300 untouched
 * (the quick check: no copy). Expected values from Unicode's tables (Python's unicodedata agrees). */
static void nfc_normalizes_canonically(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"e\xCC\x81", "\xC3\xA9"},                             /* e + U+0301 -> U+00E9 */
      {"a\xCC\xA3\xCC\x82", "\xE1\xBA\xAD"},                /* a, dot below, circumflex -> U+1EAD */
      {"a\xCC\x82\xCC\xA3", "\xE1\xBA\xAD"},                /* the marks in the other order: the same */
      {"\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB", "\xED\x95\x9C"}, /* Hangul jamo -> U+D55C */
      {"\xE2\x84\xAB", "\xC3\x85"},                          /* U+212B ANGSTROM SIGN -> U+00C5 (singleton) */
      {"\xEF\xAC\x81", "\xEF\xAC\x81"},                      /* U+FB01 ligature: NFKC would change it, NFC not */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t *out;
    size_t n;
    assert_int_equal(mx_utf8_nfc((const uint8_t *)cases[i].in, strlen(cases[i].in), &out, &n), 1);
    assert_int_equal(n, strlen(cases[i].out));
    assert_memory_equal(out, cases[i].out, n);
    free(out);
  }
  uint8_t *out;
  size_t n;
  const char plain[] = "caf\xC3\xA9 \x00 \xCB\xBF"; /* U+00E9, a NUL, U+02FF: all below U+0300 */
  assert_int_equal(mx_utf8_nfc((const uint8_t *)plain, sizeof plain - 1, &out, &n), 0);
  assert_null(out);
}

/* Streaming decode of random byte-token sequences (valid and invalid UTF-8 alike) equals the
 * whole decode, and no push ever emits a partial character. */
static void streaming_decode_equals_whole_decode(void **state) {
  (void)state;
  mx_tokenizer_t *t = tiny_tokenizer();
  uint64_t s = 42;
  for (int trial = 0; trial < 2000; trial++) {
    int32_t ids[24];
    int n = 1 + trial % 24;
    for (int i = 0; i < n; i++) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      /* bias towards UTF-8 lead and continuation bytes so sequences form and break often */
      int r = (int)(s % 10);
      int b = r < 3 ? 0x80 + (int)((s >> 8) % 64) : r < 6 ? 0xC0 + (int)((s >> 8) % 64) : (int)((s >> 8) % 256);
      ids[i] = 2 + b;
    }
    mx_strbuf_t whole, streamed;
    mx_strbuf_init(&whole);
    mx_strbuf_init(&streamed);
    assert_ok(mx_tokenizer_decode(t, ids, (size_t)n, false, &whole));
    mx_detok_stream_t st;
    mx_detok_stream_init(&st);
    for (int i = 0; i < n; i++) {
      size_t before = streamed.len;
      assert_ok(mx_detok_stream_push(t, &st, ids[i], false, &streamed));
      size_t piece = streamed.len - before;
      assert_int_equal(mx_utf8_valid_prefix((const uint8_t *)streamed.data + before, piece), piece);
    }
    mx_detok_stream_finish(&st, &streamed);
    assert_int_equal(streamed.len, whole.len);
    if (whole.len) assert_memory_equal(streamed.data, whole.data, whole.len);
    mx_strbuf_free(&whole);
    mx_strbuf_free(&streamed);
  }
  mx_tokenizer_close(t);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void unsupported_tokenizers_are_refused_by_name(void **state) {
  (void)state;
  char dir[] = "/tmp/mlxcel-test-tok-XXXXXX", path[128];
  assert_non_null(mkdtemp(dir));
  mx_tokenizer_t *t;
  assert_status(mx_tokenizer_load_hf(dir, &t), MX_STAGE_IO, "has no tokenizer.json");
  snprintf(path, sizeof path, "%s/tokenizer.json", dir);
  write_text(path, "{\"model\":{\"type\":\"WordPiece\",\"vocab\":{\"a\":0}}}");
  assert_status(mx_tokenizer_load_hf(dir, &t), MX_STAGE_IO, "model type 'WordPiece' is not supported");
  write_text(path, "{\"normalizer\":{\"type\":\"NFKC\"},\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0},\"merges\":[]}}");
  assert_status(mx_tokenizer_load_hf(dir, &t), MX_STAGE_IO, "normalizer 'NFKC' is not supported");
  write_text(path, "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0},\"merges\":[],\"end_of_word_suffix\":\"</w>\"}}");
  assert_status(mx_tokenizer_load_hf(dir, &t), MX_STAGE_IO, "BPE option 'end_of_word_suffix' is not supported");
  write_text(path, "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1},\"merges\":[\"a b\"]}}");
  assert_status(mx_tokenizer_load_hf(dir, &t), MX_STAGE_IO, "merge 0 joins tokens that are not in the vocabulary");
  write_text(path, "{\"model\": [");
  assert_status(mx_tokenizer_load_hf(dir, &t), MX_STAGE_IO, "not a JSON object");
  unlink(path);
  rmdir(dir);
}

/* A SentencePiece-style tokenizer.json (BPE with byte fallback, Llama's Metaspace "first" and Strip
 * decoder): merges from the file, byte fallback, the prefix space in and out, and what is refused. */
static void sentencepiece_tokenizer_json(void **state) {
  (void)state;
  char dir[] = "/tmp/mlxcel-test-tok-XXXXXX", path[128], head[4096 * 8];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/tokenizer.json", dir);
  /* <unk> 0, <s> 1, <0x00>..<0xFF> 2..257, then the pieces */
  size_t n = (size_t)snprintf(head, sizeof head, "{\"model\":{\"type\":\"BPE\",\"byte_fallback\":true,\"vocab\":{\"<unk>\":0,\"<s>\":1");
  for (int b = 0; b < 256; b++) n += (size_t)snprintf(head + n, sizeof head - n, ",\"<0x%02X>\":%d", b, 2 + b);
  snprintf(head + n, sizeof head - n, ",\"\u2581\":258,\"a\":259,\"\u2581a\":260,\"b\":261,\"ab\":262},\"merges\":[\"\u2581 a\",\"a b\"]}");
  const char *llama = ",\"normalizer\":null,\"pre_tokenizer\":{\"type\":\"Metaspace\",\"replacement\":\"\u2581\",\"prepend_scheme\":"
                      "\"first\",\"split\":false},\"decoder\":{\"type\":\"Sequence\",\"decoders\":[{\"type\":\"Replace\",\"pattern\":"
                      "{\"String\":\"\u2581\"},\"content\":\" \"},{\"type\":\"ByteFallback\"},{\"type\":\"Fuse\"},{\"type\":\"Strip\","
                      "\"content\":\" \",\"start\":1,\"stop\":0}]},\"added_tokens\":[{\"id\":1,\"content\":\"<s>\",\"special\":true}]}";
  char *text = malloc(strlen(head) + strlen(llama) + 1);
  assert_non_null(text);
  strcpy(text, head);
  strcat(text, llama);
  write_text(path, text);
  mx_tokenizer_t *t;
  assert_ok(mx_tokenizer_load_hf(dir, &t));
  struct {
    const char *in;
    int n;
    int32_t ids[4];
  } cases[] = {
      {"a a", 2, {260, 260}},          /* "\u2581a\u2581a": the prefix space, then "\u2581 a" merged */
      {"ab", 2, {260, 261}},           /* "\u2581 a" ranks before "a b" */
      {" a", 1, {260}},                /* a leading space is the prefix: none is added */
      {"c", 2, {258, 2 + 'c'}},        /* no "c": its byte */
      {"<s>a", 2, {1, 259}},           /* after an added token the segment is not first: no prefix */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mx_ids_t ids = {0};
    assert_ok(mx_tokenizer_encode(t, cases[i].in, strlen(cases[i].in), false, &ids));
    assert_int_equal(ids.n, cases[i].n);
    for (int k = 0; k < cases[i].n; k++) assert_int_equal(ids.ids[k], cases[i].ids[k]);
    mx_ids_free(&ids);
  }
  int32_t out[2] = {260, 261};
  mx_strbuf_t whole, streamed;
  mx_strbuf_init(&whole);
  mx_strbuf_init(&streamed);
  assert_ok(mx_tokenizer_decode(t, out, 2, false, &whole));
  mx_detok_stream_t st;
  mx_detok_stream_init(&st);
  for (int i = 0; i < 2; i++) assert_ok(mx_detok_stream_push(t, &st, out[i], false, &streamed));
  mx_detok_stream_finish(&st, &streamed);
  assert_string_equal(whole.data, "ab"); /* the decoder's Strip: " ab" loses its first space */
  assert_string_equal(streamed.data, "ab");
  mx_strbuf_free(&whole);
  mx_strbuf_free(&streamed);
  mx_tokenizer_close(t);
  const char *refused[][2] = {
      {",\"normalizer\":{\"type\":\"Lowercase\"}}", "SentencePiece normalizer 'Lowercase' is not supported"},
      {",\"normalizer\":null}", "whose spaces no normalizer or Metaspace spells as U+2581"},
      {",\"pre_tokenizer\":{\"type\":\"Metaspace\",\"replacement\":\"_\"}}", "Metaspace replacement '_'"},
      {",\"normalizer\":{\"type\":\"Replace\",\"pattern\":{\"String\":\" \"},\"content\":\"\u2581\"},\"decoder\":{\"type\":\"CTC\"}}",
       "SentencePiece decoder 'CTC'"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    strcpy(text, head);
    strcat(text, refused[i][0]);
    write_text(path, text);
    assert_status(mx_tokenizer_load_hf(dir, &t), MX_STAGE_IO, refused[i][1]);
  }
  free(text);
  unlink(path);
  rmdir(dir);
}

/* Chat templates go through the Jinja engine (template parity: tests/oracle/template_parity.py). */
static void chat_templates_render_or_refuse(void **state) {
  (void)state;
  mx_chat_template_t ct;
  assert_status(mx_chat_template_parse(NULL, NULL, NULL, &ct), MX_STAGE_USAGE, "no chat template");
  assert_status(mx_chat_template_parse("{% include 'x' %}", NULL, NULL, &ct), MX_STAGE_USAGE, "{% include %} is not supported");
  const char *chatml = "{% if messages[0]['role'] != 'system' %}{{ '<|im_start|>system\\nBe kind.<|im_end|>\\n' }}{% endif %}"
                       "{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}{% endfor %}"
                       "{% if add_generation_prompt %}{{ bos_token ~ '<|im_start|>assistant\\n' }}{% endif %}";
  assert_ok(mx_chat_template_parse(chatml, "<s>", "</s>", &ct));
  mx_chat_msg_t m[1] = {{"user", "hi"}};
  mx_strbuf_t out;
  mx_strbuf_init(&out);
  assert_ok(mx_chat_render(&ct, m, 1, true, &out));
  assert_string_equal(out.data, "<|im_start|>system\nBe kind.<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<s><|im_start|>assistant\n");
  mx_strbuf_free(&out);
  mx_chat_msg_t bad[1] = {{"user", NULL}};
  assert_status(mx_chat_render(&ct, bad, 1, true, &out), MX_STAGE_USAGE, "incomplete");
  mx_chat_template_free(&ct);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(invalid_utf8_is_refused_with_offset),
      cmocka_unit_test(sentencepiece_vocabulary_from_gguf),
      cmocka_unit_test(special_tokens_are_matched_before_bpe),
      cmocka_unit_test(lossy_decode_replaces_maximal_subparts),
      cmocka_unit_test(nfc_normalizes_canonically),
      cmocka_unit_test(streaming_decode_equals_whole_decode),
      cmocka_unit_test(unsupported_tokenizers_are_refused_by_name),
      cmocka_unit_test(sentencepiece_tokenizer_json),
      cmocka_unit_test(chat_templates_render_or_refuse),
  };
  return cmocka_run_group_tests_name("tokenizer", tests, NULL, NULL);
}
