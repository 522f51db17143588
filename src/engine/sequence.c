#include "engine/sequence.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/gumbel.h"

const char *mx_finish_name(mx_finish_t f) {
  switch (f) {
    case MX_FINISH_STOP: return "stop";
    case MX_FINISH_LENGTH: return "length";
    case MX_FINISH_CANCELLED: return "cancelled";
    case MX_FINISH_ERROR: return "error";
    default: return "";
  }
}

mx_status_t mx_seq_init(mx_seq_t *q, const mx_session_t *s, const int32_t *prompt, int n_prompt, const mx_seq_params_t *p) {
  memset(q, 0, sizeof *q);
  MX_RETURN_IF_ERROR(mx_sampling_check_vocab(&p->sampling, mx_session_config(s)->vocab));
  q->config = mx_session_config(s);
  q->capacity = mx_session_capacity(s);
  q->p = *p;
  q->n_prompt = n_prompt;
  q->last = -1;
  q->tok = mx_session_tokenizer(s);
  mx_json_init(&q->json);
  if (p->json_schema) {
    mx_status_t st = mx_schema_compile(p->json_schema, strlen(p->json_schema), &q->schema);
    if (st) return st; /* nothing allocated yet */
    mx_schema_start(&q->in_schema, q->schema);
    q->p.json_schema = NULL; /* the caller's text: compiled, not kept */
  }
  mx_textout_init(&q->out, mx_session_tokenizer(s), p->stops, p->n_stops);
  mx_strbuf_init(&q->ready);
  bool ok = true;
  for (int i = 0; ok && i < n_prompt; i++) ok = mx_ids_push(&q->history, prompt[i]);
  if (ok && !mx_sampling_is_greedy(&p->sampling)) {
    q->sampler = mx_sampler_create(&p->sampling, q->config->vocab);
    ok = q->sampler != NULL;
  }
  if (ok && p->logprobs) ok = (q->raw = malloc(sizeof(float) * (size_t)q->config->vocab)) != NULL;
  if (!ok) {
    mx_seq_free(q);
    return mx_status_oom();
  }
  return NULL;
}

void mx_seq_free(mx_seq_t *q) {
  mx_sampler_destroy(q->sampler);
  mx_schema_free(q->schema);
  free(q->logits);
  free(q->raw);
  mx_textout_free(&q->out);
  mx_strbuf_free(&q->ready);
  mx_ids_free(&q->history);
  memset(q, 0, sizeof *q);
}

bool mx_seq_greedy(const mx_seq_t *q) { return q->sampler == NULL && !q->p.logprobs && !q->p.json_object && !q->schema; }

bool mx_seq_draw_on_device(const mx_seq_t *q, bool cuts, mx_device_draw_t *d) {
  if (q->p.logprobs || q->p.json_object || q->schema) return false;
  const mx_sampling_t *p = &q->p.sampling;
  *d = (mx_device_draw_t){.key = mx_gumbel_key(p->seed), .top_p = 1};
  if (!q->sampler) return true; /* greedy: temperature 0 */
  if (!(cuts ? mx_sampling_is_cut_only(p) : mx_sampling_is_plain(p, q->config->vocab))) return false;
  d->temperature = p->temperature;
  if (cuts) d->top_k = p->top_k, d->top_p = p->top_p, d->min_p = p->min_p;
  return true;
}

int mx_seq_generated(const mx_seq_t *q) { return (int)q->history.n - q->n_prompt; }
int mx_seq_pos(const mx_seq_t *q) { return q->n_prompt + mx_seq_generated(q) - 1; }
const int32_t *mx_seq_tokens(const mx_seq_t *q) { return q->history.ids + q->n_prompt; }

int32_t mx_seq_pick(mx_seq_t *q, int32_t device_next, float *logits) {
  if (!logits) return device_next;
  int V = q->config->vocab;
  if (q->raw) memcpy(q->raw, logits, sizeof(float) * (size_t)V); /* the sampler changes the row */
  if (q->p.json_object) mx_json_mask(&q->json, q->tok, V, logits); /* none left: accept refuses the pick */
  if (q->schema) mx_schema_mask(&q->in_schema, q->tok, V, logits);
  int32_t id = q->sampler ? mx_sampler_pick(q->sampler, logits, q->history.ids, (int)q->history.n, q->n_prompt)
                          : mx_logits_argmax(logits, V);
  if (q->raw) mx_logprob_compute(q->raw, V, id, q->p.top_logprobs, &q->picked);
  return id;
}

/* Moves the text that became final to `ready`, where mx_seq_take_text finds it. */
static void release(mx_seq_t *q) {
  const char *p;
  size_t n = mx_textout_take(&q->out, &p);
  if (q->ready_taken == q->ready.len) q->ready.len = q->ready_taken = 0; /* all taken: reuse */
  if (n) mx_strbuf_append(&q->ready, p, n);
}

