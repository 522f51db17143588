#!/bin/bash
# H200 call (2026-12-03): decode windows x2 on the GPU targets (mx_target_window_ratio; this session's
# build, "new": windows 128, 256, 512 at context 512) against main at 00928f6 ("old": 128, 512), bf16,
# context 512, in one call:
#   1. iree-benchmark-module, 5 repetitions, two rounds: old decode_512_steps against new
#      decode_256_steps and decode_512_steps (the same graph as old's: the control), at 8 slots and 1;
#   2. bench/peers' mlxcel_peer.py at B = 8 and 1 for both builds (prompt 126, 128 new: positions
#      126..254, which old decodes in its 512 window and new in 256), and JAX/XLA bf16 at B = 1 and 8;
#   3. batch-bench bf16 at 8 slots for both builds.
# Modules: bench/peers/prepare-gpu.sh .gpu/{new,old} sm_89 with CONTEXT=512 MODULES="bf16:8 bf16:1"
# (old from a worktree of 00928f6, MLXCEL_SHARED=/work/shared). Run from the repository root with
# .gpu/new and .gpu/old carried: bash bench/results/2026-12-03-h200-windows/call.sh (bench.log, table.txt,
# results.jsonl and the other logs in logs.tar.gz under $OUT)
set -u
L=$OUT/logs; mkdir -p $L
N=.gpu/new O=.gpu/old M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
bm() { # TAG VMFB FUNCTION SLOTS
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$2 --parameters=model=$M/model.safetensors \
    --function=$3 --input=$4xi32=5 --input=$4xi32=200 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 $3 rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do for s in 8 1; do
  bm "round $r old s$s" $O/vmfb/bf16-s$s.vmfb decode_512_steps $s
  bm "round $r new s$s" $N/vmfb/bf16-s$s.vmfb decode_256_steps $s
  bm "round $r new s$s" $N/vmfb/bf16-s$s.vmfb decode_512_steps $s
done; done
R=$OUT/results.jsonl ids=$N/data/prompt_ids.json
peer() { # BUILD BATCH
  LD_LIBRARY_PATH=$PWD/.gpu/$1/bin timeout 150 python3 $N/peers/mlxcel_peer.py --mlxcel .gpu/$1/bin/mlxcel --model $M --dtype bf16 \
    --batch $2 --prompt-ids $ids --prompt-file $N/data/prompt.txt --new 128 --runs 3 --out $R --vmfb .gpu/$1/vmfb/bf16-s$2.vmfb \
    --context 512 --note "$1" -- --device cuda --cuda-target sm_89 > $L/peer-$1-b$2.log 2>&1; echo "$1 b$2 rc=$?" >> $L/peers.out
}
for b in 8 1; do peer new $b; peer old $b; done
timeout 240 python3 $N/peers/jax_peer.py --model $M --dtype bf16 --batch 1,8 --prompt-ids $ids --new 128 --runs 3 --out $R \
  > $L/jax.log 2>&1; echo "jax rc=$?" >> $L/peers.out
python3 $N/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
for b in new old; do
  mkdir -p /tmp/bb-$b && ln -sf $PWD/.gpu/$b/vmfb/bf16-s1.vmfb /tmp/bb-$b/s1.vmfb && ln -sf $PWD/.gpu/$b/vmfb/bf16-s8.vmfb /tmp/bb-$b/s8.vmfb
  LD_LIBRARY_PATH=$PWD/.gpu/$b/bin timeout 150 .gpu/$b/bin/mlxcel batch-bench -m $M --precision bf16 --device cuda --cuda-target sm_89 \
    --context 512 --slots 8 --vmfb-dir /tmp/bb-$b > $L/batch-bench-$b.log 2>&1; echo "batch-bench $b rc=$?" >> $L/batch-bench-$b.log
done
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
