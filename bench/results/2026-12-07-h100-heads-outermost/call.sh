#!/bin/bash
# GPU call: the per-head decode attention (8-slot modules) with the query heads' parts concatenated
# head-outermost ([G, S, KV, ...], each part one contiguous block), against main at a66cbad (parts
# concatenated as [S, KV, G, ...], each a strided block that IREE 3.13 copies in with a slow_memcpy
# dispatch: 8 per layer), in the same call; and the GPU gate of the change (batch-bench f32 on the
# 2-layer Llama, 8-slot streams against one-slot runs, greedy and T 0.8).
# Bundles (carried): .gpu/s = main at 1df940e (wheel, data), .gpu/f = a66cbad's 8-slot module
# (bin, vmfb/m8.vmfb: stacks, values transposed), .gpu/h = this build (bin; vmfb/m8.vmfb, vmfb/g/s1.vmfb,
# vmfb/g/s8.vmfb). Modules compiled on the 2-core VM for sm_89: m8 `mlxcel compile --config
# llama-3.2-1b/config.json --device cuda --cuda-target sm_89 --weights-dtype bf16 --precision bf16
# --slots 8 --context 512`; g/s8 `mlxcel compile -m L2 --device cuda --cuda-target sm_89 --precision
# f32 --slots 8 --context 256` (L2 = mlxcel synth --family llama); g/s1 the one-slot reference
# (unchanged by this build). Run from the repository root with the three carried.
set -u
L=$OUT/logs; mkdir -p $L
S=.gpu/s F=.gpu/f H=.gpu/h M=/tmp/peers-l1b L2=/tmp/l2 P=bench/peers
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $S/whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $S/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $S/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
[ -f $M/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$H/bin $H/bin/mlxcel synth --config $S/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
[ -f $L2/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$H/bin $H/bin/mlxcel synth --family llama --tokenizer /tmp/peers-tok -o $L2 > $L/synth-l2.log 2>&1
R=$OUT/results.jsonl CU="--device cuda --cuda-target sm_89"
bm() { # TAG VMFB FUNCTION INPUTS...
  local tag=$1 v=$2 f=$3; shift 3
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$M/model.safetensors \
    --function=$f "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  local rc=$?
  echo "$tag $f rc=$rc $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
  [ $rc = 0 ] || grep -m2 -i "error" /tmp/bm.log | cut -c1-300 >> $OUT/bench.log
}
for t in 0 0.8; do
  LD_LIBRARY_PATH=$PWD/$H/bin timeout 200 $H/bin/mlxcel batch-bench -m $L2 --slots 8 --precision f32 --context 256 --reference-steps 1 \
    --temperature $t --vmfb-dir $H/vmfb/g $CU > $OUT/gate-T$t.txt 2> $L/gate-T$t.err
  echo "gate T$t rc=$?" >> $OUT/steps.out
done
IN8="--input=8xi32=5 --input=8xi32=200 --input=8xf32=0 --input=8xi32=7"
for r in 1 2; do
  for w in 256 512; do
    bm "round $r old s8" $F/vmfb/m8.vmfb decode_${w}_steps $IN8
    bm "round $r new s8" $H/vmfb/m8.vmfb decode_${w}_steps $IN8
  done
done
run() { # NOTE BUNDLE-BIN VMFB
  LD_LIBRARY_PATH=$PWD/$2 timeout 240 python3 $P/mlxcel_peer.py --mlxcel $2/mlxcel --model $M \
    --dtype bf16 --batch 8 --prompt-ids $S/data/prompt_ids.json --prompt-file $S/data/prompt.txt --new 128 --runs 3 --out $R --vmfb $3 \
    --context 512 --note "$1" -- $CU > $L/mlxcel-${1// /_}.log 2>&1; echo "$1 rc=$?" >> $OUT/steps.out
}
run "old B8" $F/bin $F/vmfb/m8.vmfb
run "new B8" $H/bin $H/vmfb/m8.vmfb
n=$(python3 -c "import json;print(len(json.load(open('$S/data/prompt_ids.json')))+128)")
timeout 240 python3 $P/jax_peer.py --model $M --dtype bf16 --batch 8 --prompt-ids $S/data/prompt_ids.json --new 128 --runs 3 --out $R \
  --note "jax B=8" --context $n > $L/jax-8.log 2>&1; echo "jax B=8 rc=$?" >> $OUT/steps.out
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/gpu.txt
BW=4.8e12; grep -q H100 $OUT/gpu.txt && BW=3.35e12
python3 $P/table.py $R --bandwidth $BW --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
