#!/bin/bash
# H200 call (2026-12-04): the build whose KV cache follows the precision (bf16 sessions get a bf16 cache
# by default), against JAX/XLA in the same call, and a profile of decode at the windows a long prompt
# decodes in:
#   1. bench/peers at B = 1, bf16, 128 new tokens, 1 warm-up + 3 runs, with the 126-, 515- and
#      2139-token prompts (prompt, prompt-512, prompt-2048): mlxcel and JAX/XLA;
#   2. Nsight Compute, one call each of decode_512_steps (8 steps from 200) and decode_4096_steps (8
#      steps from 2200): the kernels of a decode step and what grows with the window.
# Module: `CONTEXT=8192 MODULES="bf16:1" bench/peers/prepare-gpu.sh .gpu/kvdef sm_89`, i.e. `mlxcel compile
# --config llama-3.2-1b/config.json --weights-dtype bf16 --precision bf16 --slots 1 --context 8192
# --device cuda --cuda-target sm_89` (its cache bf16 by default). Run from the repository root with
# .gpu/kvdef carried; table.txt, results.jsonl, bench.log, ncu-*.csv.gz and logs.tar.gz go to $OUT.
set -u
L=$OUT/logs; mkdir -p $L
N=.gpu/kvdef M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
R=$OUT/results.jsonl
for p in prompt prompt-512 prompt-2048; do
  ids=$N/data/${p}_ids.json
  LD_LIBRARY_PATH=$PWD/$N/bin timeout 200 python3 $N/peers/mlxcel_peer.py --mlxcel $N/bin/mlxcel --model $M --dtype bf16 \
    --batch 1 --prompt-ids $ids --prompt-file $N/data/$p.txt --new 128 --runs 3 --out $R --vmfb $N/vmfb/bf16-s1.vmfb \
    --context 8192 --note "mlxcel $p" -- --device cuda --cuda-target sm_89 > $L/mlxcel-$p.log 2>&1; echo "mlxcel $p rc=$?" >> $L/peers.out
  timeout 200 python3 $N/peers/jax_peer.py --model $M --dtype bf16 --batch 1 --prompt-ids $ids --new 128 --runs 3 --out $R --note "jax $p" \
    --context $(python3 -c "import json; print(max(512, len(json.load(open('$ids'))) + 128))") > $L/jax-$p.log 2>&1; echo "jax $p rc=$?" >> $L/peers.out
done
python3 $N/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
nc() { # TAG FUNCTION POSITION
  timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $RT/iree-run-module --device=cuda --module=$N/vmfb/bf16-s1.vmfb --parameters=model=$M/model.safetensors \
    --function=$2 --input=1xi32=5 --input=1xi32=$3 > $OUT/ncu-$1.csv 2> /tmp/ncu-$1.err
  echo "ncu $1 rc=$? $(wc -l < $OUT/ncu-$1.csv) lines" >> $OUT/bench.log; tail -n 3 /tmp/ncu-$1.err >> $OUT/bench.log; gzip -f $OUT/ncu-$1.csv
}
nc w512 decode_512_steps 200
nc w4096 decode_4096_steps 2200
cp $L/peers.out $OUT/peers.out
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
