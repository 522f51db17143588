/* mlxcel tokenize / mlxcel template: the tokenizer and chat templates on their own, for users and
 * for the parity tests against HF tokenizers and transformers. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/file.h"
#include "cli/cli.h"
#include "engine/prompt.h"
#include "tokenizer/chat.h"
#include "tokenizer/tokenizer.h"

typedef struct {
  mx_cli_session_args_t s;
  const char *prompt, *jsonl;
  int no_bos;
} tokenize_opts_t;

static const mx_opt_t tokenize_rows[] = {
    MX_OPT_ROW(tokenize_opts_t, prompt, .name = "--prompt", .alias = "-p", .metavar = "TEXT",
               .help = "print the token ids of TEXT, then its decode"),
    MX_OPT_ROW(tokenize_opts_t, jsonl, .name = "--jsonl", .metavar = "FILE", .excludes = "--prompt",
               .help = "for every line {\"text\": ...} of FILE print {\"ids\": [...], \"decoded\": \"...\"} (decoded keeps "
                       "special tokens); the encode throughput goes to stderr"),
    MX_OPT_ROW(tokenize_opts_t, no_bos, .name = "--no-bos", .kind = MX_OPT_SWITCH,
               .help = "do not add BOS even when the tokenizer's configuration adds one"),
};

static mx_status_t tokenize_jsonl(const mx_tokenizer_t *t, const char *path, bool add_special) {
  FILE *f = fopen(path, "r");
  if (!f) return mx_status_make(MX_STAGE_IO, "check the path", "cannot open %s", path);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  double encode_ms = 0;
  size_t bytes = 0, records = 0, lineno = 0;
  mx_status_t st = NULL;
  while (!st && (n = getline(&line, &cap, f)) >= 0) {
    lineno++;
    json_error_t jerr;
    json_t *rec = json_loadb(line, (size_t)n, JSON_ALLOW_NUL, &jerr);
    json_t *text = json_object_get(rec, "text");
    if (!json_is_string(text)) {
      st = mx_status_make(MX_STAGE_USAGE, "each line must be a JSON object with a \"text\" string", "%s:%zu: bad record", path, lineno);
      json_decref(rec);
      break;
    }
    mx_ids_t ids = {0};
    double t0 = mx_now_ms();
    st = mx_tokenizer_encode(t, json_string_value(text), json_string_length(text), add_special, &ids);
    encode_ms += mx_now_ms() - t0;
    bytes += json_string_length(text);
    records++;
    mx_strbuf_t dec;
    mx_strbuf_init(&dec);
    if (!st) st = mx_tokenizer_decode(t, ids.ids, ids.n, false, &dec);
    if (!st) {
      json_t *arr = json_array();
      for (size_t i = 0; i < ids.n; i++) json_array_append_new(arr, json_integer(ids.ids[i]));
      json_t *o = json_pack("{s:o,s:s%}", "ids", arr, "decoded", dec.data ? dec.data : "", dec.len);
      char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
      if (s) printf("%s\n", s);
      free(s);
      json_decref(o);
    }
    mx_strbuf_free(&dec);
    mx_ids_free(&ids);
    json_decref(rec);
  }
  free(line);
  fclose(f);
  if (!st)
    fprintf(stderr, "mlxcel tokenize: encoded %zu bytes in %.1f ms (%.2f MB/s), %zu records\n", bytes, encode_ms,
            encode_ms > 0 ? (double)bytes / 1e6 / (encode_ms / 1e3) : 0.0, records);
  return st;
}

int mx_cmd_tokenize(int argc, char **argv) {
  tokenize_opts_t a = {0};
  mx_opt_cmd_t c = {
      .prog = "mlxcel tokenize",
      .synopsis = "-m MODEL (-p TEXT | --jsonl FILE) [--no-bos]",
      .about = "Tokenizes a text, or every record of a JSONL file, with the model's tokenizer. MODEL is an HF model "
               "directory, a directory with tokenizer.json, or a GGUF file.",
      .sets = {mx_cli_session_set(&a.s, MX_CLI_MODEL), MX_OPT_SET(tokenize_rows, &a)},
  };
  int code = mx_cli_parse(&c, argc, argv);
  if (code >= 0) return code;
  const char *model = a.s.model, *prompt = a.prompt, *jsonl = a.jsonl;
  bool add_special = !a.no_bos;
  if (!prompt && !jsonl)
    return mx_cli_report(mx_status_make(MX_STAGE_USAGE, "run `mlxcel tokenize --help`", "give -p TEXT or --jsonl FILE"));
  mx_tokenizer_t *t;
  mx_status_t st = mx_tokenizer_open(model, &t);
  if (st) return mx_cli_report(st);
  if (jsonl) {
    st = tokenize_jsonl(t, jsonl, add_special);
  } else {
    mx_ids_t ids = {0};
    mx_strbuf_t dec;
    mx_strbuf_init(&dec);
    st = mx_tokenizer_encode(t, prompt, strlen(prompt), add_special, &ids);
    if (!st) st = mx_tokenizer_decode(t, ids.ids, ids.n, false, &dec);
    if (!st) {
      for (size_t i = 0; i < ids.n; i++) printf("%s%d", i ? " " : "", ids.ids[i]);
      printf("\n%zu tokens; decode: %s\n", ids.n, dec.data ? dec.data : "");
    }
    mx_strbuf_free(&dec);
    mx_ids_free(&ids);
  }
  mx_tokenizer_close(t);
  return mx_cli_report(st);
}

typedef struct {
  mx_cli_session_args_t s;
  const char *messages, *context;
  int no_gen_prompt;
} template_opts_t;

static const mx_opt_t template_rows[] = {
    MX_OPT_ROW(template_opts_t, messages, .name = "--messages", .metavar = "FILE.json",
               .help = "the conversation: a JSON array of messages ({\"role\", \"content\", ...})"),
    MX_OPT_ROW(template_opts_t, context, .name = "--context", .metavar = "FILE.json",
               .help = "instead of --messages: every variable the template gets, a JSON object (messages, tools, "
                       "bos_token, ...; bos_token, eos_token and add_generation_prompt default to the model's and the flag)"),
    MX_OPT_ROW(template_opts_t, no_gen_prompt, .name = "--no-generation-prompt", .kind = MX_OPT_SWITCH,
               .help = "end with the last message, without the assistant turn's opening"),
};

/* The template's variables from --messages (an array) or --context (an object). */
static mx_status_t read_context(const template_opts_t *a, json_t **ctx) {
  *ctx = NULL;
  if (!a->messages == !a->context)
    return mx_status_make(MX_STAGE_USAGE, "pass --messages FILE.json or --context FILE.json", "give exactly one of --messages and --context");
  const char *path = a->messages ? a->messages : a->context;
  char *text;
  MX_RETURN_IF_ERROR(mx_read_file(path, 64u << 20, &text, NULL));
  json_error_t jerr;
  json_t *root = json_loads(text, 0, &jerr);
  free(text);
  if (a->messages ? !json_is_array(root) : !json_is_object(root)) {
    json_decref(root);
    return mx_status_make(MX_STAGE_USAGE, a->messages ? "give a JSON array of {\"role\": ..., \"content\": ...}" : "give a JSON object",
                          "%s is not a JSON %s%s%s", path, a->messages ? "array" : "object", root ? "" : ": ", root ? "" : jerr.text);
  }
  if (a->context) return *ctx = root, NULL;
  *ctx = json_pack("{s:o}", "messages", root);
  return *ctx ? NULL : mx_status_oom();
}

