#include "testutil.h"

#include "compiler/target.h"
#include "hlo/llama.h"

static int has_flag(const mx_target_t *t, const char *flag) {
  for (int i = 0; i < t->n_flags; i++)
    if (strcmp(t->flags[i], flag) == 0) return 1;
  return 0;
}

static void cpu_targets_host_by_default(void **state) {
  (void)state;
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  assert_string_equal(t.backend, "llvm-cpu");
  assert_true(has_flag(&t, "--iree-hal-target-device=local"));
  assert_true(has_flag(&t, "--iree-hal-local-target-device-backends=llvm-cpu"));
  assert_true(has_flag(&t, "--iree-llvmcpu-target-cpu=host"));
  mx_target_options_t o = {.cpu = "generic"};
  assert_ok(mx_target_for_device("local-sync://0", &o, &t));
  assert_true(has_flag(&t, "--iree-llvmcpu-target-cpu=generic"));
}

static void cuda_needs_an_explicit_target(void **state) {
  (void)state;
  mx_target_t t;
  assert_status(mx_target_for_device("cuda", NULL, &t), MX_STAGE_USAGE, "explicit CUDA target");
  mx_target_options_t o = {.cuda_target = "sm_80"};
  assert_ok(mx_target_for_device("cuda://0", &o, &t));
  assert_true(has_flag(&t, "--iree-hal-target-device=cuda"));
  assert_true(has_flag(&t, "--iree-cuda-target=sm_80"));
  o.cuda_target = "sm_90";
  mx_status_t st = mx_target_for_device("cuda", &o, &t);
  assert_non_null(st);
  assert_non_null(strstr(mx_status_remedy(st), "sm_89"));
  assert_status(st, MX_STAGE_USAGE, "cannot target sm_90");
  o.cuda_target = "gfx942";
  assert_status(mx_target_for_device("cuda", &o, &t), MX_STAGE_USAGE, "not a CUDA target");
}

static void hip_target_is_explicit_single_and_known(void **state) {
  (void)state;
  mx_target_t t;
  mx_status_t st = mx_target_for_device("hip", NULL, &t);
  assert_non_null(st);
  assert_non_null(strstr(mx_status_remedy(st), "rocminfo"));
  assert_non_null(strstr(mx_status_remedy(st), "mlxcel devices"));
  assert_status(st, MX_STAGE_USAGE, "explicit ROCm target");
  mx_target_options_t o = {.rocm_target = "gfx942"};
  assert_ok(mx_target_for_device("hip://1", &o, &t));
  assert_true(has_flag(&t, "--iree-hal-target-device=hip"));
  assert_true(has_flag(&t, "--iree-rocm-target=gfx942"));
  o.rocm_target = "gfx942,gfx90a";
  assert_status(mx_target_for_device("hip", &o, &t), MX_STAGE_USAGE, "more than one target");
  o.rocm_target = "gfx9999";
  assert_status(mx_target_for_device("hip", &o, &t), MX_STAGE_USAGE, "not a known ROCm target");
}

/* The optimisation flags are chosen per backend by measurement (src/compiler/target.c, docs/performance.md);
 * these assertions keep the table and the document in step. */
static void optimisation_flags_follow_the_measured_table(void **state) {
  (void)state;
  mx_target_t t;
  assert_ok(mx_target_for_device("local-task", NULL, &t));
  assert_true(has_flag(&t, "--iree-opt-level=O3"));
  assert_false(has_flag(&t, "--iree-opt-data-tiling")); /* wrong tokens at O0, no compile at O3 (llvm-cpu) */
  mx_target_options_t o = {.cuda_target = "sm_89", .rocm_target = "gfx942"};
  assert_ok(mx_target_for_device("cuda", &o, &t));
  assert_true(has_flag(&t, "--iree-opt-level=O3"));
  assert_false(has_flag(&t, "--iree-opt-data-tiling")); /* measured: it did not pay on the H200 */
  assert_ok(mx_target_for_device("hip", &o, &t));
  assert_true(has_flag(&t, "--iree-opt-level=O3"));
  assert_ok(mx_target_for_device("metal", NULL, &t));
  for (int i = 0; i < t.n_flags; i++) assert_null(strstr(t.flags[i], "--iree-opt-")); /* unmeasured: default */
  const char *devs[] = {"local-task", "local-sync", "cuda", "hip", "metal"};
  for (size_t i = 0; i < sizeof devs / sizeof devs[0]; i++) { /* room left: add_flag never drops one */
    assert_ok(mx_target_for_device(devs[i], &o, &t));
    assert_true(t.n_flags < MX_TARGET_MAX_FLAGS);
  }
}

/* The graph's per-target switches (decode attention form, product rows, split decode products, steps
 * per call) follow the measurements in docs/performance.md. */
