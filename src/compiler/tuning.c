#include "compiler/tuning.h"

#include <string.h>

/* One matcher per op shape and input type, each annotating the op with its compilation_info.
 * The contraction's maps are the graph's weight products: x [M, K] . W [N, K]^T -> [M, N]. */
#define MX_TUNING_MATCH_MMT(NAME, TYPE, M, N, K, CONFIG)                                                          \
  "  transform.named_sequence @" NAME "(%op: !transform.any_op {transform.readonly}) -> (!transform.any_op, "      \
  "!transform.any_param) {\n"                                                                                       \
  "    %b, %m, %n, %k = transform.iree.match.contraction %op, lhs_type = " TYPE ", rhs_type = " TYPE                  \
  ", output_type = f32, indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, "   \
  "d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] : !transform.any_op -> !transform.param<i64>\n"                     \
  "    transform.iree.match.dims_equal %b, [] : !transform.param<i64>\n"                                            \
  "    transform.iree.match.dims_equal %m, [" M "] : !transform.param<i64>\n"                                        \
  "    transform.iree.match.dims_equal %n, [" N "] : !transform.param<i64>\n"                                        \
  "    transform.iree.match.dims_equal %k, [" K "] : !transform.param<i64>\n"                                        \
  "    %config = transform.param.constant " CONFIG " -> !transform.any_param\n"                                      \
  "    transform.yield %op, %config : !transform.any_op, !transform.any_param\n"                                    \
  "  }\n"

/* H200, sm_89 PTX (bench/results/2026-12-04-h200-prefill-tiles/): IREE 3.13 gives every 512-row 16-bit
 * product tiles of 64 x 64 (4 warps of 32 x 32, K steps of 128). For the MLP's gate and up products of
 * the 1B shape (512 x 8192 x 2048) tiles of 128 x 128 with 4 warps of 64 x 64 and K steps of 64 take
 * 81.6 us against 155 (iree-benchmark-module, 5 repetitions, the dumped dispatch); the same tiles lose
 * on the down and q/o products (2048 outputs: 64 workgroups on 132 SMs), which keep the compiler's. */
#define MX_TUNING_NV_TILE_128(INTRINSIC)                                                                           \
  "#iree_codegen.compilation_info<lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = "      \
  "#iree_gpu.mma_layout<" INTRINSIC ">, promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [4, 8, 0], "   \
  "workgroup = [128, 128, 0]}>, translation_info = #iree_codegen.translation_info<pipeline = "                      \
  "#iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = "      \
  "#iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, "           \
  "use_igemm_convolution = false>}>>"

/* H200 (bench/results/2026-12-04-h200-prefill-tiles/): at 512 rows of 2048 IREE 3.13 fuses the residual
 * add, its store and the RMSNorm's sum of squares into one reduction and walks each row in two steps of
 * 1024 (VectorDistribute, 256 threads x 4); with the second, stored result that dispatch took 1964 us
 * (117 us for the other of the layer's two) where one step over the whole row (256 threads x 8) takes
 * 6.1 us (iree-benchmark-module, 5 repetitions, the dumped dispatch). An optimization barrier before the
 * norm would split the fusion too, but it ends the stream's execution region at each norm: extend_2048
 * 23.6 -> 31.7 ms in the engine. Matched by shape: a reduction over [512, 2048] whose [512] f32 result is
 * stored as it is. Not matched: a copy of that shape (a memref generic with no result, on which IREE 3.13's
 * type matcher crashes), and the whole norm in one dispatch (sum, scale and the matmul type's rows, the
 * form IREE makes when one product takes the norm's rows), where this configuration fails to
 * distribute; that form keeps the compiler's. The first library (cuda-v1) matched by shape alone and so
 * also configured a decode step's k and v matrix-vector products (a 512 x 2048 reduction converted to bf16
 * before its store), which the measurement above did not cover; they are the compiler's again. */
