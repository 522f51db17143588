/* The weights as the runtime loads them: IREE parameter files whose keys are the HF tensor names.
 *
 * An HF directory whose tensors share one float type is used as it is (IREE reads the safetensors
 * files directly; the graph converts to the compute type). Anything else — GGUF quantized types,
 * mixed types — is prepared once into a safetensors file in ~/.cache/mlxcel/weights/: dequantized,
 * stored in the precision's type, with GGUF's interleaved-RoPE Q/K row order undone, exactly as
 * transformers does when it loads a GGUF. The file is keyed by the source's identity (path, size,
 * modification time) and the target type, so it is reused until the source changes — and only while
 * it matches its checksum (base/cachefile.h): a damaged file is logged, deleted and prepared again.
 * Each layer's float Q/K/V and gate/up are written consecutively, with a view over each group under
 * Phi-3's stacked names (qkv_proj, gate_up_proj), which the graph's stacked products bind.
 * Preparing is interruptible (base/interrupt.h): SIGINT/SIGTERM stop it and remove the partial file. */
#ifndef MX_ENGINE_WEIGHTS_H
#define MX_ENGINE_WEIGHTS_H

#include "base/dtype.h"
#include "base/status.h"
#include "base/toolchain.h"
#include "model/model.h"
#include "model/packing.h"

#define MX_MAX_PARAM_FILES 64

typedef struct {
  int n_files;
  char files[MX_MAX_PARAM_FILES][MX_PATH_MAX];
  mx_dtype_t weight_dtype; /* of every role tensor in those files */
  bool prepared;           /* a cache file was written or reused */
  double prepare_ms;       /* time spent writing it (0 when reused or not needed) */
} mx_param_files_t;

/* The storage type the weights will have for this precision (what mx_weights_prepare will report as
 * weight_dtype), without writing anything: the graph is built for it before the files exist. */
mx_dtype_t mx_weights_dtype(const mx_model_t *m, mx_dtype_t precision, const mx_pack_t *plan);
/* Whether the parameter files will have the stack views (a prepared file: the graph can bind Q/K/V and
 * gate/up stacked, model/arch.h MX_ARCH_STACKS, where their parts are float), without writing anything. */
bool mx_weights_stacked(const mx_model_t *m, const mx_pack_t *plan);
/* precision: MX_F32, MX_F16 or MX_BF16 (the type prepared weights and packed scales are stored in).
 * plan: NULL, or the packing of every role (mx_weights_pack_plan) with the options it came from. */
MX_MUST_USE mx_status_t mx_weights_prepare(const mx_model_t *m, mx_dtype_t precision, const mx_pack_t *plan,
                                           const mx_quant_options_t *q, mx_param_files_t *out);
/* The packing plan for --quant packed (NULL when q->on is false): mx_pack_plan_size(c) entries, freed
 * by the caller. m may be NULL (a configuration only: every weight is taken to be float). */
MX_MUST_USE mx_status_t mx_weights_pack_plan(const mx_model_t *m, const mx_model_config_t *c, const mx_quant_options_t *q,
                                             mx_pack_t **out);

#endif
