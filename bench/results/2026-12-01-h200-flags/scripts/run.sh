#!/bin/bash
# H200, 2026-12-01: mlxcel decode/prefill at each compile-flag set (O0, O3, O3 + data tiling) for f32, f16,
# bf16; the f32 HF gate with prebuilt modules; JAX/XLA as the peer; the server at 4 and 8 slots.
#   bash .gpu/flags/run.sh SECTION...   (sections: gen check jax serve; logs go to $OUT)
# The VMFBs were compiled on the development machine (sm_89 PTX; vmfb/README.txt says how).
set -u
cd "$(dirname "$0")"
H=$PWD L=$OUT
export MLXCEL_XLA_WORKER_PYTHON=${MLXCEL_XLA_WORKER_PYTHON:-$(command -v python3)} PYTHONUNBUFFERED=1
if [ -z "${DRY:-}" ] && [ ! -d /tmp/site/iree ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site whl/*.whl || exit 1
fi
export PYTHONPATH=/tmp/site
B=$H/bin/mlxcel
M=${MODEL:-/tmp/l1b}
DEV=${DEV:-"--device cuda --cuda-target sm_89"}  # a local dry run sets DEV and MODEL
if [ ! -f $M/model.safetensors ]; then
  mkdir -p /tmp/tok && cp data/llama3-tokenizer/tokenizer_config.json /tmp/tok/ &&
    xz -dc data/llama3-tokenizer/tokenizer.json.xz > /tmp/tok/tokenizer.json
  { time $B synth --config data/llama-3.2-1b/config.json --tokenizer /tmp/tok -o $M --seed 0; } > $L/synth.log 2>&1
  sha256sum $M/model.safetensors >> $L/synth.log
fi
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,temperature.gpu --format=csv
  python3 --version; python3 -c 'import jax, numpy; print("jax", jax.__version__, "numpy", numpy.__version__)'
  $B --version; $B devices; } >> $L/env.log 2>&1
P="$(cat prompt.txt)"
T=/tmp/texts; mkdir -p $T
pack() { tar -czf $L/texts.tar.gz -C /tmp texts; }

gen() { # PREC FLAGSET RUN
  local f=$T/gen-$1-$2-$3
  timeout 150 $B generate -m $M -p "$P" -n 128 --no-chat --ignore-eos --precision $1 --context 512 $DEV \
    --vmfb vmfb/$1-s1-$2.vmfb --stats > $f.txt 2> $f.err
  echo "$1 $2 $3 rc=$? $(grep '^mlxcel stats:' $f.err)" | tee -a $L/generate.log
}

serve() { # PREC SLOTS FLAGSET
  local log=$T/serve-$1-s$2-$3.log port=
  $B serve -m $M --port 0 --slots $2 --context 512 --precision $1 $DEV \
    --vmfb vmfb/$1-s$2-$3.vmfb --quiet > $log 2>&1 &
  local spid=$!
  for i in $(seq 240); do grep -q "listening on" $log && break; kill -0 $spid 2>/dev/null || break; sleep 0.5; done
  port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' $log)
  echo "== serve $1 slots $2 flags $3: port ${port:-none}" | tee -a $L/serve.log
  if [ -n "$port" ]; then
    local U=http://127.0.0.1:$port
    timeout 60 python3 client.py $U 8 8 16 /tmp/warm.json > /dev/null 2>&1 # warm-up
    for r in 1 2 3; do timeout 90 python3 client.py $U 32 32 64 $T/serve-$1-s$2-$3-$r.json 2>&1 | head -1 | tee -a $L/serve.log; done
  else tail -5 $log | tee -a $L/serve.log; fi
  kill -TERM $spid; wait $spid; echo "server exit $?" >> $L/serve.log
}

for s in "$@"; do case $s in
gen)
  for fs in O3dt O3 O0; do for p in f32 f16 bf16; do for r in warm 1 2 3; do gen $p $fs $r; done; done; pack; done
  python3 - <<'PY' | tee -a $L/generate.log
import glob, os
t = {os.path.basename(f)[4:-4]: open(f).read() for f in glob.glob("/tmp/texts/gen-*.txt")}
for p in ("f32", "f16", "bf16"):
    ref = t.get(f"{p}-O0-1")
    for k in sorted(x for x in t if x.startswith(p + "-")):
        same = None if ref is None else t[k] == ref
        pre = 0 if ref is None else next((i for i, (a, b) in enumerate(zip(t[k], ref)) if a != b), min(len(t[k]), len(ref)))
        print(f"text {k}: {len(t[k])} chars, equal to {p}-O0-1: {same} (common prefix {pre} chars)")
PY
  ;;
check)
  for fs in O3dt O3 O0; do
    echo "== check f32 flags $fs" >> $L/check.log
    timeout 200 $B check -m $M --fixture fixture.json $DEV --context 512 \
      --vmfb vmfb/f32-s1-$fs.vmfb >> $L/check.log 2>&1
    echo "check f32 $fs rc=$?" | tee -a $L/check.log
  done ;;
jax)
  for d in bf16 f32; do
    extra=; [ $d = f32 ] && extra="--fixture fixture.json"
    timeout 300 python3 jax_llama.py --model $M --dtype $d --prompt-ids prompt_ids.json --new 128 --runs 3 $extra \
      --out $T/jax-$d.json 2>&1 | grep -v "^W0000\|^I0000" | tee -a $L/jax.log
  done
  python3 - <<'PY' | tee -a $L/jax.log
import json, os
for d in ("bf16", "f32"):
    try: j = json.load(open(f"/tmp/texts/jax-{d}.json"))
    except Exception as e: print(d, "no jax output", e); continue
    for fs in ("O3dt", "O3", "O0"):
        f = f"/tmp/texts/gen-{d}-{fs}-1.txt"
        if not os.path.exists(f): continue
        ours, theirs = open(f).read(), j.get("prompt_text", "")
        pre = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
        print(f"jax {d} text vs mlxcel {d} {fs}: equal {ours == theirs}; common prefix {pre} of {len(theirs)} chars")
PY
  pack ;;
serve)
  for c in "f16 8 O3dt" "f16 8 O3" "f16 4 O3dt" "f16 4 O3" "f32 8 O3dt" "f32 4 O3dt" "f32 8 O3" "f32 4 O3" "f16 8 O0" "f16 4 O0"; do
    serve $c; pack
  done ;;
bench) # device time per call without the engine: iree-benchmark-module, KV state as left by earlier calls
  BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module
  bm() { # VMFB FUNCTION INPUTS...
    local v=$1 fn=$2; shift 2
    timeout 60 $BM --device=${BMDEV:-cuda} --module=vmfb/$v.vmfb --parameters=model=$M/model.safetensors --function=$fn "$@" \
      --benchmark_repetitions=3 > /tmp/bm.log 2>&1
    local rc=$?
    { echo "== $v $fn rc=$rc"; cat /tmp/bm.log; } >> $L/bench.log
    echo "$v $fn rc=$rc $(grep "real_time_median" /tmp/bm.log | tail -1)" | tee -a $L/bench-summary.log
  }
  for v in f16-s1-O0 f16-s1-O3 f16-s1-O3dt bf16-s1-O0 bf16-s1-O3 bf16-s1-O3dt f32-s1-O0 f32-s1-O3 f32-s1-O3dt; do
    bm $v decode --input=1xi32=5 --input=1xi32=200
  done
  for v in f16-s4-O0 f16-s4-O3 f16-s8-O0 f16-s8-O3 f16-s8-O3dt f32-s4-O3 f32-s8-O3; do
    s=${v#*-s}; s=${s%%-*}
    bm $v decode --input=${s}xi32=5 --input=${s}xi32=200
  done
  for v in f32-s1-O0 f32-s1-O3 bf16-s1-O0 bf16-s1-O3 f16-s1-O3; do
    bm $v prefill_128 --input=128xi32=5 --input=i32=126 --input=i32=0
  done ;;
serve1) # one stream at a time on the batched module: its per-step cost with one slot in use
  IFS=, read -ra S1 <<< "${SERVE1:-f16 8 O3,f16 8 O0,f16 1 O3}"
  for c in "${S1[@]}"; do
    read -r p n f <<< "$c"
    log=$T/serve1-$p-s$n-$f.log
    $B serve -m $M --port 0 --slots $n --context 512 --precision $p $DEV --vmfb vmfb/$p-s$n-$f.vmfb --quiet > $log 2>&1 &
    spid=$!
    for i in $(seq 240); do grep -q "listening on" $log && break; kill -0 $spid 2>/dev/null || break; sleep 0.5; done
    port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' $log)
    echo "== serve1 $c: port ${port:-none}" | tee -a $L/serve.log
    timeout 60 python3 client.py http://127.0.0.1:$port 1 1 16 /tmp/warm.json > /dev/null 2>&1
    for r in 1 2 3; do timeout 60 python3 client.py http://127.0.0.1:$port 1 1 128 $T/serve1-$p-s$n-$f-$r.json 2>&1 | head -1 | tee -a $L/serve.log; done
    kill -TERM $spid; wait $spid
  done ;;
serve-rest)
  serve f16 4 O0; pack ;;
esac; done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv >> $L/env.log 2>&1
pack
