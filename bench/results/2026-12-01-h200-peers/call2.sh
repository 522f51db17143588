#!/bin/bash
# H200 call 2 (2026-12-01, session 5): this session's engine (chunked prefill and the 8192-position
# default context, split prefill reductions, batched admission) on modules prebuilt by
# `CONTEXT=0 MODULES="bf16:1 bf16:8 f32:1" bench/peers/prepare-gpu.sh .gpu/peers2`, against JAX/XLA in the
# same call: the 126-token table rows, prefill at 515 and 2139 tokens, the f32 HF gate, the old and
# new modules' prefill_128 and decode_512_steps side by side, then HF transformers (static cache).
# Run from the repository root with .gpu/peers2 and .gpu/peers/vmfb/bf16-s1.vmfb carried:
#   bash bench/results/2026-12-01-h200-peers/call2.sh      (logs to $OUT)
set -u
P=.gpu/peers2
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $P/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site
L=$OUT/peers; mkdir -p $L
g() { # DIR VAR=VALUE...: one gpu.sh run with those settings, its records and logs in $L/DIR
  local d=$L/$1; shift; mkdir -p $d
  env OUT=$d TAG=new "$@" timeout 300 bash $P/peers/gpu.sh >> $OUT/peers.out 2>&1; echo "gpu.sh rc=$?" >> $OUT/peers.out
}
g t126 PEERS="check mlxcel" DTYPES=f32 BATCHES=1
g t126 PEERS="mlxcel jax" DTYPES=bf16 JAX_DTYPES=bf16 BATCHES="1 8"
for n in 512 2048; do g p$n PEERS="mlxcel jax" DTYPES=bf16 JAX_DTYPES=bf16 BATCHES=1 NEW=16 PROMPT=data/prompt-$n; done
# The old module (call 1, context 512, whole reductions) and the new one, the same functions.
M=/tmp/peers-l1b BM=/tmp/peers-site/iree/_runtime_libs/iree-benchmark-module
for r in 1 2; do
  for v in .gpu/peers/vmfb/bf16-s1.vmfb $P/vmfb/bf16-s1.vmfb; do
    for f in "prefill_128 --input=128xi32=5 --input=i32=126 --input=i32=0" "decode_512_steps --input=1xi32=5 --input=1xi32=200"; do
      set -- $f
      timeout 60 $BM --device=cuda --module=$v --parameters=model=$M/model.safetensors --function=$1 "${@:2}" \
        --benchmark_repetitions=5 > /tmp/bm.log 2>&1
      echo "round $r $v $1 rc=$? $(grep -E "real_time_(median|min|max) " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
    done
  done
done
g t126 PEERS=hf HF_DTYPES="bf16 f32" BATCHES="1 4 8"
cp $L/t126/table.txt $OUT/table.txt 2>/dev/null
tar -czf $OUT/peers.tar.gz -C $OUT peers && rm -rf $L
