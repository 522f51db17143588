/* What a session's graph needs in device memory, estimated from its shapes before anything is
 * compiled or prepared, and the check that refuses a session which cannot fit (issue 14, defect 14:
 * `--context 1048576` compiled for minutes and then failed at load with RESOURCE_EXHAUSTED).
 *
 * The estimate is a lower bound: the buffers that live as long as the module (the weights and the KV
 * cache) plus the single largest buffer one call makes (usually a full-length prefill's attention
 * scores, heads x N x N f32). IREE allocates a call's transients when the call runs, and measured
 * about twice the scores for a long prefill (the scores and the softmax's output), so a session that
 * passes may still fail near the edge; one that is refused cannot run a prompt as long as the context
 * it asks for. A capacity above the model's own maximum is refused earlier, by mx_llama_graph_make. */
#ifndef MX_ENGINE_MEMORY_H
#define MX_ENGINE_MEMORY_H

#include <stdint.h>

#include "base/status.h"
#include "compiler/target.h"
#include "hlo/llama.h"

/* The bound a GPU session is checked against, as the device worker reports no memory figure
 * (mx_device_desc_t carries none): more than any single GPU holds today (the largest, AMD MI355X and
 * NVIDIA B300, have 288 GB). A session needing more cannot fit on any device; one needing less may
 * still not fit the one it runs on, which only the device itself says, at load. */
#define MX_GPU_MEMORY_BOUND (512ULL << 30)

typedef struct {
  uint64_t weights;    /* the parameters, in the graph's weight type */
  uint64_t kv;         /* 2 x layers x slots x capacity x kv_heads x head_dim x the KV type's size */
  uint64_t activation; /* the largest single buffer of any one call */
  uint64_t total;      /* their sum; UINT64_MAX when it overflows */
  char activation_what[96]; /* which buffer that is, for the message */
} mx_memory_estimate_t;

void mx_memory_estimate(const mx_llama_graph_t *g, mx_memory_estimate_t *out);

/* MemAvailable of a /proc/meminfo text, in bytes; -1 when the text has none. */
int64_t mx_meminfo_available(const char *meminfo_text);

/* A usage error naming the bytes needed (and their parts) and the bytes available when the estimate
 * exceeds `available`: "... but <device> <available> bytes (<in GiB>, <source>)", so `device` is the
 * phrase before the figure ("local-task has") and `source` says where the figure comes from. */
MX_MUST_USE mx_status_t mx_memory_fits(const mx_memory_estimate_t *e, uint64_t available, const char *device,
                                       const char *source);

/* The session's check, before the worker starts, the weights are prepared and the graph compiled: on
 * the CPU (llvm-cpu) against the host's MemAvailable (skipped when /proc/meminfo cannot be read), on
 * a GPU against MX_GPU_MEMORY_BOUND. */
MX_MUST_USE mx_status_t mx_memory_check(const mx_llama_graph_t *g, const mx_target_t *t, const char *device);

#endif
