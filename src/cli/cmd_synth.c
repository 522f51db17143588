/* mlxcel synth: a synthetic HF checkpoint of a given architecture (see src/model/synth.h). */
#include <stdio.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "base/clock.h"
#include "cli/cli.h"
#include "model/synth.h"

typedef struct {
  const char *config, *family, *tokenizer, *out, *dtype;
  long seed, q4_grid;
} synth_opts_t;

static const mx_opt_t synth_rows[] = {
    MX_OPT_ROW(synth_opts_t, config, .name = "--config", .metavar = "CONFIG.json",
               .help = "the architecture: an HF config.json (llama, qwen2, qwen3, mistral, gemma2, gemma3_text or phi3)"),
    MX_OPT_ROW(synth_opts_t, family, .name = "--family", .kind = MX_OPT_ENUM, .choices = "llama|qwen2|qwen3|mistral|gemma2|gemma3|phi3",
               .help = "instead of --config: a built-in 2-layer config of the family's real layer shape (Llama-3.2-1B, "
                       "Qwen2.5-0.5B, Qwen3-0.6B, Mistral-7B at a quarter width, Gemma 3 270M; the sliding windows 32 "
                       "positions) and the Llama 3 vocabulary (docs/models.md)"),
    MX_OPT_ROW(synth_opts_t, tokenizer, .name = "--tokenizer", .metavar = "DIR", .flags = MX_OPT_REQUIRED,
               .help = "a directory with tokenizer.json (and tokenizer_config.json) to copy"),
    MX_OPT_ROW(synth_opts_t, out, .name = "--output", .alias = "-o", .metavar = "OUT_DIR", .flags = MX_OPT_REQUIRED,
               .help = "the model directory to write"),
    MX_OPT_ROW(synth_opts_t, seed, .name = "--seed", .kind = MX_OPT_INT, .metavar = "N", .lo = 0, .hi = LONG_MAX,
               .def = "0", .help = "seeds every tensor's stream, with the tensor's name"),
    MX_OPT_ROW(synth_opts_t, dtype, .name = "--dtype", .kind = MX_OPT_ENUM, .choices = "bf16|f16|f32", .def = "bf16",
               .help = "the weights' storage type"),
    MX_OPT_ROW(synth_opts_t, q4_grid, .name = "--q4-grid", .kind = MX_OPT_INT, .metavar = "G", .lo = 32, .hi = 128,
               .help = "matrices on the 4-bit affine grid of groups of G (32, 64 or 128; --dtype f32) that --quant packed "
                       "--quant-bits 4 --quant-group G recovers exactly: an HF oracle on the checkpoint then sees the "
                       "weights the packed path dequantizes (docs/quantization.md)"),
};

int mx_cmd_synth(int argc, char **argv) {
  synth_opts_t a = {0};
  mx_opt_cmd_t c = {
      .prog = "mlxcel synth",
      .synopsis = "(--config CONFIG.json | --family NAME) --tokenizer DIR -o OUT_DIR [--seed N] [--dtype bf16|f16|f32] [--q4-grid G]",
      .about = "Writes a complete HF model directory (config.json, model.safetensors, tokenizer.json and "
               "tokenizer_config.json copied from DIR) with deterministic pseudo-random weights: matrices uniform with "
               "standard deviation 0.02, RMSNorm weights uniform on [0.9, 1.1], one xorshift stream per tensor seeded "
               "from --seed and the tensor's name.\n"
               "Example (Llama-3.2-1B shapes):\n"
               "  mlxcel synth --config ../shared/data/llama-3.2-1b/config.json \\\n"
               "               --tokenizer ../shared/data/llama3-tokenizer -o /tmp/llama-3.2-1b-synth\n"
               "  mlxcel synth --family qwen3 --tokenizer ../shared/data/llama3-tokenizer -o /tmp/qwen3-synth",
      .sets = {MX_OPT_SET(synth_rows, &a)},
  };
  int code = mx_cli_parse(&c, argc, argv);
  if (code >= 0) return code;
  const char *dtype = a.dtype;
  mx_synth_options_t o = {.config_path = a.config, .family = a.family, .tokenizer_dir = a.tokenizer, .out_dir = a.out, .seed = (uint64_t)a.seed,
                          .dtype = !strcmp(dtype, "f32") ? MX_W_F32 : !strcmp(dtype, "f16") ? MX_W_F16 : MX_W_BF16,
                          .q4_grid = (int)a.q4_grid};
  double t0 = mx_now_ms();
  uint64_t params = 0, bytes = 0;
  mx_status_t st = mx_synth_write(&o, &params, &bytes);
  if (st) return mx_cli_report(st);
  printf("mlxcel synth: wrote %s: %.3f G parameters, %.2f GB of %s weights in %.1f s\n", o.out_dir, (double)params / 1e9,
         (double)bytes / 1e9, dtype ? dtype : "bf16", (mx_now_ms() - t0) / 1000.0);
  return 0;
}
