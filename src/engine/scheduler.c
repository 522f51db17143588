#include "engine/scheduler.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/log.h"
#include "hlo/llama.h"

/* A device call that fails while the worker stays up fails the requests in it; this many in a row
 * mean the device itself is broken, and it is restarted like a lost one. */
#define MAX_CALL_ERRORS_IN_A_ROW 3
/* Restart back-off: the first retry after this, doubling, at most RESTART_BACKOFF_MAX_MS. */
#define RESTART_BACKOFF_MS 500
#define RESTART_BACKOFF_MAX_MS 8000
#define DEFAULT_PROBE_TIMEOUT_MS 5000
/* How often the engine reads the device's memory figures between calls (the /metrics gauges). */
#define MEMORY_REFRESH_MS 1000
/* After a shutdown's deadline, how long a device call may still take before its worker is killed. */
#define SHUTDOWN_KILL_GRACE_MS 1000

struct mx_request {
  atomic_int refs;     /* the caller's, and the engine's while queued or running */
  atomic_bool cancel;  /* set by any thread, read by the engine */
  mx_sched_t *sched;
  /* The parameters (owned copies). */
  int n_prompt;
  bool logprobs;
  char *stops[MX_MAX_STOPS];
  int n_stops;
  /* Engine thread only. */
  int slot;
  mx_seq_t seq;        /* the prompt, the generated ids and every decision about the next token */
  bool prompt_logprobs;
  int n_top;           /* prompt_logprobs: alternatives per entry */
  int forced;          /* prompt_logprobs: the prompt token the next decode step feeds; 0 once generating */
  int cached;          /* prompt tokens a slot held already (prefix reuse) */
  float *embedding;    /* an embed request's result (dim floats, allocated at submit); NULL otherwise */
  /* Choices sharing a prompt (mx_request_params_t share_count / prompt_of): the first keeps its prompt's
   * last logits (vocab floats) once prefilled (shares_ready); the others hold a reference to it. */
  float *shared_logits;
  bool shares_ready;
  mx_request_t *source;
  int copied;          /* prompt tokens copied from the source's slot */
  uint64_t finished_step; /* the scheduler's decode steps when it finished */
  double t_submit;     /* set before the request is shared */
  double t_admit, t_first; /* written by the engine under mu (the request's), read by mx_request_info */
  mx_request_t *next;  /* wait queue */
  /* Shared with the owner, under mu. */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  mx_strbuf_t pending; /* released text the owner has not taken */
  mx_ids_t generated;
  mx_logprob_list_t lp; /* with logprobs: one per generated id */
  mx_logprob_list_t prompt_lp; /* with prompt_logprobs: one per prompt token after the first */
  bool prompt_lp_done;         /* prompt_lp is complete */
  bool finished;
  mx_finish_t finish;
  mx_status_t error;
  double queue_ms, ttft_ms, decode_ms;
};

struct mx_sched {
  mx_session_t *session;
  const mx_model_config_t *config;
  const mx_tokenizer_t *tok;
  int n_slots, queue_max, vocab;
  pthread_t thread;
  bool thread_started;
  char label[96];
  int probe_interval_ms, probe_timeout_ms, max_restarts;
  atomic_int worker_pid; /* the live worker's, for a shutdown that must kill a hung one */
  pthread_mutex_t dev_mu; /* one caller of the session at a time */
  pthread_mutex_t mu; /* guards the queue, the slots' occupancy, the flags and the counters */
  pthread_cond_t cv;  /* wakes the engine: a submit, a cancel, a shutdown */
  mx_request_t *head, *tail;
  int queued;
  mx_request_t *slots[MX_LLAMA_MAX_SLOTS]; /* written by the engine under mu */
  int active;
  bool closing;       /* no more submits */
  double deadline_ms; /* closing: cancel running requests after this time */
  mx_device_state_t state;
  int call_errors;    /* device calls failed in a row with the worker up (engine thread) */
  char last_failure[256];
  uint64_t restarts;
  _Atomic uint64_t request_errors; /* counted by the engine outside mu too */
  bool has_memory;
  uint64_t device_bytes, device_bytes_peak;
  double memory_read_ms; /* engine thread: when the figures were last read */
  uint64_t admitted, finished, decode_steps, prompt_tokens, admitted_while_busy;
  bool decoded_since_idle; /* a decode call ran since the slots were last all free */
  _Atomic uint64_t tokens_generated; /* counted by the engine outside mu */
  float *logits;      /* slots x vocab */
  /* Prefix reuse: per slot, the prompt tokens whose KV rows it holds from its last prefill, whole
   * chunks only (they stay valid while the slot is free: an idle slot's decode rows are parked after
   * them), and when it was last given a request (0: never; the least recent goes first). */
  bool prefix_reuse;
  mx_ids_t held[MX_LLAMA_MAX_SLOTS];
  uint64_t last_used[MX_LLAMA_MAX_SLOTS];
  const mx_request_t *last_request[MX_LLAMA_MAX_SLOTS]; /* the request last given each slot (compared, never read) */
  uint64_t cached_tokens;
};

/* ------------------------------------------------------------------------------ requests */

static void request_unref(mx_request_t *r);

static void request_free(mx_request_t *r) {
  mx_seq_free(&r->seq);
  free(r->embedding);
  free(r->shared_logits);
  if (r->source) request_unref(r->source);
  for (int i = 0; i < r->n_stops; i++) free(r->stops[i]);
  mx_ids_free(&r->generated);
  mx_logprob_list_free(&r->lp);
  mx_logprob_list_free(&r->prompt_lp);
  mx_strbuf_free(&r->pending);
  mx_status_free(r->error);
  pthread_mutex_destroy(&r->mu);
  pthread_cond_destroy(&r->cv);
  free(r);
}

