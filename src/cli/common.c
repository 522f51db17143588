#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int mx_cli_report(mx_status_t st) {
  if (!st) return 0;
  int code = mx_status_stage(st) == MX_STAGE_USAGE ? MX_EXIT_USAGE : MX_EXIT_FAIL;
  mx_status_print(stderr, st);
  mx_status_free(st);
  return code;
}

const char *mx_cli_setting(const char *flag_value, const char *env_name, const char *def) {
  if (flag_value) return flag_value;
  const char *v = env_name ? getenv(env_name) : NULL;
  return v && v[0] ? v : def;
}

mx_status_t mx_cli_parse_int(const char *name, const char *text, long lo, long hi, long *out) {
  char *end;
  long v = text ? strtol(text, &end, 10) : 0;
  if (!text || !text[0] || *end || v < lo || v > hi)
    return mx_status_make(MX_STAGE_USAGE, NULL, "%s must be a whole number from %ld to %ld, not '%s'", name, lo, hi,
                          text ? text : "");
  *out = v;
  return NULL;
}

mx_status_t mx_cli_check_backend(void) {
  const char *b = getenv("MLXCEL_BACKEND");
  if (b && b[0] && strcmp(b, "xla") != 0)
    return mx_status_make(MX_STAGE_USAGE, "unset MLXCEL_BACKEND or set it to xla",
                          "MLXCEL_BACKEND=%s: the only backend is xla (StableHLO through IREE)", b);
  return NULL;
}

int mx_cli_flag(int argc, char **argv, int *i, const char *name, const char **value, mx_status_t *err) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (strncmp(a, name, n) != 0) return 0;
  if (a[n] == '=') {
    *value = a + n + 1;
    return 1;
  }
  if (a[n] != '\0') return 0;
  if (*i + 1 >= argc) {
    *err = mx_status_make(MX_STAGE_USAGE, "see --help", "option %s needs a value", name);
    return 1;
  }
  *value = argv[++*i];
  return 1;
}

int mx_cli_device_flag(int argc, char **argv, int *i, mx_cli_device_t *d, mx_status_t *err) {
  return mx_cli_flag(argc, argv, i, "--device", &d->device, err) || mx_cli_flag(argc, argv, i, "--cuda-target", &d->cuda, err) ||
         mx_cli_flag(argc, argv, i, "--rocm-target", &d->rocm, err);
}

void mx_cli_device_resolve(const mx_cli_device_t *d, const char **uri, mx_target_options_t *t) {
  *uri = mx_cli_setting(d->device, "MLXCEL_XLA_DEVICE", "local-task");
  t->cuda_target = mx_cli_setting(d->cuda, "MLXCEL_XLA_CUDA_TARGET", NULL);
  t->rocm_target = mx_cli_setting(d->rocm, "MLXCEL_XLA_ROCM_TARGET", NULL);
}
