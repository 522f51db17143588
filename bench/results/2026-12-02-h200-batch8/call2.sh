#!/bin/bash
# H200 call 2 (2026-12-02): the per-head decode attention with (slot, KV head) as one batch dimension
# (1bb6cf9, "flat") against main at da5e8cd ("old"), bf16, 8 slots, context 512, in one call: JAX/XLA
# bf16 B = 8 and both mlxcel builds through bench/peers (1 warm-up + 3 runs), then decode_512_steps of
# both modules interleaved (iree-benchmark-module, 5 repetitions, two rounds). The flat module:
#   build/mlxcel compile --config llama-3.2-1b/config.json --weights-dtype bf16 --precision bf16 --slots 8
#     --context 512 --device cuda --cuda-target sm_89 -o bf16-s8.vmfb   (1bb6cf9), with its `make bundle`
# in .gpu-b8/flat/bin; .gpu-b8/old as in calls.sh; .gpu-b8/new holds the runtime wheel and the data.
# Run from the repository root with .gpu-b8 carried:  bash .gpu-b8/call2.sh   (logs to $OUT)
set -u
N=.gpu-b8/new F=.gpu-b8/flat O=.gpu-b8/old M=/tmp/peers-l1b
[ -d /tmp/peers-site/iree ] || python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
[ -f $M/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$N/bin $O/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
IN="--input=8xi32=5 --input=8xi32=200"
bm() { # TAG VMFB
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$2 --parameters=model=$M/model.safetensors \
    --function=decode_512_steps $IN --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 decode_512_steps rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do bm "round $r old" $O/vmfb/bf16-s8.vmfb; bm "round $r flat" $F/vmfb/bf16-s8.vmfb; done
P=$OUT/peers; mkdir -p $P/jax $P/flat $P/old
env OUT=$P/jax PEERS=jax JAX_DTYPES=bf16 BATCHES=8 timeout 200 bash $N/peers/gpu.sh >> $OUT/peers.out 2>&1; echo "jax rc=$?" >> $OUT/peers.out
env OUT=$P/flat PEERS=mlxcel DTYPES=bf16 BATCHES=8 CONTEXT=512 TAG=flat timeout 150 bash $F/peers/gpu.sh >> $OUT/peers.out 2>&1; echo "flat rc=$?" >> $OUT/peers.out
env OUT=$P/old PEERS=mlxcel DTYPES=bf16 BATCHES=8 CONTEXT=512 TAG=old timeout 150 bash $O/peers/gpu.sh >> $OUT/peers.out 2>&1; echo "old rc=$?" >> $OUT/peers.out
cat $P/jax/results.jsonl $P/flat/results.jsonl $P/old/results.jsonl > $P/all.jsonl 2>/dev/null
python3 $N/peers/table.py $P/all.jsonl --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/peers.tar.gz -C $OUT peers && rm -rf $P