int mx_cmd_template(int argc, char **argv) {
  template_opts_t a = {0};
  mx_opt_cmd_t c = {
      .prog = "mlxcel template",
      .synopsis = "-m MODEL (--messages FILE.json | --context FILE.json) [--chat-template FILE] [--no-generation-prompt]",
      .about = "Renders a conversation with the model's chat template (or --chat-template FILE) and prints the prompt "
               "text exactly (no newline added).",
      .sets = {mx_cli_session_set(&a.s, MX_CLI_MODEL), MX_OPT_SET(template_rows, &a)},
  };
  int code = mx_cli_parse(&c, argc, argv);
  if (code >= 0) return code;
  mx_tokenizer_t *t;
  mx_status_t st = mx_tokenizer_open(a.s.model, &t);
  if (st) return mx_cli_report(st);
  json_t *ctx = NULL;
  mx_chat_template_t ct = {0};
  mx_strbuf_t out;
  mx_strbuf_init(&out);
  st = read_context(&a, &ctx);
  if (!st) st = mx_cli_apply_chat_template(&a.s, t);
  if (!st) st = mx_prompt_chat_template(t, &ct);
  if (!st) st = mx_chat_render_context(&ct, ctx, !a.no_gen_prompt, &out);
  if (!st && out.len) fwrite(out.data, 1, out.len, stdout);
  mx_strbuf_free(&out);
  mx_chat_template_free(&ct);
  json_decref(ctx);
  mx_tokenizer_close(t);
  return mx_cli_report(st);
}
