#include "engine/memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "model/arch.h"

/* Saturating: shapes come from a model file, and 1024 heads x (2^30 positions)^2 overflows 64 bits;
 * a saturated figure still exceeds every limit, which is the answer wanted. */
static uint64_t mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
static uint64_t mul3(uint64_t a, uint64_t b, uint64_t c) { return mul(mul(a, b), c); }
static uint64_t add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static uint64_t tensor_bytes(const mx_tensor_spec_t *t, const mx_model_config_t *c, mx_dtype_t d) {
  int64_t dims[2];
  int rank = mx_arch_shape(t, c, dims);
  uint64_t n = mx_dtype_size(d);
  for (int i = 0; i < rank; i++) n = mul(n, (uint64_t)dims[i]);
  return n;
}

/* A weight as the graph declares it: packed (model/packing.h), or whole in the weight type. */
static uint64_t plan_bytes(const mx_llama_graph_t *g, const mx_tensor_spec_t *t, mx_pack_t p) {
  if (!p.kind) return tensor_bytes(t, g->config, g->weight_dtype);
  int64_t dims[2];
  mx_arch_shape(t, g->config, dims);
  return mx_pack_bytes(p, dims[0], dims[1], g->matmul);
}

/* Keeps the larger of the current largest buffer and `bytes`, with its description. */
static void consider(mx_memory_estimate_t *e, uint64_t bytes, const char *fmt, long long n) {
  if (bytes <= e->activation) return;
  e->activation = bytes;
  snprintf(e->activation_what, sizeof e->activation_what, fmt, n);
}

void mx_memory_estimate(const mx_llama_graph_t *g, mx_memory_estimate_t *out) {
  const mx_model_config_t *c = g->config;
  memset(out, 0, sizeof *out);
  /* The parameters as the graph declares them (hlo/llama.c declare_globals). */
  uint64_t layer = 0;
  if (g->pack) { /* packed: each tensor as the plan carries it */
    for (int l = 0; l < c->n_layers; l++)
      for (int r = 0; r < MX_T_LAYER_COUNT; r++)
        if (mx_arch_layer_present((mx_layer_role_t)r, c))
          out->weights = add(out->weights, plan_bytes(g, mx_arch_layer((mx_layer_role_t)r), g->pack[mx_pack_index_layer(l, (mx_layer_role_t)r)]));
  } else {
    for (int r = 0; r < MX_T_LAYER_COUNT; r++)
      if (mx_arch_layer_present((mx_layer_role_t)r, c)) layer = add(layer, tensor_bytes(mx_arch_layer((mx_layer_role_t)r), c, g->weight_dtype));
    out->weights = mul(layer, (uint64_t)c->n_layers);
  }
  for (int r = 0; r < MX_T_GLOBAL_COUNT; r++)
    if (mx_arch_global_present((mx_global_role_t)r, c))
      out->weights = add(out->weights, plan_bytes(g, mx_arch_global((mx_global_role_t)r),
                                                  g->pack ? g->pack[mx_pack_index_global((mx_global_role_t)r)] : (mx_pack_t){0}));
  /* K and V per layer: [slots * kv_heads, kv_rows, head_dim] of the KV type. */
  uint64_t S = (uint64_t)g->slots, C = (uint64_t)g->capacity, H = (uint64_t)c->n_heads, D = (uint64_t)c->head_dim;
  out->kv = mul(mul3(2 * (uint64_t)c->n_layers, S, (uint64_t)g->kv_rows), mul3((uint64_t)c->n_kv_heads, D, mx_dtype_size(g->kv)));
  /* One call's largest buffer; the layers run one after the other, so one layer's buffers count
   * once. Prefill attention holds scores [heads, N, N] in f32 for the largest bucket N (the chunk);
   * beyond it, a chunk's extend holds [heads, N, W] with W up to the capacity. */
  const uint64_t f32 = 4;
  uint64_t N = g->n_buckets > 0 ? (uint64_t)g->buckets[g->n_buckets - 1] : C;
  if (N < C) consider(out, mul3(H, mul(N, C), f32), "a %lld-token chunk's attention scores over the capacity", (long long)N);
  else consider(out, mul3(H, mul(N, N), f32), "the %lld-token prefill's attention scores", (long long)N);
  consider(out, mul3(N, (uint64_t)c->ffn_dim, f32), "the %lld-token prefill's MLP activations", (long long)N);
  if (g->score_len > 0) {
    uint64_t L = (uint64_t)g->score_len;
    consider(out, mul3(H, mul(L, L), f32), "score_%lld's attention scores", (long long)L);
    consider(out, mul3(L, (uint64_t)c->vocab, f32), "score_%lld's logits", (long long)L);
  }
  /* Decode at the full window: the logits of every slot, the scores [slots, heads, W], and on the
   * targets that repeat each KV head for its query heads, the repeated window. */
  consider(out, mul3(S, (uint64_t)c->vocab, f32), "the decode step's logits (%lld slots)", (long long)S);
  consider(out, mul3(S, H, mul(C, f32)), "the decode step's attention scores (%lld slots)", (long long)S);
  if (g->expand_kv_groups)
    consider(out, mul3(S, H, mul3(C, D, mx_dtype_size(g->kv))), "the decode step's repeated KV window (%lld slots)",
             (long long)S);
  /* Stacks concatenated at load (fuse_products without the files' views): the module's initializer
   * holds every part while it writes the stacks (2026-12-07, H100: peak 2.50 -> 3.78 GB for the 1B's
   * 1.27 GB of Q/K/V and gate/up parts). */
  if (g->fuse_products && !g->stacked_params) {
    uint64_t parts = 0;
    for (int l = 0; l < c->n_layers; l++)
      for (int i = 0; i < MX_ARCH_STACKS; i++) {
        const mx_fused_spec_t *f = mx_arch_fused(i);
        for (int p = 0; mx_llama_stack_fused(g, f, l) && p < f->n_parts; p++)
          parts = add(parts, tensor_bytes(mx_arch_layer(f->parts[p]), c, g->weight_dtype));
      }
    consider(out, parts, "the %lld layers' stacked weight parts while the module's initializer concatenates them", (long long)c->n_layers);
  }
  out->total = add(add(out->weights, out->kv), out->activation);
}

