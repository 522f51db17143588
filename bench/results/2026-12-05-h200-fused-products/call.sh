#!/bin/bash
# H200: Q/K/V and gate/up each as one product over their weights stacked (`linears`, hlo/llama.c) against
# separate products, same call. Modules (bf16 weights and cache, context 2048, sm_89, compiled on the
# 2-core VM from this build; MX_FUSE_DEV=1 selected the stacked form while the target rule was open):
#   m16 / m16f   one slot, separate / stacked;   m8 / m8f   8 slots, separate / stacked (all four with the
#                tuning library cuda-v2, whose row-sum match no longer reaches the decode k/v products);
#   m16v1        m16 as main built it before (library cuda-v1; from ../2026-12-05-h200-cuda-graphs/);
#   f32f-c128    f32, context 128, stacked: the f32 gate (`mlxcel check`, HF fp32 fixture).
#   1. iree-benchmark-module, 5 repetitions, two rounds: prefill_128, prefill_512, extend_2048 (a 512-row
#      chunk from 512), decode_512_steps (8 greedy steps) at one slot; decode_512_steps at 8 slots;
#   2. bench/peers: B = 1 (prompt 126, 128 new, 1 warm-up + 3 runs) and B = 8 with each module, JAX/XLA
#      at B = 1 and 8; tokens compared by fingerprint;
#   3. `mlxcel check` of f32f-c128.
# Run from the repository root with .gpu/f carried.
set -u
L=$OUT/logs; mkdir -p $L
G=.gpu/f M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $G/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $G/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $G/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$G/bin $G/bin/mlxcel synth --config $G/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
bm() { # TAG VMFB FUNCTION INPUTS...
  local tag=$1 v=$2 f=$3; shift 3
  [ -f $v ] || { echo "$tag $f: no $v in this bundle" >> $OUT/bench.log; return 0; }
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$M/model.safetensors \
    --function=$f "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  local rc=$?
  echo "$tag $f rc=$rc $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
  [ $rc = 0 ] || grep -m2 -i "error" /tmp/bm.log | cut -c1-300 >> $OUT/bench.log
}
T0=$SECONDS
for r in 1 2; do
  for m in m16v1 m16 m16f; do
    v=$G/vmfb/$m.vmfb
    bm "round $r $m" $v prefill_128 --input=128xi32=5 --input=i32=128 --input=i32=0
    bm "round $r $m" $v prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0
    bm "round $r $m" $v extend_2048 --input=512xi32=5 --input=i32=512 --input=i32=512 --input=i32=0
    bm "round $r $m" $v decode_512_steps --input=1xi32=5 --input=1xi32=300
  done
  for m in m8 m8f; do
    bm "round $r $m" $G/vmfb/$m.vmfb decode_512_steps --input=8xi32=5 --input=8xi32=300
  done
done
echo "bench took $((SECONDS - T0)) s" >> $OUT/bench.log
R=$OUT/results.jsonl p=prompt
run() { # NOTE VMFB BATCH FUSED
  local note=$1 v=$2 b=$3 fz=$4
  LD_LIBRARY_PATH=$PWD/$G/bin MX_FUSE_DEV=$fz timeout 200 python3 $G/peers/mlxcel_peer.py --mlxcel $G/bin/mlxcel --model $M \
    --dtype bf16 --batch $b --prompt-ids $G/data/${p}_ids.json --prompt-file $G/data/$p.txt --new 128 --runs 3 --out $R --vmfb $v \
    --context 2048 --note "$note" -- --device cuda --cuda-target sm_89 > $L/mlxcel-${note// /_}.log 2>&1; echo "$note rc=$?" >> $OUT/peers.out
}
run "m16 separate" $G/vmfb/m16.vmfb 1 0
run "m16f stacked" $G/vmfb/m16f.vmfb 1 1
run "m8 separate" $G/vmfb/m8.vmfb 8 0
run "m8f stacked" $G/vmfb/m8f.vmfb 8 1
for b in 1 8; do
  n=$(python3 -c "import json;print(len(json.load(open('$G/data/${p}_ids.json')))+128)")
  timeout 200 python3 $G/peers/jax_peer.py --model $M --dtype bf16 --batch $b --prompt-ids $G/data/${p}_ids.json --new 128 --runs 3 --out $R \
    --note "jax B=$b" --context $n > $L/jax-$b.log 2>&1; echo "jax B=$b rc=$?" >> $OUT/peers.out
done
LD_LIBRARY_PATH=$PWD/$G/bin MX_FUSE_DEV=1 timeout 120 $G/bin/mlxcel check -m $M --fixture $G/data/llama32-1b-synth.json \
  --device cuda --cuda-target sm_89 --context 128 --precision f32 --vmfb $G/vmfb/f32f-c128.vmfb >> $OUT/check.log 2>&1
echo "check rc=$?" >> $OUT/check.log
python3 $G/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
