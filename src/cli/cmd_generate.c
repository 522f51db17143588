/* mlxcel generate: text generation, streamed to stdout. */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/strbuf.h"
#include "cli/cli.h"
#include "engine/prompt.h"
#include "engine/sampler.h"
#include "engine/sequence.h"
#include "engine/session.h"
#include "base/log.h"
#include "tokenizer/chat.h"

#define MAX_STOPS 8

typedef struct {
  const char *model, *prompt, *system, *json;
  long n_new;
  bool chat, chat_forced, stats, ignore_eos;
  mx_session_options_t so;
  mx_sampling_t sp;
  const char *stops[MAX_STOPS];
  int n_stops;
} gen_args_t;

/* The command line as the option table reads it; parse_args turns it into gen_args_t. */
typedef struct {
  mx_cli_session_args_t s;
  const char *prompt, *system, *json;
  long n_new, top_k, seed;
  double temperature, top_p, min_p, repeat_penalty, presence_penalty, frequency_penalty;
  int chat; /* 0: the model decides (on when it has a template), 1: --chat, 2: --no-chat */
  int stats, ignore_eos;
  mx_opt_list_t stops, biases;
} gen_opts_t;

_Static_assert(MAX_STOPS <= MX_OPT_LIST_MAX, "--stop needs a larger option list");

#define GEN_ROW(field, ...) MX_OPT_ROW(gen_opts_t, field, __VA_ARGS__)
static const mx_opt_t gen_rows[] = {
    GEN_ROW(prompt, .name = "--prompt", .alias = "-p", .metavar = "TEXT", .flags = MX_OPT_REQUIRED,
            .help = "the prompt (the user message when the chat template is on)"),
    GEN_ROW(n_new, .name = "--max-tokens", .alias = "-n", .kind = MX_OPT_INT, .metavar = "N", .lo = 1, .hi = 1 << 20,
            .def = "128", .help = "tokens to generate"),
    GEN_ROW(chat, .name = "--chat", .kind = MX_OPT_SWITCH, .set = 1,
            .help = "use the model's chat template (without --chat or --no-chat: when the model has one)"),
    GEN_ROW(chat, .name = "--no-chat", .kind = MX_OPT_SWITCH, .set = 2, .help = "tokenize the prompt as it is"),
    GEN_ROW(system, .name = "--system", .metavar = "TEXT", .help = "a system message (chat only)"),
    GEN_ROW(temperature, .name = "--temperature", .kind = MX_OPT_FLOAT, .metavar = "T", .def = "0",
            .help = "0 (or below 1e-5) = greedy, else sample"),
    GEN_ROW(top_k, .name = "--top-k", .kind = MX_OPT_INT, .metavar = "K", .lo = 0, .hi = 1 << 22, .def = "0",
            .help = "sample among the K likeliest tokens (0: off)"),
    GEN_ROW(top_p, .name = "--top-p", .kind = MX_OPT_FLOAT, .metavar = "P", .def = "1",
            .help = "sample among the likeliest tokens whose probabilities add up to P (1: off)"),
    GEN_ROW(min_p, .name = "--min-p", .kind = MX_OPT_FLOAT, .metavar = "P", .def = "0",
            .help = "drop tokens less likely than P times the likeliest (0: off)"),
    GEN_ROW(repeat_penalty, .name = "--repeat-penalty", .kind = MX_OPT_FLOAT, .metavar = "R", .def = "1",
            .help = "penalize the tokens already seen (1: off)"),
    GEN_ROW(presence_penalty, .name = "--presence-penalty", .kind = MX_OPT_FLOAT, .metavar = "P", .def = "0",
            .help = "subtract P from the logit of every token generated so far, -2..2 (OpenAI's; 0: off)"),
    GEN_ROW(frequency_penalty, .name = "--frequency-penalty", .kind = MX_OPT_FLOAT, .metavar = "F", .def = "0",
            .help = "subtract F per earlier occurrence from a generated token's logit, -2..2 (OpenAI's; 0: off)"),
    GEN_ROW(biases, .name = "--logit-bias", .kind = MX_OPT_LIST, .metavar = "ID=B", .hi = MX_OPT_LIST_MAX,
            .help = "add B (-100..100) to token ID's logit; repeatable (`mlxcel tokenize` shows ids)"),
    GEN_ROW(seed, .name = "--seed", .kind = MX_OPT_INT, .metavar = "S", .lo = 0, .hi = 0x7fffffff, .def = "0",
            .help = "the sampler's seed"),
    GEN_ROW(stops, .name = "--stop", .kind = MX_OPT_LIST, .metavar = "TEXT", .hi = MAX_STOPS,
            .help = "stop when TEXT is generated (TEXT is not printed)"),
    GEN_ROW(ignore_eos, .name = "--ignore-eos", .kind = MX_OPT_SWITCH, .help = "keep going past end-of-sequence tokens"),
    GEN_ROW(stats, .name = "--stats", .kind = MX_OPT_SWITCH,
            .help = "print load, compile, prefill and decode figures to stderr"),
    GEN_ROW(json, .name = "--json", .metavar = "PATH",
            .help = "also write the text and the --stats figures as JSON (the format: docs/qualification.md)"),
};

