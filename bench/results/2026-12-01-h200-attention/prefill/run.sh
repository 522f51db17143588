#!/bin/bash
# H200: where prefill goes: iree-benchmark-module and Nsight Compute of one prefill_128 call, bf16 and f32.
set -u
cd "$(dirname "$0")"
L=$OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site whl/*.whl || exit 1
BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module RM=/tmp/site/iree/_runtime_libs/iree-run-module
M=/tmp/l1b
mkdir -p /tmp/tok && cp data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ && xz -dc data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/bin bin/mlxcel synth --config data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0 > $L/synth.log 2>&1
IN="--input=128xi32=5 --input=i32=126 --input=i32=0"
for v in bf16-s1-k8 f32-s1-k8; do
  timeout 60 $BM --device=cuda --module=vmfb/$v.vmfb --parameters=model=$M/model.safetensors --function=prefill_128 $IN --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$v rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" | tee -a $L/bench.log
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $RM --device=cuda --module=vmfb/$v.vmfb --parameters=model=$M/model.safetensors --function=prefill_128 $IN > $L/ncu-prefill-$v.csv 2> $L/ncu-$v.err
  echo "ncu $v rc=$?" | tee -a $L/bench.log; gzip -f $L/ncu-prefill-$v.csv
done
