#!/bin/bash
# H200 call 3 (2026-12-03), an experiment, not shipped: the per-head decode attention (the flattened
# form of 2026-12-02, B8-2) for every window at 8 slots, HEAD_ATTENTION_MAX_WINDOW raised from 512 to
# 8192 ("exp"), against HEAD ("new": the expanded form above 512), bf16, default context 8192:
#   1. iree-benchmark-module, 5 repetitions, two rounds: decode_1024_steps from position 600 and
#      decode_2048_steps from position 1500, both modules;
#   2. bench/peers' mlxcel_peer.py at B = 8 with the 515-token prompt for both (HEAD's binary: the
#      signature does not say the window limit).
# Modules: call2's .gpu/new/vmfb/c8192-s8.vmfb, and .gpu/exp/c8192-s8.vmfb from a worktree of HEAD with
# the constant changed (src/hlo/llama.c), `mlxcel compile --config llama-3.2-1b/config.json
# --weights-dtype bf16 --precision bf16 --slots 8 --device cuda --cuda-target sm_89`.
set -u
L=$OUT/logs; mkdir -p $L
N=.gpu/new X=.gpu/exp M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) LD_LIBRARY_PATH=$PWD/$N/bin
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
$N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
bm() { # TAG VMFB FUNCTION POS
  timeout 60 $RT/iree-benchmark-module --device=cuda --module=$2 --parameters=model=$M/model.safetensors \
    --function=$3 --input=8xi32=5 --input=8xi32=$4 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 $3 pos $4 rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
}
for r in 1 2; do
  bm "round $r new" $N/vmfb/c8192-s8.vmfb decode_1024_steps 600; bm "round $r exp" $X/c8192-s8.vmfb decode_1024_steps 600
  bm "round $r new" $N/vmfb/c8192-s8.vmfb decode_2048_steps 1500; bm "round $r exp" $X/c8192-s8.vmfb decode_2048_steps 1500
done
R=$OUT/results.jsonl ids=$N/data/prompt-512_ids.json
for b in new exp; do
  v=$N/vmfb/c8192-s8.vmfb; [ $b = exp ] && v=$X/c8192-s8.vmfb
  timeout 150 python3 $N/peers/mlxcel_peer.py --mlxcel $N/bin/mlxcel --model $M --dtype bf16 --batch 8 --prompt-ids $ids \
    --prompt-file $N/data/prompt-512.txt --new 128 --runs 3 --out $R --vmfb $v --context 8192 --note "$b" \
    -- --device cuda --cuda-target sm_89 > $L/peer-$b-b8.log 2>&1; echo "$b b8 rc=$?" >> $L/peers.out
done
python3 $N/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
