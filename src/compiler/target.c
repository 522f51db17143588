#include "compiler/target.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ROCm targets the pinned compiler (IREE 3.13.0) builds for, checked one by one with the smoke add
 * (docs/spikes.md). A name outside this list is refused here, with the list, rather than deep inside
 * LLVM; gfx906, gfx1030 and gfx1102 are "Unknown ROCM target" to this compiler. */
static const char *const rocm_targets[] = {"gfx908", "gfx90a", "gfx942",  "gfx950",  "gfx1100", "gfx1101",
                                           "gfx1150", "gfx1151", "gfx1200", "gfx1201"};

mx_status_t mx_device_uri_parse(const char *uri, char *driver, size_t cap, int *index) {
  const char *sep = uri ? strstr(uri, "://") : NULL;
  size_t n = sep ? (size_t)(sep - uri) : (uri ? strlen(uri) : 0);
  bool ok = n > 0 && n < cap && islower((unsigned char)uri[0]);
  for (size_t i = 0; ok && i < n; i++)
    ok = islower((unsigned char)uri[i]) || isdigit((unsigned char)uri[i]) || uri[i] == '-';
  *index = -1;
  if (ok && sep) {
    const char *p = sep + 3;
    char *end;
    long v = strtol(p, &end, 10);
    ok = *p && isdigit((unsigned char)*p) && !*end && v >= 0 && v < 1024;
    *index = (int)v;
  }
  if (!ok)
    return mx_status_make(MX_STAGE_USAGE, "use DRIVER or DRIVER://INDEX, e.g. local-task, cuda://0, hip://1",
                          "malformed device URI '%s'", uri ? uri : "");
  memcpy(driver, uri, n);
  driver[n] = '\0';
  return NULL;
}

static void add_flag(mx_target_t *t, const char *fmt, const char *arg) {
  if (t->n_flags < MX_TARGET_MAX_FLAGS) snprintf(t->flags[t->n_flags++], sizeof t->flags[0], fmt, arg);
}

/* Optimisation flags per compiler backend, chosen by measurement (docs/performance.md; raw logs in
 * bench/results/2026-12-01-h200-flags/). iree-compile defaults to --iree-opt-level=O0.
 * - cuda: O3. H200, synthetic Llama-3.2-1B, sm_89 PTX: the batch-1 decode call takes 41.1 ms at O0 and
 *   6.1 ms at O3 (iree-benchmark-module, 3 repetitions, every precision), `generate` decodes
 *   22.9 -> 139 tok/s (bf16 136.7, f16 140.7, f32 139.3; 3 runs each) and peak device memory halves
 *   (5.0 -> 2.5 GB bf16/f32), with the f32 HF gate still token-exact. --iree-opt-data-tiling on top
 *   changed no figure beyond the run-to-run spread (decode 6.06-6.10 ms), so it is left out.
 * - rocm: O3, by analogy only: the same LLVMGPU code generation as cuda, and O3's gain came from the
 *   target-independent phases (no per-call transposed weight copies). Compiles for every qualified gfx
 *   target (compile matrix); not measured, for want of an AMD GPU (docs/rocm.md).
 * - llvm-cpu: O3. 2-core development VM shared with other work, f32, bench/generate_stats.sh (3 runs,
 *   rounds interleaved): SmolLM2-135M decodes 26.7 / 37.4 tok/s at O0 and 35.6 / 46.6 at O3; the 1B
 *   decode call is unchanged (iree-benchmark-module: 204-207 ms at O0, 204-238 ms at O3, 5 repetitions
 *   twice); every CPU gate passes at O3. Data tiling was fastest at O0 (49.0 / 65.4 tok/s) but its tokens
 *   are wrong (SmolLM2 0/8 token-exact, divergence at steps 1-4 with margins up to 6.8), and at O2/O3 it
 *   does not compile ("exceeded stack allocation limit" in the RMSNorm reductions).
 * - metal-spirv: none: no Apple GPU to measure on, and at O3 the graph still fails to compile for Metal
 *   (another legalization error, bench/results/2026-12-01-cpu-flags/compile-matrix.log).
 * - vulkan-spirv: none: compile-only here (no Vulkan GPU on either machine). */
static const struct {
  const char *backend;
  const char *flags[2];
} opt_flags[] = {
    {"cuda", {"--iree-opt-level=O3"}},
    {"rocm", {"--iree-opt-level=O3"}},
    {"llvm-cpu", {"--iree-opt-level=O3"}},
};