#define MX_TUNING_MATCH_ROW_SUM(NAME, M, N, CONFIG)                                                                  \
  "  transform.named_sequence @" NAME "(%op: !transform.any_op {transform.readonly}) -> (!transform.any_op, "        \
  "!transform.any_param) {\n"                                                                                        \
  "    transform.match.operation_name %op [\"linalg.generic\"] : !transform.any_op\n"                                \
  "    %s, %sum, %user = transform.match.structured failures(propagate) %op : (!transform.any_op) -> "               \
  "(!transform.any_op, !transform.any_value, !transform.any_op) {\n"                                                 \
  "    ^bb0(%g: !transform.any_op):\n"                                                                               \
  "      %dims = transform.match.structured.dim %g[all] : (!transform.any_op) -> !transform.param<i64>\n"            \
  "      transform.iree.match.dims_equal %dims, [" M ", " N "] : !transform.param<i64>\n"                            \
  "      transform.match.structured.dim %g[1] reduction : !transform.any_op\n"                                       \
  "      %r = transform.match.structured.result %g[0] : (!transform.any_op) -> !transform.any_value\n"               \
  "      %u = transform.match.structured.result %g[0] single : (!transform.any_op) -> !transform.any_op\n"           \
  "      transform.match.structured.yield %g, %r, %u : !transform.any_op, !transform.any_value, !transform.any_op\n" \
  "    }\n"                                                                                                          \
  "    transform.iree.match.cast_compatible_type %sum = tensor<" M "xf32> : !transform.any_value\n"                  \
  "    transform.match.operation_name %user [\"iree_codegen.store_to_buffer\"] : !transform.any_op\n"                \
  "    %config = transform.param.constant " CONFIG " -> !transform.any_param\n"                                      \
  "    transform.yield %op, %config : !transform.any_op, !transform.any_param\n"                                     \
  "  }\n"

#define MX_TUNING_ROW_IN_ONE_STEP(N)                                                                               \
  "#iree_codegen.compilation_info<lowering_config = #iree_gpu.lowering_config<{lane_basis = [[1, 32], [0, 1]], "   \
  "partial_reduction = [0, " N "], subgroup_basis = [[1, 8], [0, 1]], thread = [0, 8], workgroup = [1, 0]}>, "       \
  "translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> "               \
  "workgroup_size = [256, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<"            \
  "no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>>"

/* The 8-slot decode attention's two products (hlo/llama.c attend_decode_grouped_rows): batched over
 * (slot, KV head), B = 64 for 8 slots of 8 KV heads, the group's G = 4 query heads as the rows: QK
 * [B, G, D] . [B, W, D]^T with D = 64, P.V [B, G, W] . [B, D, W]^T. IREE 3.13 gives such an M = 4
 * product one thread per 128 outputs (TileAndFuse); it gave the per-head form's matrix-vector products
 * (one per query head) a one-warp workgroup per output row, 4 bytes loaded per thread for QK (12.6 us for
 * 2 MB on the H100). Here a warp takes 4 window rows of QK (8 lanes x 8 values per row of 64, the
 * group's 4 queries held by every thread, so each K row is loaded once for the 4) or one row of V (32
 * lanes x 4 values per step of 128), 8 warps per workgroup. Matched for bf16 inputs, B = 64, G = 4, D = 64;
 * the window is free (every decode window is a multiple of 128). The shape is written once, here: the
 * matchers' text and the library's `grouped` entry (which the graph's rule reads) both come from it. */
#define MX_TUNING_GROUPED_BATCH 64
#define MX_TUNING_GROUPED_ROWS 4
#define MX_TUNING_GROUPED_DIM 64
#define MX_TUNING_STR_(X) #X
#define MX_TUNING_STR(X) MX_TUNING_STR_(X)
#define MX_TUNING_MATCH_GROUPED(NAME, FIXED, CONFIG)                                                             \
  "  transform.named_sequence @" NAME "(%op: !transform.any_op {transform.readonly}) -> (!transform.any_op, "      \
  "!transform.any_param) {\n"                                                                                       \
  "    %b, %m, %n, %k = transform.iree.match.contraction %op, lhs_type = bf16, rhs_type = bf16, output_type = f32, " \
  "indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, "   \
  "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] : !transform.any_op -> !transform.param<i64>\n"                   \
  "    transform.iree.match.dims_equal %b, [" MX_TUNING_STR(MX_TUNING_GROUPED_BATCH) "] : !transform.param<i64>\n"  \
  "    transform.iree.match.dims_equal %m, [" MX_TUNING_STR(MX_TUNING_GROUPED_ROWS) "] : !transform.param<i64>\n"   \
  "    transform.iree.match.dims_equal " FIXED ", [" MX_TUNING_STR(MX_TUNING_GROUPED_DIM) "] : !transform.param<i64>\n" \
  "    %config = transform.param.constant " CONFIG " -> !transform.any_param\n"                                      \
  "    transform.yield %op, %config : !transform.any_op, !transform.any_param\n"                                    \
  "  }\n"

