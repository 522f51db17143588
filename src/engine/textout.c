#include "engine/textout.h"

#include <string.h>

void mx_textout_init(mx_textout_t *t, const mx_tokenizer_t *tok, const char *const *stops, int n_stops) {
  memset(t, 0, sizeof *t);
  t->tok = tok;
  t->stops = stops;
  t->n_stops = n_stops;
  mx_detok_stream_init(&t->ds);
  mx_strbuf_init(&t->text);
}

void mx_textout_free(mx_textout_t *t) { mx_strbuf_free(&t->text); }

mx_status_t mx_textout_push(mx_textout_t *t, int32_t id) {
  if (t->stopped) return NULL;
  return mx_detok_stream_push(t->tok, &t->ds, id, true, &t->text);
}

void mx_textout_finish(mx_textout_t *t) {
  if (!t->stopped) mx_detok_stream_finish(&t->ds, &t->text);
  t->finished = true;
}

/* How far the text is final: up to a stop string (which ends generation), else all but the longest
 * tail that could be the start of a stop string, cut back to a character boundary. `final`: nothing
 * more will come. */
static size_t final_end(mx_textout_t *t, bool final) {
  if (t->stopped || !t->text.data) return t->released;
  size_t hold = 0;
  for (int i = 0; i < t->n_stops; i++) {
    /* Text before `released` cannot hold the start of a stop string: its tail was held back. */
    const char *hit = strstr(t->text.data + t->released, t->stops[i]);
    if (hit) {
      t->stopped = true;
      return (size_t)(hit - t->text.data);
    }
    size_t l = strlen(t->stops[i]) - 1;
    if (l > hold) hold = l;
  }
  if (final) return t->text.len;
  size_t end = t->text.len < hold ? 0 : t->text.len - hold;
  while (end > t->released && end < t->text.len && ((uint8_t)t->text.data[end] & 0xC0) == 0x80) end--;
  return end < t->released ? t->released : end;
}

size_t mx_textout_take(mx_textout_t *t, const char **data) {
  size_t from = t->released, end = final_end(t, t->finished);
  *data = t->text.data ? t->text.data + from : "";
  t->released = end;
  return end - from;
}