static void add_opt_flags(mx_target_t *t) {
  for (size_t i = 0; i < sizeof opt_flags / sizeof opt_flags[0]; i++) {
    if (strcmp(opt_flags[i].backend, t->backend) != 0) continue;
    for (size_t j = 0; j < sizeof opt_flags[i].flags / sizeof opt_flags[i].flags[0] && opt_flags[i].flags[j]; j++)
      add_flag(t, "%s", opt_flags[i].flags[j]);
  }
}

/* IREE 3.13 evaluates an expression of immutable globals once at load and keeps the result (const-expr
 * hoisting) when that grows the module's constants by less than a limit: each packed weight under it
 * was dequantized at load and kept in float, costing the unpacked model's memory and a float read per
 * step (SmolLM2, 2 layers: the K and V projections, `scripts/xla/fusion_spike.sh`). At a limit of 0
 * bytes no hoist may grow them, and every product reads its packed weight (docs/quantization.md). */
void mx_target_for_packed(mx_target_t *t) { add_flag(t, "%s", "--iree-opt-const-expr-max-size-increase-threshold=0"); }

static bool has_separator(const char *s) { return strpbrk(s, ", ;:") != NULL; }

static mx_status_t check_rocm_target(const char *t) {
  if (!t || !t[0])
    return mx_status_make(MX_STAGE_USAGE,
                          "set MLXCEL_XLA_ROCM_TARGET or --rocm-target to your GPU's gfx name; find it with "
                          "`mlxcel devices`, `rocminfo`, `amdgpu-arch` or `rocm_agent_enumerator`",
                          "the hip device needs an explicit ROCm target (no target is guessed)");
  if (has_separator(t))
    return mx_status_make(MX_STAGE_USAGE, "give exactly one gfx name, e.g. gfx942",
                          "ROCm target '%s' names more than one target", t);
  for (size_t i = 0; i < sizeof rocm_targets / sizeof rocm_targets[0]; i++)
    if (strcmp(t, rocm_targets[i]) == 0) return NULL;
  return mx_status_make(MX_STAGE_USAGE,
                        "use one of gfx908, gfx90a, gfx942, gfx950, gfx1100, gfx1101, gfx1150, gfx1151, gfx1200, "
                        "gfx1201",
                        "'%s' is not a known ROCm target", t);
}

static mx_status_t check_cuda_target(const char *t) {
  if (!t || !t[0])
    return mx_status_make(MX_STAGE_USAGE,
                          "set MLXCEL_XLA_CUDA_TARGET or --cuda-target, e.g. sm_89; `mlxcel devices` prints the GPU's sm_XY",
                          "the cuda device needs an explicit CUDA target (no target is guessed)");
  const char *p = t + 3;
  bool ok = strncmp(t, "sm_", 3) == 0 && isdigit((unsigned char)*p);
  while (ok && *p) {
    ok = isdigit((unsigned char)*p) || (*p == 'a' && p[1] == '\0');
    p++;
  }
  if (!ok)
    return mx_status_make(MX_STAGE_USAGE, "give one sm_XY name, e.g. sm_80 or sm_89", "'%s' is not a CUDA target", t);
  /* IREE 3.13.0 has no target description for sm_90 ("missing GPU target in #hal.executable.target",
   * upstream iree-org/iree#22147) although sm_89 and sm_120 work. Say so instead of letting the
   * compiler fail; the choice of a substitute stays explicit. */
  if (strncmp(t, "sm_90", 5) == 0)
    return mx_status_make(MX_STAGE_USAGE,
                          "compile for sm_89 or sm_80 instead: IREE embeds PTX, which the CUDA driver JIT-compiles "
                          "for the newer GPU",
                          "the pinned IREE compiler cannot target %s (no sm_90 target description)", t);
  return NULL;
}

