#!/bin/bash
# H200 call 2 (2026-12-03): the x2 windows at the default context (8192) and a prompt beyond the
# prefill chunk, bf16, this session's build ("new", HEAD with extends on the x4 windows only) against
# main at 00928f6 ("old"):
#   1. iree-benchmark-module, 5 repetitions, two rounds, positions 600: old decode_2048_steps against
#      new decode_1024_steps and decode_2048_steps (control), at 8 slots and 1;
#   2. bench/peers' mlxcel_peer.py with the 515-token prompt (prompt-512), 128 new, at B = 1 and 8 for
#      both builds (new: prefill_512, then extend_2048, then decode in 1024; old: extend_2048 and decode
#      in 2048), and JAX/XLA bf16 at B = 1 and 8 on the same prompt.
# Modules: `mlxcel compile --config llama-3.2-1b/config.json --weights-dtype bf16 --precision bf16
# --slots S --device cuda --cuda-target sm_89` (default context 8192) with each build, in
# .gpu/{new,old}/vmfb/c8192-sS.vmfb; .gpu/new/bin is `make bundle` at HEAD. Run from the repository
# root with .gpu/new and .gpu/old carried (bench.log, table.txt, results.jsonl, logs.tar.gz to $OUT).
set -u
L=$OUT/logs; mkdir -p $L
N=.gpu/new O=.gpu/old M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
bm() { # TAG VMFB FUNCTION SLOTS
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$2 --parameters=model=$M/model.safetensors \
    --function=$3 --input=$4xi32=5 --input=$4xi32=600 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 $3 rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do for s in 8 1; do
  bm "round $r old s$s" $O/vmfb/c8192-s$s.vmfb decode_2048_steps $s
  bm "round $r new s$s" $N/vmfb/c8192-s$s.vmfb decode_1024_steps $s
  bm "round $r new s$s" $N/vmfb/c8192-s$s.vmfb decode_2048_steps $s
done; done
R=$OUT/results.jsonl ids=$N/data/prompt-512_ids.json
peer() { # BUILD BATCH
  LD_LIBRARY_PATH=$PWD/.gpu/$1/bin timeout 150 python3 $N/peers/mlxcel_peer.py --mlxcel .gpu/$1/bin/mlxcel --model $M --dtype bf16 \
    --batch $2 --prompt-ids $ids --prompt-file $N/data/prompt-512.txt --new 128 --runs 3 --out $R --vmfb .gpu/$1/vmfb/c8192-s$2.vmfb \
    --context 8192 --note "$1" -- --device cuda --cuda-target sm_89 > $L/peer-$1-b$2.log 2>&1; echo "$1 b$2 rc=$?" >> $L/peers.out
}
for b in 8 1; do peer new $b; peer old $b; done
timeout 200 python3 $N/peers/jax_peer.py --model $M --dtype bf16 --batch 1,8 --prompt-ids $ids --new 128 --runs 3 --out $R \
  --context $(python3 -c "import json; print(max(512, len(json.load(open('$ids'))) + 128))") > $L/jax.log 2>&1; echo "jax rc=$?" >> $L/peers.out
python3 $N/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
