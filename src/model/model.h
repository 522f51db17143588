/* A loaded model: its configuration and its weights, memory-mapped from an HF directory
 * (config.json + *.safetensors, sharded or not) or from a GGUF file. Weights are looked up by role,
 * so the rest of the engine never deals with either file format's names. */
#ifndef MX_MODEL_MODEL_H
#define MX_MODEL_MODEL_H

#include <stdbool.h>

#include "base/status.h"
#include "model/arch.h"
#include "model/config.h"
#include "format/gguf.h"
#include "format/weight.h"

typedef enum { MX_MODEL_HF_DIR, MX_MODEL_GGUF } mx_model_format_t;


typedef struct mx_model mx_model_t;

/* Opens a model directory or .gguf file; fails, naming the file and the problem, on anything
 * unsupported, missing, corrupt, or whose tensor shapes disagree with the configuration. */
MX_MUST_USE mx_status_t mx_model_open(const char *path, mx_model_t **out);
void mx_model_close(mx_model_t *m);

const mx_model_config_t *mx_model_config(const mx_model_t *m);
mx_model_format_t mx_model_format(const mx_model_t *m);
const char *mx_model_path(const mx_model_t *m);
const mx_weight_t *mx_model_global(const mx_model_t *m, mx_global_role_t role);
const mx_weight_t *mx_model_layer(const mx_model_t *m, int layer, mx_layer_role_t role);
/* True for GGUF llama files: their Q and K rows are permuted for interleaved-pair RoPE. */
bool mx_model_qk_interleaved(const mx_model_t *m);
int mx_model_n_files(const mx_model_t *m);
const char *mx_model_file_path(const mx_model_t *m, int i);
/* The GGUF metadata (NULL for an HF directory); the tokenizer reads its vocabulary from it. */
const mx_gguf_t *mx_model_gguf(const mx_model_t *m);
/* Total bytes of the role-mapped weights as stored. */
uint64_t mx_model_weight_bytes(const mx_model_t *m);

#endif