static void request_unref(mx_request_t *r) {
  if (atomic_fetch_sub(&r->refs, 1) == 1) request_free(r);
}

bool mx_request_wait(mx_request_t *r, int timeout_ms, mx_strbuf_t *text) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  if (timeout_ms > 0) {
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&r->mu);
  while (timeout_ms != 0 && !r->finished && r->pending.len == 0) {
    if (timeout_ms < 0) pthread_cond_wait(&r->cv, &r->mu);
    else if (pthread_cond_timedwait(&r->cv, &r->mu, &until) == ETIMEDOUT) break;
  }
  if (r->pending.len) {
    if (text) mx_strbuf_append(text, r->pending.data, r->pending.len);
    r->pending.len = 0;
    r->pending.data[0] = '\0';
  }
  bool done = r->finished;
  pthread_mutex_unlock(&r->mu);
  return done;
}

void mx_request_cancel(mx_request_t *r) {
  atomic_store(&r->cancel, true);
  pthread_mutex_lock(&r->mu);
  bool live = !r->finished;
  pthread_mutex_unlock(&r->mu);
  if (live) { /* wake an idle engine so a queued request ends now */
    pthread_mutex_lock(&r->sched->mu);
    pthread_cond_signal(&r->sched->cv);
    pthread_mutex_unlock(&r->sched->mu);
  }
}

void mx_request_release(mx_request_t *r) {
  if (!r) return;
  mx_request_cancel(r);
  request_unref(r);
}

void mx_request_info(mx_request_t *r, mx_request_info_t *out) {
  pthread_mutex_lock(&r->mu);
  *out = (mx_request_info_t){.finish = r->finish, .prompt_tokens = r->n_prompt, .cached_tokens = r->cached,
                             .copied_tokens = r->copied,
                             .completion_tokens = (int)r->generated.n, .queue_ms = r->queue_ms, .ttft_ms = r->ttft_ms,
                             .decode_ms = r->decode_ms, .tokens = r->generated.ids, .error = r->error};
  if (!r->finished) { /* the figures so far (a request just cancelled is read before the engine ends it) */
    double now = mx_now_ms();
    out->queue_ms = (r->t_admit ? r->t_admit : now) - r->t_submit;
    out->ttft_ms = r->t_first ? r->t_first - r->t_submit : 0;
    out->decode_ms = r->t_first ? now - r->t_first : 0;
  }
  pthread_mutex_unlock(&r->mu);
}

bool mx_request_logprobs(mx_request_t *r, size_t from, mx_logprob_list_t *out, size_t *appended) {
  size_t i = from;
  pthread_mutex_lock(&r->mu);
  while (i < r->lp.n && mx_logprob_list_push(out, &r->lp.v[i])) i++;
  bool ok = i >= r->lp.n;
  pthread_mutex_unlock(&r->mu);
  *appended = i > from ? i - from : 0;
  return ok;
}

bool mx_request_prompt_logprobs(mx_request_t *r, mx_logprob_list_t *out, bool *complete) {
  bool ok = true;
  pthread_mutex_lock(&r->mu);
  *complete = r->prompt_lp_done;
  for (size_t i = 0; ok && r->prompt_lp_done && i < r->prompt_lp.n; i++) ok = mx_logprob_list_push(out, &r->prompt_lp.v[i]);
  pthread_mutex_unlock(&r->mu);
  return ok;
}

/* ----------------------------------------------------------------------- engine helpers */

/* Teacher forcing (prompt_logprobs): records the entry of prompt token `at` from the logits row that
 * predicts it (the one after token at - 1); done: that was the last prompt token. False when out of
 * memory. */
static bool record_prompt_logprob(mx_sched_t *s, mx_request_t *r, const float *row, int at, bool done) {
  mx_token_logprob_t e;
  mx_logprob_compute(row, s->vocab, r->seq.history.ids[at], r->n_top, &e);
  pthread_mutex_lock(&r->mu);
  bool ok = mx_logprob_list_push(&r->prompt_lp, &e);
  r->prompt_lp_done = done;
  pthread_mutex_unlock(&r->mu);
  return ok;
}

/* Hands the owner the text that became final. */
static void publish_text(mx_request_t *r) {
  const char *p;
  size_t n = mx_seq_take_text(&r->seq, &p);
  if (!n) return;
  pthread_mutex_lock(&r->mu);
  mx_strbuf_append(&r->pending, p, n);
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->mu);
}

/* Ends a request: its last text, the figures, the wake-up; frees its slot and drops the engine's
 * reference. Called by the engine thread (or by shutdown once the thread is gone) with s->mu held. */
static void finish_locked(mx_sched_t *s, mx_request_t *r, mx_finish_t why, mx_status_t error) {
  mx_seq_end(&r->seq);
  if (why != MX_FINISH_CANCELLED && why != MX_FINISH_ERROR) publish_text(r);
  /* The slot and the counters first: an owner woken below sees the scheduler already updated. */
  r->finished_step = s->decode_steps;
  if (why == MX_FINISH_ERROR) r->shares_ready = false; /* its rows may be anything */
  if (r->slot >= 0) {
    s->slots[r->slot] = NULL;
    s->active--;
    r->slot = -1;
    if (s->active == 0) s->decoded_since_idle = false;
  }
  s->finished++;
  double now = mx_now_ms();
  pthread_mutex_lock(&r->mu);
  r->finished = true;
  r->finish = why;
  r->error = error;
  r->queue_ms = (r->t_admit ? r->t_admit : now) - r->t_submit;
  r->ttft_ms = r->t_first ? r->t_first - r->t_submit : 0;
  r->decode_ms = r->t_first ? now - r->t_first : 0;
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->mu);
  request_unref(r);
}

/* Takes one generated token: hands it to the owner, lets the sequence decide whether the request is
 * done, and publishes the text that became final. */
