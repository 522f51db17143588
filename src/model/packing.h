/* Packed quantization (--quant packed, MLXCEL_XLA_QUANT=packed): which weights stay quantized on the
 * device and in what form. One decision, read by the weight preparation (engine/weights.c writes the
 * packed tensors), the emitter (hlo/llama.c declares them and dequantizes next to each product), the
 * memory estimate and the module signature.
 *
 * A packed weight [N, K] is two or three tensors in the prepared file, under its HF name:
 *   NAME         its integer values in blocks of `group` along K, signed: i8 [N, K] (8-bit), or
 *                i4 [N, K] two per byte, element 2j in the low nibble of byte j (4-bit);
 *   NAME.scale   [N, K / group], in the precision's type;
 *   NAME.offset  [N, K / group], the affine form only;
 * and dequantizes as
 *   MX_PACK_Q8:        w = q * scale                  GGUF Q8_0, Q5_0, Q6_K, IQ4_NL, IQ4_XS; --quant-bits 8 on the host
 *   MX_PACK_Q8_AFFINE: w = q * scale + offset         GGUF Q5_1, Q5_K (values 0..31 in a byte)
 *   MX_PACK_Q4:        w = q * scale                  GGUF Q4_0, Q3_K (signed 4-bit values)
 *   MX_PACK_Q4_AFFINE: w = (q + 8) * scale + offset   GGUF Q4_1, Q4_K, Q2_K; --quant-bits 4 on the host
 * The groups are GGUF's own (format/wtype.h mx_wtype_decode_block: 32, or 16 for Q2_K, Q3_K, Q6_K),
 * their scales d * sub-block scale and offsets -(dmin * sub-block minimum) for the K-quants. (The
 * stored 4-bit q of the affine form is the unsigned value minus 8, because IREE's input conversion
 * takes signed i4 globals only: docs/quantization.md.) In f32 this is GGUF's own dequantization, bit
 * for bit: the K-quants' scale products are exact in f32. */
#ifndef MX_MODEL_PACKING_H
#define MX_MODEL_PACKING_H

#include <stdbool.h>
#include <stdint.h>

#include "base/dtype.h"
#include "base/status.h"
#include "format/wtype.h"
#include "model/arch.h"

#define MX_PACK_SCALE_SUFFIX ".scale"
#define MX_PACK_OFFSET_SUFFIX ".offset"

typedef enum { MX_PACK_NONE = 0, MX_PACK_Q8, MX_PACK_Q8_AFFINE, MX_PACK_Q4, MX_PACK_Q4_AFFINE } mx_pack_kind_t;

/* 4 or 8 (0 for none); whether the form has offsets. */
static inline int mx_pack_bits(mx_pack_kind_t k) { return k == MX_PACK_NONE ? 0 : k == MX_PACK_Q4 || k == MX_PACK_Q4_AFFINE ? 4 : 8; }
static inline bool mx_pack_affine(mx_pack_kind_t k) { return k == MX_PACK_Q8_AFFINE || k == MX_PACK_Q4_AFFINE; }

typedef struct {
  mx_pack_kind_t kind;
  int group; /* elements per scale along K */
} mx_pack_t;

typedef struct {
  bool on;        /* --quant packed */
  int host_bits;  /* float weights are quantized on the host: 4 (affine) or 8 */
  int host_group; /* 32, 64 or 128 */
} mx_quant_options_t;

/* The packing plan: one entry per role tensor, globals first, then each layer's roles. */
static inline int mx_pack_index_global(mx_global_role_t r) { return (int)r; }
static inline int mx_pack_index_layer(int layer, mx_layer_role_t r) {
  return MX_T_GLOBAL_COUNT + layer * MX_T_LAYER_COUNT + (int)r;
}
static inline int mx_pack_plan_size(const mx_model_config_t *c) { return MX_T_GLOBAL_COUNT + c->n_layers * MX_T_LAYER_COUNT; }

/* How a tensor of this role and source type is carried: a GGUF block type keeps its own form, a float
 * weight is quantized on the host as the options say, a norm is never packed. A shape whose input
 * dimension is not a whole number of groups is an error naming the tensor. */
MX_MUST_USE mx_status_t mx_pack_choose(const mx_tensor_spec_t *t, const char *name, mx_wtype_t source, const int64_t dims[2],
                                       const mx_quant_options_t *q, mx_pack_t *out);

const char *mx_pack_kind_name(mx_pack_kind_t k); /* "q8", "q4", "q4-affine", "none" */
/* Device bytes of a packed [N, K] weight whose scales (and offsets) are of type `scale`. */
uint64_t mx_pack_bytes(mx_pack_t p, int64_t N, int64_t K, mx_dtype_t scale);
/* A fingerprint of a plan, for the module signature. */
uint64_t mx_pack_plan_hash(const mx_pack_t *plan, int n);

/* Host quantization of one row of K floats into the form p (Q8 or Q4_AFFINE), scales rounded to `scale`
 * first so the values are chosen against the scales the device will use. values: K bytes (Q8) or K/2
 * (Q4, packed as above); scales/offsets: K/group floats, already rounded. Returns the squared error
 * of the row's reconstruction. */
double mx_pack_quantize_row(mx_pack_t p, mx_dtype_t scale, const float *x, int64_t K, uint8_t *values, float *scales,
                            float *offsets);

/* One row of GGUF blocks (any block type, K elements) in the packed form mx_pack_choose gave it: the
 * same values, scales and offsets (mx_wtype_decode_block), moved, not rounded. */
void mx_pack_from_blocks(mx_wtype_t source, const uint8_t *row, int64_t K, uint8_t *values, float *scales, float *offsets);

#endif
