#!/bin/bash
# H200, 2026-12-01 (session 2): decode attention in the expanded form (K/V repeated per query head, so both
# products are batched matrix-vector products) against the grouped form and the old graph, bf16/f16/f32,
# batch 1 and served; the f32 HF gate; JAX/XLA bf16 in the same call; a per-kernel profile of the new step.
#   bash .gpu/x/run.sh   (logs go to $OUT)
set -u
cd "$(dirname "$0")"
L=$OUT
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site whl/*.whl || exit 1
export PYTHONPATH=/tmp/site LD_LIBRARY_PATH=$PWD/bin
BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module RM=/tmp/site/iree/_runtime_libs/iree-run-module
B=$PWD/bin/mlxcel M=/tmp/l1b DEV="--device cuda --cuda-target sm_89"
mkdir -p /tmp/tok && cp data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ && xz -dc data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
$B synth --config data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0 > $L/synth.log 2>&1
sha256sum $M/model.safetensors >> $L/synth.log
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $L/env.log 2>&1
IN1="--input=1xi32=5 --input=1xi32=200"
bm() { # VMFB FUNCTION INPUTS...
  local v=$1 fn=$2; shift 2
  timeout 90 $BM --device=cuda --module=vmfb/$v.vmfb --parameters=model=$M/model.safetensors --function=$fn "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$v $fn rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" | tee -a $L/bench.log
}
for r in 1 2; do
  bm old-bf16-k1 decode $IN1; bm new-bf16-k1 decode_512 $IN1; bm bf16-s1-k1 decode_512 $IN1; bm bf16-s1-k1 decode_128 --input=1xi32=5 --input=1xi32=100
  bm bf16-s1-k8 decode_512_steps $IN1
done
bm f16-s8-k8 decode_512_steps --input=8xi32=5 --input=8xi32=200; bm f32-s4-k8 decode_512_steps --input=4xi32=5 --input=4xi32=200
bm f32-s8-k8 decode_512_steps --input=8xi32=5 --input=8xi32=200
P="$(cat prompt.txt)" T=/tmp/texts; mkdir -p $T
gen() { # VMFB PREC K RUN
  local f=$T/gen-$1-$4
  timeout 120 $B generate -m $M -p "$P" -n 128 --no-chat --ignore-eos --precision $2 --context 512 --decode-steps $3 $DEV \
    --vmfb vmfb/$1.vmfb --stats > $f.txt 2> $f.err
  echo "$1 $4 rc=$? $(grep '^mlxcel stats:' $f.err || tail -1 $f.err)" | tee -a $L/generate.log
}
for c in "bf16-s1-k8 bf16 8" "bf16-s1-k1 bf16 1" "f16-s1-k8 f16 8" "f32-s1-k8 f32 8"; do for r in warm 1 2 3; do gen $c $r; done; done
for v in bf16-s1-k1 f16-s1-k8 f32-s1-k8; do cmp -s $T/gen-bf16-s1-k8-1.txt $T/gen-$v-1.txt && echo "text bf16-s1-k8 = $v" | tee -a $L/generate.log || echo "text bf16-s1-k8 != $v" | tee -a $L/generate.log; done
echo "== check f32 K=8" >> $L/check.log
timeout 150 $B check -m $M --fixture fixture.json $DEV --context 512 --decode-steps 8 --vmfb vmfb/f32-s1-k8.vmfb >> $L/check.log 2>&1
echo "check rc=$?" | tee -a $L/check.log; tail -3 $L/check.log
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
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  $RM --device=cuda --module=vmfb/bf16-s1-k1.vmfb --parameters=model=$M/model.safetensors --function=decode_512 $IN1 > $L/ncu-x.csv 2> $L/ncu-x.err
echo "ncu rc=$?" | tee -a $L/bench.log; gzip -f $L/ncu-x.csv
tar -czf $L/texts.tar.gz -C /tmp texts