static bool take_token(mx_sched_t *s, mx_request_t *r, int32_t id, mx_finish_t *why, mx_status_t *err) {
  pthread_mutex_lock(&r->mu);
  if (!r->t_first) r->t_first = mx_now_ms();
  bool ok = mx_ids_push(&r->generated, id);
  if (ok && r->logprobs) ok = mx_logprob_list_push(&r->lp, &r->seq.picked);
  pthread_mutex_unlock(&r->mu);
  bool done = false;
  mx_status_t st = ok ? mx_seq_accept(&r->seq, id, &done) : mx_status_oom();
  if (st) {
    *why = MX_FINISH_ERROR;
    *err = st;
    return true;
  }
  atomic_fetch_add(&s->tokens_generated, 1);
  publish_text(r);
  *why = r->seq.finish;
  return done;
}

/* Ends every running request with (a copy of) st. */
static void fail_running_locked(mx_sched_t *s, mx_status_t st) {
  for (int b = 0; b < s->n_slots; b++)
    if (s->slots[b]) finish_locked(s, s->slots[b], MX_FINISH_ERROR, mx_status_clone(st));
}

/* Ends every running and waiting request with (a copy of) st. */
static void fail_all_locked(mx_sched_t *s, mx_status_t st) {
  fail_running_locked(s, st);
  while (s->head) {
    mx_request_t *r = s->head;
    s->head = r->next;
    s->queued--;
    finish_locked(s, r, MX_FINISH_ERROR, mx_status_clone(st));
  }
  s->tail = NULL;
}

/* ------------------------------------------------------------------- device loss and restart */

const char *mx_device_state_name(mx_device_state_t st) {
  return st == MX_DEVICE_READY ? "ready" : st == MX_DEVICE_RESTARTING ? "restarting" : "failed";
}

/* Reads the device's memory figures (engine thread, holding dev_mu, between calls). A failure to
 * read them is left to the next device call to find. */
static void read_memory(mx_sched_t *s) {
  mx_alloc_stats_t as;
  mx_status_t st = mx_session_device_stats(s->session, &as);
  s->memory_read_ms = mx_now_ms();
  if (st) {
    mx_status_free(st);
    return;
  }
  pthread_mutex_lock(&s->mu);
  s->has_memory = true;
  s->device_bytes = as.device_bytes_allocated - as.device_bytes_freed;
  s->device_bytes_peak = as.device_bytes_peak;
  pthread_mutex_unlock(&s->mu);
}

/* Sleeps up to ms under s->mu, waking early for a shutdown. */
static void backoff_locked(mx_sched_t *s, int ms) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += ms / 1000;
  until.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
  while (!s->closing && pthread_cond_timedwait(&s->cv, &s->mu, &until) != ETIMEDOUT) {
  }
}

/* The device is lost (its worker died, hung, or kept failing calls): the running requests fail
 * (their KV rows are gone), the waiting ones stay queued, and the worker is restarted with back-off
 * up to max_restarts times; then the device is given up and everything waiting fails. The cause is
 * logged once, here. Called by the engine thread with s->mu held; takes ownership of why. */
static void device_lost_locked(mx_sched_t *s, mx_status_t why) {
  snprintf(s->last_failure, sizeof s->last_failure, "%s", mx_status_message(why));
  s->state = MX_DEVICE_RESTARTING;
  atomic_store(&s->worker_pid, -1);
  fail_running_locked(s, why);
  for (int b = 0; b < s->n_slots; b++) s->held[b].n = 0, s->last_request[b] = NULL; /* a new worker starts with an empty cache */
  bool restart = s->max_restarts > 0 && !s->closing;
  mx_log(MX_LOG_ERROR, "mlxcel: device %s lost: %s%s", s->label, mx_status_message(why),
         restart ? "; restarting its worker" : s->closing ? "; shutting down" : "; restarts are off (--max-restarts 0): giving it up");
  int delay = RESTART_BACKOFF_MS;
  for (int attempt = 1; restart && attempt <= s->max_restarts && !s->closing; attempt++) {
    if (attempt > 1) {
      backoff_locked(s, delay);
      delay = delay * 2 > RESTART_BACKOFF_MAX_MS ? RESTART_BACKOFF_MAX_MS : delay * 2;
      if (s->closing) break;
    }
    pthread_mutex_unlock(&s->mu);
    double t0 = mx_now_ms();
    pthread_mutex_lock(&s->dev_mu);
    mx_status_t st = mx_session_restart(s->session);
    if (!st) read_memory(s);
    pid_t pid = mx_session_worker_pid(s->session);
    pthread_mutex_unlock(&s->dev_mu);
    pthread_mutex_lock(&s->mu);
    if (!st) {
      s->state = MX_DEVICE_READY;
      s->restarts++;
      s->call_errors = 0;
      atomic_store(&s->worker_pid, (int)pid);
      mx_log(MX_LOG_INFO, "mlxcel: device %s restarted (attempt %d of %d, %.0f ms); %d waiting request%s", s->label,
             attempt, s->max_restarts, mx_now_ms() - t0, s->queued, s->queued == 1 ? " resumes" : "s resume");
      mx_status_free(why);
      return;
    }
    mx_log(MX_LOG_ERROR, "mlxcel: device %s: restart attempt %d of %d failed: %s", s->label, attempt, s->max_restarts,
           mx_status_message(st));
    mx_status_free(st);
  }
  s->state = MX_DEVICE_FAILED;
  if (restart && !s->closing) mx_log(MX_LOG_ERROR, "mlxcel: device %s given up after %d restart attempts", s->label, s->max_restarts);
  fail_all_locked(s, why);
  mx_status_free(why);
}

