#!/bin/bash
# H200 call 2 (2026-12-02, session 6): the same modules as call1.sh (.gpu/pk) plus packed-f32-s1,
#   mlxcel compile --config llama-3.2-1b/config.json --precision f32 --quant packed --context 512 --device cuda --cuda-target sm_89
# and packed128-bf16-s1 (the same with --quant-group 128):
# 4. decode_512_steps of bf16, packed (group 32) and packed (group 128), two rounds; one bf16 and one
#    packed-128 generate for their peak device memory; Nsight Compute on one decode step of each
#    (kernel times, DRAM bytes),
# 5. the packed path against HF fp32 on the same weights (the synthetic 1B on the 4-bit grid).
# Run from the repository root with .gpu/pk carried:  bash bench/results/2026-12-02-h200-packed/call2.sh
set -u
P=.gpu/pk M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $P/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site LD_LIBRARY_PATH=$PWD/$P/bin MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $P/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $P/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
$P/bin/mlxcel synth --config $P/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.log 2>&1
# The packed weights, prepared as in call 1.
( time $P/bin/mlxcel generate -m $M -p "The capital of France is" -n 16 --no-chat --precision bf16 --context 512 --quant packed \
    --device cuda --cuda-target sm_89 --vmfb $P/vmfb/packed-bf16-s1.vmfb --stats ) > $OUT/packed-first.log 2>&1
W=$(ls ~/.cache/mlxcel/weights/*-bf16-packed.safetensors | head -1)
ls -l $W $M/model.safetensors >> $OUT/packed-first.log
# 4.
bm() { # TAG VMFB PARAMS FUNCTION INPUTS...
  local tag=$1 v=$2 w=$3 fn=$4; shift 4
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$w --function=$fn "$@" \
    --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$tag $fn rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
( time $P/bin/mlxcel generate -m $M -p "The capital of France is" -n 16 --no-chat --precision bf16 --context 512 --quant packed \
    --quant-group 128 --device cuda --cuda-target sm_89 --vmfb $P/vmfb/packed128-bf16-s1.vmfb --stats ) > $OUT/packed128-first.log 2>&1
$P/bin/mlxcel generate -m $M -p "The capital of France is" -n 16 --no-chat --precision bf16 --context 512 \
    --device cuda --cuda-target sm_89 --vmfb $P/vmfb/bf16-s1.vmfb --stats > $OUT/bf16-first.log 2>&1
W128=$(ls -t ~/.cache/mlxcel/weights/*-bf16-packed.safetensors | head -1)
ls -l ~/.cache/mlxcel/weights/ >> $OUT/packed128-first.log
for r in 1 2; do
  bm bf16 $P/vmfb/bf16-s1.vmfb $M/model.safetensors decode_512_steps --input=1xi32=5 --input=1xi32=200
  bm packed32 $P/vmfb/packed-bf16-s1.vmfb $W decode_512_steps --input=1xi32=5 --input=1xi32=200
  bm packed128 $P/vmfb/packed128-bf16-s1.vmfb $W128 decode_512_steps --input=1xi32=5 --input=1xi32=200
done
for m in "packed128 $P/vmfb/packed128-bf16-s1.vmfb $W128" "bf16 $P/vmfb/bf16-s1.vmfb $M/model.safetensors" "packed $P/vmfb/packed-bf16-s1.vmfb $W"; do
  set -- $m
  timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum --csv --print-units base \
    $RT/iree-run-module --device=cuda --module=$2 --parameters=model=$3 --function=decode_512 \
    --input=1xi32=5 --input=1xi32=200 > /tmp/ncu-$1.csv 2> $OUT/ncu-$1.err
  echo "ncu $1 rc=$? kernels $(grep -c gpu__time_duration /tmp/ncu-$1.csv)" >> $OUT/bench.log
  gzip -c /tmp/ncu-$1.csv > $OUT/ncu-$1.csv.gz
  python3 bench/results/2026-12-01-h200-attention/ncu_table.py $OUT/ncu-$1.csv.gz > $OUT/ncu-table-$1.txt 2>&1
done
# 5. The packed path against HF transformers fp32 on the same weights: the synthetic 1B drawn on the
# 4-bit grid (mlxcel synth --q4-grid 32, f32), its HF trajectory made here on the CPU, then
# `mlxcel check --quant packed` f32 on the GPU.
G=/tmp/l1b-q4grid
$P/bin/mlxcel synth --config $P/data/config.json --tokenizer /tmp/peers-tok -o $G --seed 0 --dtype f32 --q4-grid 32 > $OUT/grid-synth.log 2>&1
timeout 240 python3 tests/oracle/hf_trajectory.py --dir $G --prompts tests/oracle/prompts.json --set llama32-1b-synth --steps 64 \
  -o $OUT/llama32-1b-q4grid.json > $OUT/grid-oracle.log 2>&1
echo "oracle rc=$?" >> $OUT/grid-oracle.log
timeout 150 $P/bin/mlxcel check -m $G --fixture $OUT/llama32-1b-q4grid.json --quant packed --precision f32 --context 512 \
  --device cuda --cuda-target sm_89 --vmfb $P/vmfb/packed-f32-s1.vmfb > $OUT/grid-check.log 2>&1
echo "check rc=$?" >> $OUT/grid-check.log
cd $OUT && tar czf all.tgz --remove-files $(ls | grep -v all.tgz) && ls -l $OUT
