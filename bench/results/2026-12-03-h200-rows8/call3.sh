#!/bin/bash
# H200 call 3 (2026-12-03): (1) Nsight Compute over one decode_512_steps call (8 steps, 8 slots) of the
# new bf16 module, every kernel's time (for docs/performance.md's profile; ncu_kinds.py groups it);
# (2) batch-bench f16 at 8 slots for the new and old builds (each 8-slot stream against its 1-slot run,
# the 1-slot module the same graph in both). Modules as call2.sh, plus
#   .gpu/new/bin/mlxcel compile ... --precision f16 --slots 1 --context 512 -o .gpu/new/vmfb/f16-s1.vmfb
# Run from the repository root with .gpu/new and .gpu/old carried (logs to $OUT).
set -u
N=.gpu/new O=.gpu/old M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RT/iree-run-module --device=cuda --module=$N/vmfb/bf16-s8.vmfb --parameters=model=$M/model.safetensors \
  --function=decode_512_steps --input=8xi32=5 --input=8xi32=200 > $OUT/ncu-new.csv 2> /tmp/ncu.err
echo "ncu new rc=$? $(wc -l < $OUT/ncu-new.csv) lines" > $OUT/ncu.log; tail -3 /tmp/ncu.err >> $OUT/ncu.log; gzip -f $OUT/ncu-new.csv
for b in new old; do
  mkdir -p /tmp/bb-$b && ln -sf $PWD/$N/vmfb/f16-s1.vmfb /tmp/bb-$b/s1.vmfb && ln -sf $PWD/.gpu/$b/vmfb/f16-s8.vmfb /tmp/bb-$b/s8.vmfb
  LD_LIBRARY_PATH=$PWD/.gpu/$b/bin timeout 150 .gpu/$b/bin/mlxcel batch-bench -m $M --precision f16 --device cuda --cuda-target sm_89 \
    --context 512 --slots 8 --vmfb-dir /tmp/bb-$b > $OUT/batch-bench-f16-$b.log 2>&1; echo "batch-bench f16 $b rc=$?" >> $OUT/batch-bench-f16-$b.log
done
