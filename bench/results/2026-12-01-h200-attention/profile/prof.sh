#!/bin/bash
# H200, 2026-12-01 (session 2): where the decode step's time goes, per dispatch. The old graph (main at
# 37cdb3b, O3) against the new one (1d96e6c), bf16, batch 1: iree-benchmark-module per function (device
# time per call without the engine), CUDA-graph mode, and Nsight Compute's duration of every kernel of one call.
#   bash .gpu/prof/prof.sh   (logs go to $OUT)
set -u
cd "$(dirname "$0")"
L=$OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site whl/*.whl || exit 1
export PYTHONPATH=/tmp/site LD_LIBRARY_PATH=$PWD/bin
RT=/tmp/site/iree/_runtime_libs BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module RM=/tmp/site/iree/_runtime_libs/iree-run-module
B=$PWD/bin/mlxcel M=/tmp/l1b
mkdir -p /tmp/tok && cp data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ && xz -dc data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
{ time $B synth --config data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0; } > $L/synth.log 2>&1
sha256sum $M/model.safetensors >> $L/synth.log
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; ls $RT; } > $L/env.log 2>&1
bm() { # TAG VMFB FUNCTION [runtime flags / inputs...]
  local tag=$1 v=$2 fn=$3; shift 3
  timeout 90 $BM --device=cuda --module=vmfb/$v.vmfb --parameters=model=$M/model.safetensors --function=$fn "$@" \
    --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  local rc=$?
  { echo "== $tag $v $fn rc=$rc $*"; cat /tmp/bm.log; } >> $L/bench.log
  echo "$tag $v $fn rc=$rc $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}') $(grep -i error /tmp/bm.log | head -2)" | tee -a $L/bench-summary.log
}
IN1="--input=1xi32=5 --input=1xi32=200"
for r in 1 2; do
  bm streams old-bf16-k1 decode $IN1
  bm streams new-bf16-k1 decode_512 $IN1
  bm streams new-bf16-k1 decode_128 --input=1xi32=5 --input=1xi32=100
  bm streams new-bf16-k8 decode_512_steps $IN1
done
bm graphs old-bf16-k1 decode --cuda_use_streams=false $IN1
bm graphs new-bf16-k1 decode_512 --cuda_use_streams=false $IN1
bm graphs new-bf16-k8 decode_512_steps --cuda_use_streams=false $IN1
prof() { # TAG VMFB FUNCTION
  timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $RM --device=cuda --module=vmfb/$2.vmfb --parameters=model=$M/model.safetensors --function=$3 $IN1 > $L/ncu-$1.csv 2> $L/ncu-$1.err
  echo "ncu $1 rc=$? kernels $(grep -c gpu__time_duration $L/ncu-$1.csv)" | tee -a $L/bench-summary.log
}
prof old old-bf16-k1 decode
prof new new-bf16-k1 decode_512
gzip -f $L/ncu-*.csv