/* A workgroup of 8 warps over [1 batch, 4 rows (all of them, in each thread), WG_N columns]: LANES_N x
 * LANES_K lanes per warp, THREAD values of the reduction per thread and STEP per step. */
#define MX_TUNING_GROUPED_WARPS(LANES_N, LANES_K, THREAD, STEP, WG_N)                                             \
  "#iree_codegen.compilation_info<lowering_config = #iree_gpu.lowering_config<{lane_basis = [[1, 1, " LANES_N     \
  ", " LANES_K "], [0, 1, 2, 3]], partial_reduction = [0, 0, 0, " STEP "], subgroup_basis = [[1, 1, 8, 1], [0, 1, " \
  "2, 3]], thread = [0, 0, 0, " THREAD "], workgroup = [1, 4, " WG_N ", 0]}>, translation_info = "                  \
  "#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [256, 1, 1] "   \
  "subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = " \
  "false, use_igemm_convolution = false>}>>"

/* The 8-slot decode step's weight products of the 1B's shape in bf16, whole instead of split
 * (bench/results/2026-12-07-gpu-decode-products/, H100, dispatch benchmarks of 100, two rounds): IREE
 * 3.13 gives an 8-row product 16 x 32 tensor-core tiles, whose few workgroups made the graph split the
 * reduction into chunks and sum them in another dispatch (q/k/v 8.0 + 5.6 us, o 7.0 + 5.3). One warp
 * per output row, each thread holding the 8 rows and loading 8 values of the weight row per step of
 * 256, 2 warps per workgroup: q/k/v 11.2 / 11.5 us and o 8.6 / 9.0 whole, and one dispatch fewer each
 * (weights in L2 there: in the engine, from DRAM, 12.9 and 11.5 us, about the split's product and sum).
 * Gate/up whole takes IREE's own tiles: 38.6 / 37.4 us against 33.3 / 34.0 + 5.0 split (and its sum's
 * dispatch). The down projection (K 8192) stays split: 16.8 + 5 against 23.3 at best whole. In the
 * engine, with gate/up read as a pair (hlo/llama.c gated_pair), the 8-slot step took ~6% less time.
 * The shapes are written once, here: the matchers' text and the library's `whole` table come from them. */
#define MX_TUNING_WHOLE_ROWS 8
#define MX_TUNING_WHOLE_K 2048
#define MX_TUNING_WHOLE_QKV_N 3072
#define MX_TUNING_WHOLE_O_N 2048
#define MX_TUNING_WHOLE_GATE_UP_N 16384
#define MX_TUNING_ROWS_PER_WARP(WARPS, THREADS)                                                                            \
  "#iree_codegen.compilation_info<lowering_config = #iree_gpu.lowering_config<{lane_basis = [[1, 1, 32], [0, 1, " \
  "2]], partial_reduction = [0, 0, 256], subgroup_basis = [[1, " WARPS ", 1], [0, 1, 2]], thread = [0, 0, 8], "     \
  "workgroup = [" MX_TUNING_STR(MX_TUNING_WHOLE_ROWS) ", " WARPS ", 0]}>, translation_info = "                      \
  "#iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [" THREADS     \
  ", 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<"                            \
  "no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>>"
#define MX_TUNING_MATCH_WHOLE(NAME, N)                                                                             \
  MX_TUNING_MATCH_MMT(NAME, "bf16", MX_TUNING_STR(MX_TUNING_WHOLE_ROWS), MX_TUNING_STR(N),                          \
                      MX_TUNING_STR(MX_TUNING_WHOLE_K), MX_TUNING_ROWS_PER_WARP("2", "64"))