static void graph_choices_follow_the_measured_table(void **state) {
  (void)state;
  mx_target_t t;
  mx_target_options_t o = {.cuda_target = "sm_89", .rocm_target = "gfx942", .vulkan_target = "rdna3"};
  const char *cpus[] = {"local-task", "local-sync"}, *gpus[] = {"cuda", "hip", "metal", "vulkan"};
  for (int i = 0; i < 2; i++) {
    assert_ok(mx_target_for_device(cpus[i], &o, &t));
    assert_false(mx_target_expand_kv_groups(&t)); /* 3.5x slower expanded on the CPU */
    assert_int_equal(mx_target_head_attention_slots(&t), 0); /* the CPU keeps the grouped form */
    assert_int_equal(mx_target_head_attention_window(&t), 0);
    assert_int_equal(mx_target_grouped_attention_slots(&t, 32, 8, 64, MX_BF16), 0);
    assert_null(t.tuning);
    assert_int_equal(mx_target_product_rows(&t), 0); /* a split would read every weight twice */
    assert_false(mx_target_split_decode_reduction(&t, MX_BF16));
    assert_int_equal(mx_target_decode_steps(&t), 1);
    assert_int_equal(mx_target_window_ratio(&t), 4); /* attention is a small part of a CPU step */
  }
  for (int i = 0; i < 4; i++) {
    assert_ok(mx_target_for_device(gpus[i], &o, &t));
    assert_true(mx_target_expand_kv_groups(&t)); /* 7x faster expanded on the H200 */
    assert_int_equal(mx_target_head_attention_slots(&t), 8); /* per head at 8 slots (H200 micro-benchmarks) */
    assert_int_equal(mx_target_head_attention_window(&t), 4096); /* and at one slot from W = 4096 */
    assert_int_equal(mx_target_product_rows(&t), 4); /* 8-row products get a slow kernel on the H200 */
    assert_int_equal(mx_target_decode_steps(&t), 8);
    assert_int_equal(mx_target_window_ratio(&t), 2); /* attention is half of an 8-slot step on the H200 */
    /* 8 rows in one split product: 0.4x the time of two 4-row products in bf16 on the H200, not in f32;
     * the SPIR-V targets keep their products whole (unmeasured) */
    bool llvmgpu = i < 2;
    assert_true(mx_target_split_decode_reduction(&t, MX_BF16) == llvmgpu);
    assert_true(mx_target_split_decode_reduction(&t, MX_F16) == llvmgpu);
    assert_false(mx_target_split_decode_reduction(&t, MX_F32));
    assert_true((t.tuning != NULL) == (i == 0)); /* lowering configurations measured for cuda only */
    /* the grouped rows only where the library configures them: cuda, the 1B's heads (8 KV heads, 4 query
     * heads of 64 each), a bf16 cache, at 8 slots (H100, H200) */
    assert_int_equal(mx_target_grouped_attention_slots(&t, 32, 8, 64, MX_BF16), i == 0 ? 8 : 0);
    assert_int_equal(mx_target_grouped_attention_slots(&t, 32, 8, 64, MX_F16), 0);
    assert_int_equal(mx_target_grouped_attention_slots(&t, 32, 8, 64, MX_F32), 0);
    assert_int_equal(mx_target_grouped_attention_slots(&t, 16, 4, 64, MX_BF16), i == 0 ? 16 : 0); /* 16 slots: none */
    assert_int_equal(mx_target_grouped_attention_slots(&t, 56, 8, 64, MX_BF16), 0);  /* another group */
    assert_int_equal(mx_target_grouped_attention_slots(&t, 32, 8, 128, MX_BF16), 0); /* another head_dim */
    assert_int_equal(mx_target_grouped_attention_slots(&t, 12, 3, 64, MX_BF16), 0);  /* 64 slots of 3 heads: none */
    assert_int_equal(mx_target_grouped_attention_slots(&t, 32, 0, 64, MX_BF16), 0);  /* no KV heads: none */
    /* whole 8-row products where the library configures them or IREE's tiles were measured as fast
     * (H100): the 1B's q/k/v (3072 x 2048), o (2048 x 2048) and gate/up (16384 x 2048), bf16, 8 slots */
    int wp[MX_LLAMA_MAX_WHOLE_PRODUCTS][2], cap = MX_LLAMA_MAX_WHOLE_PRODUCTS;
    int n = mx_target_whole_decode_products(&t, MX_BF16, 8, wp, cap);
    assert_int_equal(n, i == 0 ? 3 : 0);
    for (int k = 0; k < n; k++) {
      assert_int_equal(wp[k][1], 2048);
      assert_true(wp[k][0] == 3072 || wp[k][0] == 2048 || wp[k][0] == 16384);
    }
    assert_int_equal(mx_target_whole_decode_products(&t, MX_BF16, 8, wp, 1), i == 0 ? 1 : 0); /* at most cap */
    assert_int_equal(mx_target_whole_decode_products(&t, MX_F16, 8, wp, cap), 0);  /* measured in bf16 only */
    assert_int_equal(mx_target_whole_decode_products(&t, MX_F32, 8, wp, cap), 0);
    assert_int_equal(mx_target_whole_decode_products(&t, MX_BF16, 4, wp, cap), 0); /* 4 rows: matrix-vector */
  }
  mx_target_t cpu;
  int wp[MX_LLAMA_MAX_WHOLE_PRODUCTS][2];
  assert_ok(mx_target_for_device("local-task", NULL, &cpu));
  assert_int_equal(mx_target_whole_decode_products(&cpu, MX_BF16, 8, wp, MX_LLAMA_MAX_WHOLE_PRODUCTS), 0);
}

