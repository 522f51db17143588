#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/interrupt.h"
#include "cli/cli.h"
#include "hlo/llama.h"
#include "tokenizer/chat.h"

int mx_cli_report(mx_status_t st) {
  if (!st) return 0;
  /* A failure after SIGINT/SIGTERM is the interrupt's doing (a step stopped, or what came after it). */
  if (mx_interrupt_signal()) {
    fprintf(stderr, "mlxcel: interrupted: %s; remedy: %s\n", mx_status_message(st), mx_status_remedy(st));
    mx_status_free(st);
    return MX_EXIT_INTERRUPTED;
  }
  int code = mx_status_stage(st) == MX_STAGE_USAGE ? MX_EXIT_USAGE : MX_EXIT_FAIL;
  mx_status_print(stderr, st);
  mx_status_free(st);
  return code;
}

int mx_cli_parse(const mx_opt_cmd_t *cmd, int argc, char **argv) {
  bool help;
  mx_status_t st = mx_opt_parse(cmd, argc, argv, &help);
  if (st) return mx_cli_report(st);
  if (!help) return -1;
  mx_opt_help(cmd, stdout);
  return 0;
}

mx_status_t mx_cli_write_json(const char *path, json_t *root) {
  if (!root) return mx_status_oom();
  char *text = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
  json_decref(root);
  if (!text) return mx_status_oom();
  size_t n = strlen(text);
  mx_status_t st = mx_write_file(path, text, n);
  free(text);
  return st;
}

mx_status_t mx_cli_check_backend(void) {
  const char *b = getenv("MLXCEL_BACKEND");
  if (b && b[0] && strcmp(b, "xla") != 0)
    return mx_status_make(MX_STAGE_USAGE, "unset MLXCEL_BACKEND or set it to xla",
                          "MLXCEL_BACKEND=%s: the only backend is xla (StableHLO through IREE)", b);
  return NULL;
}

/* The session's options, each declared here once; the defaults are the session's, and a command
 * that needs another says so in its mx_opt_cmd_t.defaults, where its help shows it. The lower bound
 * of --context is the session's own (mx_session_open refuses less than 16). */
#define SESSION_ROW(field, ...) MX_OPT_ROW(mx_cli_session_args_t, field, __VA_ARGS__)
static const mx_opt_t session_rows[] = {
    SESSION_ROW(model, .part = MX_CLI_MODEL, .name = "--model", .alias = "-m", .metavar = "PATH", .flags = MX_OPT_REQUIRED,
                .help = "HF model directory or GGUF file"),
    SESSION_ROW(chat_template, .part = MX_CLI_MODEL, .name = "--chat-template", .metavar = "FILE",
                .help = "a Jinja chat template to use instead of the model's own (e.g. one of its family's, for a GGUF "
                        "that carries none)"),
    SESSION_ROW(device, .part = MX_CLI_DEVICE, .name = "--device", .metavar = "URI", .env = "MLXCEL_XLA_DEVICE",
                .def = "local-task", .help = "the device: local-task, local-sync, cuda[://N], hip[://N], vulkan[://N], metal"),
    SESSION_ROW(cuda_target, .part = MX_CLI_DEVICE, .name = "--cuda-target", .metavar = "sm_XY",
                .env = "MLXCEL_XLA_CUDA_TARGET", .help = "CUDA compile target for cuda devices, e.g. sm_80 (never guessed)"),
    SESSION_ROW(rocm_target, .part = MX_CLI_DEVICE, .name = "--rocm-target", .metavar = "gfxNNNN",
                .env = "MLXCEL_XLA_ROCM_TARGET", .help = "ROCm compile target for hip devices, e.g. gfx942 (never guessed)"),
    SESSION_ROW(vulkan_target, .part = MX_CLI_DEVICE, .name = "--vulkan-target", .metavar = "NAME",
                .env = "MLXCEL_XLA_VULKAN_TARGET",
                .help = "Vulkan compile target for vulkan devices, IREE's name: rtx4090, rdna3, valhall4, ... (never "
                        "guessed; compile-only so far)"),
    SESSION_ROW(precision, .part = MX_CLI_GRAPH, .name = "--precision", .kind = MX_OPT_ENUM, .choices = "f32|f16|bf16",
                .env = "MLXCEL_XLA_PRECISION", .def = "f32", .help = "the input type of the weight matmuls"),
    SESSION_ROW(kv_precision, .part = MX_CLI_GRAPH, .name = "--kv-precision", .kind = MX_OPT_ENUM, .choices = "f32|f16|bf16",
                .env = "MLXCEL_XLA_KV_PRECISION",
                .help = "the KV cache's type and the attention products' inputs (default: --precision's type); f16 or "
                        "bf16 only with a --precision of f16 or bf16 (docs/engine.md)"),
    SESSION_ROW(quant, .part = MX_CLI_GRAPH, .name = "--quant", .kind = MX_OPT_ENUM, .choices = "none|packed",
                .env = "MLXCEL_XLA_QUANT", .def = "none",
                .help = "packed: quantized weights stay packed on the device and are dequantized inside each product "
                        "(GGUF blocks in their own groups, float weights quantized on the host); none: expanded at load "
                        "(docs/quantization.md)"),
    SESSION_ROW(quant_bits, .part = MX_CLI_GRAPH, .name = "--quant-bits", .kind = MX_OPT_ENUM, .choices = "4|8",
                .env = "MLXCEL_XLA_QUANT_BITS", .def = "4",
                .help = "with --quant packed: the bits float weights are quantized to on the host (4: affine, 8: symmetric)"),
    SESSION_ROW(quant_group, .part = MX_CLI_GRAPH, .name = "--quant-group", .kind = MX_OPT_ENUM, .choices = "32|64|128",
                .env = "MLXCEL_XLA_QUANT_GROUP", .def = "32",
                .help = "with --quant packed: the weights per scale of host-quantized float weights"),
    SESSION_ROW(context, .part = MX_CLI_GRAPH, .name = "--context", .kind = MX_OPT_INT, .metavar = "N", .lo = 16,
                .hi = 1 << 20, .flags = MX_OPT_ZERO, .env = "MLXCEL_XLA_CONTEXT_CAPACITY", .def = "0",
                .help = "KV positions per sequence, compiled into the graph: prompt + new tokens must fit; 0 = the "
                        "model's maximum, at most 8192"),
    SESSION_ROW(decode_steps, .part = MX_CLI_GRAPH, .name = "--decode-steps", .kind = MX_OPT_INT, .metavar = "K", .lo = 0,
                .hi = MX_LLAMA_MAX_DECODE_STEPS, .env = "MLXCEL_XLA_DECODE_STEPS", .def = "0",
                .help = "decode steps per device call (greedy or plain-temperature requests), compiled into the graph; 0 = "
                        "the target's measured default (docs/performance.md)"),
    SESSION_ROW(device_cuts, .part = MX_CLI_GRAPH, .name = "--device-cuts", .kind = MX_OPT_ENUM, .choices = "auto|on|off",
                .env = "MLXCEL_XLA_DEVICE_CUTS", .def = "auto",
                .help = "on: the multi-step calls also draw under top-k, top-p and min-p (needs 2 or more decode steps), "
                        "so such requests decode several tokens per call; auto = the target's measured choice "
                        "(docs/performance.md)"),
    SESSION_ROW(slots, .part = MX_CLI_SLOTS, .name = "--slots", .kind = MX_OPT_INT, .metavar = "N", .lo = 1,
                .hi = MX_LLAMA_MAX_SLOTS, .def = "1",
                .help = "sequences decoded together (each count is a module of its own)"),
    SESSION_ROW(vmfb, .part = MX_CLI_VMFB, .name = "--vmfb", .metavar = "PATH",
                .help = "a module from `mlxcel compile -m MODEL` (same options) instead of compiling: for hosts "
                        "without the compiler; one built for other options or flags is refused at load"),
};

