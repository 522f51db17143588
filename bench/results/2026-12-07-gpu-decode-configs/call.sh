#!/bin/bash
# GPU call: lowering configurations for the 8-slot decode step (cuda tuning library v3).
#   1. correctness of the new attention configurations: chk/att.mlir's QK and P.V products (B = 64,
#      D = 64, W = 128/256/512, bf16 inputs exactly representable) compiled with the library (att-new)
#      and without (att-old), run on the GPU, compared with float64 numpy (chk/check.py);
#   2. iree-benchmark-module, two rounds: decode_256_steps and decode_512_steps of the 8-slot 1B module,
#      old (.gpu/h: 28c1b51, library v2) and new (.gpu/t: library v3), 5 repetitions;
#   3. bench/peers B = 8 bf16, old and new, and JAX/XLA B = 8 in the same call;
#   4. the GPU gate with the new build: batch-bench f32 on the 2-layer Llama, 8-slot streams (8 steps
#      per call, drawn on the device) against one-slot one-step runs, greedy and T 0.8;
#   5. dispatch benchmarks (iree-benchmark-module, per-dispatch time) of every variant in .gpu/v
#      (gen.py: the attention matvecs; gen3.py: prefill_128's weight products; gen2.py: the 8-slot step's
#      split weight products and their chunk sums), in that order, while the call has time left.
# Bundles (carried): .gpu/s/whl and .gpu/s/data (main at 1df940e), .gpu/h (old: bin, vmfb/m8.vmfb),
# .gpu/t (new: bin, vmfb/m8.vmfb, vmfb/g/s1.vmfb, vmfb/g/s8.vmfb), .gpu/v (variants, att-*.vmfb,
# functions.txt). Modules: m8 `mlxcel compile --config llama-3.2-1b/config.json --device cuda
# --cuda-target sm_89 --weights-dtype bf16 --precision bf16 --slots 8 --context 512`; g/s8 `mlxcel
# compile -m L2 --device cuda --cuda-target sm_89 --precision f32 --slots 8 --context 256`, g/s1 the same
# without --slots (L2 = mlxcel synth --family llama). Run from the repository root.
set -u
T0=$SECONDS
D=bench/results/2026-12-07-gpu-decode-configs
L=$OUT/logs; mkdir -p $L
S=.gpu/s H=.gpu/h N=.gpu/t V=.gpu/v M=/tmp/peers-l1b L2=/tmp/l2 P=bench/peers
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $S/whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/gpu.txt
# 1. correctness of the attention configurations
mkdir -p /tmp/chk && cp $D/chk/* $V/att-*.vmfb /tmp/chk/
(cd /tmp/chk && python3 inputs.py && ./run.sh $RT cuda old att-old.vmfb && ./run.sh $RT cuda new att-new.vmfb &&
  python3 check.py old new) > $OUT/check.txt 2>&1
echo "check rc=$?" >> $OUT/steps.out
mkdir -p /tmp/peers-tok && cp $S/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $S/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $S/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --family llama --tokenizer /tmp/peers-tok -o $L2 > $L/synth-l2.log 2>&1
R=$OUT/results.jsonl CU="--device cuda --cuda-target sm_89"
bm() { # TAG VMFB FUNCTION INPUTS...
  local tag=$1 v=$2 f=$3; shift 3
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$M/model.safetensors \
    --function=$f "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  local rc=$?
  echo "$tag $f rc=$rc $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
  [ $rc = 0 ] || grep -m2 -i "error" /tmp/bm.log | cut -c1-300 >> $OUT/bench.log
}
# 2. the 8-slot step, old and new
IN8="--input=8xi32=5 --input=8xi32=200 --input=8xf32=0 --input=8xi32=7"
for r in 1 2; do
  for w in 256 512; do
    bm "round $r old s8" $H/vmfb/m8.vmfb decode_${w}_steps $IN8
    bm "round $r new s8" $N/vmfb/m8.vmfb decode_${w}_steps $IN8
  done
done
echo "decode benchmarks done at $((SECONDS - T0)) s" >> $OUT/steps.out
# 3. end to end, B = 8
run() { # NOTE BUNDLE-BIN VMFB
  LD_LIBRARY_PATH=$PWD/$2 timeout 240 python3 $P/mlxcel_peer.py --mlxcel $2/mlxcel --model $M \
    --dtype bf16 --batch 8 --prompt-ids $S/data/prompt_ids.json --prompt-file $S/data/prompt.txt --new 128 --runs 3 --out $R --vmfb $3 \
    --context 512 --note "$1" -- $CU > $L/mlxcel-${1// /_}.log 2>&1; echo "$1 rc=$? at $((SECONDS - T0)) s" >> $OUT/steps.out
}
run "old B8" $H/bin $H/vmfb/m8.vmfb
run "new B8" $N/bin $N/vmfb/m8.vmfb
n=$(python3 -c "import json;print(len(json.load(open('$S/data/prompt_ids.json')))+128)")
timeout 240 python3 $P/jax_peer.py --model $M --dtype bf16 --batch 8 --prompt-ids $S/data/prompt_ids.json --new 128 --runs 3 --out $R \
  --note "jax B=8" --context $n > $L/jax-8.log 2>&1; echo "jax B=8 rc=$? at $((SECONDS - T0)) s" >> $OUT/steps.out
BW=4.8e12; grep -q H100 $OUT/gpu.txt && BW=3.35e12
python3 $P/table.py $R --bandwidth $BW --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
# 4. the GPU gate with the new build
for t in 0 0.8; do
  LD_LIBRARY_PATH=$PWD/$N/bin timeout 200 $N/bin/mlxcel batch-bench -m $L2 --slots 8 --precision f32 --context 256 --reference-steps 1 \
    --temperature $t --vmfb-dir $N/vmfb/g $CU > $OUT/gate-T$t.txt 2> $L/gate-T$t.err
  echo "gate T$t rc=$? at $((SECONDS - T0)) s" >> $OUT/steps.out
done
# 5. dispatch variants, while time is left (the call's limit is 600 s)
while read n f; do
  [ $((SECONDS - T0)) -lt 560 ] || { echo "variants stopped at $n: time" >> $OUT/steps.out; break; }
  timeout 20 $RT/iree-benchmark-module --device=cuda --module=$V/$n.vmfb --function=$f --batch_size=100 \
    --benchmark_repetitions=3 > /tmp/v.log 2>&1
  echo "$n rc=$? $(grep -E "real_time_median " /tmp/v.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/variants.log
done < $V/functions.txt
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
