#!/bin/bash
# H200 call 2 (2026-12-04): the same build (a5bf73e, bf16 weights, one slot, context 8192) with the KV
# cache and the attention products in bf16 (`--kv-precision bf16`, an option since 2026-12-01) against
# the default f32 cache, both modules in this call:
#   1. iree-benchmark-module, 5 repetitions, two rounds: extend_2048_t32 (3 tokens from 512),
#      extend_8192_t128 (91 from 2048), prefill_512, decode_4096_steps (8 steps from 2200: the window
#      a 2139-token prompt decodes in);
#   2. bench/peers' mlxcel_peer.py at B = 1 with the 515- and 2139-token prompts, 128 new, both modules;
#   3. Nsight Compute, one call each of the bf16-cache module's extend_2048_t32 and extend_8192_t128.
# Modules: .gpu/new from call.sh; the second by `mlxcel compile --config .gpu/new/data/config.json
# --weights-dtype bf16 --precision bf16 --kv-precision bf16 --slots 1 --context 8192 --device cuda
# --cuda-target sm_89 -o .gpu/new/vmfb/bf16-kvbf16-s1.vmfb`. Run from the repository root with .gpu/new
# carried; bench.log, table.txt, results.jsonl, ncu-*.csv.gz and logs.tar.gz go to $OUT.
set -u
L=$OUT/logs; mkdir -p $L
N=.gpu/new M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
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
  for k in f32 bf16; do
    v=$N/vmfb/bf16-s1.vmfb; [ $k = bf16 ] && v=$N/vmfb/bf16-kvbf16-s1.vmfb
    bm "round $r kv-$k" $v extend_2048_t32 --input=32xi32=5 --input=i32=512 --input=i32=3 --input=i32=0
    bm "round $r kv-$k" $v extend_8192_t128 --input=128xi32=5 --input=i32=2048 --input=i32=91 --input=i32=0
    bm "round $r kv-$k" $v prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0
    bm "round $r kv-$k" $v decode_4096_steps --input=1xi32=5 --input=1xi32=2200
  done
done
R=$OUT/results.jsonl
peer() { # KV PROMPT
  local v=$N/vmfb/bf16-s1.vmfb extra=""; [ $1 = bf16 ] && v=$N/vmfb/bf16-kvbf16-s1.vmfb extra="--kv-precision bf16"
  LD_LIBRARY_PATH=$PWD/$N/bin timeout 200 python3 $N/peers/mlxcel_peer.py --mlxcel $N/bin/mlxcel --model $M --dtype bf16 \
    --batch 1 --prompt-ids $N/data/$2_ids.json --prompt-file $N/data/$2.txt --new 128 --runs 3 --out $R --vmfb $v \
    --context 8192 --note "kv-$1 $2" -- --device cuda --cuda-target sm_89 $extra > $L/peer-$1-$2.log 2>&1; echo "kv-$1 $2 rc=$?" >> $L/peers.out
}
for p in prompt-512 prompt-2048; do peer bf16 $p; peer f32 $p; done
python3 $N/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
nc() { # TAG FUNCTION WIDTH START LENGTH
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $RT/iree-run-module --device=cuda --module=$N/vmfb/bf16-kvbf16-s1.vmfb --parameters=model=$M/model.safetensors \
    --function=$2 --input=$3xi32=5 --input=i32=$4 --input=i32=$5 --input=i32=0 > $OUT/ncu-$1.csv 2> /tmp/ncu-$1.err
  echo "ncu $1 rc=$? $(wc -l < $OUT/ncu-$1.csv) lines" >> $OUT/bench.log; tail -n 3 /tmp/ncu-$1.err >> $OUT/bench.log; gzip -f $OUT/ncu-$1.csv
}
nc kvbf16-t32 extend_2048_t32 32 512 3
nc kvbf16-t128 extend_8192_t128 128 2048 91
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
