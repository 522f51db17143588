#!/bin/bash
# H200 call 5 (2026-12-01, session 5): an f16 KV cache (--kv-precision f16) against the f32 one, bf16
# weights, context 8192: the module of call 2 (f32 KV) and one compiled here with
# `mlxcel compile --config llama-3.2-1b/config.json --weights-dtype bf16 --precision bf16 --kv-precision f16
#  --context 0 --device cuda --cuda-target sm_89`, the same functions side by side, two rounds.
# Run from the repository root with .gpu/peers2 and .gpu/kv carried:
#   bash bench/results/2026-12-01-h200-peers/call5.sh      (logs to $OUT)
set -u
P=.gpu/peers2 M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $P/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site LD_LIBRARY_PATH=$PWD/$P/bin
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $P/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $P/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
$P/bin/mlxcel synth --config $P/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
bm() { # TAG VMFB FUNCTION INPUTS...
  local tag=$1 v=$2 fn=$3; shift 3
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$M/model.safetensors --function=$fn "$@" \
    --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$tag $fn rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do
  for m in "kv-f32 $P/vmfb/bf16-s1.vmfb" "kv-f16 .gpu/kv/bf16-kvf16-s1.vmfb"; do
    set -- $m
    bm $1 $2 extend_2048 --input=512xi32=5 --input=i32=512 --input=i32=512 --input=i32=0
    bm $1 $2 decode_8192_steps --input=1xi32=5 --input=1xi32=4096
    bm $1 $2 decode_512_steps --input=1xi32=5 --input=1xi32=200
    if [ $r = 1 ]; then
      bm $1 $2 prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0
      bm $1 $2 decode_2048_steps --input=1xi32=5 --input=1xi32=1024
      bm $1 $2 extend_8192 --input=512xi32=5 --input=i32=2048 --input=i32=512 --input=i32=0
    fi
  done
done