int64_t mx_meminfo_available(const char *text) {
  const char *p = text;
  while (p && *p) {
    if (!strncmp(p, "MemAvailable:", 13)) {
      char *end;
      long long kb = strtoll(p + 13, &end, 10);
      if (end == p + 13 || kb < 0) return -1;
      while (*end == ' ' || *end == '\t') end++;
      /* The kernel writes kB (KiB); a line without a unit would be bytes. */
      return strncmp(end, "kB", 2) == 0 ? (int64_t)mul((uint64_t)kb, 1024) : kb;
    }
    p = strchr(p, '\n');
    if (p) p++;
  }
  return -1;
}

static void human(uint64_t b, char *out, size_t cap) {
  static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = (double)b;
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, u++;
  if (u == 0) snprintf(out, cap, "%llu bytes", (unsigned long long)b);
  else snprintf(out, cap, "%.1f %s", v, unit[u]);
}

mx_status_t mx_memory_fits(const mx_memory_estimate_t *e, uint64_t available, const char *device, const char *source) {
  if (e->total <= available) return NULL;
  char total[32], w[32], kv[32], act[32], avail[32];
  human(e->total, total, sizeof total);
  human(e->weights, w, sizeof w);
  human(e->kv, kv, sizeof kv);
  human(e->activation, act, sizeof act);
  human(available, avail, sizeof avail);
  return mx_status_make(MX_STAGE_USAGE,
                        "lower --context / MLXCEL_XLA_CONTEXT_CAPACITY (the KV cache grows with it, a full-length "
                        "prefill's attention scores with its square) or the slots (--slots), or use a device with more memory",
                        "the session needs at least %llu bytes (%s: weights %s, KV cache %s, largest activation %s, %s) "
                        "but %s %llu bytes (%s, %s)",
                        (unsigned long long)e->total, total, w, kv, act, e->activation_what, device,
                        (unsigned long long)available, avail, source);
}

mx_status_t mx_memory_check(const mx_llama_graph_t *g, const mx_target_t *t, const char *device) {
  mx_memory_estimate_t e;
  mx_memory_estimate(g, &e);
  char where[96];
  if (!strcmp(t->backend, "llvm-cpu")) {
    /* The CPU's device memory is the host's: what the kernel says it could hand out now without
     * swapping. No /proc/meminfo (not Linux): nothing to compare with, so no check. */
    char *text = NULL;
    mx_status_t st = mx_read_stream("/proc/meminfo", 1 << 16, &text);
    int64_t avail = st ? -1 : mx_meminfo_available(text);
    mx_status_ignore(st); /* an unreadable meminfo only means the check is skipped */
    free(text);
    if (avail < 0) return NULL;
    snprintf(where, sizeof where, "%s has", device);
    return mx_memory_fits(&e, (uint64_t)avail, where, "the host's MemAvailable");
  }
  /* A GPU: mx_device_desc_t has no memory figure, and the check runs before the worker starts, so
   * the only figure is the documented bound. */
  snprintf(where, sizeof where, "%s can have at most", device);
  return mx_memory_fits(&e, MX_GPU_MEMORY_BOUND, where,
                        "MX_GPU_MEMORY_BOUND: no single GPU has more; the worker reports no device memory to check "
                        "against");
}
