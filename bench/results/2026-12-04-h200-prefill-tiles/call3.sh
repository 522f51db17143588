#!/bin/bash
# H200 call 3 (2026-12-04, session 2): the cuda tuning library (src/compiler/tuning.c: the 512-row gate and
# up products in 128 x 128 tiles, the 512 x 2048 row sums in one step) against main before it (d131157,
# .gpu/win), both bf16 weights and cache, one slot, context 8192, no optimization barrier:
#   1. iree-benchmark-module, 5 repetitions, two rounds: prefill_512, extend_2048 (a full 512-row chunk
#      from 512), prefill_128 and decode_512_steps (no 512-row op: controls);
#   2. bench/peers at B = 1, 128 new, 1 warm-up + 3 runs, the 515- and 2139-token prompts: both builds
#      and JAX/XLA;
#   3. Nsight Compute over one prefill_512 and one extend_2048 call of the new module;
#   4. the f32 gate: `mlxcel check` of the new build's f32 module (context 8192) against the committed HF
#      fixture and an HF fp32 fixture of a 1300-token prompt made on this machine's CPU
#      (tests/oracle/hf_trajectory.py, set llama32-1b-synth-long), whose prefill runs the 512-row chunks.
# Modules: `CONTEXT=8192 MODULES="bf16:1" bench/peers/prepare-gpu.sh .gpu/nr sm_89`, and
# `.gpu/nr/bin/mlxcel compile --config .gpu/nr/data/config.json --weights-dtype bf16 --precision f32 --slots 1
# --context 8192 --device cuda --cuda-target sm_89 -o .gpu/nr/vmfb/f32-s1.vmfb`. Run from the repository
# root with .gpu/win and .gpu/nr (without its wheel) carried.
set -u
L=$OUT/logs; mkdir -p $L
N=.gpu/nr O=.gpu/win M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $O/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
bm() { # TAG VMFB FUNCTION INPUTS...
  local tag=$1 v=$2 f=$3; shift 3
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$M/model.safetensors \
    --function=$f "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$tag $f rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do
  for b in win nr; do
    v=.gpu/$b/vmfb/bf16-s1.vmfb
    bm "round $r $b" $v prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0
    bm "round $r $b" $v extend_2048 --input=512xi32=5 --input=i32=512 --input=i32=512 --input=i32=0
    bm "round $r $b" $v prefill_128 --input=128xi32=5 --input=i32=128 --input=i32=0
    bm "round $r $b" $v decode_512_steps --input=1xi32=5 --input=1xi32=300
  done
done
R=$OUT/results.jsonl
for p in prompt-512 prompt-2048; do
  for b in nr win; do
    LD_LIBRARY_PATH=$PWD/.gpu/$b/bin timeout 200 python3 $N/peers/mlxcel_peer.py --mlxcel .gpu/$b/bin/mlxcel --model $M --dtype bf16 \
      --batch 1 --prompt-ids $N/data/${p}_ids.json --prompt-file $N/data/$p.txt --new 128 --runs 3 --out $R --vmfb .gpu/$b/vmfb/bf16-s1.vmfb \
      --context 8192 --note "$b $p" -- --device cuda --cuda-target sm_89 > $L/mlxcel-$b-$p.log 2>&1; echo "$b $p rc=$?" >> $L/peers.out
  done
  n=$(python3 -c "import json;print(len(json.load(open('$N/data/${p}_ids.json')))+128)")
  timeout 200 python3 $N/peers/jax_peer.py --model $M --dtype bf16 --batch 1 --prompt-ids $N/data/${p}_ids.json --new 128 --runs 3 --out $R \
    --note "jax $p" --context $n > $L/jax-$p.log 2>&1; echo "jax $p rc=$?" >> $L/peers.out
done
python3 $N/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
cp $L/peers.out $OUT/peers.out
nc() { # TAG FUNCTION INPUTS...
  local tag=$1 f=$2; shift 2
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $RT/iree-run-module --device=cuda --module=$N/vmfb/bf16-s1.vmfb --parameters=model=$M/model.safetensors \
    --function=$f "$@" > $OUT/ncu-$tag.csv 2> /tmp/ncu-$tag.err
  echo "ncu $tag rc=$? $(wc -l < $OUT/ncu-$tag.csv) lines" >> $OUT/bench.log; tail -n 3 /tmp/ncu-$tag.err >> $OUT/bench.log; gzip -f $OUT/ncu-$tag.csv
}
nc nr-prefill512 prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0
nc nr-extend2048 extend_2048 --input=512xi32=5 --input=i32=512 --input=i32=512 --input=i32=0
timeout 300 env PYTHONPATH= python3 tests/oracle/hf_trajectory.py --dir $M --prompts tests/oracle/prompts.json \
  --set llama32-1b-synth-long --steps 32 -o $L/llama32-1b-synth-long.json > $L/hf.log 2>&1
echo "hf_trajectory rc=$?" >> $OUT/check.log
for f in tests/oracle/fixtures/llama32-1b-synth.json $L/llama32-1b-synth-long.json; do
  LD_LIBRARY_PATH=$PWD/$N/bin timeout 150 $N/bin/mlxcel check -m $M --fixture $f --device cuda --cuda-target sm_89 --context 8192 \
    --vmfb $N/vmfb/f32-s1.vmfb >> $OUT/check.log 2>&1
  echo "check $(basename $f) rc=$?" >> $OUT/check.log
done
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
