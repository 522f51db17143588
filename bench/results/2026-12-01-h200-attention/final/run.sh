#!/bin/bash
# H200, 2026-12-01 (session 2, final call): the chunked two-stage argmax (A/B against the previous
# module), batch 1 bf16/f16/f32 against JAX/XLA bf16 and f32 in the same call, the f32 HF gate, the
# server at 8 slots (f16, bf16) and f32 at 4 and 8 slots, and batched down-projection forms.
#   bash .gpu/fin/run.sh   (logs go to $OUT)
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
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $L/env.log 2>&1
IN1="--input=1xi32=5 --input=1xi32=200"
bm() { # MODULE FUNCTION INPUTS...
  local v=$1 fn=$2; shift 2
  timeout 60 $BM --device=cuda --module=$v --parameters=model=$M/model.safetensors --function=$fn "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$v $fn rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" | tee -a $L/bench.log
}
for r in 1 2; do bm vmfb/prev-bf16-s1-k1.vmfb decode_512 $IN1; bm vmfb/bf16-s1-k1.vmfb decode_512 $IN1; done
for f in down/*.vmfb; do M8=$(basename $f | cut -d- -f3)
  timeout 60 $BM --device=cuda --module=$f --function=mm --input=${M8}x8192xf32=0.01 --input=16x2048x8192xbf16=0.02 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "down $f rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" | tee -a $L/bench.log
done
P="$(cat prompt.txt)" T=/tmp/texts; mkdir -p $T
gen() { # VMFB PREC K RUN
  local f=$T/gen-$1-$4
  timeout 120 $B generate -m $M -p "$P" -n 128 --no-chat --ignore-eos --precision $2 --context 512 --decode-steps $3 $DEV \
    --vmfb vmfb/$1.vmfb --stats > $f.txt 2> $f.err
  echo "$1 $4 rc=$? $(grep '^mlxcel stats:' $f.err || tail -1 $f.err)" | tee -a $L/generate.log
}
for c in "bf16-s1-k8 bf16 8" "f16-s1-k8 f16 8" "f32-s1-k8 f32 8"; do for r in warm 1 2 3; do gen $c $r; done; done
echo "== check f32 K=8" >> $L/check.log
timeout 150 $B check -m $M --fixture fixture.json $DEV --context 512 --decode-steps 8 --vmfb vmfb/f32-s1-k8.vmfb >> $L/check.log 2>&1
echo "check rc=$?" | tee -a $L/check.log; tail -2 $L/check.log
for d in bf16 f32; do
  timeout 200 python3 jax_llama.py --model $M --dtype $d --prompt-ids prompt_ids.json --new 128 --runs 3 --out $T/jax-$d.json 2>&1 | grep -v "^W0000\|^I0000" | tee -a $L/jax.log
done
python3 - <<'PY' | tee -a $L/generate.log
import json
j = json.load(open("/tmp/texts/jax-f32.json"))
ours = open("/tmp/texts/gen-f32-s1-k8-1.txt").read()
print("jax f32 text == mlxcel f32 text:", ours == j.get("prompt_text", ""))
PY
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
serve f16 8 8; serve bf16 8 8; serve f32 8 8; serve f32 4 8
tar -czf $L/texts.tar.gz -C /tmp texts
