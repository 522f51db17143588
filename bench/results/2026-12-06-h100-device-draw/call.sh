#!/bin/bash
# GPU call: tokens drawn on the device inside decode_<W>_steps (the seeded Gumbel-max draw of
# src/base/gumbel.h, per-slot temperature and key inputs) against main before it, same call.
# Bundles (carried): .gpu/s = main at 4484820 (bin, wheel, data; vmfb/m16.vmfb one slot, vmfb/m8.vmfb
# 8 slots), .gpu/n = this build (bin; vmfb/m16.vmfb, vmfb/m8.vmfb). Modules: bf16 weights and cache,
# context 2048, sm_89, compiled on the 2-core VM: `mlxcel compile --config .../llama-3.2-1b/config.json
# --device cuda --cuda-target sm_89 --weights-dtype bf16 --precision bf16 --slots S --context 2048`.
# PART=1: iree-benchmark-module (decode_512_steps at one slot, greedy, and drawn for the new module;
#         two rounds of 5 repetitions), then bench/peers at B = 1: greedy, T 1 (drawn on the device by
#         the new build, on the host by the old), T 0.8 top-p 0.95 (host on both), JAX.
# PART=2: the same benchmark at 8 slots; T 0.8 top-p 0.95 at B = 1 twice more per build; bench/peers
#         at B = 8 through `mlxcel serve`: greedy and T 1 (seed i + 1 per stream), JAX.
# Run from the repository root with .gpu/s and .gpu/n carried.
set -u
L=$OUT/logs; mkdir -p $L
S=.gpu/s N=.gpu/n M=/tmp/peers-l1b P=bench/peers
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
run() { # NOTE BUNDLE BATCH [PEER ARGS] -- [GENERATE ARGS]
  local note=$1 G=$2 b=$3; shift 3
  local v=$G/vmfb/m16.vmfb; [ $b = 1 ] || v=$G/vmfb/m8.vmfb
  LD_LIBRARY_PATH=$PWD/$G/bin timeout 240 python3 $P/mlxcel_peer.py --mlxcel $G/bin/mlxcel --model $M \
    --dtype bf16 --batch $b --prompt-ids $S/data/${p}_ids.json --prompt-file $S/data/$p.txt --new 128 --runs 3 --out $R --vmfb $v \
    --context 2048 --note "$note" "$@" > $L/mlxcel-${note// /_}.log 2>&1; echo "$note rc=$?" >> $OUT/steps.out
}
jax() { # BATCH
  local n=$(python3 -c "import json;print(len(json.load(open('$S/data/${p}_ids.json')))+128)")
  timeout 240 python3 $P/jax_peer.py --model $M --dtype bf16 --batch $1 --prompt-ids $S/data/${p}_ids.json --new 128 --runs 3 --out $R \
    --note "jax B=$1" --context $n > $L/jax-$1.log 2>&1; echo "jax B=$1 rc=$?" >> $OUT/steps.out
}
G1="-- --device cuda --cuda-target sm_89"
if [ "${PART:-1}" = 1 ]; then
  T0=$SECONDS
  for r in 1 2; do
    bm "round $r old s1 greedy" $S/vmfb/m16.vmfb decode_512_steps --input=1xi32=5 --input=1xi32=300
    bm "round $r new s1 greedy" $N/vmfb/m16.vmfb decode_512_steps --input=1xi32=5 --input=1xi32=300 --input=1xf32=0 --input=1xi32=7
    bm "round $r new s1 T1" $N/vmfb/m16.vmfb decode_512_steps --input=1xi32=5 --input=1xi32=300 --input=1xf32=1 --input=1xi32=7
  done
  echo "bench took $((SECONDS - T0)) s" >> $OUT/bench.log
  run "old greedy" $S 1 $G1
  run "new greedy" $N 1 $G1
  run "old T1" $S 1 $G1 --temperature 1 --seed 7
  run "new T1" $N 1 $G1 --temperature 1 --seed 7
  run "old T0.8 top-p 0.95" $S 1 $G1 --temperature 0.8 --top-p 0.95 --seed 7
  run "new T0.8 top-p 0.95" $N 1 $G1 --temperature 0.8 --top-p 0.95 --seed 7
  run "new T1 again" $N 1 $G1 --temperature 1 --seed 7
  run "new greedy again" $N 1 $G1
  jax 1
else
  T0=$SECONDS
  for r in 1 2; do
    bm "round $r old s8 greedy" $S/vmfb/m8.vmfb decode_512_steps --input=8xi32=5 --input=8xi32=300
    bm "round $r new s8 greedy" $N/vmfb/m8.vmfb decode_512_steps --input=8xi32=5 --input=8xi32=300 --input=8xf32=0 --input=8xi32=7
    bm "round $r new s8 T1" $N/vmfb/m8.vmfb decode_512_steps --input=8xi32=5 --input=8xi32=300 --input=8xf32=1 --input=8xi32=7
  done
  echo "bench took $((SECONDS - T0)) s" >> $OUT/bench.log
  # the host path again at B = 1 (call 1 had the new build 12% below the old on it), interleaved
  for r in 2 3; do
    run "old T0.8 top-p 0.95 #$r" $S 1 $G1 --temperature 0.8 --top-p 0.95 --seed 7
    run "new T0.8 top-p 0.95 #$r" $N 1 $G1 --temperature 0.8 --top-p 0.95 --seed 7
  done
  run "old B8 greedy" $S 8 $G1
  run "new B8 greedy" $N 8 $G1
  run "old B8 T1" $S 8 --temperature 1 $G1
  run "new B8 T1" $N 8 --temperature 1 $G1
  jax 8
fi
python3 $P/table.py $R --bandwidth 3.35e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
