/* mlxcel: the command-line front end. Each subcommand lives in its own cmd_*.c. */
#include <stdio.h>
#include <string.h>

#include "base/toolchain.h"
#include "cli/cli.h"

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} commands[] = {
    {"generate", mx_cmd_generate, "generate text with a model on a device (streams to stdout)"},
    {"serve", mx_cmd_serve, "serve a model over an OpenAI-compatible HTTP API (also installed as mlxcel-server)"},
    {"devices", mx_cmd_devices, "list the runtime's drivers, their devices and architectures"},
    {"info", mx_cmd_info, "open a model (HF directory or GGUF), check it and describe it"},
    {"synth", mx_cmd_synth, "write a synthetic HF checkpoint (deterministic random weights) for a config"},
    {"tokenize", mx_cmd_tokenize, "token ids of a text (or a JSONL file) and their decode"},
    {"template", mx_cmd_template, "render a conversation with the model's chat template"},
    {"batch-bench", mx_cmd_batch_bench, "continuous batching: every batched stream equals its single run; tok/s"},
    {"check", mx_cmd_check, "compare greedy trajectories with an HF oracle fixture (token-exact gate)"},
    {"compile", mx_cmd_compile, "compile a config's Llama graph for a target, no device or weights needed"},
    {"smoke", mx_cmd_smoke, "compile and run a StableHLO add and matmul on a device, check the results"},
    {"qualify", mx_cmd_qualify, "qualify a device: baseline, toolchain, engine, gates, soak, measurements, a decision"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: mlxcel <command> [options]   (mlxcel <command> --help for its options)\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].help);
  fprintf(f, "\nenvironment: MLXCEL_BACKEND=xla (the only backend), MLXCEL_XLA_DEVICE, MLXCEL_XLA_IREE_COMPILE,\n"
             "MLXCEL_XLA_WORKER_PYTHON, MLXCEL_XLA_WORKER_TIMEOUT_MS, MLXCEL_WEIGHTS_CACHE; see docs/environment-variables.md\n");
}

int main(int argc, char **argv) {
  /* mlxcel-server is `mlxcel serve` under another name (a link to this binary). */
  const char *base = strrchr(argv[0], '/');
  if (!strcmp(base ? base + 1 : argv[0], "mlxcel-server")) {
    int code = mx_cli_report(mx_cli_check_backend());
    return code ? code : mx_cmd_serve(argc, argv);
  }
  if (argc < 2) {
    usage(stderr);
    return MX_EXIT_USAGE;
  }
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
    printf("mlxcel (IREE pin %s)\n", mx_toolchain_version());
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (strcmp(argv[1], commands[i].name) == 0) {
      int code = mx_cli_report(mx_cli_check_backend());
      return code ? code : commands[i].run(argc - 1, argv + 1);
    }
  }
  fprintf(stderr, "mlxcel: usage: unknown command '%s'; remedy: run `mlxcel --help` for the list\n", argv[1]);
  return MX_EXIT_USAGE;
}
