#!/bin/bash
# H200 call 2 (2026-12-03): the 8-slot decode step with its 16-bit weight products as one product
# each, reduction split (split_decode_reduction, this session's build, "new") against main at 42913bc
# ("old": two 4-row products), bf16 and f16, context 512, in one call:
#   1. decode_512_steps (8 steps of 8 slots) of both modules interleaved, iree-benchmark-module,
#      5 repetitions, two rounds;
#   2. bench/peers at B = 8: JAX/XLA bf16, then mlxcel new and old, bf16 and f16 (1 warm-up + 3 runs);
#   3. batch-bench bf16 at 8 slots for both (every 8-slot stream against its 1-slot run; the 1-slot
#      module is the same graph in both builds, signature included).
# Modules: bench/peers/prepare-gpu.sh .gpu/{new,old} sm_89 with CONTEXT=512 MODULES="bf16:8 f16:8" (old
# from a worktree of 42913bc), and .gpu/new/bin/mlxcel compile ... --precision bf16 --slots 1
# --context 512 -o .gpu/new/vmfb/bf16-s1.vmfb. Run from the repository root with .gpu/new and .gpu/old
# carried:  bash bench/results/2026-12-03-h200-rows8/call2.sh   (logs to $OUT)
set -u
N=.gpu/new O=.gpu/old M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
bm() { # TAG VMFB
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$2 --parameters=model=$M/model.safetensors \
    --function=decode_512_steps --input=8xi32=5 --input=8xi32=200 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 decode_512_steps rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do for p in bf16 f16; do bm "round $r old $p" $O/vmfb/$p-s8.vmfb; bm "round $r new $p" $N/vmfb/$p-s8.vmfb; done; done
P=$OUT/peers; mkdir -p $P/jax $P/new $P/old
env OUT=$P/jax PEERS=jax JAX_DTYPES=bf16 BATCHES=8 timeout 200 bash $N/peers/gpu.sh >> $OUT/peers.out 2>&1; echo "jax rc=$?" >> $OUT/peers.out
for b in new old; do
  env OUT=$P/$b PEERS=mlxcel DTYPES="bf16 f16" BATCHES=8 CONTEXT=512 TAG=$b timeout 200 bash .gpu/$b/peers/gpu.sh >> $OUT/peers.out 2>&1; echo "$b rc=$?" >> $OUT/peers.out
done
cat $P/jax/results.jsonl $P/new/results.jsonl $P/old/results.jsonl > $P/all.jsonl 2>/dev/null
python3 $N/peers/table.py $P/all.jsonl --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
for b in new old; do
  mkdir -p /tmp/bb-$b && ln -sf $PWD/$N/vmfb/bf16-s1.vmfb /tmp/bb-$b/s1.vmfb && ln -sf $PWD/.gpu/$b/vmfb/bf16-s8.vmfb /tmp/bb-$b/s8.vmfb
  LD_LIBRARY_PATH=$PWD/.gpu/$b/bin timeout 150 .gpu/$b/bin/mlxcel batch-bench -m $M --precision bf16 --device cuda --cuda-target sm_89 \
    --context 512 --slots 8 --vmfb-dir /tmp/bb-$b > $OUT/batch-bench-$b.log 2>&1; echo "batch-bench $b rc=$?" >> $OUT/batch-bench-$b.log
done
tar -czf $OUT/peers.tar.gz -C $OUT peers && rm -rf $P
