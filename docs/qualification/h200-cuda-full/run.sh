#!/bin/bash
# H200, 2026-12-01 (session 3): `mlxcel qualify --full` on prebuilt sm_89 modules of the synthetic
# Llama-3.2-1B, with a soak that fits the device tool's 10-minute command limit.
#   bash .gpu/q/run.sh SOAK_MINUTES   (the report goes to $OUT/h200)
set -u
cd "$(dirname "$0")"
SOAK=${1:-2}
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site whl/*.whl || exit 1
export PYTHONPATH=/tmp/site
B=$PWD/bin/mlxcel M=/tmp/q/llama-3.2-1b-synth
mkdir -p /tmp/tok /tmp/q && cp data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ && xz -dc data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
$B synth --config data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0 > $OUT/synth.log 2>&1
date -u > $OUT/started.txt
timeout -s INT 540 $B qualify --full --soak-minutes $SOAK --prebuilt vmfb --device cuda --cuda-target sm_89 -m $M \
  --fixture ../../tests/oracle/fixtures/llama32-1b-synth.json -o $OUT/h200 \
  --note "the soak lasts $SOAK minutes, not 30: the GPU machine runs one command for at most 10 minutes; modules prebuilt for sm_89 (PTX) on the development VM by \`mlxcel qualify --prepare\`" \
  > $OUT/qualify.out 2> $OUT/qualify.err
echo "qualify rc=$?" >> $OUT/qualify.out
date -u >> $OUT/started.txt
# Is the bf16 batch result repeatable? One more run of the same gate, outside the kit.
timeout 60 $B batch-bench -m $M --slots 4 --precision bf16 --device cuda --cuda-target sm_89 --vmfb-dir vmfb/batch-bf16 \
  > $OUT/h200/bf16-batch-rerun.log 2>&1
echo "rc=$?" >> $OUT/h200/bf16-batch-rerun.log
ps -eo pid,args | grep -c "[m]lxcel" > $OUT/left-processes.txt
nvidia-smi >> $OUT/left-processes.txt 2>&1
mv $OUT/synth.log $OUT/started.txt $OUT/left-processes.txt $OUT/qualify.out $OUT/qualify.err $OUT/h200/
tar -C $OUT -czf $OUT/h200.tar.gz h200 && rm -rf $OUT/h200
