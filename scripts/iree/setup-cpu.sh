#!/usr/bin/env bash
# Pinned IREE toolchain for the CPU (llvm-cpu compiler backend, local-task runtime driver).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mx_print_flavour_env() {
  echo "export IREE_CPU_HOME='$MX_IREE_HOME'"
  echo "export IREE_CPU_COMPILE='$(mx_iree_compile_path)'"
}
mx_setup_main cpu llvm-cpu local-task "$@"
