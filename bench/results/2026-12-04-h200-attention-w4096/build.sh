#!/bin/bash
# Compiles decode-attention micro-benchmarks for cuda:sm_89 into .gpu/attw (with the runtime wheel there):
# one slot (KV = 8), bf16 storage, at W = 512 and 4096, in the forms over the engine's [KV, W, D] cache
# of ../2026-12-01-h200-attention/micro/gen.py: X X (K and V repeated per query head, the engine's
# one-slot form), S S (one batched matrix-vector product per query head, its 8-slot form), A A (grouped),
# B B (operands swapped), and the mixes S X and X S. The question: at W = 4096 the one-slot decode
# step's attention is 2.8 ms of its 4.6 (ncu, ../2026-12-04-h200-kv-default/), most of it the repeat and
# the two products over the repeated window: does another form scale better with W? Run
# ../2026-12-03-h200-attention-kt/call.sh with ATT_DIR=.gpu/attw on the GPU machine. From the repository root.
set -eu
IC=${IREE_COMPILE:-$HOME/.cache/mlxcel/iree-3.13.0/venv/bin/iree-compile}
FL="--iree-input-type=stablehlo --iree-hal-target-device=cuda --iree-cuda-target=sm_89 --iree-opt-level=O3"
G=bench/results/2026-12-01-h200-attention/micro/gen.py
D=.gpu/attw
mkdir -p $D && cp "${XDG_CACHE_HOME:-$HOME/.cache}"/mlxcel/wheels/iree_base_runtime-3.13.0-cp312-*.whl $D/
one() { # KV QK PV DT W
  local n=att-$2-$3-$4-$5-kv$1
  [ -f $D/$n.vmfb ] && return 0
  KV=$1 python3 $G $2 $3 $4 $5 > /tmp/$n.mlir && $IC $FL /tmp/$n.mlir -o $D/$n.vmfb 2> $D/$n.err || echo "FAILED $n"
}
for W in 512 4096; do
  for f in "X X" "S S" "A A" "B B" "S X" "X S"; do one 8 $f bf16 $W & [ $(jobs -r | wc -l) -ge 2 ] && wait -n; done
done
wait
