#!/bin/bash
# Compiles the synthetic Llama-3.2-1B graph for cuda:sm_89 at each flag set and precision.
cd /work/wt-flags
export MLXCEL_XLA_IREE_COMPILE=/tmp/fl/ic-wrap.sh
C=/work/shared/data/llama-3.2-1b/config.json
out=/tmp/fl/cuda
mkdir -p $out
declare -A F=([O0]="" [O3]="--iree-opt-level=O3" [O3dt]="--iree-opt-level=O3 --iree-opt-data-tiling")
one() { # NAME FLAGSET PREC SLOTS
  local name=$1 fs=$2 p=$3 s=$4
  [ -f $out/$name.vmfb ] && return
  echo "== $name: extra [${F[$fs]}]"
  MX_EXTRA_FLAGS="${F[$fs]}" /usr/bin/time -f "wall %e s, maxrss %M KB" nice build/mlxcel compile --config $C --device cuda --cuda-target sm_89 \
     --precision $p --weights-dtype bf16 --context 512 --slots $s -o $out/$name.vmfb 2>&1
}
for fs in O0 O3 O3dt; do for p in f32 f16 bf16; do one $p-s1-$fs $fs $p 1; done; done
for fs in O0 O3 O3dt; do one f16-s8-$fs $fs f16 8; done
for fs in O0 O3 O3dt; do one f16-s4-$fs $fs f16 4; done
for fs in O3 O3dt; do for s in 4 8; do one f32-s$s-$fs $fs f32 $s; done; done
echo done
