/* Shared pieces of the command-line front end: the session options every command that opens a
 * model or targets a device reads (one group of option rows, options.h), error reporting, and the
 * command entry points. */
#ifndef MX_CLI_CLI_H
#define MX_CLI_CLI_H

#include "base/interrupt.h" /* every command reports an interrupt the same way (mx_cli_report) */
#include "base/status.h"
#include "cli/options.h"
#include "compiler/target.h"
#include "engine/session.h"

/* Exit codes: 0 success, 1 a check failed or a stage failed, 2 bad usage, 130 interrupted (SIGINT or
 * SIGTERM during an interruptible step, base/interrupt.h). */
#define MX_EXIT_FAIL 1
#define MX_EXIT_USAGE 2
#define MX_EXIT_INTERRUPTED 130

/* Prints the status and returns the exit code it deserves (2 for usage, 130 once interrupted — printed
 * as "mlxcel: interrupted: ..." — else 1); frees it. */
int mx_cli_report(mx_status_t st);
/* Parses argv for `cmd`: -1 when the command should go on, else its exit code (0 after printing
 * --help, 2 after reporting bad usage). */
int mx_cli_parse(const mx_opt_cmd_t *cmd, int argc, char **argv);
/* Writes `root` (consumed; NULL means out of memory) as indented JSON to path, for --json options. */
struct json_t;
MX_MUST_USE mx_status_t mx_cli_write_json(const char *path, struct json_t *root);
/* MLXCEL_BACKEND must be unset or "xla". */
MX_MUST_USE mx_status_t mx_cli_check_backend(void);

/* What a session needs, as every command that opens one (or compiles its graph) reads it. */
typedef struct {
  const char *model, *chat_template, *device, *cuda_target, *rocm_target, *vulkan_target, *precision, *kv_precision, *vmfb, *quant,
      *quant_bits, *quant_group, *device_cuts;
  long context, slots, decode_steps;
} mx_cli_session_args_t;

/* The parts of the session rows: a command takes the ones it uses. */
enum {
  MX_CLI_MODEL = 1,  /* -m/--model */
  MX_CLI_DEVICE = 2, /* --device, --cuda-target, --rocm-target, --vulkan-target */
  MX_CLI_GRAPH = 4,  /* --precision, --kv-precision, --context, --decode-steps */
  MX_CLI_SLOTS = 8,  /* --slots */
  MX_CLI_VMFB = 16,  /* --vmfb */
};

/* The session rows that `parts` selects, writing into `a`; their defaults are the session's. */
mx_opt_set_t mx_cli_session_set(mx_cli_session_args_t *a, unsigned parts);
/* The compile targets the rows name. */
/* --chat-template FILE, when given, replaces the tokenizer's template (read and parsed here, so that a
 * template mlxcel cannot render is refused before anything else happens). */
MX_MUST_USE mx_status_t mx_cli_apply_chat_template(const mx_cli_session_args_t *a, mx_tokenizer_t *t);
mx_target_options_t mx_cli_target(const mx_cli_session_args_t *a);
/* --quant, --quant-bits, --quant-group as the session's quantization options. */
mx_quant_options_t mx_cli_quant(const mx_cli_session_args_t *a);
/* Session options from the rows (the parts not taken stay zero, the session's own defaults). */
MX_MUST_USE mx_status_t mx_cli_session_options(const mx_cli_session_args_t *a, mx_session_options_t *so);
/* --device-cuts: 1 on, -1 off, 0 auto (the target's choice). */
int mx_cli_device_cuts(const mx_cli_session_args_t *a);
/* The KV cache's type for a session or compile at this precision: --kv-precision, else the precision's. */
MX_MUST_USE mx_status_t mx_cli_kv_type(const mx_cli_session_args_t *a, mx_dtype_t precision, mx_dtype_t *kv);

int mx_cmd_devices(int argc, char **argv);
int mx_cmd_info(int argc, char **argv);
int mx_cmd_synth(int argc, char **argv);
int mx_cmd_tokenize(int argc, char **argv);
int mx_cmd_template(int argc, char **argv);
int mx_cmd_check(int argc, char **argv);
int mx_cmd_generate(int argc, char **argv);
int mx_cmd_compile(int argc, char **argv);
int mx_cmd_smoke(int argc, char **argv);
int mx_cmd_serve(int argc, char **argv);
int mx_cmd_batch_bench(int argc, char **argv);
int mx_cmd_qualify(int argc, char **argv);

#endif