mx_status_t mx_target_for_device(const char *device_uri, const mx_target_options_t *opts, mx_target_t *out) {
  memset(out, 0, sizeof *out);
  int index;
  MX_RETURN_IF_ERROR(mx_device_uri_parse(device_uri, out->driver, sizeof out->driver, &index));
  const char *d = out->driver;
  if (strcmp(d, "local-task") == 0 || strcmp(d, "local-sync") == 0) {
    const char *cpu = opts && opts->cpu && opts->cpu[0] ? opts->cpu : "host";
    snprintf(out->backend, sizeof out->backend, "llvm-cpu");
    snprintf(out->arch, sizeof out->arch, "%s", cpu);
    add_flag(out, "%s", "--iree-hal-target-device=local");
    add_flag(out, "%s", "--iree-hal-local-target-device-backends=llvm-cpu");
    add_flag(out, "--iree-llvmcpu-target-cpu=%s", cpu);
  } else if (strcmp(d, "cuda") == 0) {
    const char *t = opts ? opts->cuda_target : NULL;
    MX_RETURN_IF_ERROR(check_cuda_target(t));
    snprintf(out->backend, sizeof out->backend, "cuda");
    snprintf(out->arch, sizeof out->arch, "%s", t);
    add_flag(out, "%s", "--iree-hal-target-device=cuda");
    add_flag(out, "--iree-cuda-target=%s", t);
  } else if (strcmp(d, "hip") == 0) {
    const char *t = opts ? opts->rocm_target : NULL;
    MX_RETURN_IF_ERROR(check_rocm_target(t));
    snprintf(out->backend, sizeof out->backend, "rocm");
    snprintf(out->arch, sizeof out->arch, "%s", t);
    add_flag(out, "%s", "--iree-hal-target-device=hip");
    add_flag(out, "--iree-rocm-target=%s", t);
  } else if (strcmp(d, "vulkan") == 0) {
    const char *t = opts ? opts->vulkan_target : NULL;
    if (!t || !t[0])
      return mx_status_make(MX_STAGE_USAGE,
                            "set MLXCEL_XLA_VULKAN_TARGET or --vulkan-target to IREE's name for the GPU, e.g. rtx4090, "
                            "ampere, rdna3, valhall4 (see `iree-compile --help`, --iree-vulkan-target)",
                            "the vulkan device needs an explicit Vulkan target (no target is guessed)");
    if (has_separator(t) || strlen(t) >= sizeof out->arch)
      return mx_status_make(MX_STAGE_USAGE, "give exactly one Vulkan target name, e.g. rdna3", "Vulkan target '%s' is not one name", t);
    snprintf(out->backend, sizeof out->backend, "vulkan-spirv");
    snprintf(out->arch, sizeof out->arch, "%s", t);
    add_flag(out, "%s", "--iree-hal-target-device=vulkan");
    add_flag(out, "--iree-vulkan-target=%s", t);
  } else if (strcmp(d, "metal") == 0) {
    snprintf(out->backend, sizeof out->backend, "metal-spirv");
    snprintf(out->arch, sizeof out->arch, "metal");
    add_flag(out, "%s", "--iree-hal-target-device=metal");
  } else {
    return mx_status_make(MX_STAGE_USAGE, "use local-task, local-sync, cuda, hip, vulkan or metal (see `mlxcel devices`)",
                          "unknown device '%s'", device_uri);
  }
  add_opt_flags(out);
  out->tuning = mx_tuning_for_backend(out->backend);
  return NULL;
}

int mx_target_decode_steps(const mx_target_t *t) {
  /* On the CPU a step is tens of milliseconds and the bridge's round trip 0.02 ms (mlxcel smoke), so
   * one step per call; the GPU figure is measured in docs/performance.md. */
  return strcmp(t->backend, "llvm-cpu") == 0 ? 1 : 8;
}

bool mx_target_device_cuts(const mx_target_t *t) {
  /* H100 (docs/performance.md, "The cuts on the device"): a top-p request 134 -> 318 tok/s at B = 1,
   * but each cut step +0.73 ms and every module's decode-steps graph compiled twice; no target takes
   * them until the rounds cost less. --device-cuts on gives them to whoever asks. */
  (void)t;
  return false;
}

bool mx_target_expand_kv_groups(const mx_target_t *t) {
  /* H200 (docs/performance.md): 16 layers' decode attention at W = 512 take 0.73 ms expanded against
   * 5.0 ms grouped; on this project's CPU 5.3-6.3 ms against 1.6. ROCm shares the GPU code
   * generation (unmeasured there); Metal is unmeasured and follows the GPUs. */
  return strcmp(t->backend, "llvm-cpu") != 0;
}

int mx_target_head_attention_slots(const mx_target_t *t) {
  /* H200 micro-benchmarks (docs/performance.md): 16 layers' decode attention at 8 slots, W = 512, take
   * 2.85 ms with one product per query head against 4.00 expanded; at one slot 1.28 against 0.73, so
   * below 8 slots the expanded form stays. The CPU keeps its grouped form. */
  return strcmp(t->backend, "llvm-cpu") == 0 ? 0 : 8;
}

