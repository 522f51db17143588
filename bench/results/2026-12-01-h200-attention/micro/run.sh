#!/bin/bash
# Decode attention micro-benchmarks (gen.py): 16 chained layers of one query step, KV 8 x G 4 x D 64, window W.
set -u
cd "$(dirname "$0")"
L=$OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site *.whl || exit 1
BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module
for f in att-*.vmfb; do
  n=${f%.vmfb}; t=${n#att-*-}; dt=${t%-*}; W=${t#*-}; vs="${W}x64"; case $n in *SV-*) vs="64x${W}";; esac
  timeout 60 $BM --device=cuda --module=$f --function=att --input=8x4x64xf32=0.01 --input=16x8x${W}x64x${dt}=0.02 \
    --input=16x8x${vs}x${dt}=0.03 --input=i32=$((W-10)) --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$n rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" | tee -a $L/att.log
  cat /tmp/bm.log >> $L/att-full.log
done
