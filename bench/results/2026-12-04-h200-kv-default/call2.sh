#!/bin/bash
# H200 call 2 (2026-12-04): the per-head decode attention from window 4096 at one slot
# (mx_target_head_attention_window; micro-benchmarks in ../2026-12-04-h200-attention-w4096/) against
# the build of call.sh, both bf16 with their default bf16 cache, one slot, context 8192:
#   1. iree-benchmark-module, 5 repetitions, two rounds: decode_4096_steps (8 steps from 2200),
#      decode_8192_steps (from 5000), and decode_2048_steps (from 1000; the same graph in both: control);
#   2. bench/peers at B = 1, 128 new, 1 warm-up + 3 runs, the 2139-token prompt: both builds and JAX/XLA.
# Modules: `CONTEXT=8192 MODULES="bf16:1" bench/peers/prepare-gpu.sh .gpu/{kvdef,win} sm_89`. Run from the
# repository root with .gpu/kvdef (without its wheel) and .gpu/win carried.
set -u
L=$OUT/logs; mkdir -p $L
N=.gpu/win O=.gpu/kvdef M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
bm() { # TAG VMFB FUNCTION POSITION
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$2 --parameters=model=$M/model.safetensors \
    --function=$3 --input=1xi32=5 --input=1xi32=$4 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 $3 from $4 rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do
  for f in "decode_4096_steps 2200" "decode_8192_steps 5000" "decode_2048_steps 1000"; do
    bm "round $r old" $O/vmfb/bf16-s1.vmfb $f
    bm "round $r new" $N/vmfb/bf16-s1.vmfb $f
  done
done
R=$OUT/results.jsonl ids=$N/data/prompt-2048_ids.json
for b in win kvdef; do
  LD_LIBRARY_PATH=$PWD/.gpu/$b/bin timeout 200 python3 $N/peers/mlxcel_peer.py --mlxcel .gpu/$b/bin/mlxcel --model $M --dtype bf16 \
    --batch 1 --prompt-ids $ids --prompt-file $N/data/prompt-2048.txt --new 128 --runs 3 --out $R --vmfb .gpu/$b/vmfb/bf16-s1.vmfb \
    --context 8192 --note "$b prompt-2048" -- --device cuda --cuda-target sm_89 > $L/mlxcel-$b.log 2>&1; echo "$b rc=$?" >> $L/peers.out
done
timeout 200 python3 $N/peers/jax_peer.py --model $M --dtype bf16 --batch 1 --prompt-ids $ids --new 128 --runs 3 --out $R --note "jax prompt-2048" \
  --context 2267 > $L/jax.log 2>&1; echo "jax rc=$?" >> $L/peers.out
python3 $N/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
cp $L/peers.out $OUT/peers.out
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
