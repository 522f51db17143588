#!/bin/bash
# H200 call 1 (2026-12-04, session 2): where prefill_512 goes, and what other lowering configs give.
#   1. Nsight Compute over one prefill_512 call of the shipped module (.gpu/win: main at d131157, bf16
#      weights and cache, one slot, context 8192);
#   2. Nsight Compute over each dispatch benchmark in .gpu/tiles/vmfb (5 launches each): prefill_512's
#      own dispatches as IREE 3.13 configured them (-A) and the products (d19 gate, d4 q/o, d21 down)
#      and the residual-add + sum-of-squares reduction (d17) with other lowering configs (gen.py, genr.py:
#      the dumped benchmarks of `iree-compile --iree-hal-dump-executable-benchmarks-to` on the 2-layer
#      context-512 module, their lowering_config edited, compiled for sm_89 with the engine's flags).
# Run from the repository root with .gpu/win and .gpu/tiles carried; bench.log, ncu-*.csv.gz go to $OUT.
set -u
N=.gpu/win M=/tmp/peers-l1b T=.gpu/tiles
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
RT=/tmp/peers-site/iree/_runtime_libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm --format=csv >> $OUT/bench.log
while read n f; do
  v=$T/vmfb/$n.vmfb
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $RT/iree-run-module --device=cuda --module=$v --function=$f --input=i32=5 < /dev/null > /tmp/ncu-$n.csv 2>/tmp/ncu-$n.err
  echo "$n rc=$? $(python3 -c "
import csv,sys,statistics
rows=[r for r in csv.reader(open('/tmp/ncu-$n.csv')) if len(r)>10 and r[-1].replace('.','',1).isdigit()]
t=[float(r[-1])/1e3 for r in rows]
print('n=%d median_us=%.2f min_us=%.2f max_us=%.2f %s'%(len(t),statistics.median(t),min(t),max(t),rows[0][4] if rows else '-') if t else 'no kernels')
")" >> $OUT/bench.log
done < $T/functions.txt
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > /tmp/synth.log 2>&1 || tail -3 /tmp/synth.log >> $OUT/bench.log
timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RT/iree-run-module --device=cuda --module=$N/vmfb/bf16-s1.vmfb --parameters=model=$M/model.safetensors \
  --function=prefill_512 --input=512xi32=5 --input=i32=512 --input=i32=0 > $OUT/ncu-prefill512.csv 2> /tmp/ncu-p.err
echo "ncu prefill_512 rc=$? $(wc -l < $OUT/ncu-prefill512.csv) lines" >> $OUT/bench.log; tail -n 3 /tmp/ncu-p.err >> $OUT/bench.log
gzip -f $OUT/ncu-prefill512.csv
