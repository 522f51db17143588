#!/usr/bin/env bash
# Picks the IREE setup flavour for this host, says which and why, and runs it (--setup) or prints
# its --info (--info). The rule is deterministic:
#   1. MLXCEL_IREE_FLAVOUR=cpu|cuda (or rocm, once setup-rocm.sh exists), if set, wins;
#   2. otherwise cuda when an NVIDIA driver is loaded (/proc/driver/nvidia/version exists);
#   3. otherwise cpu.
# All flavours install the same pinned wheels; a flavour decides what is verified and exported.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
flavour=${MLXCEL_IREE_FLAVOUR:-}
why="MLXCEL_IREE_FLAVOUR=$flavour"
if [ -z "$flavour" ]; then
  if [ -e /proc/driver/nvidia/version ]; then flavour=cuda why="an NVIDIA driver is loaded"
  else flavour=cpu why="no GPU driver found"; fi
fi
script="$here/setup-$flavour.sh"
[ -x "$script" ] || { echo "mlxcel setup: no setup for flavour '$flavour' (have: cpu, cuda)" >&2; exit 2; }
echo "mlxcel setup: flavour $flavour ($why); explicit targets: make iree-cpu, make iree-cuda" >&2
case "${1:---setup}" in
  --setup) exec "$script" ;;
  --info) exec "$script" --info ;;
  *) echo "usage: select.sh [--setup|--info]" >&2; exit 2 ;;
esac
