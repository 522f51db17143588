/* mlxcel compile: the Llama graph of a configuration, compiled for a target, with no device and no
 * weights (they are external parameters). For cross-compiling and for the compile matrix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/interrupt.h"
#include "base/toolchain.h"
#include "cli/cli.h"
#include "compiler/compile.h"
#include "engine/session.h"
#include "engine/weights.h"
#include "hlo/llama.h"

typedef struct {
  mx_cli_session_args_t s;
  const char *config, *model, *weights, *out, *mlir;
  long layers;
  int score, embeddings;
} compile_opts_t;

static const mx_opt_t config_row[] = {
    MX_OPT_ROW(compile_opts_t, config, .name = "--config", .metavar = "CONFIG.json", .excludes = "--model",
               .help = "the model's HF config.json (or --model)"),
    MX_OPT_ROW(compile_opts_t, model, .name = "--model", .alias = "-m", .metavar = "PATH",
               .help = "the model itself (HF directory or GGUF): its configuration and the weights' storage type "
                       "exactly as `generate` will see them, so the module fits --vmfb there"),
};
static const mx_opt_t compile_rows[] = {
    MX_OPT_ROW(compile_opts_t, weights, .name = "--weights-dtype", .kind = MX_OPT_ENUM, .choices = "f32|f16|bf16",
               .help = "the weights' storage type (without it: the precision)"),
    MX_OPT_ROW(compile_opts_t, layers, .name = "--layers", .kind = MX_OPT_INT, .metavar = "N", .lo = 1, .hi = 1024,
               .help = "keep the layer shapes and use N layers (for a quick compile check)"),
    MX_OPT_ROW(compile_opts_t, out, .name = "--output", .alias = "-o", .metavar = "OUT.vmfb",
               .help = "keep the module there (without it: a temporary file, removed)"),
    MX_OPT_ROW(compile_opts_t, score, .name = "--score", .kind = MX_OPT_SWITCH,
               .help = "also compile score_<context> (all-position logits): the module `mlxcel check --precision "
                       "f16|bf16 --vmfb` needs, and its f32 --ref-vmfb"),
    MX_OPT_ROW(compile_opts_t, embeddings, .name = "--embeddings", .kind = MX_OPT_SWITCH,
               .help = "also compile the pooled prefill functions: the module `mlxcel serve --embeddings --vmfb` needs"),
    MX_OPT_ROW(compile_opts_t, mlir, .name = "--mlir", .metavar = "OUT.mlir",
               .help = "also write the StableHLO module given to iree-compile (for compiler experiments and bug "
                       "reports), and for cuda OUT.mlir.tuning.mlir: the lowering configurations it gets as "
                       "--iree-codegen-transform-dialect-library"),
};

/* -1 when the compile should run, else the exit code (after --help or a usage error). */
static int parse_args(int argc, char **argv, compile_opts_t *a) {
  mx_opt_cmd_t c = {
      .prog = "mlxcel compile",
      .synopsis = "--config CONFIG.json | -m MODEL [options]",
      .about = "Emits the Llama graph (prefill buckets, decode, score) for an HF config.json and compiles it for the "
               "device's target, without a device or weights. --slots N compiles the batched module the server and "
               "batch-bench use (N sequences decoded together). Prints the compile time and the module's size; exit 1 "
               "on a compile error (the compiler's log is kept next to OUT).",
      .sets = {MX_OPT_SET(config_row, a), mx_cli_session_set(&a->s, MX_CLI_DEVICE | MX_CLI_GRAPH | MX_CLI_SLOTS),
               MX_OPT_SET(compile_rows, a)},
  };
  return mx_cli_parse(&c, argc, argv);
}

