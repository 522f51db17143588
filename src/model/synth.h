/* Synthetic checkpoints: a complete HF model directory with deterministic pseudo-random weights,
 * for exercising real architectures (e.g. Llama-3.2-1B) without their trained weights.
 *
 * Distribution (documented so others can reproduce it): every tensor has its own xorshift64*
 * stream seeded from (seed, tensor name) by FNV-1a + splitmix64, so a tensor's values do not depend
 * on the order of writing. Matrices (embeddings and projections) are uniform on [-a, a] with
 * a = 0.02 * sqrt(3), i.e. standard deviation 0.02 (HF's initializer_range default); RMSNorm
 * weights are uniform on [0.9, 1.1]. Values are drawn in f32 and rounded to nearest even.
 *
 * With q4_grid G (f32 only), each group of G consecutive values of a matrix row is then moved onto a
 * 4-bit affine grid, q * d + m with q in 0..15, whose d and m are multiples of 2^-20: every grid value
 * is exact in f32 and `--quant packed --quant-bits 4 --quant-group G` recovers exactly the same d, m
 * and q. So an HF oracle run on the checkpoint sees the very weights the packed device path dequantizes. */
#ifndef MX_MODEL_SYNTH_H
#define MX_MODEL_SYNTH_H

#include <stdint.h>

#include "base/status.h"
#include "format/wtype.h"

typedef struct {
  const char *config_path;   /* HF config.json of a supported family; or: */
  const char *family;        /* a built-in small config of that family (mx_synth_family_config) */
  const char *tokenizer_dir; /* holds tokenizer.json (and tokenizer_config.json if any): copied */
  const char *out_dir;       /* created if missing; must not already hold a model */
  uint64_t seed;
  mx_wtype_t dtype; /* MX_W_F32, MX_W_F16 or MX_W_BF16 */
  int quiet;        /* no progress lines */
  int q4_grid;      /* > 0: matrices on the 4-bit affine grid of groups of this size (f32 only; see synth.c) */
} mx_synth_options_t;

/* The built-in config.json text of a family's synthetic checkpoint: the layer shapes of a released
 * model of the family with 2 layers and the Llama 3 tokenizer's vocabulary (what synthetic checkpoints
 * are paired with); NULL for an unknown name. `names` lists them for --help and errors. */
const char *mx_synth_family_config(const char *family);
extern const char *const mx_synth_family_names;

/* Writes config.json, model.safetensors, tokenizer files. *bytes_out: bytes of tensor data. */
MX_MUST_USE mx_status_t mx_synth_write(const mx_synth_options_t *o, uint64_t *params_out, uint64_t *bytes_out);

#endif
