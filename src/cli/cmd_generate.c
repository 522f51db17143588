/* mlxcel generate: text generation, streamed to stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "cli/cli.h"
#include "engine/prompt.h"
#include "engine/sampler.h"
#include "engine/sequence.h"
#include "engine/session.h"
#include "tokenizer/chat.h"

#define MAX_STOPS 8

typedef struct {
  const char *model, *prompt, *system;
  long n_new;
  bool chat, chat_forced, stats, ignore_eos;
  mx_session_options_t so;
  mx_sampling_t sp;
  const char *stops[MAX_STOPS];
  int n_stops;
} gen_args_t;

static void help(void) {
  printf("usage: mlxcel generate -m MODEL -p PROMPT [-n N] [options]\n\n"
         "Generates text with a model on a device and streams it to stdout.\n\n"
         "  -m, --model PATH       HF model directory or GGUF file\n"
         "  -p, --prompt TEXT      the prompt (the user message when the chat template is on)\n"
         "  -n, --max-tokens N     tokens to generate (default 128)\n"
         "  --chat / --no-chat     use the model's chat template (default: on when the model has one)\n"
         "  --system TEXT          a system message (chat only)\n"
         "  --temperature T        0 = greedy (default), else sample\n"
         "  --top-k K, --top-p P, --min-p P, --repeat-penalty R, --seed S   sampling controls\n"
         "  --stop TEXT            stop when TEXT is generated (repeatable, up to 8; TEXT is not printed)\n"
         "  --ignore-eos           keep going past end-of-sequence tokens\n"
         "  --stats                print load, compile, prefill and decode figures to stderr\n"
         "  --device URI           MLXCEL_XLA_DEVICE (default local-task)\n"
         "  --precision P          MLXCEL_XLA_PRECISION: f32 (default), f16, bf16\n"
         "  --context N            MLXCEL_XLA_CONTEXT_CAPACITY: KV positions (default 512)\n"
         "  --cuda-target sm_XY, --rocm-target gfxNNNN   explicit GPU compile targets\n"
         "  --vmfb PATH            use a module from `mlxcel compile` (same model, precision, context)\n"
         "                         instead of compiling: for hosts without the compiler\n");
}

static mx_status_t parse_float(const char *name, const char *v, float *out) {
  char *end;
  double d = strtod(v, &end);
  if (!v[0] || *end) return mx_status_make(MX_STAGE_USAGE, NULL, "%s must be a number, not '%s'", name, v);
  *out = (float)d;
  return NULL;
}

static mx_status_t parse_args(int argc, char **argv, gen_args_t *a, int *want_help) {
  const char *prec = NULL, *ctx = NULL, *n = NULL, *seed = NULL;
  mx_cli_device_t dv = {0};
  a->n_new = 128;
  a->sp = (mx_sampling_t){.temperature = 0, .top_p = 1, .repeat_penalty = 1};
  for (int i = 1; i < argc; i++) {
    mx_status_t err = NULL;
    const char *v;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      *want_help = 1;
      return NULL;
    }
    if (!strcmp(argv[i], "--chat")) a->chat = a->chat_forced = true;
    else if (!strcmp(argv[i], "--no-chat")) a->chat = false, a->chat_forced = true;
    else if (!strcmp(argv[i], "--stats")) a->stats = true;
    else if (!strcmp(argv[i], "--ignore-eos")) a->ignore_eos = true;
    else if (mx_cli_flag(argc, argv, &i, "-m", &v, &err) || mx_cli_flag(argc, argv, &i, "--model", &v, &err)) a->model = v;
    else if (mx_cli_flag(argc, argv, &i, "-p", &v, &err) || mx_cli_flag(argc, argv, &i, "--prompt", &v, &err)) a->prompt = v;
    else if (mx_cli_flag(argc, argv, &i, "-n", &v, &err) || mx_cli_flag(argc, argv, &i, "--max-tokens", &v, &err)) n = v;
    else if (mx_cli_flag(argc, argv, &i, "--system", &v, &err)) a->system = v;
    else if (mx_cli_device_flag(argc, argv, &i, &dv, &err)) {
      /* --device, --cuda-target, --rocm-target */
    }
    else if (mx_cli_flag(argc, argv, &i, "--precision", &v, &err)) prec = v;
    else if (mx_cli_flag(argc, argv, &i, "--context", &v, &err)) ctx = v;
    else if (mx_cli_flag(argc, argv, &i, "--seed", &v, &err)) seed = v;
    else if (mx_cli_flag(argc, argv, &i, "--vmfb", &v, &err)) a->so.vmfb = v;
    else if (mx_cli_flag(argc, argv, &i, "--temperature", &v, &err)) err = err ? err : parse_float("--temperature", v, &a->sp.temperature);
    else if (mx_cli_flag(argc, argv, &i, "--top-p", &v, &err)) err = err ? err : parse_float("--top-p", v, &a->sp.top_p);
    else if (mx_cli_flag(argc, argv, &i, "--min-p", &v, &err)) err = err ? err : parse_float("--min-p", v, &a->sp.min_p);
    else if (mx_cli_flag(argc, argv, &i, "--repeat-penalty", &v, &err)) err = err ? err : parse_float("--repeat-penalty", v, &a->sp.repeat_penalty);
    else if (mx_cli_flag(argc, argv, &i, "--top-k", &v, &err)) {
      long k = 0;
      err = err ? err : mx_cli_parse_int("--top-k", v, 0, 1 << 22, &k);
      a->sp.top_k = (int)k;
    } else if (mx_cli_flag(argc, argv, &i, "--stop", &v, &err)) {
      if (!err && (a->n_stops >= MAX_STOPS || !v[0]))
        err = mx_status_make(MX_STAGE_USAGE, NULL, "give at most %d non-empty --stop strings", MAX_STOPS);
      if (!err) a->stops[a->n_stops++] = v;
    } else err = mx_status_make(MX_STAGE_USAGE, "run `mlxcel generate --help`", "unknown option '%s'", argv[i]);
    if (err) return err;
  }
  if (!a->model || !a->prompt) return mx_status_make(MX_STAGE_USAGE, "run `mlxcel generate --help`", "give -m MODEL and -p PROMPT");
  if (n) MX_RETURN_IF_ERROR(mx_cli_parse_int("-n", n, 1, 1 << 20, &a->n_new));
  if (seed) {
    long sd;
    MX_RETURN_IF_ERROR(mx_cli_parse_int("--seed", seed, 0, 0x7fffffff, &sd));
    a->sp.seed = (uint64_t)sd;
  }
  MX_RETURN_IF_ERROR(mx_sampling_validate(&a->sp));
  a->so.model_path = a->model;
  mx_cli_device_resolve(&dv, &a->so.device, &a->so.target);
  MX_RETURN_IF_ERROR(mx_parse_precision(mx_cli_setting(prec, "MLXCEL_XLA_PRECISION", "f32"), &a->so.precision));
  long cap;
  MX_RETURN_IF_ERROR(mx_cli_parse_int("--context", mx_cli_setting(ctx, "MLXCEL_XLA_CONTEXT_CAPACITY", "512"), 16, 1 << 20, &cap));
  a->so.capacity = (int)cap;
  return NULL;
}

