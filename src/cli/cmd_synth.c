/* mlxcel synth: a synthetic HF checkpoint of a given architecture (see src/model/synth.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "cli/cli.h"
#include "model/synth.h"

static void help(void) {
  printf("usage: mlxcel synth --config CONFIG.json --tokenizer DIR -o OUT_DIR [--seed N] [--dtype bf16|f16|f32]\n\n"
         "Writes a complete HF model directory (config.json, model.safetensors, tokenizer.json and\n"
         "tokenizer_config.json copied from DIR) with deterministic pseudo-random weights: matrices uniform\n"
         "with standard deviation 0.02, RMSNorm weights uniform on [0.9, 1.1], one xorshift stream per\n"
         "tensor seeded from --seed (default 0) and the tensor's name. --dtype defaults to bf16.\n\n"
         "Example (Llama-3.2-1B shapes):\n"
         "  mlxcel synth --config ../shared/data/llama-3.2-1b/config.json \\\n"
         "               --tokenizer ../shared/data/llama3-tokenizer -o /tmp/llama-3.2-1b-synth\n");
}

int mx_cmd_synth(int argc, char **argv) {
  mx_synth_options_t o = {.dtype = MX_W_BF16};
  const char *seed = NULL, *dtype = NULL;
  for (int i = 1; i < argc; i++) {
    mx_status_t err = NULL;
    const char *v;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      help();
      return 0;
    }
    if (mx_cli_flag(argc, argv, &i, "--config", &v, &err)) o.config_path = v;
    else if (mx_cli_flag(argc, argv, &i, "--tokenizer", &v, &err)) o.tokenizer_dir = v;
    else if (mx_cli_flag(argc, argv, &i, "-o", &v, &err) || mx_cli_flag(argc, argv, &i, "--output", &v, &err)) o.out_dir = v;
    else if (mx_cli_flag(argc, argv, &i, "--seed", &v, &err)) seed = v;
    else if (mx_cli_flag(argc, argv, &i, "--dtype", &v, &err)) dtype = v;
    else err = mx_status_make(MX_STAGE_USAGE, "run `mlxcel synth --help`", "unknown option '%s'", argv[i]);
    if (err) return mx_cli_report(err);
  }
  if (!o.config_path || !o.out_dir)
    return mx_cli_report(mx_status_make(MX_STAGE_USAGE, "run `mlxcel synth --help`", "--config and -o are required"));
  if (seed) {
    char *end;
    unsigned long long s = strtoull(seed, &end, 10);
    if (!seed[0] || *end || seed[0] == '-')
      return mx_cli_report(mx_status_make(MX_STAGE_USAGE, NULL, "--seed must be a non-negative integer, not '%s'", seed));
    o.seed = s;
  }
  if (dtype) {
    if (!strcmp(dtype, "bf16")) o.dtype = MX_W_BF16;
    else if (!strcmp(dtype, "f16")) o.dtype = MX_W_F16;
    else if (!strcmp(dtype, "f32")) o.dtype = MX_W_F32;
    else return mx_cli_report(mx_status_make(MX_STAGE_USAGE, "use bf16, f16 or f32", "unknown --dtype '%s'", dtype));
  }
  double t0 = mx_now_ms();
  uint64_t params = 0, bytes = 0;
  mx_status_t st = mx_synth_write(&o, &params, &bytes);
  if (st) return mx_cli_report(st);
  printf("mlxcel synth: wrote %s: %.3f G parameters, %.2f GB of %s weights in %.1f s\n", o.out_dir, (double)params / 1e9,
         (double)bytes / 1e9, dtype ? dtype : "bf16", (mx_now_ms() - t0) / 1000.0);
  return 0;
}