/* A device call failed with st. The worker gone (died, hung) means a lost device; a worker that
 * answered with an error failed only the requests in that call, unless the calls keep failing.
 * Returns whether the device was lost. Engine thread, s->mu held; takes ownership of st. */
static bool call_failed_locked(mx_sched_t *s, mx_status_t st, mx_request_t *const *in_call, int n) {
  bool lost = !mx_session_worker_alive(s->session) || ++s->call_errors >= MAX_CALL_ERRORS_IN_A_ROW;
  if (lost) {
    if (mx_session_worker_alive(s->session))
      st = mx_status_annotate(st, "%d device calls failed in a row", s->call_errors);
    device_lost_locked(s, st);
    return true;
  }
  mx_log(MX_LOG_WARN, "mlxcel: device %s: a call failed (the worker is up; the requests in it fail): %s", s->label,
         mx_status_message(st));
  for (int i = 0; i < n; i++)
    if (in_call[i] && in_call[i]->slot >= 0) {
      atomic_fetch_add(&s->request_errors, 1);
      finish_locked(s, in_call[i], MX_FINISH_ERROR, mx_status_clone(st));
    }
  mx_status_free(st);
  return false;
}

/* The device's token for a request, or the error that fails that request alone: a token outside
 * the vocabulary is what an argmax over NaN logits gives. */
static mx_status_t check_device_token(mx_sched_t *s, int32_t id) {
  if (id >= 0 && id < s->vocab) return NULL;
  return mx_status_make(MX_STAGE_CALL, "retry the request; if it recurs, report it with the prompt, the model and the device",
                        "the device returned token %d, outside the vocabulary 0..%d (NaN or infinite logits for this "
                        "sequence)",
                        id, s->vocab - 1);
}

/* check_device_token, counted: a request failed by the device while the device stayed up. */
static mx_status_t check_device_token_counted(mx_sched_t *s, int32_t id) {
  mx_status_t st = check_device_token(s, id);
  if (st) atomic_fetch_add(&s->request_errors, 1);
  return st;
}

/* Ends cancelled requests (queued or running); with the deadline passed, every running one. */
static void sweep_cancelled_locked(mx_sched_t *s) {
  bool past = s->closing && mx_now_ms() >= s->deadline_ms;
  for (int b = 0; b < s->n_slots; b++)
    if (s->slots[b] && (past || atomic_load(&s->slots[b]->cancel))) finish_locked(s, s->slots[b], MX_FINISH_CANCELLED, NULL);
  mx_request_t **pp = &s->head;
  s->tail = NULL;
  while (*pp) {
    mx_request_t *r = *pp;
    if (s->closing || atomic_load(&r->cancel)) {
      *pp = r->next;
      s->queued--;
      finish_locked(s, r, MX_FINISH_CANCELLED, NULL);
    } else {
      s->tail = r;
      pp = &r->next;
    }
  }
}

/* The prompt tokens slot b can skip for r: the whole chunks it holds that the prompt starts with,
 * short of the prompt's last token (whose logits the prefill must give). */
static int reusable(const mx_sched_t *s, int b, const mx_request_t *r, int chunk) {
  int n = (int)s->held[b].n, same = 0;
  while (same < n && same < r->n_prompt - 1 && s->held[b].ids[same] == r->seq.history.ids[same]) same++;
  return same / chunk * chunk;
}

/* A free slot for r: the one holding most of its prompt, else the least recently used (so what the
 * others hold lasts longest). */
static int pick_slot(const mx_sched_t *s, const mx_request_t *r, bool reuse, int chunk, int *skip) {
  int slot = -1;
  *skip = 0;
  for (int b = 0; b < s->n_slots; b++) {
    if (s->slots[b]) continue;
    int k = reuse ? reusable(s, b, r, chunk) : 0;
    if (slot < 0 || k > *skip || (k == *skip && s->last_used[b] < s->last_used[slot])) slot = b, *skip = k;
  }
  return slot;
}

/* After a prefill from 0 to n into slot b: the whole chunks it now holds, up to where an idle slot's
 * decode rows are parked for the K-step calls (held.n + K within the capacity). */
static void remember_prompt(mx_sched_t *s, int b, const mx_request_t *r, int chunk) {
  int K = mx_session_decode_steps(s->session), cap = mx_session_capacity(s->session);
  int n = (r->n_prompt - 1) / chunk * chunk, limit = (cap - (K > 1 ? K : 1)) / chunk * chunk;
  if (n > limit) n = limit;
  s->held[b].n = 0;
  for (int i = 0; i < n; i++)
    if (!mx_ids_push(&s->held[b], r->seq.history.ids[i])) {
      s->held[b].n = 0; /* out of memory: hold nothing, which is always right */
      return;
    }
}

/* An embed request admitted into `slot` (s->mu held; dropped for the device call): its pooled prefill,
 * then it finishes and frees the slot. The slot holds no reusable prefix afterwards: the pooled
 * functions are other code than the prefill a reuse would have to match bit for bit. */
static void embed_locked(mx_sched_t *s, mx_request_t *r, int slot) {
  s->held[slot].n = 0;
  pthread_mutex_unlock(&s->mu);
  pthread_mutex_lock(&s->dev_mu);
  mx_status_t st = mx_session_embed_slot(s->session, slot, r->seq.history.ids, r->n_prompt, r->embedding);
  pthread_mutex_unlock(&s->dev_mu);
  pthread_mutex_lock(&r->mu);
  r->t_first = mx_now_ms();
  pthread_mutex_unlock(&r->mu);
  pthread_mutex_lock(&s->mu);
  if (st) {
    call_failed_locked(s, st, &r, 1);
    return;
  }
  s->call_errors = 0;
  finish_locked(s, r, MX_FINISH_STOP, NULL);
}