static mx_opt_cmd_t gen_cmd(gen_opts_t *o) {
  return (mx_opt_cmd_t){
      .prog = "mlxcel generate",
      .synopsis = "-m MODEL -p PROMPT [-n N] [options]",
      .about = "Generates text with a model on a device and streams it to stdout.",
      .sets = {mx_cli_session_set(&o->s, MX_CLI_MODEL), MX_OPT_SET(gen_rows, o),
               mx_cli_session_set(&o->s, MX_CLI_DEVICE | MX_CLI_GRAPH | MX_CLI_VMFB)},
  };
}

static void help(void) {
  gen_opts_t o;
  mx_opt_cmd_t c = gen_cmd(&o);
  mx_opt_help(&c, stdout);
}

/* --logit-bias ID=B, as the server's logit_bias {"ID": B}; the ranges are mx_sampling_validate's. */
static mx_status_t parse_bias(const char *arg, mx_logit_bias_t *out) {
  char *end;
  errno = 0;
  long id = strtol(arg, &end, 10);
  if (end == arg || *end != '=' || errno || id < 0 || id > INT32_MAX)
    return mx_status_make(MX_STAGE_USAGE, "write it as ID=BIAS, e.g. --logit-bias 2=-100", "--logit-bias '%s' is not ID=BIAS", arg);
  const char *b = end + 1;
  double bias = strtod(b, &end);
  if (end == b || *end)
    return mx_status_make(MX_STAGE_USAGE, "write it as ID=BIAS, e.g. --logit-bias 2=-100", "--logit-bias '%s' has no number after '='",
                          arg);
  *out = (mx_logit_bias_t){.id = (int32_t)id, .bias = (float)bias};
  return NULL;
}

static mx_status_t parse_args(int argc, char **argv, gen_args_t *a, int *want_help) {
  gen_opts_t o = {0};
  mx_opt_cmd_t c = gen_cmd(&o);
  bool help = false;
  MX_RETURN_IF_ERROR(mx_opt_parse(&c, argc, argv, &help));
  if (help) {
    *want_help = 1;
    return NULL;
  }
  a->model = o.s.model;
  a->prompt = o.prompt;
  a->system = o.system;
  a->json = o.json;
  a->n_new = o.n_new;
  a->chat = o.chat == 1;
  a->chat_forced = o.chat != 0;
  a->stats = o.stats;
  a->ignore_eos = o.ignore_eos;
  for (a->n_stops = 0; a->n_stops < o.stops.n; a->n_stops++) a->stops[a->n_stops] = o.stops.v[a->n_stops];
  a->sp = (mx_sampling_t){.temperature = (float)o.temperature, .top_k = (int)o.top_k, .top_p = (float)o.top_p,
                          .min_p = (float)o.min_p, .repeat_penalty = (float)o.repeat_penalty,
                          .presence_penalty = (float)o.presence_penalty, .frequency_penalty = (float)o.frequency_penalty,
                          .seed = (uint64_t)o.seed};
  for (; a->sp.n_bias < o.biases.n; a->sp.n_bias++) MX_RETURN_IF_ERROR(parse_bias(o.biases.v[a->sp.n_bias], &a->sp.bias[a->sp.n_bias]));
  MX_RETURN_IF_ERROR(mx_sampling_validate(&a->sp));
  return mx_cli_session_options(&o.s, &a->so);
}

/* The prompt's ids: through the chat template when it is on, else the raw text with BOS per the
 * tokenizer's configuration. */
