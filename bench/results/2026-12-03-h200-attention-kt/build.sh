#!/bin/bash
# Compiles call.sh's modules for cuda:sm_89 into .gpu/attkt (with the runtime wheel there): decode
# attention with K (and V) stored transposed, [KV, D, W], so that the QK reduction over D runs along K's
# outer dimension (forms T, U, Q of ../2026-12-01-h200-attention/micro/gen.py; V forms SV and V), against
# the engine's forms: per head S-S (8 slots) and expanded X-X (one slot). KV = 64 (8 slots x 8 KV heads)
# and 8 (one slot), f32 and bf16 storage, W = 512 (and 256 for two of them). From the repository root.
set -eu
IC=${IREE_COMPILE:-$HOME/.cache/mlxcel/iree-3.13.0/venv/bin/iree-compile}
FL="--iree-input-type=stablehlo --iree-hal-target-device=cuda --iree-cuda-target=sm_89 --iree-opt-level=O3"
G=bench/results/2026-12-01-h200-attention/micro/gen.py
D=.gpu/attkt
mkdir -p $D && cp "${XDG_CACHE_HOME:-$HOME/.cache}"/mlxcel/wheels/iree_base_runtime-3.13.0-cp312-*.whl $D/
one() { # KV QK PV DT W
  local n=att-$2-$3-$4-$5-kv$1
  [ -f $D/$n.vmfb ] && return 0
  KV=$1 python3 $G $2 $3 $4 $5 > /tmp/$n.mlir && $IC $FL /tmp/$n.mlir -o $D/$n.vmfb 2> $D/$n.err || echo "FAILED $n"
}
for dt in bf16 f32; do
  for kv in 64 8; do
    for f in "S S" "S SV" "U SV" "T V" "Q V" "U V" "T SV" "S V"; do one $kv $f $dt 512 & [ $(jobs -r | wc -l) -ge 2 ] && wait -n; done
  done
  one 8 X X $dt 512
done
one 64 S S bf16 256; one 64 U V bf16 256; one 64 T V bf16 256
wait
