#!/bin/bash
# GPU call of the device-sampling spike (README): iree-benchmark-module on the cuda modules of gen.py's
# functions (sm_89, --iree-opt-level=O3, one module per function; bisect_unrolled does not compile:
# README), 5 repetitions, two rounds. Run from the repository root with .gpu/spk carried (the modules
# and the iree-base-runtime wheel).
set -u
G=.gpu/spk
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/spk-site $G/*.whl || exit 1
RT=/tmp/spk-site/iree/_runtime_libs
for r in 1 2; do
  for S in 1 8; do
    for f in argmax gumbel bisect_while; do
      case $f in
        argmax) in="--input=${S}x128256xf32=0.5" ;;
        gumbel) in="--input=${S}x128256xf32=0.5 --input=${S}xf32=1 --input=${S}xi32=7 --input=${S}xi32=100" ;;
        bisect_while) in="--input=${S}x128256xf32=0.5 --input=${S}xf32=40" ;;
      esac
      timeout 60 $RT/iree-benchmark-module --device=cuda --module=$G/s${S}_${f}_cuda.vmfb --function=$f $in \
        --benchmark_repetitions=5 > /tmp/bm.log 2>&1
      echo "round $r S=$S $f rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s", $1, $2, $3}')" >> $OUT/bench.log
    done
  done
done
# the kernels of one call each (Nsight Compute): how many dispatches and their time
for S in 1 8; do
  for f in gumbel bisect_while; do
    case $f in
      gumbel) in="--input=${S}x128256xf32=0.5 --input=${S}xf32=1 --input=${S}xi32=7 --input=${S}xi32=100" ;;
      bisect_while) in="--input=${S}x128256xf32=0.5 --input=${S}xf32=40" ;;
    esac
    timeout 120 ncu --clock-control none --csv --metrics gpu__time_duration.sum $RT/iree-run-module --device=cuda \
      --module=$G/s${S}_${f}_cuda.vmfb --function=$f $in > $OUT/ncu-s$S-$f.csv 2> $OUT/ncu-s$S-$f.err
    echo "ncu S=$S $f rc=$?" >> $OUT/bench.log
  done
done
