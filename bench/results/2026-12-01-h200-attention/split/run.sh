#!/bin/bash
# H200: batched decode with the weight products split into 4-row products (GPU targets), against the
# unsplit modules of the previous call: one decode_512_steps call (K=8) per module, then the server.
set -u
cd "$(dirname "$0")"
L=$OUT
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site whl/*.whl || exit 1
export PYTHONPATH=/tmp/site LD_LIBRARY_PATH=$PWD/bin
BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module
B=$PWD/bin/mlxcel M=/tmp/l1b DEV="--device cuda --cuda-target sm_89"
mkdir -p /tmp/tok && cp data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ && xz -dc data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
$B synth --config data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0 > $L/synth.log 2>&1
sha256sum $M/model.safetensors >> $L/synth.log
bm() { # MODULE SLOTS
  timeout 60 $BM --device=cuda --module=$1 --parameters=model=$M/model.safetensors --function=decode_512_steps \
    --input=${2}xi32=5 --input=${2}xi32=200 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" | tee -a $L/bench.log
}
for r in 1 2; do bm prev/f32-s8-k8.vmfb 8; bm vmfb/f32-s8-k8.vmfb 8; bm prev/f16-s8-k8.vmfb 8; bm vmfb/f16-s8-k8.vmfb 8; done
bm vmfb/bf16-s8-k8.vmfb 8; bm vmfb/f32-s4-k8.vmfb 4
T=/tmp/texts; mkdir -p $T
serve() { # PREC SLOTS K
  local log=$T/serve-$1-s$2.log port=
  $B serve -m $M --port 0 --slots $2 --context 512 --precision $1 --decode-steps $3 $DEV --vmfb vmfb/$1-s$2-k$3.vmfb --quiet > $log 2>&1 &
  local spid=$!
  for i in $(seq 240); do grep -q "listening on" $log && break; kill -0 $spid 2>/dev/null || break; sleep 0.5; done
  port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' $log)
  echo "== serve $1 slots $2 K $3: port ${port:-none}" | tee -a $L/serve.log
  if [ -n "$port" ]; then
    timeout 60 python3 client.py http://127.0.0.1:$port 8 8 16 /tmp/warm.json > /dev/null 2>&1
    for r in 1 2 3; do timeout 90 python3 client.py http://127.0.0.1:$port 32 32 64 $T/serve-$1-s$2-$r.json 2>&1 | grep -v "^  " | tee -a $L/serve.log; done
  else tail -5 $log | tee -a $L/serve.log; fi
  kill -TERM $spid; wait $spid; echo "server exit $?" >> $L/serve.log
}
serve f32 8 8; serve f32 4 8; serve f16 8 8; serve bf16 8 8
