#!/bin/bash
# H200 call 1 (2026-12-05): IREE's CUDA-graph command buffers (`--cuda_use_streams=false`) against its
# default stream command buffers, same modules, same call. Modules (compiled on the 2-core VM, sm_89,
# bf16 weights and cache, one slot, context 2048) from one MLIR (`mlxcel compile ... --mlir m16.mlir`):
#   m16   the engine's flags as `mlxcel compile` prints them;
#   m16d  + --iree-stream-partitioning-favor=debug (a barrier between the initializer's 32 KV-cache fills,
#         which in graph mode exceed the runtime's 32 concurrent nodes: "exceeded max concurrent node limit");
#   m16di + --iree-hal-indirect-command-buffers=false as well;
#   m16h  + --iree-dispatch-creation-enable-fuse-horizontal-contractions (IREE fuses products that share an
#         operand; in a 2-layer prefill_128 it fused 4 of 67 dispatches, in decode none), streams only;
#   m2    2 layers, the engine's flags (4 fills: below the limit without the debug partitioning).
#   1. iree-benchmark-module, 5 repetitions (round 1: every module and mode; round 2: the ones that matter):
#      prefill_128, prefill_512, extend_2048 (a 512-row chunk from 512), decode_512_steps (8 greedy steps);
#   2. bench/peers at B = 1 (prompt 126 and, time allowing, 515 tokens, 128 new, 1 warm-up + 3 runs): m16 with
#      streams, m16d with graphs (MLXCEL_XLA_RUNTIME_FLAGS), m16 with sampling (--temperature 0.8 --top-p 0.95
#      --seed 7: logits to the host every step), JAX/XLA at 126 tokens; tokens compared by fingerprint.
#   3. `mlxcel check` (f32, the HF fp32 fixture) of f32d-c128 (f32, context 128, debug partitioning) with
#      graphs and with streams.
# Run from the repository root with .gpu/g carried.
set -u
L=$OUT/logs; mkdir -p $L
G=${G:-.gpu/g} M=/tmp/peers-l1b  # G=.gpu/f: the one bundle of 2026-12-05 session 3 (see README)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $G/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $G/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $G/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$G/bin $G/bin/mlxcel synth --config $G/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
bm() { # TAG VMFB FUNCTION RUNTIME-FLAG INPUTS...
  local tag=$1 v=$2 f=$3 fl=$4; shift 4
  [ -f $v ] || { echo "$tag $f: no $v in this bundle" >> $OUT/bench.log; return 0; }
  timeout 90 $RT/iree-benchmark-module --device=cuda $fl --module=$v --parameters=model=$M/model.safetensors \
    --function=$f "$@" --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  local rc=$?
  echo "$tag $f rc=$rc $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
  [ $rc = 0 ] || grep -m2 -i "error\|exceeded\|UNIMPL" /tmp/bm.log | cut -c1-300 >> $OUT/bench.log
}
T0=$SECONDS
for r in 1 2; do
  runs="m16:streams m16d:streams m16d:graphs m16h:streams"
  [ $r = 1 ] && runs="m16:streams m16:graphs m16d:streams m16d:graphs m16di:graphs m16h:streams m2:streams m2:graphs"
  for mm in $runs; do
    m=${mm%%:*} mode=${mm##*:}
    fl=--cuda_use_streams=true; [ $mode = graphs ] && fl=--cuda_use_streams=false
    v=$G/vmfb/$m.vmfb
    bm "round $r $m $mode" $v prefill_128 $fl --input=128xi32=5 --input=i32=128 --input=i32=0
    bm "round $r $m $mode" $v prefill_512 $fl --input=512xi32=5 --input=i32=512 --input=i32=0
    bm "round $r $m $mode" $v extend_2048 $fl --input=512xi32=5 --input=i32=512 --input=i32=512 --input=i32=0
    bm "round $r $m $mode" $v decode_512_steps $fl --input=1xi32=5 --input=1xi32=300
  done
done
echo "bench took $((SECONDS - T0)) s" >> $OUT/bench.log
best=m16d
echo "graph module for the peers: ${best:-none}" >> $OUT/bench.log
R=$OUT/results.jsonl
for p in prompt prompt-512; do
  [ $SECONDS -gt 420 ] && { echo "no time left for $p" >> $OUT/peers.out; break; }
  run() { # NOTE VMFB RUNTIME-FLAGS [GENERATE-FLAGS...]
    local note=$1 v=$2 rf=$3; shift 3
    LD_LIBRARY_PATH=$PWD/$G/bin MLXCEL_XLA_RUNTIME_FLAGS="$rf" timeout 200 python3 $G/peers/mlxcel_peer.py --mlxcel $G/bin/mlxcel --model $M \
      --dtype bf16 --batch 1 --prompt-ids $G/data/${p}_ids.json --prompt-file $G/data/$p.txt --new 128 --runs 3 --out $R --vmfb $v \
      --context 2048 --note "$note $p" -- --device cuda --cuda-target sm_89 "$@" > $L/mlxcel-${note// /_}-$p.log 2>&1; echo "$note $p rc=$?" >> $OUT/peers.out
  }
  run "m16 streams" $G/vmfb/m16.vmfb ""
  run "m16 streams sampled" $G/vmfb/m16.vmfb "" --temperature 0.8 --top-p 0.95 --seed 7
  [ -n "$best" ] && run "$best graphs" $G/vmfb/$best.vmfb "--cuda_use_streams=false"
  [ $p = prompt ] || continue # JAX at 515 tokens: 2026-12-04 (6.5 ms prefill)
  n=$(python3 -c "import json;print(len(json.load(open('$G/data/${p}_ids.json')))+128)")
  timeout 200 python3 $G/peers/jax_peer.py --model $M --dtype bf16 --batch 1 --prompt-ids $G/data/${p}_ids.json --new 128 --runs 3 --out $R \
    --note "jax $p" --context $n > $L/jax-$p.log 2>&1; echo "jax $p rc=$?" >> $OUT/peers.out
done
# the f32 gate in graph mode: HF fp32 fixture, module f32d-c128 (f32, context 128, debug partitioning)
for fl in "--cuda_use_streams=false" ""; do
  LD_LIBRARY_PATH=$PWD/$G/bin MLXCEL_XLA_RUNTIME_FLAGS="$fl" timeout 120 $G/bin/mlxcel check -m $M --fixture $G/data/llama32-1b-synth.json \
    --device cuda --cuda-target sm_89 --context 128 --vmfb $G/vmfb/f32d-c128.vmfb >> $OUT/check.log 2>&1
  echo "check [$fl] rc=$?" >> $OUT/check.log
done
python3 $G/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