/* The prompt's ids: through the chat template when it is on, else the raw text with BOS per the
 * tokenizer's configuration. */
static mx_status_t prompt_ids(const gen_args_t *a, const mx_tokenizer_t *t, mx_ids_t *ids) {
  bool chat = a->chat_forced ? a->chat : mx_tokenizer_chat_template(t) != NULL;
  if (!chat) {
    if (a->system) return mx_status_make(MX_STAGE_USAGE, "drop --system or use --chat", "--system needs the chat template");
    return mx_prompt_encode_text(t, a->prompt, strlen(a->prompt), ids);
  }
  mx_chat_msg_t msgs[2];
  int n = 0;
  if (a->system) msgs[n++] = (mx_chat_msg_t){"system", a->system};
  msgs[n++] = (mx_chat_msg_t){"user", a->prompt};
  return mx_prompt_encode_chat(t, msgs, n, ids);
}

static void print_text(void *ctx, const char *text, size_t n) {
  (void)ctx;
  fwrite(text, 1, n, stdout);
  fflush(stdout);
}

static mx_status_t run(gen_args_t *a) {
  mx_session_t *s;
  MX_RETURN_IF_ERROR(mx_session_open(&a->so, &s));
  const mx_tokenizer_t *tok = mx_session_tokenizer(s);
  mx_ids_t ids = {0};
  mx_status_t st = prompt_ids(a, tok, &ids);
  /* Refuse what cannot fit before anything is compiled. */
  if (!st && (int)ids.n > mx_session_max_prompt(s))
    st = mx_status_make(MX_STAGE_USAGE, "shorten the prompt or raise --context / MLXCEL_XLA_CONTEXT_CAPACITY",
                        "the prompt is %zu tokens; the context capacity is %d", ids.n, mx_session_capacity(s));
  if (!st && (long)ids.n + a->n_new > mx_session_capacity(s))
    st = mx_status_make(MX_STAGE_USAGE, "lower -n or raise --context / MLXCEL_XLA_CONTEXT_CAPACITY",
                        "prompt (%zu tokens) plus -n %ld exceeds the context capacity %d", ids.n, a->n_new, mx_session_capacity(s));
  if (!st) st = mx_session_start(s);
  mx_seq_t q = {0};
  mx_seq_timing_t tm = {0};
  mx_seq_params_t p = {.max_tokens = (int)a->n_new, .sampling = a->sp, .stops = a->stops, .n_stops = a->n_stops,
                       .ignore_eos = a->ignore_eos};
  bool have_seq = false;
  if (!st) st = mx_seq_init(&q, s, ids.ids, (int)ids.n, &p);
  have_seq = !st;
  if (!st) st = mx_seq_generate(s, &q, print_text, NULL, &tm);
  /* The end-of-sequence token is not part of the answer, nor of the decode figures. */
  long generated = have_seq ? mx_seq_generated(&q) - (q.eos ? 1 : 0) : 0;
  if (have_seq && q.out.released > 0) printf("\n");
  fflush(stdout); /* before the --stats line on stderr */
  if (!st && a->stats) {
    const mx_session_timings_t *t = mx_session_timings(s);
    mx_alloc_stats_t ds_stats = {0};
    mx_status_free(mx_session_device_stats(s, &ds_stats));
    fprintf(stderr,
            "mlxcel stats: load %.0f ms (model %.0f, weights %.0f, worker %.0f, module+parameters %.0f); compile %s%.0f ms; "
            "prefill %zu tokens %.1f ms; decode %ld tokens %.1f tok/s; peak device bytes %lld\n",
            t->open_ms + t->prepare_ms + t->worker_ms + t->load_ms, t->open_ms, t->prepare_ms, t->worker_ms, t->load_ms,
            t->compile_hit ? "cache hit, " : "", t->compile_ms, ids.n, tm.prefill_ms, generated > 1 ? generated - 1 : 0,
            generated > 1 ? (double)(generated - 1) / (tm.decode_ms / 1000.0) : 0.0, (long long)ds_stats.device_bytes_peak);
  }
  if (have_seq) mx_seq_free(&q);
  mx_ids_free(&ids);
  mx_session_destroy(s);
  return st;
}

int mx_cmd_generate(int argc, char **argv) {
  gen_args_t a = {0};
  int want_help = 0;
  mx_status_t st = parse_args(argc, argv, &a, &want_help);
  if (st) return mx_cli_report(st);
  if (want_help) {
    help();
    return 0;
  }
  return mx_cli_report(run(&a));
}
