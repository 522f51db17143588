/* Phase 0 of the qualification kit: the machine baseline (env.json). The parsers take the text that
 * the tools print, so they are tested on captured outputs (tests/unit/data/qualify/); the collector
 * runs the tools (each with a deadline, its raw output kept under logs/baseline/) and reads /proc,
 * /sys and /dev. What a tool cannot tell (it is missing, it fails) is recorded as such, never guessed. */
#ifndef MX_QUALIFY_BASELINE_H
#define MX_QUALIFY_BASELINE_H

#include <jansson.h>

#include "base/status.h"

/* /etc/os-release: PRETTY_NAME (else NAME), or NULL. Caller frees. */
char *mx_qual_parse_os_release(const char *text);
/* `nvidia-smi --query-gpu=index,name,memory.total,driver_version,pci.bus_id,compute_cap
 * --format=csv,noheader,nounits`: [{index, name, memory_mib, driver, pci_bus_id, compute_cap,
 * arch ("sm_90")}]. */
json_t *mx_qual_parse_nvidia_smi_csv(const char *text);
/* The "CUDA Version: X.Y" of plain `nvidia-smi`'s banner, or NULL. Caller frees. */
char *mx_qual_parse_cuda_version(const char *text);
/* `rocminfo`: the GPU agents, [{name ("gfx942"), marketing_name, uuid, compute_units}]. */
json_t *mx_qual_parse_rocminfo(const char *text);
/* `amdgpu-arch` / `rocm_agent_enumerator`: the gfx targets one per line, without gfx000 (the CPU
 * agent rocm_agent_enumerator lists). */
json_t *mx_qual_parse_gfx_list(const char *text);
/* `iree-compile --iree-hal-list-target-backends`: the backend names. */
json_t *mx_qual_parse_target_backends(const char *text);
/* /proc/<pid>/status: {cap_eff, cap_bnd, no_new_privs, seccomp} (the fields present). */
json_t *mx_qual_parse_proc_status(const char *text);
/* /proc/meminfo MemTotal in bytes, or -1. */
long long mx_qual_parse_mem_total(const char *text);
/* /proc/cpuinfo: {model, logical_cpus}. */
json_t *mx_qual_parse_cpuinfo(const char *text);

/* Everything phase 0 records, as the env.json object. logs_dir receives the tools' raw outputs;
 * model may be NULL (no model given). device/target are what the run selected. */
MX_MUST_USE mx_status_t mx_qual_baseline(const char *logs_dir, const char *model, const char *device, const char *target,
                                         json_t **out);
/* sha256 of a model: the GGUF file, or of an HF directory each *.safetensors file (name order) and
 * config.json. Hex into out[65]; also the byte count. */
MX_MUST_USE mx_status_t mx_qual_model_digest(const char *model, char out[65], long long *bytes);

#endif
