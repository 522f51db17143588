#!/bin/bash
# Synthetic Llama-3.2-1B f32 on the CPU, O0 against O3, interleaved; then cold compile times (salted keys).
cd /work/wt-flags
export MLXCEL_XLA_IREE_COMPILE=/tmp/fl/ic-wrap.sh NEW_TOKENS=${NEW_TOKENS:-32}
for r in 1 2; do for fs in O0 O3; do
  x=; [ $fs = O3 ] && x=--iree-opt-level=O3
  echo "=== 1B f32 flags $fs round $r; load $(cut -d' ' -f1-3 /proc/loadavg)"
  MX_EXTRA_FLAGS="$x" nice bench/generate_stats.sh build/oracle/llama-3.2-1b-synth f32 3 | grep -v "^model\|load ms\|module+\|peak"
done; done
M=$(scripts/fetch-model.sh 2>/dev/null)
for fs in O0 O3 O0 O3; do
  x=; [ $fs = O3 ] && x=--iree-opt-level=O3
  echo "=== cold compile SmolLM2 f32 flags $fs; load $(cut -d' ' -f1-3 /proc/loadavg)"
  MX_SALT=$RANDOM MX_EXTRA_FLAGS="$x" nice build/mlxcel generate -m $M -p hi -n 1 --no-chat --stats 2>&1 | grep -o "compile [0-9]* ms"
done