static mx_status_t prompt_ids(const gen_args_t *a, const mx_tokenizer_t *t, mx_ids_t *ids) {
  bool chat = a->chat_forced ? a->chat : mx_tokenizer_chat_template(t) != NULL;
  if (!a->chat_forced && !chat) /* e.g. Gemma 3 270M's GGUF */
    mx_log(MX_LOG_INFO, "mlxcel: the model carries no chat template: the prompt runs as plain text (--no-chat: quietly)");
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

/* ctx: where --json keeps the text, or NULL. */
static void print_text(void *ctx, const char *text, size_t n) {
  if (ctx) mx_strbuf_append(ctx, text, n);
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
  if (!st && (int)ids.n > mx_session_capacity(s))
    st = mx_status_make(MX_STAGE_USAGE, "shorten the prompt or raise --context / MLXCEL_XLA_CONTEXT_CAPACITY",
                        "the prompt is %zu tokens; the context capacity is %d", ids.n, mx_session_capacity(s));
  if (!st && (long)ids.n + a->n_new > mx_session_capacity(s))
    st = mx_status_make(MX_STAGE_USAGE, "lower -n or raise --context / MLXCEL_XLA_CONTEXT_CAPACITY",
                        "prompt (%zu tokens) plus -n %ld exceeds the context capacity %d", ids.n, a->n_new, mx_session_capacity(s));
  if (!st) st = mx_sampling_check_vocab(&a->sp, mx_session_config(s)->vocab);
  if (!st) st = mx_session_start(s);
  mx_seq_t q = {0};
  mx_seq_timing_t tm = {0};
  mx_seq_params_t p = {.max_tokens = (int)a->n_new, .sampling = a->sp, .stops = a->stops, .n_stops = a->n_stops,
                       .ignore_eos = a->ignore_eos};
  if (!st) st = mx_seq_init(&q, s, ids.ids, (int)ids.n, &p);
  bool have_seq = !st;
  mx_strbuf_t text;
  mx_strbuf_init(&text);
  if (!st) st = mx_seq_generate(s, &q, print_text, a->json ? &text : NULL, &tm);
  /* The end-of-sequence token is not part of the answer, nor of the decode figures. */
  long generated = have_seq ? mx_seq_generated(&q) - (q.eos ? 1 : 0) : 0;
  if (have_seq && q.out.released > 0) printf("\n");
  fflush(stdout); /* before the --stats line on stderr */
  const mx_session_timings_t *t = mx_session_timings(s);
  mx_alloc_stats_t ds_stats = {0};
  /* Without allocator statistics the figures say 0 peak bytes; the run itself succeeded. */
  if (!st && (a->stats || a->json)) mx_status_ignore(mx_session_device_stats(s, &ds_stats));
  double decode_tps = generated > 1 ? (double)(generated - 1) / (tm.decode_ms / 1000.0) : 0.0;
  if (!st && a->stats) {
    fprintf(stderr,
            "mlxcel stats: load %.0f ms (model %.0f, weights %.0f, worker %.0f, module+parameters %.0f); compile %s%.0f ms; "
            "prefill %zu tokens %.1f ms; decode %ld tokens %.1f tok/s; peak device bytes %lld\n",
            t->open_ms + t->prepare_ms + t->worker_ms + t->load_ms, t->open_ms, t->prepare_ms, t->worker_ms, t->load_ms,
            t->compile_hit ? "cache hit, " : "", t->compile_ms, ids.n, tm.prefill_ms, generated > 1 ? generated - 1 : 0,
            decode_tps, (long long)ds_stats.device_bytes_peak);
  }
  /* The generated ids (EOS excluded, as in the text) let a benchmark compare our tokens with a peer's. */
  json_t *gen_ids = NULL;
  if (!st && a->json) {
    gen_ids = json_array();
    const int32_t *gt = mx_seq_tokens(&q);
    for (long i = 0; gen_ids && i < generated; i++) json_array_append_new(gen_ids, json_integer(gt[i]));
  }
  if (!st && a->json)
    st = mx_cli_write_json(
        a->json, json_pack("{s:s, s:s, s:s, s:s%, s:o, s:I, s:I, s:b, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:b}", "command",
                           "generate", "device", a->so.device, "precision", mx_dtype_name(a->so.precision), "text",
                           text.data ? text.data : "", text.len, "generated_ids", gen_ids, "prompt_tokens", (json_int_t)ids.n, "generated_tokens",
                           (json_int_t)generated, "compile_cache_hit", t->compile_hit, "compile_ms", t->compile_ms,
                           "load_ms", t->open_ms + t->prepare_ms + t->worker_ms + t->load_ms, "worker_ms", t->worker_ms,
                           "module_load_ms", t->load_ms, "prefill_ms", tm.prefill_ms, "decode_ms", tm.decode_ms,
                           "decode_tok_per_s", decode_tps, "peak_device_bytes", (json_int_t)ds_stats.device_bytes_peak,
                           "eos", (int)q.eos));
  if (have_seq) mx_seq_free(&q);
  mx_strbuf_free(&text);
  mx_ids_free(&ids);
  mx_session_close(s);
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
