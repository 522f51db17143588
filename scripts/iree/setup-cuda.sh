#!/usr/bin/env bash
# Pinned IREE toolchain for NVIDIA GPUs (cuda compiler backend, cuda runtime driver).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mx_print_flavour_env() {
  echo "export IREE_CUDA_HOME='$MX_IREE_HOME'"
  echo "export IREE_CUDA_COMPILE='$(mx_iree_compile_path)'"
  [ -n "${MLXCEL_XLA_CUDA_TARGET:-}" ] && echo "export MLXCEL_XLA_CUDA_TARGET='$MLXCEL_XLA_CUDA_TARGET'"
  return 0
}
mx_setup_main cuda cuda cuda "$@"