/* vulkan: the target is explicit and one name; bf16 is refused by the guard on every Vulkan target. */
static void vulkan_target_is_explicit_and_guarded(void **state) {
  (void)state;
  mx_target_t t;
  assert_status(mx_target_for_device("vulkan", NULL, &t), MX_STAGE_USAGE, "explicit Vulkan target");
  mx_target_options_t o = {.vulkan_target = "rdna3,ampere"};
  assert_status(mx_target_for_device("vulkan", &o, &t), MX_STAGE_USAGE, "not one name");
  o.vulkan_target = "rdna3";
  assert_ok(mx_target_for_device("vulkan://1", &o, &t));
  assert_string_equal(t.backend, "vulkan-spirv");
  assert_string_equal(t.arch, "rdna3");
  assert_true(has_flag(&t, "--iree-vulkan-target=rdna3"));
  assert_status(mx_target_check_precision(&t, "bf16"), MX_STAGE_USAGE, "Vulkan backend");
  assert_ok(mx_target_check_precision(&t, "f32"));
}

static void bad_uris_are_usage_errors(void **state) {
  (void)state;
  mx_target_t t;
  assert_status(mx_target_for_device("nope", NULL, &t), MX_STAGE_USAGE, "unknown device");
  assert_status(mx_target_for_device("", NULL, &t), MX_STAGE_USAGE, "malformed");
  assert_status(mx_target_for_device("cuda://", NULL, &t), MX_STAGE_USAGE, "malformed");
  assert_status(mx_target_for_device("cuda://x", NULL, &t), MX_STAGE_USAGE, "malformed");
  assert_status(mx_target_for_device("Local-Task", NULL, &t), MX_STAGE_USAGE, "malformed");
  assert_status(mx_target_for_device("local-task://-1", NULL, &t), MX_STAGE_USAGE, "malformed");
}

static void hip_target_must_match_the_selected_device(void **state) {
  (void)state;
  mx_target_t t;
  mx_target_options_t o = {.rocm_target = "gfx90a"};
  assert_ok(mx_target_for_device("hip://1", &o, &t));
  setenv("HIP_VISIBLE_DEVICES", "2,3", 1);
  mx_status_t st = mx_target_check_device(&t, "hip://1", "gfx942:sramecc+:xnack-");
  assert_non_null(st);
  assert_non_null(strstr(mx_status_remedy(st), "MLXCEL_XLA_ROCM_TARGET=gfx942"));
  assert_status(st, MX_STAGE_USAGE, "gfx90a does not match the selected device hip://1, which is gfx942 with HIP_VISIBLE_DEVICES=2,3");
  unsetenv("HIP_VISIBLE_DEVICES");
  assert_ok(mx_target_check_device(&t, "hip://1", "gfx90a:sramecc+:xnack-")); /* feature suffixes ignored */
  assert_ok(mx_target_check_device(&t, "hip://1", ""));                     /* unknown: nothing to compare */
  mx_target_options_t c = {.cuda_target = "sm_89"};
  assert_ok(mx_target_for_device("cuda", &c, &t));
  assert_ok(mx_target_check_device(&t, "cuda://0", "sm_90")); /* PTX for sm_89 runs on sm_90 */
}

static void precision_guard_refuses_recorded_combinations(void **state) {
  (void)state;
  mx_target_t t;
  assert_ok(mx_target_for_device("metal", NULL, &t));
  assert_status(mx_target_check_precision(&t, "bf16"), MX_STAGE_USAGE, "bf16 is not supported on metal-spirv:metal");
  assert_ok(mx_target_check_precision(&t, "f32"));
  mx_target_options_t o = {.rocm_target = "gfx942"};
  assert_ok(mx_target_for_device("hip", &o, &t));
  assert_ok(mx_target_check_precision(&t, "bf16"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cpu_targets_host_by_default),
      cmocka_unit_test(cuda_needs_an_explicit_target),
      cmocka_unit_test(hip_target_is_explicit_single_and_known),
      cmocka_unit_test(optimisation_flags_follow_the_measured_table),
      cmocka_unit_test(graph_choices_follow_the_measured_table),
      cmocka_unit_test(vulkan_target_is_explicit_and_guarded),
      cmocka_unit_test(bad_uris_are_usage_errors),
      cmocka_unit_test(hip_target_must_match_the_selected_device),
      cmocka_unit_test(precision_guard_refuses_recorded_combinations),
  };
  return cmocka_run_group_tests_name("compiler/target", tests, NULL, NULL);
}
