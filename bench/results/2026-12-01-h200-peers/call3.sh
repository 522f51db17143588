#!/bin/bash
# H200 call 3 (2026-12-01, session 5): the f32 gates on the GPU for this session's engine, with the
# prebuilt f32 module of call 2 (context 0 = 8192): `mlxcel check` against the committed HF fixture
# (2 short prompts) and against an HF fp32 fixture of a 1300-token prompt made here on this machine's
# CPU (tests/oracle/hf_trajectory.py, set llama32-1b-synth-long), which the chunked prefill must match.
# Run from the repository root with .gpu/peers2 carried (its bin/ rebuilt after call 2's check fix):
#   bash bench/results/2026-12-01-h200-peers/call3.sh      (logs to $OUT)
set -u
P=.gpu/peers2 M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $P/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1 LD_LIBRARY_PATH=$PWD/$P/bin
mkdir -p /tmp/peers-tok && cp $P/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $P/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
$P/bin/mlxcel synth --config $P/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1
sha256sum $M/model.safetensors >> $OUT/synth.log
timeout 300 env PYTHONPATH= python3 tests/oracle/hf_trajectory.py --dir $M --prompts tests/oracle/prompts.json \
  --set llama32-1b-synth-long --steps 32 -o $OUT/llama32-1b-synth-long.json > $OUT/hf.log 2>&1
echo "hf_trajectory rc=$?" >> $OUT/hf.log
for f in tests/oracle/fixtures/llama32-1b-synth.json $OUT/llama32-1b-synth-long.json; do
  timeout 150 $P/bin/mlxcel check -m $M --fixture $f --device cuda --cuda-target sm_89 --context 0 --vmfb $P/vmfb/f32-s1.vmfb \
    >> $OUT/check.log 2>&1
  echo "check $(basename $f) rc=$?" >> $OUT/check.log
done
