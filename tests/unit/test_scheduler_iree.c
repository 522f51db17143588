/* The scheduler on a real model (SmolLM2-135M-Instruct, the default model; MLXCEL_TEST_MODEL names
 * it, tests/run_tests.sh fetches it first): stops, budgets, cancellation, back-pressure, seeds,
 * shutdown and the restart of a lost device. Token-exactness of batched streams is `mlxcel batch-bench`'s gate. */
#include "testutil.h"

#include <signal.h>
#include <unistd.h>

#include "base/clock.h"
#include "engine/scheduler.h"
#include "engine/session.h"

#define SLOTS 4

static mx_session_t *session;

static int setup(void **state) {
  (void)state;
  const char *model = getenv("MLXCEL_TEST_MODEL");
  if (!model || !model[0]) {
    fprintf(stderr, "set MLXCEL_TEST_MODEL to the default model (scripts/fetch-model.sh prints its path)\n");
    return -1;
  }
  /* The module batch-bench uses (capacity 256, 4 slots): a compile cache hit in a full test run. */
  mx_session_options_t o = {.model_path = model, .device = "local-task", .precision = MX_F32, .capacity = 256,
                            .slots = SLOTS};
  mx_status_t st = mx_session_open(&o, &session);
  if (!st) st = mx_session_start(session);
  if (st) {
    mx_status_print(stderr, st);
    mx_status_free(st);
    return -1;
  }
  return 0;
}

static int teardown(void **state) {
  (void)state;
  mx_session_close(session);
  return 0;
}

static mx_sched_t *new_sched(int queue_max) {
  mx_sched_t *s;
  assert_ok(mx_sched_create(session, &(mx_sched_options_t){.n_slots = SLOTS, .queue_max = queue_max}, &s));
  return s;
}

typedef struct {
  mx_ids_t prompt;
  mx_request_params_t p;
} req_t;

static void make_req(req_t *r, const char *text, int max_tokens) {
  memset(r, 0, sizeof *r);
  assert_ok(mx_tokenizer_encode(mx_session_tokenizer(session), text, strlen(text), true, &r->prompt));
  r->p = (mx_request_params_t){.prompt = r->prompt.ids, .n_prompt = (int)r->prompt.n, .max_tokens = max_tokens,
                               .sampling = {.temperature = 0, .top_p = 1, .repeat_penalty = 1}};
}

/* Waits for the end; returns all the text (caller frees). */
static char *drain(mx_request_t *r) {
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  while (!mx_request_wait(r, 5000, &b)) {
  }
  mx_strbuf_append(&b, "", 0);
  return b.data ? mx_strbuf_take(&b) : strdup("");
}

static void stop_string_ends_the_text_before_it(void **state) {
  (void)state;
  mx_sched_t *s = new_sched(4);
  req_t a, b;
  make_req(&a, "1, 2, 3, 4,", 40);
  a.p.ignore_eos = true;
  mx_request_t *ra, *rb;
  assert_ok(mx_sched_submit(s, &a.p, &ra));
  char *full = drain(ra);
  assert_non_null(strstr(full, " 7")); /* the unstopped continuation counts on */
  make_req(&b, "1, 2, 3, 4,", 40);
  b.p.ignore_eos = true;
  b.p.stops[0] = " 7";
  b.p.n_stops = 1;
  assert_ok(mx_sched_submit(s, &b.p, &rb));
  char *stopped = drain(rb);
  mx_request_info_t info;
  mx_request_info(rb, &info);
  assert_int_equal(info.finish, MX_FINISH_STOP);
  assert_null(strstr(stopped, " 7"));
  size_t n = strlen(stopped);
  assert_true(n > 0 && !strncmp(full, stopped, n) && !strncmp(full + n, " 7", 2));
  assert_true(info.completion_tokens < 40);
  free(full);
  free(stopped);
  mx_request_release(ra);
  mx_request_release(rb);
  mx_ids_free(&a.prompt);
  mx_ids_free(&b.prompt);
  mx_sched_destroy(s);
}

static void budget_and_usage(void **state) {
  (void)state;
  mx_sched_t *s = new_sched(4);
  req_t a;
  make_req(&a, "Once upon a time", 17);
  a.p.ignore_eos = true;
  mx_request_t *r;
  assert_ok(mx_sched_submit(s, &a.p, &r));
  free(drain(r));
  mx_request_info_t info;
  mx_request_info(r, &info);
  assert_int_equal(info.finish, MX_FINISH_LENGTH);
  assert_int_equal(info.completion_tokens, 17);
  assert_int_equal(info.prompt_tokens, (int)a.prompt.n);
  assert_true(info.ttft_ms > 0 && info.decode_ms > 0);
  mx_request_release(r);
  mx_ids_free(&a.prompt);
  mx_sched_destroy(s);
}