int mx_cmd_compile(int argc, char **argv) {
  compile_opts_t a = {0};
  int code = parse_args(argc, argv, &a);
  if (code >= 0) return code;
  const char *config = a.config, *out = a.out, *dev = a.s.device;
  mx_target_options_t to = mx_cli_target(&a.s);
  mx_target_t target;
  mx_dtype_t precision = MX_F32, weights = MX_F32;
  long layers = a.layers, ctx = a.s.context, slots = a.s.slots;
  const char *prec_name = a.s.precision;
  mx_status_t st = mx_target_for_device(dev, &to, &target);
  if (!st) st = mx_parse_precision(prec_name, &precision);
  if (!st) st = mx_target_check_precision(&target, prec_name);
  if (!st && !config && !a.model)
    st = mx_status_make(MX_STAGE_USAGE, "run `mlxcel compile --help`", "give --config CONFIG.json or -m MODEL");
  char *text = NULL;
  mx_model_config_t c;
  mx_quant_options_t quant = mx_cli_quant(&a.s);
  mx_pack_t *pack = NULL;
  mx_model_t *m = NULL;
  if (!st && a.model) { /* the session's own view: the same config, weight storage type and packing */
    st = mx_model_open(a.model, &m);
    if (!st) c = *mx_model_config(m);
  } else if (!st) {
    st = mx_read_file(config, 4u << 20, &text, NULL);
    if (!st) st = mx_config_from_hf_json(text, NULL, config, &c);
    weights = precision;
  }
  mx_dtype_t kv = MX_F32;
  if (!st) st = mx_cli_kv_type(&a.s, precision, &kv);
  free(text);
  text = NULL;
  if (!st && layers) c.n_layers = (int)layers;
  if (!st && layers && m && layers > mx_model_config(m)->n_layers && quant.on)
    st = mx_status_make(MX_STAGE_USAGE, "use at most the model's layers with --quant packed",
                        "--layers %ld is more than the model's %d layers, whose weights the packing follows", layers,
                        mx_model_config(m)->n_layers);
  if (!st) st = mx_weights_pack_plan(m, &c, &quant, &pack); /* after --layers: one entry per layer */
  if (!st && m) weights = mx_weights_dtype(m, precision, pack);
  bool stacked = !st && m && mx_weights_stacked(m, pack);
  if (!st && pack) mx_target_for_packed(&target);
  mx_model_close(m);
  if (!st && a.weights) st = mx_parse_precision(a.weights, &weights);
  if (!st && pack && weights != precision)
    st = mx_status_make(MX_STAGE_USAGE, "drop --weights-dtype, or give the precision's type",
                        "--weights-dtype %s with --quant packed: a packed model's other weights are stored in the precision's "
                        "type (%s)", mx_dtype_name(weights), mx_dtype_name(precision));
  if (!st && ctx > c.max_position) c.max_position = (int)ctx;
  mx_llama_graph_t g;
  mx_llama_graph_options_t go = {.precision = precision, .kv = kv, .weight_dtype = weights, .slots = (int)slots, .capacity = (int)ctx,
                                 .decode_steps = (int)a.s.decode_steps, .device_cuts_asked = mx_cli_device_cuts(&a.s), .score_len = a.score ? MX_LLAMA_SCORE_CAPACITY : 0,
                                 .pooled = a.embeddings, .pack = pack, .stacked_params = stacked};
  mx_graph_target_choices(&target, &c, &go);
  if (!st) st = mx_llama_graph_make(&c, &go, &g);
  char sig[MX_LLAMA_SIGNATURE_MAX + 1];
  if (!st) {
    mx_graph_signature(&g, &target, sig, sizeof sig);
    g.signature = sig;
    st = mx_llama_emit(&g, &text);
  }
  char compiler[MX_PATH_MAX], path[MX_PATH_MAX], dir[MX_PATH_MAX];
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/mlxcel-compile-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  bool temp = !out;
  if (!st) st = mx_toolchain_compiler(compiler, sizeof compiler);
  if (!st && temp) {
    if (!mkdtemp(dir)) st = mx_status_make(MX_STAGE_IO, "set TMPDIR to a writable directory", "cannot create a work directory in %s", tmp && tmp[0] ? tmp : "/tmp");
    snprintf(path, sizeof path, "%s/graph.vmfb", dir);
  } else if (!st) {
    snprintf(path, sizeof path, "%s", out);
  }
  double ms = 0;
  char label[96];
  mx_target_label(&target, label, sizeof label);
  if (!st && a.mlir) st = mx_write_file(a.mlir, text, strlen(text));
  if (!st && a.mlir && target.tuning) { /* what a compile of the written MLIR needs to match the module */
    char side[MX_PATH_MAX + 16];
    snprintf(side, sizeof side, "%s.tuning.mlir", a.mlir);
    st = mx_write_file(side, target.tuning->text, strlen(target.tuning->text));
  }
  if (!st) st = mx_compile_mlir(compiler, &target, text, path, &ms);
  free(text);
  if (!st) {
    struct stat sb;
    stat(path, &sb);
    printf("mlxcel compile: %d-layer %s graph (context %d, %s weights) for %s in %.1f s: %lld bytes%s%s\n", c.n_layers,
           prec_name, g.capacity, mx_dtype_name(weights), label, ms / 1000, (long long)sb.st_size, temp ? "" : " -> ", temp ? "" : path);
    printf("  flags:"); /* the same as a session's compile for this device (mx_target_for_device) */
    for (int i = 0; i < target.n_flags; i++) printf(" %s", target.flags[i]);
    if (target.tuning && a.mlir) printf(" --iree-codegen-transform-dialect-library=%s.tuning.mlir", a.mlir); /* a real flag */
    printf("\n");
    if (target.tuning) printf("  tuning: %s\n", target.tuning->name);
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
  if (st && temp && mx_interrupt_signal()) rmdir(dir); /* the interrupted compile emptied it */
  free(pack);
  return mx_cli_report(st);
}
