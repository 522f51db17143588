#!/bin/bash
# H200 call (2026-12-02, session 9): each --family checkpoint (2 layers, f32, made here by mlxcel synth
# --seed 0) decoded on CUDA against its HF fp32 fixture (tests/oracle/fixtures/F-synth.json), with the
# modules prepare.sh compiled on the development VM. Run from the repository root with .gpu/fam carried:
#   bash bench/results/2026-12-02-h200-families/call.sh
set -u
P=.gpu/fam
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/fam-site $P/whl/*.whl || exit 1
export PYTHONPATH=/tmp/fam-site LD_LIBRARY_PATH=$PWD/$P/bin MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
mkdir -p /tmp/fam-tok && cp $P/tok/tokenizer_config.json /tmp/fam-tok/ && xz -dc $P/tok/tokenizer.json.xz > /tmp/fam-tok/tokenizer.json
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/env.log 2>&1
for fam in qwen2 qwen3 mistral gemma2 gemma3 phi3; do
  $P/bin/mlxcel synth --family $fam --tokenizer /tmp/fam-tok -o /tmp/fam-$fam --seed 0 --dtype f32 > $OUT/synth-$fam.log 2>&1
  timeout 120 $P/bin/mlxcel check -m /tmp/fam-$fam --fixture tests/oracle/fixtures/$fam-synth.json --context 256 \
    --device cuda --cuda-target sm_89 --vmfb $P/vmfb/$fam.vmfb > $OUT/check-$fam.log 2>&1
  echo "$fam check rc=$? $(tail -1 $OUT/check-$fam.log)" >> $OUT/summary.log
done
cat $OUT/summary.log