static void cancellation_frees_the_slot(void **state) {
  (void)state;
  mx_sched_t *s = new_sched(4);
  req_t a;
  make_req(&a, "Write a long story about a dragon.", 200);
  a.p.ignore_eos = true;
  mx_request_t *r;
  assert_ok(mx_sched_submit(s, &a.p, &r));
  mx_strbuf_t b;
  mx_strbuf_init(&b);
  while (b.len == 0) assert_false(mx_request_wait(r, 5000, &b)); /* running, with text */
  mx_request_cancel(r);
  while (!mx_request_wait(r, 5000, NULL)) {
  }
  mx_request_info_t info;
  mx_request_info(r, &info);
  assert_int_equal(info.finish, MX_FINISH_CANCELLED);
  assert_true(info.completion_tokens < 200);
  mx_sched_stats_t st;
  mx_sched_stats(s, &st);
  assert_int_equal(st.active, 0);
  assert_int_equal(st.finished, 1);
  mx_strbuf_free(&b);
  mx_request_release(r);
  mx_ids_free(&a.prompt);
  mx_sched_destroy(s);
}

/* Slots plus queue_max requests are taken; the next is refused with "busy", and a waiting request
 * released by its owner leaves the queue. */
static void bounded_queue_pushes_back(void **state) {
  (void)state;
  mx_sched_t *s = new_sched(1);
  req_t a;
  make_req(&a, "Count to one hundred:", 100);
  a.p.ignore_eos = true;
  mx_request_t *r[SLOTS + 1];
  for (int i = 0; i < SLOTS + 1; i++) assert_ok(mx_sched_submit(s, &a.p, &r[i]));
  mx_request_t *extra = NULL;
  assert_status(mx_sched_submit(s, &a.p, &extra), MX_STAGE_BUSY, "busy");
  assert_null(extra);
  for (int i = 0; i < SLOTS + 1; i++) mx_request_release(r[i]);
  /* Every request ends (cancelled) and the scheduler is idle and healthy again. */
  mx_sched_stats_t st;
  double t0 = mx_now_ms();
  do {
    usleep(10000);
    mx_sched_stats(s, &st);
  } while ((st.active || st.queued) && mx_now_ms() - t0 < 30000);
  assert_int_equal(st.active + st.queued, 0);
  assert_true(st.healthy);
  req_t b;
  make_req(&b, "Hi", 3);
  mx_request_t *again;
  assert_ok(mx_sched_submit(s, &b.p, &again));
  free(drain(again));
  mx_request_release(again);
  mx_ids_free(&a.prompt);
  mx_ids_free(&b.prompt);
  mx_sched_destroy(s);
}

/* A seed reproduces a sampled stream, run alone or beside a greedy one. */
static void seeded_sampling_is_reproducible(void **state) {
  (void)state;
  mx_sched_t *s = new_sched(4);
  req_t a, g;
  make_req(&a, "My favourite animal is", 24);
  a.p.sampling = (mx_sampling_t){.temperature = 0.9f, .top_p = 0.95f, .repeat_penalty = 1, .seed = 42};
  a.p.ignore_eos = true;
  make_req(&g, "The capital of France is", 24);
  mx_request_t *r1, *r2, *rg;
  assert_ok(mx_sched_submit(s, &a.p, &r1));
  char *t1 = drain(r1);
  assert_ok(mx_sched_submit(s, &a.p, &r2));
  assert_ok(mx_sched_submit(s, &g.p, &rg));
  char *t2 = drain(r2), *tg = drain(rg);
  assert_string_equal(t1, t2);
  a.p.sampling.seed = 43;
  mx_request_t *r3;
  assert_ok(mx_sched_submit(s, &a.p, &r3));
  char *t3 = drain(r3);
  assert_string_not_equal(t1, t3); /* another seed, another draw */
  free(t1), free(t2), free(t3), free(tg);
  mx_request_release(r1), mx_request_release(r2), mx_request_release(r3), mx_request_release(rg);
  mx_ids_free(&a.prompt), mx_ids_free(&g.prompt);
  mx_sched_destroy(s);
}

static void bad_requests_are_refused(void **state) {
  (void)state;
  mx_sched_t *s = new_sched(4);
  req_t a;
  make_req(&a, "Hello", 8);
  mx_request_t *r = NULL;
  a.p.max_tokens = 0;
  assert_status(mx_sched_submit(s, &a.p, &r), MX_STAGE_USAGE, "max_tokens");
  a.p.max_tokens = 100000;
  assert_status(mx_sched_submit(s, &a.p, &r), MX_STAGE_USAGE, "max_tokens");
  a.p.max_tokens = 8;
  a.p.n_prompt = 0;
  assert_status(mx_sched_submit(s, &a.p, &r), MX_STAGE_USAGE, "no tokens");
  a.p.n_prompt = 300; /* beyond the largest prefill (256) */
  int32_t many[300] = {0};
  a.p.prompt = many;
  assert_status(mx_sched_submit(s, &a.p, &r), MX_STAGE_USAGE, "prompt is 300 tokens");
  many[0] = 1 << 30;
  a.p.n_prompt = 1;
  assert_status(mx_sched_submit(s, &a.p, &r), MX_STAGE_USAGE, "vocabulary");
  a.p.prompt = a.prompt.ids;
  a.p.n_prompt = (int)a.prompt.n;
  a.p.stops[0] = "";
  a.p.n_stops = 1;
  assert_status(mx_sched_submit(s, &a.p, &r), MX_STAGE_USAGE, "empty");
  a.p.n_stops = 0;
  a.p.sampling.temperature = -1;
  assert_status(mx_sched_submit(s, &a.p, &r), MX_STAGE_USAGE, "temperature");
  assert_null(r);
  mx_ids_free(&a.prompt);
  mx_sched_destroy(s);
}

