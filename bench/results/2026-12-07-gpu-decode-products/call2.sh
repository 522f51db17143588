#!/bin/bash
# GPU call 2: the 8-slot bf16 step with whole 8-row products (cuda library v5: q/k/v and o one warp per
# output row, gate/up with IREE's own tiles; down still split) and then also the gate/up product read as
# a pair (gated_pair), against main (ad22176), same call:
#   1. chk/: the three whole products compiled with the v5 library (new) and without (old), on the GPU,
#      against float64 numpy on exact inputs;
#   2. iree-benchmark-module, two rounds: decode_256_steps and decode_512_steps of the three 8-slot modules;
#   3. bench/peers B = 8 bf16 for main and whole + pair, and JAX/XLA B = 8;
#   4. Nsight Compute over one decode_256_steps call of the last module.
# Bundles (carried; bench/peers/prepare-gpu.sh with CONTEXT=512 MODULES=bf16:8): .gpu/n (whole products,
# with the wheel and data), .gpu/h/{bin,vmfb} (main), .gpu/m/{bin,vmfb} (whole + pair), .gpu/c (chk
# modules). Run from the repository root. At most 8 files come back from $OUT.
set -u
T0=$SECONDS
D=bench/results/2026-12-07-gpu-decode-products
L=$OUT/logs; mkdir -p $L
S=.gpu/n M=/tmp/peers-l1b P=bench/peers
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $S/whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
nvidia-smi --query-gpu=name --format=csv,noheader >> $OUT/steps.out
mkdir -p /tmp/chk && cp $D/chk/* .gpu/c/prod-*.vmfb /tmp/chk/
(cd /tmp/chk && python3 inputs.py && ./run.sh $RT cuda old prod-old.vmfb && ./run.sh $RT cuda new prod-new.vmfb &&
  python3 check.py old new) > $OUT/check.txt 2>&1
echo "check rc=$? at $((SECONDS - T0)) s" >> $OUT/steps.out
mkdir -p /tmp/peers-tok && cp $S/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $S/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$S/bin $S/bin/mlxcel synth --config $S/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
R=$OUT/results.jsonl CU="--device cuda --cuda-target sm_89"
bm() { # TAG VMFB FUNCTION INPUTS...
  local tag=$1 v=$2 f=$3; shift 3
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$M/model.safetensors \
    --function=$f "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  local rc=$?
  echo "$tag $f rc=$rc $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
  [ $rc = 0 ] || grep -m2 -i "error" /tmp/bm.log | cut -c1-300 >> $OUT/bench.log
}
IN8="--input=8xi32=5 --input=8xi32=200 --input=8xf32=0 --input=8xi32=7"
for r in 1 2; do
  for w in 256 512; do
    for b in h n m; do bm "round $r $b s8" .gpu/$b/vmfb/bf16-s8.vmfb decode_${w}_steps $IN8; done
  done
done
echo "decode benchmarks done at $((SECONDS - T0)) s" >> $OUT/steps.out
run() { # NOTE BUNDLE
  LD_LIBRARY_PATH=$PWD/.gpu/$2/bin timeout 240 python3 $P/mlxcel_peer.py --mlxcel .gpu/$2/bin/mlxcel --model $M \
    --dtype bf16 --batch 8 --prompt-ids $S/data/prompt_ids.json --prompt-file $S/data/prompt.txt --new 128 --runs 3 --out $R \
    --vmfb .gpu/$2/vmfb/bf16-s8.vmfb --context 512 --note "$1" -- $CU > $L/mlxcel-$2.log 2>&1; echo "$1 rc=$? at $((SECONDS - T0)) s" >> $OUT/steps.out
}
run "main B8" h
# (whole products alone: the decode benchmarks above)
run "whole + pair B8" m
n=$(python3 -c "import json;print(len(json.load(open('$S/data/prompt_ids.json')))+128)")
timeout 240 python3 $P/jax_peer.py --model $M --dtype bf16 --batch 8 --prompt-ids $S/data/prompt_ids.json --new 128 --runs 3 --out $R \
  --note "jax B=8" --context $n > $L/jax-8.log 2>&1; echo "jax B=8 rc=$? at $((SECONDS - T0)) s" >> $OUT/steps.out
BW=4.8e12; grep -q H100 $OUT/steps.out && BW=3.35e12
python3 $P/table.py $R --bandwidth $BW --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RT/iree-run-module --device=cuda --module=.gpu/m/vmfb/bf16-s8.vmfb --parameters=model=$M/model.safetensors \
  --function=decode_256_steps $IN8 > /tmp/ncu-s8.csv 2> $L/ncu-s8.err
echo "ncu s8 rc=$? $(wc -l < /tmp/ncu-s8.csv) lines at $((SECONDS - T0)) s" >> $OUT/steps.out; gzip -c /tmp/ncu-s8.csv > $OUT/ncu-s8.csv.gz
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
