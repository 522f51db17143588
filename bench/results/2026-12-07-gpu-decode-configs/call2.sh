#!/bin/bash
# GPU call 2: what call 1 could not bring back or got wrong. (1) the GPU gate with the new build, its
# one-slot reference rebuilt with --decode-steps 1 (call 1's was built with the default 8 and batch-bench
# refused it: "module_load ... 8 decode steps ... this session needs ... 1 decode steps"); (2) the dispatch
# variants again (call 1 wrote 10 files to $OUT and only 8 come back: variants.log was left out); (3)
# Nsight Compute over one decode_256_steps call (8 steps, 8 slots) of the new module: where the step's
# time goes now. Bundles as in call.sh. Run from the repository root.
set -u
T0=$SECONDS
L=$OUT/logs; mkdir -p $L
S=.gpu/s N=.gpu/t V=.gpu/v M=/tmp/peers-l1b L2=/tmp/l2
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $S/whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $S/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $S/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
[ -f $M/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $S/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
[ -f $L2/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --family llama --tokenizer /tmp/peers-tok -o $L2 > $L/synth-l2.log 2>&1
CU="--device cuda --cuda-target sm_89"
for t in 0 0.8; do
  LD_LIBRARY_PATH=$PWD/$N/bin timeout 200 $N/bin/mlxcel batch-bench -m $L2 --slots 8 --precision f32 --context 256 --reference-steps 1 \
    --temperature $t --vmfb-dir $N/vmfb/g $CU > $OUT/gate-T$t.txt 2> $L/gate-T$t.err
  echo "gate T$t rc=$? at $((SECONDS - T0)) s" >> $OUT/steps.out
done
IN8="--input=8xi32=5 --input=8xi32=200 --input=8xf32=0 --input=8xi32=7"
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RT/iree-run-module --device=cuda --module=$N/vmfb/m8.vmfb --parameters=model=$M/model.safetensors \
  --function=decode_256_steps $IN8 > $OUT/ncu-s8.csv 2> $L/ncu-s8.err
echo "ncu s8 rc=$? $(wc -l < $OUT/ncu-s8.csv) lines at $((SECONDS - T0)) s" >> $OUT/steps.out; gzip -f $OUT/ncu-s8.csv
while read n f; do
  [ $((SECONDS - T0)) -lt 560 ] || { echo "variants stopped at $n: time" >> $OUT/steps.out; break; }
  timeout 20 $RT/iree-benchmark-module --device=cuda --module=$V/$n.vmfb --function=$f --batch_size=100 \
    --benchmark_repetitions=3 > /tmp/v.log 2>&1
  echo "$n rc=$? $(grep -E "real_time_median " /tmp/v.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/variants.log
done < $V/functions.txt
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
