#!/bin/bash
# iree-benchmark-module on local-task: the 1B decode and prefill_128 at O0 and O3, alternating, 5 repetitions each.
BM=/root/.cache/mlxcel/iree-3.13.0/venv/lib/python3.11/site-packages/iree/_runtime_libs/iree-benchmark-module
P=/work/wt-flags/build/oracle/llama-3.2-1b-synth/model.safetensors
for r in 1 2; do for fs in O0 O3; do
  for fn in decode prefill_128; do
    in="--input=1xi32=5 --input=1xi32=200"; [ $fn = prefill_128 ] && in="--input=128xi32=5 --input=i32=126 --input=i32=0"
    echo "== 1B f32 $fs $fn round $r; load $(cut -d' ' -f1-3 /proc/loadavg)"
    nice $BM --device=local-task --module=/tmp/fl/cpu1b-$fs.vmfb --parameters=model=$P --function=$fn $in --benchmark_repetitions=5 2>&1 | grep "real_time \|real_time_median"
  done
done; done
