#!/usr/bin/env bash
# Pinned IREE toolchain for AMD GPUs (rocm compiler backend, hip runtime driver).
# The GPU target is never guessed: export MLXCEL_XLA_ROCM_TARGET (e.g. gfx942; `mlxcel devices`,
# rocminfo, amdgpu-arch or rocm_agent_enumerator print it) and --env passes it on.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mx_print_flavour_env() {
  echo "export IREE_ROCM_HOME='$MX_IREE_HOME'"
  echo "export IREE_ROCM_COMPILE='$(mx_iree_compile_path)'"
  [ -n "${MLXCEL_XLA_ROCM_TARGET:-}" ] && echo "export MLXCEL_XLA_ROCM_TARGET='$MLXCEL_XLA_ROCM_TARGET'"
  return 0
}
mx_setup_main rocm rocm hip "$@"
