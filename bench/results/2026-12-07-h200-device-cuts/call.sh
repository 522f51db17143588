#!/bin/bash
# GPU call: the cuts drawn on the device (hlo/pick.c, --device-cuts on): what decode_512_cut_steps
# costs against decode_512_steps of the same module and of the module without the option, and a
# top-p request end to end with the cuts drawn on the device against the host's picks, same call.
# Bundles (carried): .gpu/s = main at 1df940e (bin, whl, data; vmfb/m16.vmfb: one slot, no cuts; the
# one-slot graph is the same text at d2c307f with the cuts off), .gpu/c = d2c307f (bin;
# vmfb/m16c.vmfb: `mlxcel compile --config llama-3.2-1b/config.json --device cuda --cuda-target sm_89
# --weights-dtype bf16 --precision bf16 --slots 1 --context 512 --device-cuts on`, on the 2-core VM).
# Run from the repository root with the two carried; logs go to $OUT/cuts.
set -u
O=$OUT/cuts L=$OUT/cuts/logs; mkdir -p $L
S=.gpu/s C=.gpu/c M=/tmp/peers-l1b P=bench/peers
[ -d /tmp/peers-site/iree ] || python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $S/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $S/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $S/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
[ -f $M/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$S/bin $S/bin/mlxcel synth --config $S/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
R=$O/results.jsonl CU="--device cuda --cuda-target sm_89"
bm() { # TAG VMFB FUNCTION INPUTS...
  local tag=$1 v=$2 f=$3; shift 3
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$v --parameters=model=$M/model.safetensors \
    --function=$f "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  local rc=$?
  echo "$tag $f rc=$rc $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $O/bench.log
  [ $rc = 0 ] || grep -m2 -i "error" /tmp/bm.log | cut -c1-300 >> $O/bench.log
}
G4="--input=1xi32=5 --input=1xi32=200 --input=1xf32=0 --input=1xi32=7"
OFF="--input=1xi32=0 --input=1xf32=1 --input=1xf32=0"
T08="--input=1xi32=5 --input=1xi32=200 --input=1xf32=0.8 --input=1xi32=7"
[ -n "${SKIP_BM:-}" ] || for r in 1 2; do
  bm "round $r no-cuts greedy" $S/vmfb/m16.vmfb decode_512_steps $G4
  bm "round $r cuts-module greedy" $C/vmfb/m16c.vmfb decode_512_steps $G4
  bm "round $r cuts-module T0.8" $C/vmfb/m16c.vmfb decode_512_steps $T08
  bm "round $r cut fn, cuts off" $C/vmfb/m16c.vmfb decode_512_cut_steps $G4 $OFF
  bm "round $r cut fn, T0.8 top-p 0.95" $C/vmfb/m16c.vmfb decode_512_cut_steps $T08 --input=1xi32=0 --input=1xf32=0.95 --input=1xf32=0
  bm "round $r cut fn, T0.8 top-k 40 top-p 0.95 min-p 0.02" $C/vmfb/m16c.vmfb decode_512_cut_steps $T08 --input=1xi32=40 --input=1xf32=0.95 --input=1xf32=0.02
done
run() { # NOTE BUNDLE VMFB GENERATE-ARGS...
  local note=$1 G=$2 v=$3; shift 3
  LD_LIBRARY_PATH=$PWD/$G/bin timeout 200 python3 $P/mlxcel_peer.py --mlxcel $G/bin/mlxcel --model $M \
    --dtype bf16 --batch 1 --prompt-ids $S/data/prompt_ids.json --prompt-file $S/data/prompt.txt --new 128 --runs 3 --out $R \
    --vmfb $v --context 512 --note "$note" -- $CU "$@" > $L/mlxcel-${note// /_}.log 2>&1; echo "$note rc=$?" >> $O/steps.out
}
run "host top-p" $S $S/vmfb/m16.vmfb --temperature 0.8 --top-p 0.95 --seed 7
run "device top-p" $C $C/vmfb/m16c.vmfb --temperature 0.8 --top-p 0.95 --seed 7 --device-cuts on
run "device greedy" $C $C/vmfb/m16c.vmfb --device-cuts on
run "no-cuts greedy" $S $S/vmfb/m16.vmfb
python3 $P/table.py $R > $O/table.txt 2>&1
tar -czf $O/logs.tar.gz -C $O logs && rm -rf $L
