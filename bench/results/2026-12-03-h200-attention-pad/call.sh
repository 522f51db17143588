#!/bin/bash
# H200 call 5 (2026-12-03): decode attention with the group's 4 query heads padded to 8 or 16 rows
# (form PP of ../2026-12-01-h200-attention/micro/gen.py, with optimization barriers so that IREE keeps
# M = 8/16 and maps the products onto tensor-core tiles) against the engine's forms: per head SS (8
# slots: KV = 64 = slots x KV heads) and expanded XX (1 slot: KV = 8). 16 chained layers, W = 512,
# f32 and bf16 storage, iree-benchmark-module 5 repetitions, two rounds. Modules compiled here:
#   KV=$kv PAD=$pad python3 gen.py F F $dt 512 > m.mlir; iree-compile --iree-input-type=stablehlo
#   --iree-hal-target-device=cuda --iree-cuda-target=sm_89 --iree-opt-level=O3 m.mlir -o m.vmfb
# Run from the repository root with .gpu/att carried (the VMFBs and the runtime wheel).
set -u
A=.gpu/att
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site $A/*.whl || exit 1
BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module
for r in 1 2; do for f in $A/att-*.vmfb; do
  n=$(basename $f .vmfb); dt=$(echo $n | cut -d- -f3); kv=${n#*-kv}; kv=${kv%%-*}
  timeout 60 $BM --device=cuda --module=$f --function=att --input=${kv}x4x64xf32=0.01 --input=16x${kv}x512x64x${dt}=0.02 \
    --input=16x${kv}x512x64x${dt}=0.03 --input=i32=502 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "round $r $n rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s", $2, $3}')" | tee -a $OUT/att.log
done; done