mx_opt_set_t mx_cli_session_set(mx_cli_session_args_t *a, unsigned parts) {
  return (mx_opt_set_t){session_rows, (int)(sizeof session_rows / sizeof session_rows[0]), a, parts};
}

mx_status_t mx_cli_apply_chat_template(const mx_cli_session_args_t *a, mx_tokenizer_t *t) {
  return a->chat_template ? mx_chat_template_load(a->chat_template, t) : NULL;
}

mx_target_options_t mx_cli_target(const mx_cli_session_args_t *a) {
  return (mx_target_options_t){.cuda_target = a->cuda_target, .rocm_target = a->rocm_target, .vulkan_target = a->vulkan_target};
}

mx_quant_options_t mx_cli_quant(const mx_cli_session_args_t *a) {
  /* The option table admits only its choices, so these parse. */
  return (mx_quant_options_t){.on = a->quant && !strcmp(a->quant, "packed"), .host_bits = a->quant_bits ? atoi(a->quant_bits) : 4,
                              .host_group = a->quant_group ? atoi(a->quant_group) : 32};
}

/* The KV cache's type: --kv-precision, else the precision's own (f16 and bf16 caches halve the cache
 * and put the attention products on the GPUs' matrix units: docs/engine.md, "Precision"). */
mx_status_t mx_cli_kv_type(const mx_cli_session_args_t *a, mx_dtype_t precision, mx_dtype_t *kv) {
  *kv = precision;
  return a->kv_precision ? mx_parse_precision(a->kv_precision, kv) : NULL;
}

int mx_cli_device_cuts(const mx_cli_session_args_t *a) {
  /* The option table admits only its choices. */
  return !a->device_cuts || !strcmp(a->device_cuts, "auto") ? 0 : !strcmp(a->device_cuts, "on") ? 1 : -1;
}

mx_status_t mx_cli_session_options(const mx_cli_session_args_t *a, mx_session_options_t *so) {
  *so = (mx_session_options_t){.model_path = a->model, .chat_template = a->chat_template, .device = a->device, .target = mx_cli_target(a),
                               .capacity = (int)a->context, .slots = (int)a->slots, .vmfb = a->vmfb,
                               .decode_steps = (int)a->decode_steps, .device_cuts = mx_cli_device_cuts(a)};
  mx_status_t st = a->precision ? mx_parse_precision(a->precision, &so->precision) : NULL;
  if (!st) st = mx_cli_kv_type(a, so->precision, &so->kv);
  so->quant = mx_cli_quant(a);
  return st;
}
