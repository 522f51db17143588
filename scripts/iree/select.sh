#!/usr/bin/env bash
# Picks the IREE setup flavour for this host, says which and why, and runs it (--setup) or prints
# its --info (--info). The rule is deterministic:
#   1. MLXCEL_IREE_FLAVOUR=cpu|cuda|rocm, if set, wins;
#   2. otherwise, by the kernel drivers present: NVIDIA (/proc/driver/nvidia/version) alone -> cuda;
#      AMD KFD (/dev/kfd) alone -> rocm; both -> refused, naming MLXCEL_IREE_FLAVOUR and the explicit
#      targets (a choice between vendors is never guessed); neither -> cpu.
# All flavours install the same pinned wheels; a flavour decides what is verified and exported.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
flavour=${MLXCEL_IREE_FLAVOUR:-}
why="MLXCEL_IREE_FLAVOUR=$flavour"
nvidia=${MLXCEL_NVIDIA_PROBE:-/proc/driver/nvidia/version}
kfd=${MLXCEL_KFD_PROBE:-/dev/kfd}
if [ -z "$flavour" ]; then
  if [ -e "$nvidia" ] && [ -e "$kfd" ]; then
    echo "mlxcel setup: both an NVIDIA driver ($nvidia) and AMD KFD ($kfd) are present; remedy: set MLXCEL_IREE_FLAVOUR=cuda or rocm, or run make iree-cuda / make iree-rocm" >&2
    exit 2
  elif [ -e "$nvidia" ]; then flavour=cuda why="an NVIDIA driver is loaded"
  elif [ -e "$kfd" ]; then flavour=rocm why="AMD KFD ($kfd) is present"
  else flavour=cpu why="no GPU driver found"; fi
fi
script="$here/setup-$flavour.sh"
[ -x "$script" ] || { echo "mlxcel setup: no setup for flavour '$flavour' (have: cpu, cuda, rocm)" >&2; exit 2; }
echo "mlxcel setup: flavour $flavour ($why); explicit targets: make iree-cpu, make iree-cuda, make iree-rocm" >&2
case "${1:---setup}" in
  --setup) exec "$script" ;;
  --info) exec "$script" --info ;;
  *) echo "usage: select.sh [--setup|--info]" >&2; exit 2 ;;
esac
