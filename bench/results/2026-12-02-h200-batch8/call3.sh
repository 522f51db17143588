#!/bin/bash
# H200 call 3 (2026-12-02): the f32 gates of the flattened per-head attention (1bb6cf9): `mlxcel check`
# against the HF fixture on the 1-slot module, and batch-bench f32 at 8 slots (every 8-slot stream equal
# to its 1-slot run), modules compiled with 1bb6cf9's build/mlxcel:
#   mlxcel compile --config llama-3.2-1b/config.json --weights-dtype bf16 --precision f32 --slots S
#     --context 256 --device cuda --cuda-target sm_89 -o .gpu-b8/flat/vmfb/f32-c256-sS.vmfb   (S = 1, 8)
# Run from the repository root with .gpu-b8 carried:  bash .gpu-b8/call3.sh   (logs to $OUT)
set -u
N=.gpu-b8/new F=.gpu-b8/flat M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) LD_LIBRARY_PATH=$PWD/$F/bin
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
$F/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
timeout 150 $F/bin/mlxcel check -m $M --fixture $N/data/llama32-1b-synth.json --device cuda --cuda-target sm_89 \
  --context 256 --vmfb $F/vmfb/f32-c256-s1.vmfb > $OUT/check.log 2>&1; echo "check rc=$?" >> $OUT/check.log
mkdir -p /tmp/bb && ln -sf $PWD/$F/vmfb/f32-c256-s1.vmfb /tmp/bb/s1.vmfb && ln -sf $PWD/$F/vmfb/f32-c256-s8.vmfb /tmp/bb/s8.vmfb
timeout 200 $F/bin/mlxcel batch-bench -m $M --precision f32 --device cuda --cuda-target sm_89 --context 256 --slots 8 \
  --vmfb-dir /tmp/bb > $OUT/batch-bench.log 2>&1; echo "batch-bench rc=$?" >> $OUT/batch-bench.log
