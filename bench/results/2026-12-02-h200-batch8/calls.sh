#!/bin/bash
# H200 calls 1 and 2 (2026-12-02, batch 8): the per-head decode attention at 8 slots (new, branch gpu-batch8)
# against main at da5e8cd (old), both bf16, 8 slots, context 512. The folders were made by
#   MODULES="bf16:8" CONTEXT=0 bench/peers/prepare-gpu.sh .gpu-b8/new (a87fdd1) and .gpu-b8/old (da5e8cd);
# the new one's bin/ then replaced by this branch's `make bundle` (the window limit, 2nd commit), and the
# modules compiled with each folder's bin/mlxcel (the capacity-8192 build of the new graph failed, see
# docs/performance.md): mlxcel compile --config data/config.json --weights-dtype bf16 --precision bf16
#   --slots 8 --context 512 --device cuda --cuda-target sm_89 -o vmfb/bf16-s8.vmfb
# and for the f32 gates (a87fdd1's binary; at W <= 256 its graph is this branch's): the same with
#   --precision f32 --slots S --context 256 -o vmfb/f32-c256-sS.vmfb (S = 1, 8)
#   MODULES="bf16:8" CONTEXT=0 bench/peers/prepare-gpu.sh .gpu-b8/old               (da5e8cd)
# Call 1: the peer rows at batch 8 (JAX/XLA bf16, the new mlxcel, the old mlxcel: same prompt, 128 new
# tokens, 1 warm-up + 3 runs); the device call decode_512_steps of both modules side by side
# (iree-benchmark-module, 5 repetitions, two interleaved rounds); Nsight Compute per kernel on one
# decode_512_steps call of each. Call 2: `mlxcel check` f32 against the HF fixture (the 1-slot module)
# and batch-bench f32 at 8 slots (every 8-slot stream equal to its 1-slot run: the changed module's gate).
# Two device calls, back to back (each under the 10-minute limit), from the repository root with .gpu-b8
# carried:  bash .gpu-b8/calls.sh 1   then   bash .gpu-b8/calls.sh 2   (logs to $OUT)
set -u
PART=${1:?part 1 or 2}
N=.gpu-b8/new O=.gpu-b8/old M=/tmp/peers-l1b
[ -d /tmp/peers-site/iree ] || python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
[ -f $M/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
sha256sum $M/model.safetensors >> $OUT/synth.log
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.log 2>&1
IN="--input=8xi32=5 --input=8xi32=200"
bm() { # TAG VMFB
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$2 --parameters=model=$M/model.safetensors \
    --function=decode_512_steps $IN --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 decode_512_steps rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
if [ $PART = 1 ]; then
# the peers at batch 8: JAX/XLA bf16, then the new and the old mlxcel
P=$OUT/peers; mkdir -p $P/jax $P/new $P/old
env OUT=$P/jax PEERS=jax JAX_DTYPES=bf16 BATCHES=8 timeout 200 bash $N/peers/gpu.sh >> $OUT/peers.out 2>&1; echo "jax rc=$?" >> $OUT/peers.out
[ -s $N/vmfb/bf16-s8.vmfb ] && env OUT=$P/new PEERS=mlxcel DTYPES=bf16 BATCHES=8 CONTEXT=512 TAG=new timeout 150 bash $N/peers/gpu.sh >> $OUT/peers.out 2>&1; echo "new rc=$?" >> $OUT/peers.out
env OUT=$P/old PEERS=mlxcel DTYPES=bf16 BATCHES=8 CONTEXT=512 TAG=old timeout 150 bash $O/peers/gpu.sh >> $OUT/peers.out 2>&1; echo "old rc=$?" >> $OUT/peers.out
cat $P/jax/results.jsonl $P/new/results.jsonl $P/old/results.jsonl > $P/all.jsonl 2>/dev/null
python3 $N/peers/table.py $P/all.jsonl --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/peers.tar.gz -C $OUT peers && rm -rf $P
# the device call, old and new interleaved
for r in 1 2; do bm "round $r old" $O/vmfb/bf16-s8.vmfb; [ -s $N/vmfb/bf16-s8.vmfb ] && bm "round $r new" $N/vmfb/bf16-s8.vmfb; done
# Nsight Compute: every kernel of one decode_512_steps call (8 steps, 8 slots)
for v in old $([ -s $N/vmfb/bf16-s8.vmfb ] && echo new); do
  d=$O; [ $v = new ] && d=$N
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $RT/iree-run-module --device=cuda --module=$d/vmfb/bf16-s8.vmfb --parameters=model=$M/model.safetensors \
    --function=decode_512_steps $IN > $OUT/ncu-$v.csv 2> /tmp/ncu-$v.err
  echo "ncu $v rc=$? $(wc -l < $OUT/ncu-$v.csv) lines" >> $OUT/bench.log; tail -3 /tmp/ncu-$v.err >> $OUT/bench.log
  gzip -f $OUT/ncu-$v.csv
done
# a second ncu pass of the old module: one decode_512 call (one step), for launch counts per step
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RT/iree-run-module --device=cuda --module=$O/vmfb/bf16-s8.vmfb --parameters=model=$M/model.safetensors \
  --function=decode_512 $IN > $OUT/ncu-old-1step.csv 2> /tmp/ncu-1.err; echo "ncu old 1 step rc=$?" >> $OUT/bench.log; gzip -f $OUT/ncu-old-1step.csv
fi
if [ $PART = 2 ]; then
# f32 gate: the 1-slot module against the HF fixture
timeout 200 env LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel check -m $M --fixture $N/data/llama32-1b-synth.json --device cuda \
  --cuda-target sm_89 --context 256 --vmfb $N/vmfb/f32-c256-s1.vmfb > $OUT/check.log 2>&1; echo "check rc=$?" >> $OUT/check.log
# f32 gate of the changed 8-slot module: every batched stream equal to its 1-slot run
mkdir -p /tmp/bb && ln -sf $PWD/$N/vmfb/f32-c256-s1.vmfb /tmp/bb/s1.vmfb && ln -sf $PWD/$N/vmfb/f32-c256-s8.vmfb /tmp/bb/s8.vmfb
timeout 200 env LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel batch-bench -m $M --precision f32 --device cuda --cuda-target sm_89 \
  --context 256 --slots 8 --vmfb-dir /tmp/bb > $OUT/batch-bench.log 2>&1; echo "batch-bench rc=$?" >> $OUT/batch-bench.log
fi