static const char cuda_text[] =
    "// mlxcel's lowering configurations for cuda (src/compiler/tuning.c says what each was measured against)\n"
    "module attributes {transform.with_named_sequence} {\n"
    "  transform.named_sequence @apply_op_config(%op: !transform.any_op {transform.readonly}, %config: "
    "!transform.any_param {transform.readonly}) {\n"
    "    transform.annotate %op \"compilation_info\" = %config : !transform.any_op, !transform.any_param\n"
    "    transform.yield\n"
    "  }\n" MX_TUNING_MATCH_MMT("mmt_512x8192x2048_bf16", "bf16", "512", "8192", "2048",
                                MX_TUNING_NV_TILE_128("NV_MMA_SYNC_F32_16x8x16_BF16"))
        MX_TUNING_MATCH_MMT("mmt_512x8192x2048_f16", "f16", "512", "8192", "2048",
                            MX_TUNING_NV_TILE_128("NV_MMA_SYNC_F32_16x8x16_F16"))
            MX_TUNING_MATCH_ROW_SUM("row_sum_512x2048", "512", "2048", MX_TUNING_ROW_IN_ONE_STEP("2048"))
                MX_TUNING_MATCH_GROUPED("decode_qk_grouped_bf16", "%k", MX_TUNING_GROUPED_WARPS("4", "8", "8", "64", "32"))
                    MX_TUNING_MATCH_GROUPED("decode_pv_grouped_bf16", "%n", MX_TUNING_GROUPED_WARPS("1", "32", "4", "128", "8"))
                        MX_TUNING_MATCH_WHOLE("decode_qkv_whole_bf16", MX_TUNING_WHOLE_QKV_N)
                            MX_TUNING_MATCH_WHOLE("decode_o_whole_bf16", MX_TUNING_WHOLE_O_N) "  "
    "transform.named_sequence @__kernel_config(%variant: !transform.any_op {transform.consumed}) -> "
    "!transform.any_op {\n"
    "    %res = transform.foreach_match in %variant @mmt_512x8192x2048_bf16 -> @apply_op_config, "
    "@mmt_512x8192x2048_f16 -> @apply_op_config, @row_sum_512x2048 -> @apply_op_config, @decode_qk_grouped_bf16 -> @apply_op_config, "
    "@decode_pv_grouped_bf16 -> @apply_op_config, @decode_qkv_whole_bf16 -> @apply_op_config, "
    "@decode_o_whole_bf16 -> @apply_op_config : (!transform.any_op) -> "
    "!transform.any_op\n"
    "    transform.yield %res : !transform.any_op\n"
    "  }\n"
    "}\n";

/* rocm has other intrinsics (MFMA) and is unmeasured; the CPU and SPIR-V targets have none. */
#define MX_TUNING_WHOLE_ENTRY(N) {MX_TUNING_WHOLE_ROWS, N, MX_TUNING_WHOLE_K, MX_BF16}
static const mx_tuning_t cuda = {"cuda-v5: 512x8192x2048 16-bit products in 128x128 tiles, stored 512x2048 row sums in one step, "
                                 "8-slot grouped decode attention products 8 warps per workgroup, 8-row bf16 q/k/v and o "
                                 "products whole one warp per row, gate/up whole",
                                 cuda_text,
                                 {.batch = MX_TUNING_GROUPED_BATCH, .group = MX_TUNING_GROUPED_ROWS,
                                  .head_dim = MX_TUNING_GROUPED_DIM, .kv = MX_BF16},
                                 {MX_TUNING_WHOLE_ENTRY(MX_TUNING_WHOLE_QKV_N), MX_TUNING_WHOLE_ENTRY(MX_TUNING_WHOLE_O_N),
                                  MX_TUNING_WHOLE_ENTRY(MX_TUNING_WHOLE_GATE_UP_N)}};

const mx_tuning_t *mx_tuning_for_backend(const char *backend) {
  return backend && strcmp(backend, "cuda") == 0 ? &cuda : NULL;
}