/* The slot whose KV rows hold the prompt of src (the first choice of a request, prefilled), or -1: its
 * own while it runs; after it finished, the slot it left as long as no other request was given it and
 * no decode call ran (an idle slot's parked decode rows lie inside the prompt's). */
static int shared_rows_slot(const mx_sched_t *s, const mx_request_t *src) {
  if (!src || !src->shares_ready) return -1;
  if (src->slot >= 0) return src->slot;
  for (int b = 0; b < s->n_slots; b++)
    if (s->last_request[b] == src) return !s->slots[b] && s->decode_steps == src->finished_step ? b : -1;
  return -1;
}

/* Prefills the first waiting request into a free slot. Called with s->mu held; drops it for the
 * device call. */
static void admit_one_locked(mx_sched_t *s) {
  if (!s->head || s->active >= s->n_slots) return;
  mx_request_t *r = s->head;
  bool embed = r->embedding != NULL;
  /* Prompt logprobs: only the first token now; the decode steps feed the rest (teacher forcing). */
  bool force = !r->prompt_lp_done;
  int chunk = mx_session_prefill_chunk(s->session), skip = 0;
  /* Another choice of the same prompt runs with its rows in place: copy them, skip the prefill. */
  mx_request_t *src = r->source;
  int from = force ? -1 : shared_rows_slot(s, src);
  bool copy = from >= 0;
  int slot = pick_slot(s, r, s->prefix_reuse && !force && !embed && !copy, chunk, &skip);
  if (slot < 0) return;
  s->last_request[slot] = r;
  s->head = r->next;
  if (!s->head) s->tail = NULL;
  s->queued--;
  r->next = NULL;
  r->slot = slot;
  r->cached = skip;
  s->slots[slot] = r;
  s->last_used[slot] = s->admitted + 1;
  s->held[slot].n = (size_t)skip; /* the rest is about to be overwritten */
  s->cached_tokens += (uint64_t)skip;
  /* Mid-generation: others have decoded already (not merely been admitted in the same batch). */
  if (s->active > 0 && s->decoded_since_idle) s->admitted_while_busy++;
  s->active++;
  s->admitted++;
  s->prompt_tokens += (uint64_t)r->n_prompt;
  pthread_mutex_lock(&r->mu);
  r->t_admit = mx_now_ms();
  r->copied = copy ? r->n_prompt : 0;
  pthread_mutex_unlock(&r->mu);
  if (embed) {
    embed_locked(s, r, slot);
    return;
  }
  /* A choice whose prompt is shared needs the last logits (its own pick, or the others'). */
  bool greedy = mx_seq_greedy(&r->seq) && !copy && !(r->shared_logits && !force);
  int32_t next = -1;
  pthread_mutex_unlock(&s->mu);
  pthread_mutex_lock(&s->dev_mu);
  /* (Given the very slot the finished source left, the rows are in place already.) */
  mx_status_t st = copy ? (from == slot ? NULL : mx_session_copy_slot(s->session, from, slot, r->n_prompt))
                        : mx_session_prefill_slot_from(s->session, slot, r->seq.history.ids, skip, force ? 1 : r->n_prompt,
                                                       greedy ? NULL : s->logits, &next);
  pthread_mutex_unlock(&s->dev_mu);
  if (!st && copy) {
    memcpy(s->logits, src->shared_logits, sizeof(float) * (size_t)s->vocab);
  } else if (!st && r->shared_logits && !force) { /* before the pick, which changes the row */
    memcpy(r->shared_logits, s->logits, sizeof(float) * (size_t)s->vocab);
    r->shares_ready = true;
  }
  mx_finish_t why = MX_FINISH_NONE;
  mx_status_t err = st || !greedy ? NULL : check_device_token_counted(s, next);
  bool done = err != NULL;
  if (err) why = MX_FINISH_ERROR;
  else if (!st && force) {
    r->forced = 1;
    if (!record_prompt_logprob(s, r, s->logits, 1, r->n_prompt == 2)) done = true, why = MX_FINISH_ERROR, err = mx_status_oom();
  } else if (!st) done = take_token(s, r, mx_seq_pick(&r->seq, next, greedy ? NULL : s->logits), &why, &err);
  pthread_mutex_lock(&s->mu);
  if (st) {
    s->held[slot].n = 0;
    call_failed_locked(s, st, &r, 1);
    return;
  }
  if (!force) remember_prompt(s, slot, r, chunk);
  else s->held[slot].n = 0; /* the prompt's rows come from decode steps: not a prefill's */
  s->call_errors = 0;
  if (done) finish_locked(s, r, why, err);
}

/* Admits waiting requests into free slots before the next decode call, as long as their prompts add
 * up to at most MX_SCHED_ADMIT_TOKENS (always at least one): requests that arrive together start
 * together (one admission per decode call made the 8th of 8 simultaneous requests wait for 7 decode
 * calls: 598 ms to its first token on the H200, docs/performance.md), while the running streams'
 * wait for a batch of prefills stays bounded. */
static void admit_locked(mx_sched_t *s) {
  int tokens = 0;
  while (s->state == MX_DEVICE_READY && s->head && s->active < s->n_slots && !s->closing) {
    /* The other choices of a prompt just admitted copy its rows: no prefill to wait for, and the rows
     * of a first choice that finished at once last only until the next decode call. */
    bool copies = s->head->source != NULL;
    if (tokens > 0 && !copies && tokens + s->head->n_prompt > MX_SCHED_ADMIT_TOKENS) break;
    if (!copies) tokens += s->head->n_prompt;
    admit_one_locked(s);
  }
}

/* One decode call for every running request: K steps when the device can pick every running
 * request's tokens (greedy, plain temperature, or cuts where the module draws them:
 * mx_seq_draw_on_device) and each has room for them (the module has a multi-step form), else one step. Called with s->mu held; drops it for the device
 * call. */
