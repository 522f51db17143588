#!/bin/bash
# GPU call (run on an H200): the V cache stored transposed in 8-slot modules ([slots * KV, D, rows]; the per-head
# P.V product reduces along a row) against main before it (1df940e), in the same call; and the GPU
# gate of both this change and the device draw: batch-bench f32 on a 2-layer synthetic Llama (the
# real vocabulary, 128256), every 8-slot stream (K = 8 steps per call, drawn on the device, values
# transposed) against its single-slot run (one step per call, logits to the host, values as rows).
# Bundles (carried): .gpu/s = main at 1df940e (bin, whl, data; vmfb/m8.vmfb), .gpu/n = this build
# (bin; vmfb/m8.vmfb, vmfb/g/s1.vmfb, vmfb/g/s8.vmfb). Modules compiled on the 2-core VM for sm_89:
#   m8: mlxcel compile --config llama-3.2-1b/config.json --device cuda --cuda-target sm_89
#       --weights-dtype bf16 --precision bf16 --slots 8 --context 512
#   g/s1: mlxcel compile -m L2 ... --precision f32 --slots 1 --decode-steps 1 --context 256
#   g/s8: mlxcel compile -m L2 ... --precision f32 --slots 8 --context 256
#   (L2 = mlxcel synth --family llama --tokenizer llama3-tokenizer, seed 0)
# Run from the repository root with .gpu/s and .gpu/n carried. PART=1 (default) or PART=2 (more rounds).
set -u
L=$OUT/logs; mkdir -p $L
S=.gpu/s N=.gpu/n M=/tmp/peers-l1b L2=/tmp/l2 P=bench/peers
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $S/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $S/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $S/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
[ -f $M/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$S/bin $S/bin/mlxcel synth --config $S/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
R=$OUT/results.jsonl p=prompt
bm() { # TAG VMFB FUNCTION INPUTS...
  local tag=$1 v=$2 f=$3; shift 3
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$M/model.safetensors \
    --function=$f "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  local rc=$?
  echo "$tag $f rc=$rc $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
  [ $rc = 0 ] || grep -m2 -i "error" /tmp/bm.log | cut -c1-300 >> $OUT/bench.log
}
run() { # NOTE BUNDLE [PEER ARGS] -- [GENERATE ARGS]
  local note=$1 G=$2; shift 2
  LD_LIBRARY_PATH=$PWD/$G/bin timeout 240 python3 $P/mlxcel_peer.py --mlxcel $G/bin/mlxcel --model $M \
    --dtype bf16 --batch 8 --prompt-ids $S/data/${p}_ids.json --prompt-file $S/data/$p.txt --new 128 --runs 3 --out $R --vmfb $G/vmfb/m8.vmfb \
    --context 512 --note "$note" "$@" > $L/mlxcel-${note// /_}.log 2>&1; echo "$note rc=$?" >> $OUT/steps.out
}
jax() {
  local n=$(python3 -c "import json;print(len(json.load(open('$S/data/${p}_ids.json')))+128)")
  timeout 240 python3 $P/jax_peer.py --model $M --dtype bf16 --batch 8 --prompt-ids $S/data/${p}_ids.json --new 128 --runs 3 --out $R \
    --note "jax B=8" --context $n > $L/jax-8.log 2>&1; echo "jax B=8 rc=$?" >> $OUT/steps.out
}
G1="-- --device cuda --cuda-target sm_89"
IN8="--input=8xi32=5 --input=8xi32=200 --input=8xf32=0 --input=8xi32=7"
if [ "${PART:-1}" = 1 ]; then
  # the gate: f32, 16 requests, greedy and T 0.8, each against one-step single-slot runs
  [ -f $L2/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --family llama --tokenizer /tmp/peers-tok -o $L2 > $L/synth-l2.log 2>&1
  for t in 0 0.8; do
    LD_LIBRARY_PATH=$PWD/$N/bin timeout 200 $N/bin/mlxcel batch-bench -m $L2 --slots 8 --precision f32 --context 256 --reference-steps 1 \
      --temperature $t --vmfb-dir $N/vmfb/g --device cuda --cuda-target sm_89 > $OUT/gate-T$t.txt 2> $L/gate-T$t.err
    echo "gate T$t rc=$?" >> $OUT/steps.out
  done
  T0=$SECONDS
  for r in 1 2; do
    for w in 256 512; do
      bm "round $r old s8" $S/vmfb/m8.vmfb decode_${w}_steps $IN8
      bm "round $r new s8" $N/vmfb/m8.vmfb decode_${w}_steps $IN8
    done
  done
  echo "bench took $((SECONDS - T0)) s" >> $OUT/bench.log
  run "old B8 greedy" $S $G1
  run "new B8 greedy" $N $G1
  jax
else
  run "old B8 greedy #2" $S $G1
  run "new B8 greedy #2" $N $G1
  run "old B8 T1" $S --temperature 1 $G1
  run "new B8 T1" $N --temperature 1 $G1
  jax
fi
python3 $P/table.py $R --bandwidth 3.35e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
