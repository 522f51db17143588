#!/bin/bash
# GPU call: Q/K/V and gate/up as one product each on the GPU targets, their stacks concatenated once
# in the module's initializer (emit_stacks) instead of in every function (which IREE 3.13 hoisted into
# one global per function: the 36.98 GB peak of 2026-12-05), against the build without stacks, in the
# same call. PART=1: the gates and the micro-benchmarks; PART=2: bench/peers, JAX and the profile;
# unset: both. Bundles (carried): .gpu/s = main at 1df940e (bin, whl, data; vmfb/m16.vmfb one slot),
# .gpu/n = eaf48ee, values transposed, no stacks (bin; vmfb/m8.vmfb), .gpu/f = this build (bin;
# vmfb/m16.vmfb, vmfb/m8.vmfb, vmfb/f32-c256-s1.vmfb, vmfb/g/s1.vmfb, vmfb/g/s8.vmfb).
# One-slot modules are the same graph in main and eaf48ee (values are transposed from 8 slots only).
# Modules compiled on the 2-core VM for sm_89 (`mlxcel compile --config llama-3.2-1b/config.json
# --device cuda --cuda-target sm_89 --weights-dtype bf16 --precision P --slots S --context C`):
# m16 bf16 S=1 C=512, m8 bf16 S=8 C=512, f32-c256-s1 f32 S=1 C=256; g/ as in
# ../2026-12-07-h200-values-transposed/call.sh. Run from the repository root with the three carried.
set -u
L=$OUT/logs; mkdir -p $L
S=.gpu/s N=.gpu/n F=.gpu/f M=/tmp/peers-l1b L2=/tmp/l2 P=bench/peers
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $S/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $S/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $S/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
[ -f $M/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$S/bin $S/bin/mlxcel synth --config $S/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
[ -f $L2/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$F/bin $F/bin/mlxcel synth --family llama --tokenizer /tmp/peers-tok -o $L2 > $L/synth-l2.log 2>&1
R=$OUT/results.jsonl p=prompt CU="--device cuda --cuda-target sm_89"
bm() { # TAG VMFB FUNCTION INPUTS...
  local tag=$1 v=$2 f=$3; shift 3
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$M/model.safetensors \
    --function=$f "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  local rc=$?
  echo "$tag $f rc=$rc $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
  [ $rc = 0 ] || grep -m2 -i "error" /tmp/bm.log | cut -c1-300 >> $OUT/bench.log
}
run() { # NOTE BUNDLE BATCH VMFB
  local note=$1 G=$2 b=$3 v=$4
  LD_LIBRARY_PATH=$PWD/$G/bin timeout 240 python3 $P/mlxcel_peer.py --mlxcel $G/bin/mlxcel --model $M \
    --dtype bf16 --batch $b --prompt-ids $S/data/${p}_ids.json --prompt-file $S/data/$p.txt --new 128 --runs 3 --out $R --vmfb $v \
    --context 512 --note "$note" -- $CU > $L/mlxcel-${note// /_}.log 2>&1; echo "$note rc=$?" >> $OUT/steps.out
}
jax() { # BATCH
  local n=$(python3 -c "import json;print(len(json.load(open('$S/data/${p}_ids.json')))+128)")
  timeout 240 python3 $P/jax_peer.py --model $M --dtype bf16 --batch $1 --prompt-ids $S/data/${p}_ids.json --new 128 --runs 3 --out $R \
    --note "jax B=$1" --context $n > $L/jax-$1.log 2>&1; echo "jax B=$1 rc=$?" >> $OUT/steps.out
}
IN1="--input=1xi32=5 --input=1xi32=200 --input=1xf32=0 --input=1xi32=7"
IN8="--input=8xi32=5 --input=8xi32=200 --input=8xf32=0 --input=8xi32=7"
if [ "${PART:-all}" != 2 ]; then
# gates: f32 against the HF fixture (one slot, stacks), and 8-slot streams against one-slot runs
LD_LIBRARY_PATH=$PWD/$F/bin timeout 200 $F/bin/mlxcel check -m $M --fixture $S/data/llama32-1b-synth.json --precision f32 --context 256 \
  --vmfb $F/vmfb/f32-c256-s1.vmfb $CU > $OUT/check-f32.txt 2> $L/check-f32.err; echo "check f32 rc=$?" >> $OUT/steps.out
for t in ${GATE_TEMPS:-0 0.8}; do
  LD_LIBRARY_PATH=$PWD/$F/bin timeout 200 $F/bin/mlxcel batch-bench -m $L2 --slots 8 --precision f32 --context 256 --reference-steps 1 \
    --temperature $t --vmfb-dir $F/vmfb/g $CU > $OUT/gate-T$t.txt 2> $L/gate-T$t.err
  echo "gate T$t rc=$?" >> $OUT/steps.out
done
T0=$SECONDS
for r in 1 2; do
  bm "round $r old s1" $S/vmfb/m16.vmfb decode_256_steps $IN1
  bm "round $r new s1" $F/vmfb/m16.vmfb decode_256_steps $IN1
  bm "round $r old s8" $N/vmfb/m8.vmfb decode_256_steps $IN8
  bm "round $r new s8" $F/vmfb/m8.vmfb decode_256_steps $IN8
  bm "round $r old s1" $S/vmfb/m16.vmfb prefill_128 --input=128xi32=5 --input=i32=126 --input=i32=0
  bm "round $r new s1" $F/vmfb/m16.vmfb prefill_128 --input=128xi32=5 --input=i32=126 --input=i32=0
done
echo "bench took $((SECONDS - T0)) s" >> $OUT/bench.log
fi
if [ "${PART:-all}" != 1 ]; then
run "old B1" $S 1 $S/vmfb/m16.vmfb
run "new B1" $F 1 $F/vmfb/m16.vmfb
run "old B8" $N 8 $N/vmfb/m8.vmfb
run "new B8" $F 8 $F/vmfb/m8.vmfb
for b in ${JAX_BATCHES:-1 8}; do jax $b; done
BW=4.8e12; nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100 && BW=3.35e12
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/gpu.txt
python3 $P/table.py $R --bandwidth $BW --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
[ -n "${SKIP_NCU:-}" ] || {
# where an 8-slot step's time goes now (this build, 8 steps): one Nsight Compute run, the kernels' times
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RT/iree-run-module --device=cuda --module=$F/vmfb/m8.vmfb --parameters=model=$M/model.safetensors \
  --function=decode_256_steps $IN8 > $OUT/ncu-s8.csv 2> $L/ncu-s8.err
echo "ncu s8 rc=$? $(wc -l < $OUT/ncu-s8.csv) lines" >> $OUT/bench.log; gzip -f $OUT/ncu-s8.csv
}
fi
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
