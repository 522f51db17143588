/* mlxcel compile: the Llama graph of a configuration, compiled for a target, with no device and no
 * weights (they are external parameters). For cross-compiling and for the compile matrix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/toolchain.h"
#include "cli/cli.h"
#include "compiler/compile.h"
#include "engine/session.h"
#include "hlo/llama.h"

static void help(void) {
  printf("usage: mlxcel compile --config CONFIG.json [--device URI] [--cuda-target sm_XY] [--rocm-target gfxNNNN]\n"
         "                      [--precision f32|f16|bf16] [--weights-dtype f32|f16|bf16] [--layers N]\n"
         "                      [--context N] [--slots N] [-o OUT.vmfb]\n\n"
         "Emits the Llama graph (prefill buckets, decode, score) for an HF config.json and compiles it for the\n"
         "device's target, without a device or weights. --layers N keeps the layer shapes and uses N layers\n"
         "(for a quick compile check). --slots N (1..8, default 1) compiles the batched module the server and\n"
         "batch-bench use (N sequences decoded together). Prints the compile time and the module's size; exit 1 on a compile\n"
         "error (the compiler's log is kept next to OUT).\n");
}

int mx_cmd_compile(int argc, char **argv) {
  const char *config = NULL, *prec = NULL, *wdt = NULL, *layers_s = NULL, *ctx_s = NULL, *out = NULL, *slots_s = NULL;
  mx_cli_device_t dv = {0};
  for (int i = 1; i < argc; i++) {
    mx_status_t err = NULL;
    const char *v;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      help();
      return 0;
    }
    if (mx_cli_flag(argc, argv, &i, "--config", &v, &err)) config = v;
    else if (mx_cli_device_flag(argc, argv, &i, &dv, &err)) {
      /* --device, --cuda-target, --rocm-target */
    }
    else if (mx_cli_flag(argc, argv, &i, "--precision", &v, &err)) prec = v;
    else if (mx_cli_flag(argc, argv, &i, "--weights-dtype", &v, &err)) wdt = v;
    else if (mx_cli_flag(argc, argv, &i, "--layers", &v, &err)) layers_s = v;
    else if (mx_cli_flag(argc, argv, &i, "--context", &v, &err)) ctx_s = v;
    else if (mx_cli_flag(argc, argv, &i, "--slots", &v, &err)) slots_s = v;
    else if (mx_cli_flag(argc, argv, &i, "-o", &v, &err)) out = v;
    else err = mx_status_make(MX_STAGE_USAGE, "run `mlxcel compile --help`", "unknown option '%s'", argv[i]);
    if (err) return mx_cli_report(err);
  }
  if (!config) return mx_cli_report(mx_status_make(MX_STAGE_USAGE, "run `mlxcel compile --help`", "--config is required"));
  const char *dev;
  mx_target_options_t to = {0};
  mx_cli_device_resolve(&dv, &dev, &to);
  mx_target_t target;
  mx_dtype_t precision, weights;
  long layers = 0, ctx = 512, slots = 1;
  const char *prec_name = mx_cli_setting(prec, "MLXCEL_XLA_PRECISION", "f32");
  mx_status_t st = mx_target_for_device(dev, &to, &target);
  if (!st) st = mx_parse_precision(prec_name, &precision);
  if (!st) st = mx_target_check_precision(&target, prec_name);
  if (!st) st = mx_parse_precision(wdt ? wdt : prec_name, &weights);
  if (!st && layers_s) st = mx_cli_parse_int("--layers", layers_s, 1, 1024, &layers);
  if (!st && slots_s) st = mx_cli_parse_int("--slots", slots_s, 1, MX_LLAMA_MAX_SLOTS, &slots);
  if (!st) st = mx_cli_parse_int("--context", mx_cli_setting(ctx_s, "MLXCEL_XLA_CONTEXT_CAPACITY", "512"), 16, 1 << 20, &ctx);
  char *text = NULL;
  mx_model_config_t c;
  if (!st) st = mx_read_file(config, 4u << 20, &text, NULL);
  if (!st) st = mx_config_from_hf_json(text, NULL, config, &c);
  free(text);
  text = NULL;
  if (!st && layers) c.n_layers = (int)layers;
  if (!st && ctx > c.max_position) c.max_position = (int)ctx;
  mx_llama_graph_t g = {.config = &c, .matmul = precision, .kv = MX_F32, .weight_dtype = weights, .slots = (int)slots,
                        .capacity = (int)ctx, .score_len = 0};
  mx_llama_default_buckets(&g);
  if (!st) st = mx_llama_emit(&g, &text);
  char compiler[MX_PATH_MAX], path[MX_PATH_MAX], dir[] = "/tmp/mlxcel-compile-XXXXXX";
  bool temp = !out;
  if (!st) st = mx_toolchain_compiler(compiler, sizeof compiler);
  if (!st && temp) {
    if (!mkdtemp(dir)) st = mx_status_make(MX_STAGE_IO, "set TMPDIR", "cannot create a work directory");
    snprintf(path, sizeof path, "%s/graph.vmfb", dir);
  } else if (!st) {
    snprintf(path, sizeof path, "%s", out);
  }
  double ms = 0;
  char label[96];
  mx_target_label(&target, label, sizeof label);
  if (!st) st = mx_compile_mlir(compiler, &target, text, path, &ms);
  free(text);
  if (!st) {
    struct stat sb;
    stat(path, &sb);
    printf("mlxcel compile: %d-layer %s graph (context %ld, %s weights) for %s in %.1f s: %lld bytes%s%s\n", c.n_layers,
           prec_name, ctx, mx_dtype_name(weights), label, ms / 1000, (long long)sb.st_size, temp ? "" : " -> ", temp ? "" : path);
    printf("  flags:"); /* the same as a session's compile for this device (mx_target_for_device) */
    for (int i = 0; i < target.n_flags; i++) printf(" %s", target.flags[i]);
    printf("\n");
  }
  if (!st) { /* the MLIR and the compiler log beside the output matter only after a failure */
    char side[MX_PATH_MAX + 16];
    snprintf(side, sizeof side, "%s.mlir", path);
    unlink(side);
    snprintf(side, sizeof side, "%s.log", path);
    unlink(side);
    if (temp) {
      unlink(path);
      rmdir(dir);
    }
  }
  return mx_cli_report(st);
}
