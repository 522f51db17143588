#!/bin/bash
# H200 call 4 (2026-12-01, session 5): where a long prompt's prefill goes. The bf16 module of call 2
# (context 8192): iree-benchmark-module per function (prefill_128, prefill_512, extend_2048,
# extend_8192, decode_512_steps, decode_2048_steps, decode_8192_steps), then Nsight Compute's duration
# of every kernel of one extend_2048 call (a 512-token chunk from position 512).
# Run from the repository root with .gpu/peers2 carried:
#   bash bench/results/2026-12-01-h200-peers/call4.sh      (logs to $OUT)
set -u
P=.gpu/peers2 M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $P/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site LD_LIBRARY_PATH=$PWD/$P/bin
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $P/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $P/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
$P/bin/mlxcel synth --config $P/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
V=$P/vmfb/bf16-s1.vmfb
EXT="--input=512xi32=5 --input=i32=512 --input=i32=512 --input=i32=0"
bm() { # FUNCTION INPUTS...
  local fn=$1; shift
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$V --parameters=model=$M/model.safetensors --function=$fn "$@" \
    --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$fn rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
bm prefill_128 --input=128xi32=5 --input=i32=126 --input=i32=0
bm prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0
bm extend_2048 $EXT
bm extend_8192 --input=512xi32=5 --input=i32=2048 --input=i32=512 --input=i32=0
for w in 512 2048 8192; do bm decode_${w}_steps --input=1xi32=5 --input=1xi32=$((w / 2)); done
timeout 240 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RT/iree-run-module --device=cuda --module=$V --parameters=model=$M/model.safetensors --function=extend_2048 $EXT \
  > /tmp/ncu-extend.csv 2> $OUT/ncu.err
echo "ncu rc=$? kernels $(grep -c gpu__time_duration /tmp/ncu-extend.csv)" >> $OUT/bench.log
gzip -c /tmp/ncu-extend.csv > $OUT/ncu-extend.csv.gz
# Session 2's table script, with the extend functions' kernels counted as well.
sed 's/(decode|prefill)/(decode|prefill|extend)/' bench/results/2026-12-01-h200-attention/ncu_table.py > /tmp/ncu_table.py
python3 /tmp/ncu_table.py $OUT/ncu-extend.csv.gz > $OUT/ncu-table.txt 2>&1
