#!/bin/bash
# A planned H200 run (written 2026-12-01; not yet run: no GPU machine was lent that session). From the
# repository root on the GPU machine, with the bundle
# (`make bundle`, copied to .gpu/q/bin), the pinned runtime wheel (.gpu/q/whl) and modules prebuilt
# for sm_89 on the development VM (.gpu/q/vmfb, from `mlxcel qualify --prepare`) carried:
#   bash scripts/gpu/h200_faults_and_selection.sh      (logs to $OUT; commit them under bench/results/)
# 1. device selection on a one-GPU host (issue 17's part that one GPU can show);
# 2. fault injection against the server on the GPU (faults.py; issue 14).
set -u
Q=$PWD/.gpu/q B=$PWD/.gpu/q/bin/mlxcel M=/tmp/q/llama-3.2-1b-synth R=$OUT
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site $Q/whl/*.whl || exit 1
export PYTHONPATH=/tmp/site
mkdir -p /tmp/tok /tmp/q && cp $Q/data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ &&
  xz -dc $Q/data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
$B synth --config $Q/data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0 > $R/synth.log 2>&1
{
  echo "## $(date -u '+%F %T UTC')"; nvidia-smi --query-gpu=index,name,driver_version,memory.used,memory.total --format=csv
  echo "## mlxcel devices"; $B devices 2>&1
  G="generate -m $M -p Hello -n 8 --no-chat --device"
  V="--cuda-target sm_89 --vmfb $Q/vmfb/generate-f32.vmfb"
  echo "## cuda://1 on a one-GPU host (expect a refusal before anything is loaded)"
  s=$(date +%s%N); $B $G cuda://1 $V 2>&1; echo "exit $? after $(( ($(date +%s%N) - s) / 1000000 )) ms"
  echo "## CUDA_VISIBLE_DEVICES= (no GPU visible) with cuda://0"
  s=$(date +%s%N); CUDA_VISIBLE_DEVICES= $B $G cuda://0 $V 2>&1; echo "exit $? after $(( ($(date +%s%N) - s) / 1000000 )) ms"
  echo "## CUDA_VISIBLE_DEVICES=0 with cuda://0, GPU memory sampled while it runs"
  (CUDA_VISIBLE_DEVICES=0 $B $G cuda://0 $V --stats 2>&1; echo "exit $?") &
  for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.5; nvidia-smi --query-gpu=index,memory.used --format=csv,noheader; done
  wait
} > $R/selection.log 2>&1
python3 tests/server/device_faults.py --mlxcel $B --model $M --out $R -- \
  --device cuda --cuda-target sm_89 --slots 4 --vmfb $Q/vmfb/serve-f32/s4.vmfb > $R/faults.txt 2>&1
echo "faults.py exit $?" >> $R/faults.txt
nvidia-smi >> $R/faults.txt 2>&1