int mx_target_grouped_attention_slots(const mx_target_t *t, int n_heads, int n_kv_heads, int head_dim, mx_dtype_t kv) {
  /* H100 and H200 (docs/performance.md, "The 8-slot decode attention"): the grouped form with the cuda
   * tuning library's configuration. Without one IREE 3.13 maps its M = G products onto one thread per
   * 128 outputs (the 7.5 ms form of 2026-12-01), so a target takes the form only at the slot count, KV
   * type and head shape its library configures (the 1B's: 8 slots x 8 KV heads, 4 query heads of 64
   * per KV head, a bf16 cache). */
  const mx_tuning_grouped_t *g = t->tuning ? &t->tuning->grouped : NULL;
  if (!g || !g->batch || n_kv_heads <= 0 || g->batch % n_kv_heads || g->group * n_kv_heads != n_heads ||
      g->head_dim != head_dim || g->kv != kv)
    return 0;
  return g->batch / n_kv_heads;
}

int mx_target_head_attention_window(const mx_target_t *t) {
  /* H200 micro-benchmarks, one slot, bf16 cache, 16 layers (bench/results/2026-12-04-h200-attention-w4096/):
   * at W = 4096 the per-head form takes 3.02 / 2.87 ms against 4.00 / 3.89 expanded (whose repeat of
   * the window grows with it); at W = 512 1.42 / 1.30 against 0.78 / 0.73. 1024 and 2048 were not
   * measured, so the switch is at the window measured. The CPU keeps its grouped form. */
  return strcmp(t->backend, "llvm-cpu") == 0 ? 0 : 4096;
}

int mx_target_product_rows(const mx_target_t *t) {
  /* H200 (docs/performance.md): 8-row products get a 64-workgroup matmul kernel, 4-row ones
   * matrix-vector kernels. On the CPU a split would read every weight twice. */
  return strcmp(t->backend, "llvm-cpu") == 0 ? 0 : 4;
}

bool mx_target_split_reduction(const mx_target_t *t) {
  /* H200 (docs/performance.md): a 128-row bf16 product with few 64 x 64 output tiles runs 1.8-2.6x
   * faster with its reduction in chunks. ROCm shares that LLVMGPU code generation (unmeasured). The
   * CPU's and the SPIR-V targets' (Metal, Vulkan) code generation tile differently and are
   * unmeasured; they keep one product. */
  return strcmp(t->backend, "cuda") == 0 || strcmp(t->backend, "rocm") == 0;
}

bool mx_target_split_decode_reduction(const mx_target_t *t, mx_dtype_t matmul) {
  /* H200 micro-benchmarks at 8 rows (docs/performance.md, "Batch 8, 2026-12-03"): in bf16 one product
   * with its reduction split takes 0.4x the time of two 4-row products (the weights read once, at 8
   * rows the 16 x 32 tiles of the tensor-core kernels); in f32 the 4-row products stay ahead (gate/up
   * 1.20 ms against 1.50 split in 2), so f32 keeps them. f16 takes bf16's kernels (unmeasured apart). */
  return (matmul == MX_BF16 || matmul == MX_F16) && mx_target_split_reduction(t) && mx_target_product_rows(t) > 0;
}

int mx_target_whole_decode_products(const mx_target_t *t, mx_dtype_t matmul, int slots, int out[][2], int cap) {
  /* H100 (docs/performance.md, "Whole 8-row products"): where the cuda library configures an 8-row product
   * or IREE's own tiles were measured as fast whole, the split's chunk sum is a dispatch for nothing. */
  int n = 0;
  for (int i = 0; t->tuning && i < MX_TUNING_MAX_WHOLE && n < cap; i++) {
    const mx_tuning_product_t *p = &t->tuning->whole[i];
    if (p->rows > 0 && p->rows == slots && p->type == matmul) out[n][0] = p->n, out[n][1] = p->k, n++;
  }
  return n;
}

