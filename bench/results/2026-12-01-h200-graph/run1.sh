#!/bin/bash
# H200, 2026-12-01: the new graph (KV cache [slots*KV, C, D], attention windows, one scatter per layer,
# K greedy steps per call) at O3, sm_89 PTX: decode and prefill at batch 1 by precision and K; the f32
# HF gate with a prebuilt module; the server at 4 and 8 slots; JAX/XLA bf16 as the peer, same call.
#   bash .gpu/graph/run.sh    (logs go to $OUT)
set -u
cd "$(dirname "$0")"
L=$OUT
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site ../flags/whl/*.whl || exit 1
export PYTHONPATH=/tmp/site
B=$PWD/bin/mlxcel M=/tmp/l1b DEV="--device cuda --cuda-target sm_89"
mkdir -p /tmp/tok && cp data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ && xz -dc data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
$B synth --config data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0 > $L/synth.log 2>&1
sha256sum $M/model.safetensors >> $L/synth.log
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $L/env.log 2>&1
P="$(cat prompt.txt)" T=/tmp/texts; mkdir -p $T
gen() { # PREC SLOTS K RUN
  local f=$T/gen-$1-k$3-$4
  timeout 120 $B generate -m $M -p "$P" -n 128 --no-chat --ignore-eos --precision $1 --context 512 --decode-steps $3 $DEV \
    --vmfb vmfb/$1-s$2-k$3.vmfb --stats > $f.txt 2> $f.err
  echo "$1 k$3 $4 rc=$? $(grep '^mlxcel stats:' $f.err || tail -1 $f.err)" | tee -a $L/generate.log
}
for c in "bf16 1 8" "bf16 1 1" "f16 1 8" "f32 1 8" "bf16 1 4"; do for r in warm 1 2 3; do gen $c $r; done; done
for c in "bf16 k8" "bf16 k1" "bf16 k4" "f16 k8" "f32 k8"; do set -- $c; cmp -s $T/gen-$1-$2-1.txt $T/gen-$1-$2-3.txt && echo "$1 $2: run 1 = run 3" >> $L/generate.log; done
cmp $T/gen-bf16-k8-1.txt $T/gen-bf16-k1-1.txt && echo "bf16: K=8 text = K=1 text" | tee -a $L/generate.log
cmp $T/gen-bf16-k8-1.txt $T/gen-bf16-k4-1.txt && echo "bf16: K=8 text = K=4 text" | tee -a $L/generate.log
echo "== check f32 K=8" >> $L/check.log
timeout 120 $B check -m $M --fixture fixture.json $DEV --context 512 --decode-steps 8 --vmfb vmfb/f32-s1-k8.vmfb >> $L/check.log 2>&1
echo "check rc=$?" | tee -a $L/check.log
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
serve f16 8 8; serve f32 8 8; serve f32 4 8
timeout 200 python3 jax_llama.py --model $M --dtype bf16 --prompt-ids prompt_ids.json --new 128 --runs 3 --out $T/jax-bf16.json 2>&1 | grep -v "^W0000\|^I0000" | tee -a $L/jax.log
tar -czf $L/texts.tar.gz -C /tmp texts
cat $L/generate.log | cut -c1-60 | head -0
