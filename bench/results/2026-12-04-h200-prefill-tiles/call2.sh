#!/bin/bash
# H200 call 2 (2026-12-04, session 2), three builds, bf16 weights and cache, one slot, context 8192:
#   old  main before this session (d131157, .gpu/win);
#   nb   + the hidden-state norms' inputs behind an optimization barrier from 512 rows (mx_target_norm_barrier_rows);
#   nt   + the cuda tuning library (compiler/tuning.c: the 512-row gate and up products in 128 x 128 tiles).
#   1. iree-benchmark-module, 5 repetitions, two rounds: prefill_512, extend_2048 (a full 512-row chunk
#      from 512), prefill_128 and decode_512_steps (graphs neither change touches: controls);
#   2. bench/peers at B = 1, 128 new, 1 warm-up + 3 runs, the 515- and 2139-token prompts: the three
#      builds and JAX/XLA;
#   3. Nsight Compute over one prefill_512 call of nt;
#   4. the f16 gate/up dispatch benchmarks with the compiler's tiles and with the library's (.gpu/tiles3).
# Modules: `CONTEXT=8192 MODULES="bf16:1" bench/peers/prepare-gpu.sh .gpu/{win,nb,nt} sm_89`. Run from the
# repository root with .gpu/win, .gpu/nb and .gpu/nt (without their wheels) and .gpu/tiles3 carried.
set -u
L=$OUT/logs; mkdir -p $L
N=.gpu/nt O=.gpu/win M=/tmp/peers-l1b
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
  for b in win nb nt; do
    v=.gpu/$b/vmfb/bf16-s1.vmfb
    bm "round $r $b" $v prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0
    bm "round $r $b" $v extend_2048 --input=512xi32=5 --input=i32=512 --input=i32=512 --input=i32=0
    bm "round $r $b" $v prefill_128 --input=128xi32=5 --input=i32=128 --input=i32=0
    bm "round $r $b" $v decode_512_steps --input=1xi32=5 --input=1xi32=300
  done
done
R=$OUT/results.jsonl
for p in prompt-512 prompt-2048; do
  for b in nt nb win; do
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
timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RT/iree-run-module --device=cuda --module=$N/vmfb/bf16-s1.vmfb --parameters=model=$M/model.safetensors \
  --function=prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0 > $OUT/ncu-prefill512-new.csv 2> /tmp/ncu-p.err
echo "ncu prefill_512 nt rc=$? $(wc -l < $OUT/ncu-prefill512-new.csv) lines" >> $OUT/bench.log; tail -n 3 /tmp/ncu-p.err >> $OUT/bench.log
gzip -f $OUT/ncu-prefill512-new.csv
for v in .gpu/tiles3/vmfb/*.vmfb; do
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$v --batch_size=20 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$(basename $v .vmfb) rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s  ", $2, $3}')" >> $OUT/bench.log
done
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
