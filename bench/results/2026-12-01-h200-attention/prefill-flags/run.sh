#!/bin/bash
# H200: compiler flags for prefill (split-K, TileAndFuse matmul, C-matrix threshold), each module's
# prefill_128 and 8-step decode against the shipped flags, iree-benchmark-module, 5 repetitions.
set -u
cd "$(dirname "$0")"
L=$OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site whl/*.whl || exit 1
BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module
M=/tmp/l1b
mkdir -p /tmp/tok && cp data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ && xz -dc data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/bin bin/mlxcel synth --config data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0 > $L/synth.log 2>&1
bm() { # MODULE FUNCTION INPUTS
  local v=$1 fn=$2; shift 2
  timeout 60 $BM --device=cuda --module=vmfb/$v.vmfb --parameters=model=$M/model.safetensors --function=$fn "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$v $fn rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}') $(grep -m1 -i error /tmp/bm.log)" | tee -a $L/bench.log
}
for v in vmfb/*.vmfb; do v=$(basename $v .vmfb)
  bm $v prefill_128 --input=128xi32=5 --input=i32=126 --input=i32=0
  bm $v decode_512_steps --input=1xi32=5 --input=1xi32=200
done
