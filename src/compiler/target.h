/* From a device URI to iree-compile flags. The GPU architecture is always explicit: a missing or
 * ambiguous target is an actionable error, never a guess (DESIGN.md, "Compiler and versions"). */
#ifndef MX_COMPILER_TARGET_H
#define MX_COMPILER_TARGET_H

#include <stdbool.h>

#include "base/dtype.h"
#include "base/status.h"
#include "compiler/tuning.h"

#define MX_TARGET_MAX_FLAGS 8

typedef struct {
  const char *cpu;         /* llvm-cpu target CPU: "host" (default) or "generic", a CPU name */
  const char *cuda_target; /* sm_XY, required for cuda */
  const char *rocm_target; /* gfxNNN, required for hip */
  const char *vulkan_target; /* IREE's --iree-vulkan-target name (rtx4090, rdna3, valhall4, ...), required for vulkan */
} mx_target_options_t;

typedef struct {
  char driver[32];    /* runtime driver: local-task, local-sync, cuda, hip, metal, vulkan */
  char backend[16];   /* compiler backend: llvm-cpu, cuda, rocm, metal-spirv, vulkan-spirv */
  char arch[64];      /* the architecture compiled for: host, sm_90, gfx942, ... */
  int n_flags;
  char flags[MX_TARGET_MAX_FLAGS][160];
  const mx_tuning_t *tuning; /* NULL, or the lowering configurations iree-compile also gets (compiler/tuning.h) */
} mx_target_t;

/* Splits "DRIVER" or "DRIVER://INDEX" (DRIVER in [a-z0-9-]); index -1 when absent. */
MX_MUST_USE mx_status_t mx_device_uri_parse(const char *uri, char *driver, size_t cap, int *index);
MX_MUST_USE mx_status_t mx_target_for_device(const char *device_uri, const mx_target_options_t *opts, mx_target_t *out);
/* Refuses a GPU target that is not the selected device's architecture (HIP: gfx names must match;
 * an empty device_arch, i.e. unknown, passes). HIP_VISIBLE_DEVICES is named when it is set. */
MX_MUST_USE mx_status_t mx_target_check_device(const mx_target_t *t, const char *device_uri, const char *device_arch);
/* Refuses a precision the target is known not to support (a table filled from the compile matrix,
 * docs/rocm.md). */
MX_MUST_USE mx_status_t mx_target_check_precision(const mx_target_t *t, const char *precision);
/* Greedy decode steps per device call that pay on this target (docs/performance.md): a GPU call
 * costs a host round trip and a readback, a CPU call next to nothing. */
int mx_target_decode_steps(const mx_target_t *t);
/* Whether the module also has decode_<W>_cut_steps, which draws under top-k, top-p and min-p
 * (hlo/pick.h), so that requests with those cuts decode several steps per call too. */
bool mx_target_device_cuts(const mx_target_t *t);
/* Whether the decode attention repeats each KV head for its query heads (the graph's expanded form,
 * hlo/llama.c attend_decode): measured faster on GPU code generation, slower on the CPU. */
bool mx_target_expand_kv_groups(const mx_target_t *t);
/* From how many slots on decode attention takes one product per query head (0: never); see attend_decode. */
int mx_target_head_attention_slots(const mx_target_t *t);
/* > 0: at decode windows of at least this many rows the per-head form at any slot count; 0 never. */
int mx_target_head_attention_window(const mx_target_t *t);
/* At how many slots decode attention takes the grouped form over one batch dimension (0: never; before the
 * per-head form): the slot count, KV type and head shape (query heads, KV heads, head_dim) for which the
 * target's tuning library configures it, and no other. */
int mx_target_grouped_attention_slots(const mx_target_t *t, int n_heads, int n_kv_heads, int head_dim, mx_dtype_t kv);
/* The most rows of one weight product in a batched decode step (0: no limit), hlo/llama.c linear. */
int mx_target_product_rows(const mx_target_t *t);
/* Whether a prefill's weight products with few output tiles split their reduction (hlo/llama.c). */
bool mx_target_split_reduction(const mx_target_t *t);
/* Whether a batched decode step of more rows than mx_target_product_rows takes each weight product
 * in `matmul` as one product with its reduction split, instead of products of that many rows. */
bool mx_target_split_decode_reduction(const mx_target_t *t, mx_dtype_t matmul);
/* The products of such a step (`slots` rows, `matmul` inputs) that the target runs whole instead, as
 * (N, K) pairs into out (at most cap): those its tuning library names (mx_tuning_t whole). Returns how many. */
int mx_target_whole_decode_products(const mx_target_t *t, mx_dtype_t matmul, int slots, int out[][2], int cap);
/* Whether Q/K/V and gate/up are each one product over their weights stacked (hlo/llama.c linears):
 * never, only where the parameter files hold the stacks (engine/weights.h: no copy at load), or always
 * (the graph concatenates the parts where the files do not). */
typedef enum { MX_FUSE_NEVER, MX_FUSE_STACKED, MX_FUSE_ALWAYS } mx_fuse_rule_t;
mx_fuse_rule_t mx_target_fuse_products(const mx_target_t *t);
/* How much larger each decode attention window is than the one before (2 or 4): a finer ladder makes a
 * step pay for fewer unused positions and costs more functions to compile. */
int mx_target_window_ratio(const mx_target_t *t);
/* The compile flags a packed graph adds (model/packing.h): its dequantizations stay next to their products. */
void mx_target_for_packed(mx_target_t *t);
/* A short label for messages and cache keys: "llvm-cpu:host", "rocm:gfx942". */
void mx_target_label(const mx_target_t *t, char *out, size_t cap);

#endif