mx_status_t mx_seq_accept(mx_seq_t *q, int32_t id, bool *done) {
  *done = false;
  if (q->p.json_object || q->schema) {
    size_t n = 0;
    const char *b = mx_tokenizer_token_bytes(q->tok, id, &n);
    bool ok = b && !mx_tokenizer_is_special(q->tok, id);
    if (ok && q->p.json_object) ok = mx_json_feed(&q->json, (const uint8_t *)b, n);
    if (ok && q->schema) ok = mx_schema_feed(&q->in_schema, (const uint8_t *)b, n);
    if (!ok)
      return mx_status_make(MX_STAGE_INTERNAL, "leave out response_format for this model",
                            "no token of the vocabulary continues the JSON document (picked %d)", id);
  }
  if (!mx_ids_push(&q->history, id)) return mx_status_oom();
  q->last = id;
  if (!q->p.ignore_eos && mx_config_is_eos(q->config, id)) {
    q->eos = true;
    q->finish = MX_FINISH_STOP;
  } else {
    MX_RETURN_IF_ERROR(mx_textout_push(&q->out, id));
    release(q); /* finds a stop string, if one is complete now */
    if (q->out.stopped || q->json.done || q->in_schema.done) q->finish = MX_FINISH_STOP; /* the document closed */
    /* The next decode would write at mx_seq_pos; the cache holds `capacity` positions. */
    else if (mx_seq_generated(q) >= q->p.max_tokens || mx_seq_pos(q) >= q->capacity) q->finish = MX_FINISH_LENGTH;
  }
  *done = q->finish != MX_FINISH_NONE;
  return NULL;
}

size_t mx_seq_take_text(mx_seq_t *q, const char **data) {
  size_t n = q->ready.len - q->ready_taken;
  *data = q->ready.data ? q->ready.data + q->ready_taken : "";
  q->ready_taken = q->ready.len;
  return n;
}

void mx_seq_end(mx_seq_t *q) {
  mx_textout_finish(&q->out);
  release(q);
}

mx_status_t mx_seq_prefill(mx_session_t *s, int slot, mx_seq_t *q) {
  int32_t next = -1;
  if (!mx_seq_greedy(q) && !q->logits && !(q->logits = malloc(sizeof(float) * (size_t)q->config->vocab)))
    return mx_status_oom();
  MX_RETURN_IF_ERROR(mx_session_prefill_slot(s, slot, q->history.ids, q->n_prompt, q->logits, &next));
  bool done;
  return mx_seq_accept(q, mx_seq_pick(q, next, q->logits), &done);
}

static void emit_text(mx_seq_t *q, void (*on_text)(void *, const char *, size_t), void *ctx) {
  const char *p;
  size_t n = mx_seq_take_text(q, &p);
  if (n && on_text) on_text(ctx, p, n);
}

mx_status_t mx_seq_generate(mx_session_t *s, mx_seq_t *q, void (*on_text)(void *ctx, const char *text, size_t n),
                            void *ctx, mx_seq_timing_t *timing) {
  double t0 = mx_now_ms();
  mx_status_t st = mx_seq_prefill(s, 0, q);
  double t1 = mx_now_ms();
  int K = mx_session_decode_steps(s);
  int32_t *steps = K > 1 ? malloc(sizeof *steps * (size_t)K) : NULL;
  if (!st && K > 1 && !steps) st = mx_status_oom();
  while (!st) {
    emit_text(q, on_text, ctx);
    if (q->finish) break;
    int32_t next = -1, pos = mx_seq_pos(q);
    bool done = false;
    mx_device_draw_t draw;
    if (steps && mx_seq_draw_on_device(q, mx_session_device_cuts(s), &draw) && pos + K <= q->capacity) {
      /* K tokens in one call, picked on the device; the sequence may end before the last of them. */
      st = mx_session_decode_slots_steps(s, &q->last, &pos, &draw, steps);
      for (int k = 0; !st && k < K && !done; k++) {
        st = mx_seq_accept(q, steps[k], &done);
        if (!done && k + 1 < K) emit_text(q, on_text, ctx);
      }
      continue;
    }
    st = mx_session_decode(s, q->last, pos, q->logits, &next);
    if (!st) st = mx_seq_accept(q, mx_seq_pick(q, next, q->logits), &done);
  }
  free(steps);
  mx_seq_end(q);
  emit_text(q, on_text, ctx);
  if (timing) *timing = (mx_seq_timing_t){.prefill_ms = t1 - t0, .decode_ms = mx_now_ms() - t1};
  return st;
}