static void decode_step_locked(mx_sched_t *s) {
  int32_t tokens[MX_LLAMA_MAX_SLOTS] = {0}, pos[MX_LLAMA_MAX_SLOTS] = {0};
  int32_t next[MX_LLAMA_MAX_SLOTS * MX_LLAMA_MAX_DECODE_STEPS] = {0};
  mx_device_draw_t draw[MX_LLAMA_MAX_SLOTS];
  for (int b = 0; b < MX_LLAMA_MAX_SLOTS; b++) draw[b] = (mx_device_draw_t){.top_p = 1}; /* idle slots: greedy */
  bool cuts = mx_session_device_cuts(s->session);
  mx_request_t *run[MX_LLAMA_MAX_SLOTS] = {0};
  int K = mx_session_decode_steps(s->session), cap = mx_session_capacity(s->session);
  bool device_picks = true, on_device = true, room = true; /* device_picks: no logits come back */
  s->decoded_since_idle = true;
  for (int b = 0; b < s->n_slots; b++) {
    run[b] = s->slots[b];
    if (!run[b]) { /* idle: its rows go after the chunks it holds, outside the window's reckoning */
      pos[b] = -(int32_t)s->held[b].n - 1;
      continue;
    }
    if (run[b]->forced) { /* teacher forcing: the next prompt token at its own position */
      tokens[b] = run[b]->seq.history.ids[run[b]->forced];
      pos[b] = run[b]->forced;
    } else {
      tokens[b] = run[b]->seq.last;
      pos[b] = mx_seq_pos(&run[b]->seq);
    }
    device_picks = device_picks && mx_seq_greedy(&run[b]->seq);
    on_device = on_device && !run[b]->forced && mx_seq_draw_on_device(&run[b]->seq, cuts, &draw[b]);
    room = room && pos[b] + K <= cap;
  }
  int steps = on_device && room && K > 1 ? K : 1;
  if (steps > 1) device_picks = true;
  pthread_mutex_unlock(&s->mu);
  pthread_mutex_lock(&s->dev_mu);
  mx_status_t st = steps > 1 ? mx_session_decode_slots_steps(s->session, tokens, pos, draw, next)
                             : mx_session_decode_slots(s->session, tokens, pos, device_picks ? NULL : s->logits, next);
  pthread_mutex_unlock(&s->dev_mu);
  mx_finish_t why[MX_LLAMA_MAX_SLOTS] = {0};
  mx_status_t err[MX_LLAMA_MAX_SLOTS] = {0};
  bool done[MX_LLAMA_MAX_SLOTS] = {0};
  for (int k = 0; !st && k < steps; k++)
    for (int b = 0; b < s->n_slots; b++) {
      mx_request_t *r = run[b];
      if (!r || done[b]) continue; /* a request that ended inside the call ignores its later steps */
      /* When any slot samples on the host, the step returns every slot's logits; greedy slots take
       * their argmax. */
      float *row = device_picks ? NULL : s->logits + (size_t)b * (size_t)s->vocab;
      int32_t id = next[k * s->n_slots + b];
      if (r->forced && r->forced + 1 < r->n_prompt) { /* the row predicts the next prompt token */
        int at = ++r->forced;
        if (!record_prompt_logprob(s, r, row, at, at == r->n_prompt - 1))
          done[b] = true, why[b] = MX_FINISH_ERROR, err[b] = mx_status_oom();
        continue;
      }
      r->forced = 0; /* the row after the last prompt token: generation starts */
      if (!row && (err[b] = check_device_token_counted(s, id))) {
        done[b] = true, why[b] = MX_FINISH_ERROR;
        continue;
      }
      done[b] = take_token(s, r, mx_seq_pick(&r->seq, id, row), &why[b], &err[b]);
    }
  pthread_mutex_lock(&s->mu);
  s->decode_steps += (uint64_t)steps;
  if (st) {
    call_failed_locked(s, st, run, s->n_slots);
    return;
  }
  s->call_errors = 0;
  for (int b = 0; b < s->n_slots; b++)
    if (run[b] && done[b]) finish_locked(s, run[b], why[b], err[b]);
}

/* The idle worker's liveness probe: a ping (and the memory figures) that must answer in time. A
 * worker that died or hung while nobody used it is found here, not by the next request. */
static void probe_locked(mx_sched_t *s) {
  pthread_mutex_unlock(&s->mu);
  pthread_mutex_lock(&s->dev_mu);
  mx_status_t st = mx_session_ping(s->session, s->probe_timeout_ms);
  if (!st) read_memory(s);
  pthread_mutex_unlock(&s->dev_mu);
  pthread_mutex_lock(&s->mu);
  if (st) device_lost_locked(s, mx_status_annotate(st, "the idle worker's liveness probe"));
}

/* Waits for work; with probes on, at most until the next probe is due, and runs it. */
static void idle_wait_locked(mx_sched_t *s, double *next_probe) {
  if (s->probe_interval_ms <= 0 || s->state != MX_DEVICE_READY) {
    pthread_cond_wait(&s->cv, &s->mu);
    return;
  }
  double now = mx_now_ms();
  if (now < *next_probe) {
    int ms = (int)(*next_probe - now) + 1;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&s->cv, &s->mu, &until);
  }
  if (!s->closing && !s->head && s->active == 0 && mx_now_ms() >= *next_probe) {
    probe_locked(s);
    *next_probe = mx_now_ms() + s->probe_interval_ms;
  }
}

