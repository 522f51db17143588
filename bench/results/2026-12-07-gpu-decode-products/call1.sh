#!/bin/bash
# GPU call 1: the decode weight products as dispatch benchmarks (iree-benchmark-module, 100 dispatches
# per batch, 3 repetitions, two rounds in opposite orders): each 1B shape at M = 1 and M = 8 rows with
# IREE 3.13's configuration (A) and VectorDistribute variants (a-h, var.py), and the 8-slot step's
# split products and chunk sums as the engine has them (S-<dispatch>). Modules from .gpu/w (compiled on
# the VM for sm_89, --iree-opt-level=O3). Run from the repository root.
set -u
T0=$SECONDS
W=.gpu/w
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .gpu/s/whl/*.whl > /dev/null 2>&1
RT=/tmp/site/iree/_runtime_libs
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader > $OUT/gpu.txt
for round in 1 2; do
  if [ $round = 1 ]; then order=cat; else order=tac; fi
  $order $W/functions.txt | while read n f; do
    [ $((SECONDS - T0)) -lt 540 ] || { echo "stopped at $n: time" >> $OUT/steps.out; break; }
    timeout 20 $RT/iree-benchmark-module --device=cuda --module=$W/$n.vmfb --function=$f --batch_size=100 \
      --benchmark_repetitions=3 > /tmp/v.log 2>&1
    echo "$round $n rc=$? $(grep -E "real_time_median " /tmp/v.log | awk '{printf "%s %s", $2, $3}')" >> $OUT/variants.log
  done
  echo "round $round done at $((SECONDS - T0)) s" >> $OUT/steps.out
done
