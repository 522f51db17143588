#!/bin/bash
# Compiles call.sh's modules for cuda:sm_89 into .gpu/att (with the runtime wheel there): the padded
# decode attention (PP, PAD 8 and 16), the per-head form (SS) and the expanded form (XX), KV = 64
# (8 slots x 8 KV heads) and 8 (one slot), f32 and bf16 storage, W = 512. From the repository root.
set -eu
IC=${IREE_COMPILE:-$HOME/.cache/mlxcel/iree-3.13.0/venv/bin/iree-compile}
FL="--iree-input-type=stablehlo --iree-hal-target-device=cuda --iree-cuda-target=sm_89 --iree-opt-level=O3"
G=bench/results/2026-12-01-h200-attention/micro/gen.py
mkdir -p .gpu/att && cp "${XDG_CACHE_HOME:-$HOME/.cache}"/mlxcel/wheels/iree_base_runtime-3.13.0-cp312-*.whl .gpu/att/
one() { KV=$1 PAD=${4:-8} python3 $G ${2:0:1} ${2:1:1} $3 512 > /tmp/$5.mlir && $IC $FL /tmp/$5.mlir -o .gpu/att/$5.vmfb; }
for dt in f32 bf16; do
  for kv in 64 8; do
    one $kv SS $dt "" att-SS-$dt-512-kv$kv
    for pad in 8 16; do one $kv PP $dt $pad att-PP-$dt-512-kv$kv-pad$pad; done
  done
  one 8 XX $dt "" att-XX-$dt-512-kv8
done
