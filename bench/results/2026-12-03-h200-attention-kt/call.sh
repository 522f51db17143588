#!/bin/bash
# H200 call (2026-12-03): decode attention with K stored transposed (build.sh has the forms). 16 chained
# layers, iree-benchmark-module 5 repetitions, two rounds, medians. Run from the repository root with
# .gpu/attkt carried (the VMFBs; the runtime wheel there, or in WHEEL_DIR).
set -u
A=${ATT_DIR:-.gpu/attkt} # ATT_DIR: another build.sh's modules (2026-12-04-h200-attention-w4096)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site ${WHEEL_DIR:-$A}/*.whl || exit 1
BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module
for r in 1 2; do for f in $A/att-*.vmfb; do
  n=$(basename $f .vmfb); IFS=- read -r _ qk pv dt W kv <<< "$n"; kv=${kv#kv}
  ks=${W}x64; case $qk in T|U|Q) ks=64x${W};; esac
  vs=${W}x64; case $pv in SV|V) vs=64x${W};; esac
  timeout 60 $BM --device=cuda --module=$f --function=att --input=${kv}x4x64xf32=0.01 --input=16x${kv}x${ks}x${dt}=0.02 \
    --input=16x${kv}x${vs}x${dt}=0.03 --input=i32=$((W-10)) --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "round $r $n rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s", $2, $3}')" | tee -a $OUT/att.log
done; done
