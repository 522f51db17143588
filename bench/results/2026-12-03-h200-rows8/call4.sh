#!/bin/bash
# H200 call 4 (2026-12-03): what a 16-bit KV cache (--kv-precision f16, an option in the low-precision
# modes since 2026-12-01) does to decode now that attention is half of the 8-slot step: bf16 modules of
# this session's build with the f32 and the f16 cache, 8 slots and 1, context 512:
#   1. decode_512_steps (8 steps) of each pair interleaved, iree-benchmark-module, 5 repetitions, 2 rounds;
#   2. bench/peers' mlxcel_peer.py at B = 8 and B = 1 for each, and JAX/XLA bf16 at B = 1 and 8.
# Modules: call2.sh's bf16-s1/s8, and .gpu/new/bin/mlxcel compile --config llama-3.2-1b/config.json
#   --weights-dtype bf16 --precision bf16 --kv-precision f16 --slots S --context 512 --device cuda
#   --cuda-target sm_89 -o .gpu/new/vmfb/bf16-kvf16-sS.vmfb   (S = 8, 1)
# Run from the repository root with .gpu/new carried (logs to $OUT).
set -u
N=.gpu/new M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) LD_LIBRARY_PATH=$PWD/$N/bin
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
$N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
bm() { # TAG VMFB SLOTS
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$2 --parameters=model=$M/model.safetensors \
    --function=decode_512_steps --input=$3xi32=5 --input=$3xi32=200 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 decode_512_steps rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do for s in 8 1; do bm "round $r kv-f32 s$s" $N/vmfb/bf16-s$s.vmfb $s; bm "round $r kv-f16 s$s" $N/vmfb/bf16-kvf16-s$s.vmfb $s; done; done
R=$OUT/results.jsonl ids=$N/data/prompt_ids.json
peer() { # NAME BATCH VMFB EXTRA...
  local name=$1 b=$2 v=$3; shift 3
  timeout 150 python3 $N/peers/mlxcel_peer.py --mlxcel $N/bin/mlxcel --model $M --dtype bf16 --batch $b --prompt-ids $ids \
    --prompt-file $N/data/prompt.txt --new 128 --runs 3 --out $R --vmfb $v --context 512 --note "$name" \
    -- --device cuda --cuda-target sm_89 "$@" > $OUT/$name-b$b.log 2>&1; echo "$name b$b rc=$?" >> $OUT/peers.out
}
for b in 8 1; do peer kv-f32 $b $N/vmfb/bf16-s$b.vmfb; peer kv-f16 $b $N/vmfb/bf16-kvf16-s$b.vmfb --kv-precision f16; done
timeout 240 python3 $N/peers/jax_peer.py --model $M --dtype bf16 --batch 1,8 --prompt-ids $ids --new 128 --runs 3 --out $R \
  > $OUT/jax.log 2>&1; echo "jax rc=$?" >> $OUT/peers.out
python3 $N/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
