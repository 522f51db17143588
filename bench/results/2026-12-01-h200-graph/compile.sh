#!/bin/bash
# The new graph (KV layout, windows, multi-step) for cuda:sm_89 at O3, the VMFBs for .gpu/graph.
cd /work/main
export MLXCEL_XLA_IREE_COMPILE=/tmp/fl/ic-wrap.sh MX_EXTRA_FLAGS="--iree-opt-level=O3"
C=/work/shared/data/llama-3.2-1b/config.json
out=/work/main/.gpu/graph/vmfb
one() { # PREC SLOTS K
  local name=$1-s$2-k$3
  [ -f $out/$name.vmfb ] && return
  /usr/bin/time -f "$name wall %e s" nice build-bundle/mlxcel compile --config $C --device cuda --cuda-target sm_89 \
     --precision $1 --weights-dtype bf16 --context 512 --slots $2 --decode-steps $3 -o $out/$name.vmfb 2>&1 | tail -2
}
one bf16 1 8 & one bf16 1 1; wait
one f32 1 8 & one f16 8 8; wait
one f32 8 8 & one f32 4 8; wait
one bf16 1 4 & one f16 1 8; wait
echo done
