#!/bin/bash
# CPU spike: SmolLM2 decode figures at each flag set (wrapper appends the flags; --version names them).
cd /work/wt-flags
export MLXCEL_XLA_IREE_COMPILE=/tmp/fl/ic-wrap.sh
M=$(scripts/fetch-model.sh)
for fs in "$@"; do
  case $fs in
    O0) x="" ;; O0dt) x="--iree-opt-data-tiling" ;; O2) x="--iree-opt-level=O2" ;;
    O3) x="--iree-opt-level=O3" ;; O3dt) x="--iree-opt-level=O3 --iree-opt-data-tiling" ;;
    O1) x="--iree-opt-level=O1" ;; O1dt) x="--iree-opt-level=O1 --iree-opt-data-tiling" ;;
    O0dtU) x="--iree-opt-data-tiling --iree-llvmcpu-enable-ukernels=all" ;;
    O2dt) x="--iree-opt-level=O2 --iree-opt-data-tiling" ;;
    O3dtL) x="--iree-opt-level=O3 --iree-opt-data-tiling --iree-llvmcpu-stack-allocation-limit=131072" ;;
  esac
  for p in ${PRECS:-f32}; do
    echo "=== flags $fs [$x] precision $p; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    MX_EXTRA_FLAGS="$x" nice bench/generate_stats.sh "$M" $p 3
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