static void *engine_main(void *arg) {
  mx_sched_t *s = arg;
  double next_probe = mx_now_ms() + s->probe_interval_ms;
  pthread_mutex_lock(&s->dev_mu);
  read_memory(s); /* the gauges have figures before the first request */
  pthread_mutex_unlock(&s->dev_mu);
  pthread_mutex_lock(&s->mu);
  for (;;) {
    sweep_cancelled_locked(s);
    if (s->closing && s->active == 0 && !s->head) break;
    if (s->state == MX_DEVICE_READY && s->head && s->active < s->n_slots) admit_locked(s);
    if (s->active > 0) {
      decode_step_locked(s);
      if (s->active > 0 && mx_now_ms() - s->memory_read_ms > MEMORY_REFRESH_MS) {
        pthread_mutex_unlock(&s->mu);
        pthread_mutex_lock(&s->dev_mu);
        read_memory(s);
        pthread_mutex_unlock(&s->dev_mu);
        pthread_mutex_lock(&s->mu);
      }
      next_probe = mx_now_ms() + s->probe_interval_ms; /* a busy device just answered */
      continue;
    }
    if (!s->head || s->state != MX_DEVICE_READY) {
      if (s->closing) continue; /* re-check the exit condition */
      idle_wait_locked(s, &next_probe);
    }
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

/* ------------------------------------------------------------------------------ scheduler */

mx_status_t mx_sched_create(mx_session_t *session, const mx_sched_options_t *o, mx_sched_t **out) {
  *out = NULL;
  if (o->n_slots != mx_session_slots(session))
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "a %d-slot scheduler on a %d-slot session", o->n_slots,
                          mx_session_slots(session));
  if (o->queue_max < 0)
    return mx_status_make(MX_STAGE_USAGE, "give a queue length of 0 or more", "queue length %d", o->queue_max);
  mx_sched_t *s = calloc(1, sizeof *s);
  if (!s) return mx_status_oom();
  s->session = session;
  s->config = mx_session_config(session);
  s->tok = mx_session_tokenizer(session);
  s->n_slots = o->n_slots;
  s->queue_max = o->queue_max;
  s->vocab = s->config->vocab;
  s->state = MX_DEVICE_READY;
  snprintf(s->label, sizeof s->label, "%s", o->label ? o->label : "device");
  s->probe_interval_ms = o->probe_interval_ms;
  s->probe_timeout_ms = o->probe_timeout_ms > 0 ? o->probe_timeout_ms : DEFAULT_PROBE_TIMEOUT_MS;
  s->max_restarts = o->max_restarts;
  s->prefix_reuse = o->prefix_reuse;
  atomic_init(&s->worker_pid, (int)mx_session_worker_pid(session));
  mx_session_defer_token_checks(session); /* check_device_token fails one request, not the batch */
  s->logits = malloc(sizeof(float) * (size_t)s->n_slots * (size_t)s->vocab);
  pthread_mutex_init(&s->mu, NULL);
  pthread_mutex_init(&s->dev_mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  if (!s->logits || pthread_create(&s->thread, NULL, engine_main, s) != 0) {
    mx_sched_destroy(s);
    return mx_status_make(MX_STAGE_IO, "lower the number of threads or processes on this host (ulimit -u)", "cannot start the engine thread");
  }
  s->thread_started = true;
  *out = s;
  return NULL;
}

void mx_sched_shutdown(mx_sched_t *s, int deadline_ms) {
  pthread_mutex_lock(&s->mu);
  if (!s->closing) {
    s->closing = true;
    s->deadline_ms = mx_now_ms() + (deadline_ms > 0 ? deadline_ms : 0);
  } else if (mx_now_ms() + deadline_ms < s->deadline_ms) {
    s->deadline_ms = mx_now_ms() + deadline_ms;
  }
  pthread_cond_signal(&s->cv);
  pthread_mutex_unlock(&s->mu);
  if (s->thread_started) {
    /* A hung device call would hold the join for the worker's whole call timeout: past the
     * deadline (and a grace for the step in progress) the worker is killed, which ends the call. */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    int wait_ms = (deadline_ms > 0 ? deadline_ms : 0) + SHUTDOWN_KILL_GRACE_MS;
    until.tv_sec += wait_ms / 1000;
    until.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    if (pthread_timedjoin_np(s->thread, NULL, &until) != 0) {
      int pid = atomic_load(&s->worker_pid);
      mx_log(MX_LOG_WARN, "mlxcel: device %s did not finish its call by the shutdown deadline; stopping its worker (pid %d)",
             s->label, pid);
      if (pid > 0) kill(pid, SIGKILL);
      pthread_join(s->thread, NULL);
    }
    s->thread_started = false;
  }
  pthread_mutex_lock(&s->mu);
  sweep_cancelled_locked(s); /* a thread that never ran leaves its queue behind */
  pthread_mutex_unlock(&s->mu);
}

void mx_sched_destroy(mx_sched_t *s) {
  if (!s) return;
  mx_sched_shutdown(s, 0);
  pthread_mutex_destroy(&s->mu);
  pthread_mutex_destroy(&s->dev_mu);
  pthread_cond_destroy(&s->cv);
  free(s->logits);
  for (int b = 0; b < MX_LLAMA_MAX_SLOTS; b++) mx_ids_free(&s->held[b]);
  free(s);
}

static mx_status_t validate(mx_sched_t *s, const mx_request_params_t *p) {
  int cap = mx_session_capacity(s->session);
  if (p->n_prompt < 1)
    return mx_status_make(MX_STAGE_USAGE, "give a non-empty prompt", "the prompt has no tokens");
  if (p->n_prompt > cap)
    return mx_status_make(MX_STAGE_USAGE, "shorten the prompt or raise the context capacity",
                          "the prompt is %d tokens; at most %d fit", p->n_prompt, cap);
  for (int i = 0; i < p->n_prompt; i++)
    if (p->prompt[i] < 0 || p->prompt[i] >= s->vocab)
      return mx_status_make(MX_STAGE_USAGE, "pass token ids of this model", "prompt token %d is not in the vocabulary",
                            p->prompt[i]);
  if (p->max_tokens < 1 || p->max_tokens > cap)
    return mx_status_make(MX_STAGE_USAGE, "ask for 1 to the context capacity tokens", "max_tokens %d is outside 1..%d",
                          p->max_tokens, cap);
  /* (Its ids are not compared: the engine thread is appending to them.) */
  if (p->prompt_of && (p->prompt_of->sched != s || p->prompt_of->n_prompt != p->n_prompt || !p->prompt_of->shared_logits))
    return mx_status_make(MX_STAGE_INTERNAL, NULL, "a choice shares the prompt of a request of another prompt or device");
  if (p->embed && !mx_session_has_embeddings(s->session))
    return mx_status_make(MX_STAGE_USAGE, "start the server with --embeddings", "this server computes no embeddings");
  if (p->prompt_logprobs && !p->logprobs)
    return mx_status_make(MX_STAGE_USAGE, "ask for logprobs too", "prompt logprobs without logprobs");
  if (p->n_stops < 0 || p->n_stops > MX_MAX_STOPS)
    return mx_status_make(MX_STAGE_USAGE, "give at most 8 stop strings", "%d stop strings", p->n_stops);
  for (int i = 0; i < p->n_stops; i++)
    if (!p->stops[i] || !p->stops[i][0])
      return mx_status_make(MX_STAGE_USAGE, "remove empty stop strings", "stop string %d is empty", i);
  return mx_sampling_validate(&p->sampling);
}

mx_status_t mx_sched_submit(mx_sched_t *s, const mx_request_params_t *p, mx_request_t **out) {
  *out = NULL;
  MX_RETURN_IF_ERROR(validate(s, p));
  mx_request_t *r = calloc(1, sizeof *r);
  if (!r) return mx_status_oom();
  atomic_init(&r->refs, 2);
  atomic_init(&r->cancel, false);
  pthread_mutex_init(&r->mu, NULL);
  pthread_cond_init(&r->cv, NULL);
  mx_strbuf_init(&r->pending);
  r->sched = s;
  r->slot = -1;
  r->n_prompt = p->n_prompt;
  r->logprobs = p->logprobs;
  r->prompt_logprobs = p->prompt_logprobs;
  r->n_top = p->top_logprobs;
  r->prompt_lp_done = !p->prompt_logprobs || p->n_prompt < 2; /* nothing to record */
  bool ok = true;
  for (int i = 0; ok && i < p->n_stops; i++) ok = (r->stops[r->n_stops++] = strdup(p->stops[i])) != NULL;
  mx_seq_params_t sp = {.max_tokens = p->max_tokens, .sampling = p->sampling, .stops = (const char *const *)r->stops,
                        .n_stops = r->n_stops, .ignore_eos = p->ignore_eos, .logprobs = p->logprobs,
                        .top_logprobs = p->top_logprobs, .json_object = p->json_object, .json_schema = p->json_schema};
  if (ok && p->embed) ok = (r->embedding = calloc((size_t)s->config->dim, sizeof *r->embedding)) != NULL;
  if (ok && p->share_count > 0) ok = (r->shared_logits = malloc(sizeof(float) * (size_t)s->vocab)) != NULL;
  if (ok && p->prompt_of) {
    r->source = p->prompt_of;
    atomic_fetch_add(&r->source->refs, 1);
  }
  mx_status_t st = ok ? mx_seq_init(&r->seq, s->session, p->prompt, p->n_prompt, &sp) : mx_status_oom();
  if (st) {
    request_free(r);
    return st;
  }
  r->t_submit = mx_now_ms();
  pthread_mutex_lock(&s->mu);
  if (s->closing) st = mx_status_make(MX_STAGE_BUSY, "retry on another server", "the server is shutting down");
  else if (s->state == MX_DEVICE_FAILED)
    st = mx_status_make(MX_STAGE_DEVICE, "restart the server (its log says why the device failed)", "the device %s failed: %s",
                        s->label, s->last_failure);
  else if (s->active + s->queued >= s->n_slots + s->queue_max)
    st = mx_status_make(MX_STAGE_BUSY, "retry later", "all %d slots are busy and %d requests are waiting", s->n_slots,
                        s->queued);
  if (!st) {
    if (s->tail) s->tail->next = r;
    else s->head = r;
    s->tail = r;
    s->queued++;
    pthread_cond_signal(&s->cv);
  }
  pthread_mutex_unlock(&s->mu);
  if (st) {
    request_free(r);
    return st;
  }
  *out = r;
  return NULL;
}

const float *mx_request_embedding(mx_request_t *r) {
  pthread_mutex_lock(&r->mu);
  bool done = r->finished && r->finish == MX_FINISH_STOP;
  pthread_mutex_unlock(&r->mu);
  return done ? r->embedding : NULL;
}

void mx_sched_stats(mx_sched_t *s, mx_sched_stats_t *out) {
  pthread_mutex_lock(&s->mu);
  *out = (mx_sched_stats_t){.n_slots = s->n_slots, .active = s->active, .queued = s->queued, .admitted = s->admitted,
                            .finished = s->finished, .decode_steps = s->decode_steps,
                            .tokens_generated = atomic_load(&s->tokens_generated), .prompt_tokens = s->prompt_tokens,
                            .cached_tokens = s->cached_tokens,
                            .admitted_while_busy = s->admitted_while_busy, .state = s->state,
                            .healthy = s->state == MX_DEVICE_READY, .restarts = s->restarts,
                            .request_errors = atomic_load(&s->request_errors), .has_memory = s->has_memory && s->state == MX_DEVICE_READY,
                            .device_bytes = s->device_bytes, .device_bytes_peak = s->device_bytes_peak};
  snprintf(out->last_failure, sizeof out->last_failure, "%s", s->last_failure);
  pthread_mutex_unlock(&s->mu);
}
