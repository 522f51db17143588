#!/bin/bash
# Batched decode micro-benchmarks: weight products at M = 4/8/16 (gen.py) and attention at 8 slots
# (att_gen.py with KV=64: 8 slots x 8 KV heads), each form timed by iree-benchmark-module.
set -u
cd "$(dirname "$0")"
L=$OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site *.whl || exit 1
BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module
for f in mm-*.vmfb; do
  n=${f%.vmfb}; M=$(echo $n | cut -d- -f3)
  timeout 60 $BM --device=cuda --module=$f --function=mm --input=${M}x2048xf32=0.01 --input=16x8192x2048xbf16=0.02 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$n rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" | tee -a $L/mm.log
done
for f in att-*.vmfb; do
  n=${f%.vmfb}; t=${n#att-*-}; dt=${t%-*}; W=${t#*-}; vs="${W}x64"; case $n in *SV-*) vs="64x${W}";; esac
  timeout 60 $BM --device=cuda --module=$f --function=att --input=64x4x64xf32=0.01 --input=16x64x${W}x64x${dt}=0.02 \
    --input=16x64x${vs}x${dt}=0.03 --input=i32=$((W-10)) --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "kv64 $n rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" | tee -a $L/att.log
done