/* Shutdown cancels what runs past the deadline, refuses new work, and a held request stays readable. */
static void shutdown_cancels_after_the_deadline(void **state) {
  (void)state;
  mx_sched_t *s = new_sched(4);
  req_t a;
  make_req(&a, "Tell me everything about the ocean.", 250);
  a.p.ignore_eos = true;
  mx_request_t *r;
  assert_ok(mx_sched_submit(s, &a.p, &r));
  while (!mx_request_wait(r, 5000, NULL)) { /* until it runs */
    mx_request_info_t i;
    mx_request_info(r, &i);
    if (i.completion_tokens > 0) break;
  }
  double t0 = mx_now_ms();
  mx_sched_shutdown(s, 200);
  assert_true(mx_now_ms() - t0 < 20000);
  mx_request_t *late = NULL;
  assert_status(mx_sched_submit(s, &a.p, &late), MX_STAGE_BUSY, "shutting down");
  assert_true(mx_request_wait(r, 0, NULL));
  mx_request_info_t info;
  mx_request_info(r, &info);
  assert_int_equal(info.finish, MX_FINISH_CANCELLED);
  mx_sched_destroy(s);
  mx_request_release(r); /* after the scheduler: still valid */
  mx_ids_free(&a.prompt);
}

/* A lost device: the worker killed mid-generation fails the running requests, keeps the waiting
 * one, is restarted (the session's new worker is tied to the engine thread, so this runs last), and
 * the waiting request then gets the same text as before the loss. */
static void a_killed_worker_is_restarted_and_the_queue_resumes(void **state) {
  (void)state;
  req_t b, longer;
  make_req(&b, "The capital of France is", 12);
  make_req(&longer, "Tell me everything about the ocean.", 250);
  longer.p.ignore_eos = true;
  mx_sched_t *s = new_sched(4);
  mx_request_t *r, *run[SLOTS];
  assert_ok(mx_sched_submit(s, &b.p, &r));
  char *want = drain(r);
  mx_request_release(r);
  mx_sched_destroy(s);
  /* Read while no engine thread runs: the worker is the engine's to replace once a scheduler runs. */
  pid_t pid = mx_session_worker_pid(session);
  assert_true(pid > 0);

  assert_ok(mx_sched_create(session, &(mx_sched_options_t){.n_slots = SLOTS, .queue_max = 4, .max_restarts = 2,
                                                            .label = "test"},
                            &s));
  for (int i = 0; i < SLOTS; i++) assert_ok(mx_sched_submit(s, &longer.p, &run[i]));
  assert_ok(mx_sched_submit(s, &b.p, &r));
  mx_sched_stats_t st;
  for (int i = 0; i < 2000; i++) { /* until every slot runs and the fifth waits */
    mx_sched_stats(s, &st);
    if (st.active == SLOTS && st.queued == 1 && st.decode_steps > 2) break;
    usleep(5000);
  }
  assert_int_equal(st.active, SLOTS);
  kill(pid, SIGKILL);
  for (int i = 0; i < SLOTS; i++) {
    free(drain(run[i]));
    mx_request_info_t info;
    mx_request_info(run[i], &info);
    assert_int_equal(info.finish, MX_FINISH_ERROR);
    assert_non_null(strstr(mx_status_message(info.error), "killed by signal 9"));
    mx_request_release(run[i]);
  }
  char *got = drain(r);
  mx_request_info_t info;
  mx_request_info(r, &info);
  assert_int_equal(info.finish, MX_FINISH_LENGTH);
  assert_string_equal(got, want);
  mx_sched_stats(s, &st);
  assert_int_equal(st.state, MX_DEVICE_READY);
  assert_int_equal(st.restarts, 1);
  assert_non_null(strstr(st.last_failure, "killed by signal 9"));
  mx_request_release(r);
  mx_sched_destroy(s);
  assert_true(mx_session_worker_pid(session) != pid); /* a new worker (the engine thread is gone) */
  free(want);
  free(got);
  mx_ids_free(&b.prompt);
  mx_ids_free(&longer.prompt);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stop_string_ends_the_text_before_it),
      cmocka_unit_test(budget_and_usage),
      cmocka_unit_test(cancellation_frees_the_slot),
      cmocka_unit_test(bounded_queue_pushes_back),
      cmocka_unit_test(seeded_sampling_is_reproducible),
      cmocka_unit_test(bad_requests_are_refused),
      cmocka_unit_test(shutdown_cancels_after_the_deadline),
      cmocka_unit_test(a_killed_worker_is_restarted_and_the_queue_resumes), /* last: see there */
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
