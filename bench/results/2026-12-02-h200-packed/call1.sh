#!/bin/bash
# H200 call 1 (2026-12-02, session 6): packed quantization (--quant packed, 4-bit affine, group 32,
# quantized on the GPU machine's host from the synthetic Llama-3.2-1B's bf16 weights) against the same
# model expanded to bf16, context 512, modules from
#   CONTEXT=512 MODULES="packed-bf16:1 bf16:1 packed-bf16:8 bf16:8" bench/peers/prepare-gpu.sh .gpu/pk
# 1. one packed generate (prepares the packed weights; logs the quantization error),
# 2. iree-benchmark-module on the decode and prefill functions, both modules, two rounds,
# 3. the peer harness: mlxcel bf16 and packed-bf16 at B = 1 and 8, JAX/XLA bf16, 3 runs each,
# (4 and 5 are call2.sh.) Run from the repository root with .gpu/pk carried:
#   bash bench/results/2026-12-02-h200-packed/call1.sh
set -u
P=.gpu/pk M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $P/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site LD_LIBRARY_PATH=$PWD/$P/bin MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $P/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $P/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
$P/bin/mlxcel synth --config $P/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/env.log 2>&1
# 1.
( time $P/bin/mlxcel generate -m $M -p "The capital of France is" -n 16 --no-chat --precision bf16 --context 512 --quant packed \
    --device cuda --cuda-target sm_89 --vmfb $P/vmfb/packed-bf16-s1.vmfb --stats ) > $OUT/packed-first.log 2>&1
W=$(ls ~/.cache/mlxcel/weights/*-bf16-packed.safetensors | head -1)
ls -l $W $M/model.safetensors >> $OUT/packed-first.log
# 2.
bm() { # TAG VMFB PARAMS FUNCTION INPUTS...
  local tag=$1 v=$2 w=$3 fn=$4; shift 4
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$w --function=$fn "$@" \
    --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$tag $fn rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do # the second round: the decode steps only
  for m in "bf16 $P/vmfb/bf16-s1.vmfb $M/model.safetensors" "packed $P/vmfb/packed-bf16-s1.vmfb $W"; do
    set -- $m
    bm $1 $2 $3 decode_512_steps --input=1xi32=5 --input=1xi32=200
    bm $1 $2 decode_512 --input=1xi32=5 --input=1xi32=200
    bm $1 $2 prefill_128 --input=128xi32=5 --input=i32=128 --input=i32=0
    bm $1 $2 prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0
  done
  for m in "bf16 $P/vmfb/bf16-s8.vmfb $M/model.safetensors" "packed $P/vmfb/packed-bf16-s8.vmfb $W"; do
    set -- $m
    bm $1-s8 $2 $3 decode_512_steps --input=8xi32=5 --input=8xi32=200
  done
done
# 3.
( cd $P && OUT=$OUT PEERS="mlxcel jax" DTYPES="bf16 packed-bf16" BATCHES="1 8" JAX_DTYPES=bf16 RUNS=3 CONTEXT=512 \
  timeout 380 bash peers/gpu.sh ) > $OUT/peers.out 2>&1
