/* Shared pieces of the command-line front end: option values that come from a flag or else from an
 * MLXCEL_* environment variable, and the command entry points. */
#ifndef MX_CLI_CLI_H
#define MX_CLI_CLI_H

#include "base/status.h"
#include "compiler/target.h"

/* Exit codes: 0 success, 1 a check failed or a stage failed, 2 bad usage. */
#define MX_EXIT_FAIL 1
#define MX_EXIT_USAGE 2

/* Prints the status and returns the exit code it deserves (2 for usage, else 1); frees it. */
int mx_cli_report(mx_status_t st);
/* The flag value if given, else the environment variable if set and non-empty, else `def`. */
const char *mx_cli_setting(const char *flag_value, const char *env_name, const char *def);
/* Parses a whole number in [lo, hi] for option `name`. */
mx_status_t mx_cli_parse_int(const char *name, const char *text, long lo, long hi, long *out);
/* Matches argv[*i] against "--name VALUE" or "--name=VALUE". Returns 1 and sets *value (advancing *i
 * past a separate value) on a match, 0 when argv[*i] is another option; a missing value is an error. */
int mx_cli_flag(int argc, char **argv, int *i, const char *name, const char **value, mx_status_t *err);
/* --device, --cuda-target and --rocm-target, shared by every command that targets a device. */
typedef struct {
  const char *device, *cuda, *rocm;
} mx_cli_device_t;
/* Consumes argv[*i] when it is one of the three flags (returns 1), else returns 0. */
int mx_cli_device_flag(int argc, char **argv, int *i, mx_cli_device_t *d, mx_status_t *err);
/* The device URI and compile targets: flags over MLXCEL_XLA_DEVICE (default local-task),
 * MLXCEL_XLA_CUDA_TARGET and MLXCEL_XLA_ROCM_TARGET. */
void mx_cli_device_resolve(const mx_cli_device_t *d, const char **uri, mx_target_options_t *t);
/* MLXCEL_BACKEND must be unset or "xla". */
mx_status_t mx_cli_check_backend(void);

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

#endif
