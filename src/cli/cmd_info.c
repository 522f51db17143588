/* mlxcel info: what a model file holds, as the engine understands it. */
#include <stdio.h>

#include "cli/cli.h"
#include "model/model.h"

int mx_cmd_info(int argc, char **argv) {
  mx_cli_session_args_t a = {0};
  mx_opt_cmd_t cmd = {
      .prog = "mlxcel info",
      .synopsis = "-m MODEL",
      .about = "Opens an HF model directory or a GGUF file, checks every tensor against the configuration, and prints "
               "the architecture, the weight files and the storage type of each kind of tensor.",
      .sets = {mx_cli_session_set(&a, MX_CLI_MODEL)},
  };
  int code = mx_cli_parse(&cmd, argc, argv);
  if (code >= 0) return code;
  const char *model = a.model;
  mx_model_t *m;
  mx_status_t st = mx_model_open(model, &m);
  if (st) return mx_cli_report(st);
  char desc[512];
  mx_config_describe(mx_model_config(m), desc, sizeof desc);
  const mx_model_config_t *c = mx_model_config(m);
  printf("model:   %s (%s)\n", mx_model_path(m), mx_model_format(m) == MX_MODEL_GGUF ? "GGUF" : "HF directory");
  printf("config:  %s\n", desc);
  printf("context: %d positions; BOS %d; EOS", c->max_position, c->bos_id);
  for (int i = 0; i < c->n_eos; i++) printf(" %d", c->eos_ids[i]);
  printf("\nweights: %.1f MiB in %d file(s)%s\n", (double)mx_model_weight_bytes(m) / (1 << 20), mx_model_n_files(m),
         mx_model_qk_interleaved(m) ? "; Q/K rows in GGUF interleaved-RoPE order" : "");
  const char *names[] = {"embed", "final_norm", "lm_head"};
  for (int r = 0; r < MX_T_GLOBAL_COUNT; r++) {
    const mx_weight_t *w = mx_model_global(m, (mx_global_role_t)r);
    if (w) printf("  %-10s %-5s %s\n", names[r], mx_wtype_name(w->type), w->name);
  }
  const mx_weight_t *q = mx_model_layer(m, 0, MX_T_Q), *down = mx_model_layer(m, 0, MX_T_DOWN);
  const mx_fused_spec_t *fq = mx_arch_fused_of(MX_T_Q, c);
  char from[MX_WEIGHT_NAME_MAX + 32] = "";
  if (fq) { /* the loader split it out of a fused tensor: name the one in the file */
    char fused[MX_WEIGHT_NAME_MAX];
    snprintf(fused, sizeof fused, mx_model_format(m) == MX_MODEL_GGUF ? fq->gguf : fq->hf, 0);
    snprintf(from, sizeof from, ", rows of %s", fused);
  }
  printf("  %-10s %-5s %s%s (and the other projections of layer 0: %s)\n", "layer 0 q", mx_wtype_name(q->type), q->name, from,
         mx_wtype_name(down->type));
  mx_model_close(m);
  return 0;
}
