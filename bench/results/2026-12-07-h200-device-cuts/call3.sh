#!/bin/bash
# GPU call 3: where decode_512_cut_steps spends its extra time (one Nsight Compute run over one call of
# the one-slot module with the cuts, T 0.8 top-p 0.95), and batch 1 greedy with the stacks (a3cd2bb's
# one-slot module, .gpu/f/vmfb/m16.vmfb) against JAX/XLA at batch 1 in the same call.
# Carried: .gpu/s (wheel, data), .gpu/c (d2c307f: vmfb/m16c.vmfb), .gpu/f (bin, vmfb/m16.vmfb).
set -u
L=$OUT/logs; mkdir -p $L
S=.gpu/s C=.gpu/c F=.gpu/f M=/tmp/peers-l1b P=bench/peers
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $S/whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $S/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $S/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
[ -f $M/model.safetensors ] || LD_LIBRARY_PATH=$PWD/$F/bin $F/bin/mlxcel synth --config $S/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/gpu.txt
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RT/iree-run-module --device=cuda --module=$C/vmfb/m16c.vmfb --parameters=model=$M/model.safetensors \
  --function=decode_512_cut_steps --input=1xi32=5 --input=1xi32=200 --input=1xf32=0.8 --input=1xi32=7 \
  --input=1xi32=0 --input=1xf32=0.95 --input=1xf32=0 > $OUT/ncu-cut.csv 2> $L/ncu-cut.err
echo "ncu cut rc=$? $(wc -l < $OUT/ncu-cut.csv) lines" >> $OUT/steps.out; gzip -f $OUT/ncu-cut.csv
R=$OUT/results.jsonl
LD_LIBRARY_PATH=$PWD/$F/bin timeout 200 python3 $P/mlxcel_peer.py --mlxcel $F/bin/mlxcel --model $M --dtype bf16 --batch 1 \
  --prompt-ids $S/data/prompt_ids.json --prompt-file $S/data/prompt.txt --new 128 --runs 3 --out $R --vmfb $F/vmfb/m16.vmfb \
  --context 512 --note "stacks B1" -- --device cuda --cuda-target sm_89 > $L/mlxcel-B1.log 2>&1; echo "stacks B1 rc=$?" >> $OUT/steps.out
n=$(python3 -c "import json;print(len(json.load(open('$S/data/prompt_ids.json')))+128)")
timeout 200 python3 $P/jax_peer.py --model $M --dtype bf16 --batch 1 --prompt-ids $S/data/prompt_ids.json --new 128 --runs 3 --out $R \
  --note "jax B=1" --context $n > $L/jax-1.log 2>&1; echo "jax B=1 rc=$?" >> $OUT/steps.out
BW=4.8e12; grep -q H100 $OUT/gpu.txt && BW=3.35e12
python3 $P/table.py $R --bandwidth $BW --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
