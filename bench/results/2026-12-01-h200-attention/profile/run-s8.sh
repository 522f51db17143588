#!/bin/bash
# H200: per-kernel profile of one batched decode step (decode_512, K=1) at f16 8 slots, f32 8 and 4 slots.
set -u
cd "$(dirname "$0")"
L=$OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site whl/*.whl || exit 1
BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module RM=/tmp/site/iree/_runtime_libs/iree-run-module
M=/tmp/l1b
mkdir -p /tmp/tok && cp data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ && xz -dc data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/../x/bin ../x/bin/mlxcel synth --config data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0 > $L/synth.log 2>&1
for c in "f16-s8-k1 8" "f32-s8-k1 8" "f32-s4-k1 4"; do set -- $c
  IN="--input=${2}xi32=5 --input=${2}xi32=200"
  timeout 60 $BM --device=cuda --module=vmfb/$1.vmfb --parameters=model=$M/model.safetensors --function=decode_512 $IN --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" | tee -a $L/bench.log
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $RM --device=cuda --module=vmfb/$1.vmfb --parameters=model=$M/model.safetensors --function=decode_512 $IN > $L/ncu-$1.csv 2> $L/ncu-$1.err
  echo "ncu $1 rc=$?" | tee -a $L/bench.log; gzip -f $L/ncu-$1.csv
done
