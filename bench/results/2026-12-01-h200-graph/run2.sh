#!/bin/bash
# H200: why the new graph's batch-1 decode is slower than the old one at O3. Same call: the old graph
# (main, .gpu/flags), the new graph K=1 and K=8, the new graph with per-slot dynamic_update_slice
# instead of the scatter, O3 + data tiling; then Nsight Compute kernel times for old and new.
set -u
cd "$(dirname "$0")/.."
L=$OUT
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site flags/whl/*.whl || exit 1
export PYTHONPATH=/tmp/site
NEW=$PWD/graph/bin/mlxcel OLD=$PWD/flags/bin/mlxcel M=/tmp/l1b DEV="--device cuda --cuda-target sm_89"
mkdir -p /tmp/tok && cp graph/data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ && xz -dc graph/data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
$NEW synth --config graph/data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0 > $L/synth.log 2>&1
P="$(cat graph/prompt.txt)"
gen() { # NAME BIN VMFB K
  for r in warm 1 2 3; do
    timeout 60 $2 generate -m $M -p "$P" -n 128 --no-chat --ignore-eos --precision bf16 --context 512 $DEV --vmfb $3 $4 --stats 2>&1 >/tmp/$1.txt | grep "^mlxcel stats" | sed "s/^/$1 $r /" | tee -a $L/ab.log
  done
}
gen old $OLD flags/vmfb/bf16-s1-O3.vmfb ""
gen new-k1 $NEW graph/vmfb/bf16-s1-k1.vmfb "--decode-steps 1"
gen new-dus-k1 $NEW exp/bf16-dus-k1.vmfb "--decode-steps 1"
gen new-k8 $NEW graph/vmfb/bf16-s1-k8.vmfb "--decode-steps 8"
gen new-dt-k8 $NEW exp/bf16-dt-k8.vmfb "--decode-steps 8"
prof() { # NAME BIN VMFB K
  timeout 150 ncu --clock-control none --launch-skip 1500 --launch-count 900 --metrics gpu__time_duration.sum --csv \
    $2 generate -m $M -p "$P" -n 24 --no-chat --ignore-eos --precision bf16 --context 512 $DEV --vmfb $3 $4 > $L/ncu-$1.csv 2>$L/ncu-$1.err
  echo "ncu $1 rc=$?" | tee -a $L/ab.log
}
prof old $OLD flags/vmfb/bf16-s1-O3.vmfb ""
prof new-k1 $NEW graph/vmfb/bf16-s1-k1.vmfb "--decode-steps 1"
gzip $L/ncu-*.csv