mx_fuse_rule_t mx_target_fuse_products(const mx_target_t *t) {
  /* This VM (2 cores; SmolLM2-135M Q4_1 prepared to f32, 126-token prompt, 64 new, 3 runs in each of
   * two interleaved rounds; docs/performance.md "Stacked products"): decode 25.5 -> 29.0 tok/s with the
   * stacks concatenated in the graph, prefill unchanged, but the load +0.69 s (256 -> 950 ms), the
   * initializer's copy of 280 MB. With the prepared file's views there is no copy, so the CPU stacks
   * only where the files have them. On an H100 (bench/results/2026-12-05-h200-fused-products/) the
   * stacks concatenated in the graph decoded +3.6% at B = 1 and +3.5% at 8 slots but raised the peak
   * device memory from 2.55 to 36.98 GB: IREE hoisted the concatenation into one global per function.
   * Concatenated once by the module's initializer (hlo/llama.c emit_stacks), the GPUs take the stacks
   * for every model (docs/performance.md, "Stacked products on the GPU"); rocm by analogy with cuda,
   * Metal and Vulkan unmeasured. */
  if (strcmp(t->backend, "llvm-cpu") == 0) return MX_FUSE_STACKED;
  return strcmp(t->backend, "cuda") == 0 || strcmp(t->backend, "rocm") == 0 ? MX_FUSE_ALWAYS : MX_FUSE_NEVER;
}

int mx_target_window_ratio(const mx_target_t *t) {
  /* H200 (docs/performance.md, "Decode windows"): decode attention is half of an 8-slot step and grows
   * with the window, so the GPU targets take windows of x2 (128, 256, 512, ...): a sequence reads at
   * most twice the positions it uses, not four times. On the CPU attention is a small part of a step
   * (the weight products dominate) and every window adds compile time to every cold start, so it
   * keeps x4. */
  return strcmp(t->backend, "llvm-cpu") == 0 ? 4 : 2;
}

void mx_target_label(const mx_target_t *t, char *out, size_t cap) { snprintf(out, cap, "%s:%s", t->backend, t->arch); }

mx_status_t mx_target_check_device(const mx_target_t *t, const char *device_uri, const char *device_arch) {
  if (strcmp(t->backend, "rocm") != 0 || !device_arch || !device_arch[0]) return NULL;
  size_t n = strcspn(device_arch, ":"); /* "gfx90a:sramecc+:xnack-" -> "gfx90a" */
  if (strlen(t->arch) == n && strncmp(t->arch, device_arch, n) == 0) return NULL;
  const char *hvd = getenv("HIP_VISIBLE_DEVICES");
  char remedy[256];
  snprintf(remedy, sizeof remedy, "set MLXCEL_XLA_ROCM_TARGET=%.*s (or --rocm-target), or select the other device", (int)n,
           device_arch);
  return mx_status_make(MX_STAGE_USAGE, remedy, "ROCm target %s does not match the selected device %s, which is %.*s%s%s", t->arch,
                        device_uri, (int)n, device_arch, hvd ? " with HIP_VISIBLE_DEVICES=" : "", hvd ? hvd : "");
}

/* Combinations the pinned compiler cannot build, from the compile matrix (docs/rocm.md). */
static const struct {
  const char *backend, *arch, *precision, *why;
} unsupported[] = {
    /* scripts/xla/compile_matrix.sh, 2026-11-30: "failed to legalize operation 'vector.bitcast' ...
     * vector<4xbf16>" for every graph holding bf16 values. */
    {"metal-spirv", "metal", "bf16", "the pinned compiler's Metal backend cannot lower bf16"},
    /* compile matrix, 2026-12-01: rtx4090 "no GPU subgroup mma compute ops generated", rdna3
     * "'gpu.subgroup_mma_load_matrix' op operand #0 must be memref of 8-bit ... or 32-bit", valhall4
     * "failed to legalize operation 'vector.bitcast'": every Vulkan target tried. */
    {"vulkan-spirv", "*", "bf16", "the pinned compiler's Vulkan backend cannot build the bf16 graph"},
};

mx_status_t mx_target_check_precision(const mx_target_t *t, const char *precision) {
  for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++) {
    if (!unsupported[i].backend) continue;
    if (!strcmp(unsupported[i].backend, t->backend) &&
        (!strcmp(unsupported[i].arch, "*") || !strcmp(unsupported[i].arch, t->arch)) &&
        !strcmp(unsupported[i].precision, precision))
      return mx_status_make(MX_STAGE_USAGE, "use another precision (see docs/rocm.md)", "%s is not supported on %s:%s: %s",
                            precision, t->backend, t->arch, unsupported[i].why);
  }
  return NULL;
}
