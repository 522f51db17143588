#!/bin/bash
# H200 call (2026-12-04): short last prompt chunks (extend_<W>_t32 / _t128) against main at 66aaf1f,
# bf16, one slot, the default context 8192, both modules in this call:
#   1. iree-benchmark-module, 5 repetitions, two rounds: a 3-token last chunk from position 512 (old
#      extend_2048 with 512 tokens; new extend_2048_t32, and extend_2048 as the control) and a 91-token
#      one from 2048 (old extend_8192; new extend_8192_t128, and extend_8192);
#   2. bench/peers' mlxcel_peer.py at B = 1 with the 515- and 2139-token prompts (prompt-512,
#      prompt-2048), 128 new, for both builds, and JAX/XLA bf16 at B = 1 on the same prompts.
# Modules: `bench/peers/prepare-gpu.sh .gpu/{new,old} sm_89` with CONTEXT=8192 MODULES="bf16:1" (old from a
# worktree of 66aaf1f), i.e. `mlxcel compile --config llama-3.2-1b/config.json --weights-dtype bf16
# --precision bf16 --slots 1 --context 8192 --device cuda --cuda-target sm_89`. Run from the repository
# root with .gpu/new and .gpu/old carried (old without its wheel); bench.log, table.txt, results.jsonl
# and logs.tar.gz go to $OUT.
set -u
L=$OUT/logs; mkdir -p $L
N=.gpu/new O=.gpu/old M=/tmp/peers-l1b
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $N/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
RT=/tmp/peers-site/iree/_runtime_libs
mkdir -p /tmp/peers-tok && cp $N/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $N/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$N/bin $N/bin/mlxcel synth --config $N/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
bm() { # TAG VMFB FUNCTION WIDTH START LENGTH
  timeout 90 $RT/iree-benchmark-module --device=cuda --module=$2 --parameters=model=$M/model.safetensors \
    --function=$3 --input=$4xi32=5 --input=i32=$5 --input=i32=$6 --input=i32=0 --benchmark_repetitions=5 > /tmp/bm.log 2>&1
  echo "$1 $3 from $5 rc=$? $(grep -E "real_time_median " /tmp/bm.log | awk '{printf "%s %s %s  ", $1, $2, $3}')" >> $OUT/bench.log
  [ -s $L/bm-first.log ] || cp /tmp/bm.log $L/bm-first.log
}
for r in 1 2; do
  bm "round $r old" $O/vmfb/bf16-s1.vmfb extend_2048 512 512 3
  bm "round $r new" $N/vmfb/bf16-s1.vmfb extend_2048_t32 32 512 3
  bm "round $r new" $N/vmfb/bf16-s1.vmfb extend_2048 512 512 3
  bm "round $r old" $O/vmfb/bf16-s1.vmfb extend_8192 512 2048 91
  bm "round $r new" $N/vmfb/bf16-s1.vmfb extend_8192_t128 128 2048 91
  bm "round $r new" $N/vmfb/bf16-s1.vmfb extend_8192 512 2048 91
done
R=$OUT/results.jsonl
peer() { # BUILD PROMPT
  LD_LIBRARY_PATH=$PWD/.gpu/$1/bin timeout 200 python3 $N/peers/mlxcel_peer.py --mlxcel .gpu/$1/bin/mlxcel --model $M --dtype bf16 \
    --batch 1 --prompt-ids $N/data/$2_ids.json --prompt-file $N/data/$2.txt --new 128 --runs 3 --out $R --vmfb .gpu/$1/vmfb/bf16-s1.vmfb \
    --context 8192 --note "$1 $2" -- --device cuda --cuda-target sm_89 > $L/peer-$1-$2.log 2>&1; echo "$1 $2 rc=$?" >> $L/peers.out
}
for p in prompt-512 prompt-2048; do peer new $p; peer old $p; done
for p in prompt-512 prompt-2048; do
  ids=$N/data/${p}_ids.json
  timeout 200 python3 $N/peers/jax_peer.py --model $M --dtype bf16 --batch 1 --prompt-ids $ids --new 128 --runs 3 --out $R --note "jax $p" \
    --context $(python3 -c "import json; print(max(512, len(json.load(open('$ids'))) + 128))") > $L/jax-$p.log 2>&1; echo "jax $p rc=$?" >> $L/peers.out
done
python3 $N/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1

# 3. Nsight Compute, one call each of the new module's extend_2048_t32 (3 tokens from 512),
#    extend_8192_t128 (91 from 2048) and extend_2048 (the 512-row control): time per kernel, to find
#    what in a short chunk does not shrink with its rows (python3 ncu_top.py reads the CSVs)
nc() { # TAG FUNCTION WIDTH START LENGTH
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    $RT/iree-run-module --device=cuda --module=$N/vmfb/bf16-s1.vmfb --parameters=model=$M/model.safetensors \
    --function=$2 --input=$3xi32=5 --input=i32=$4 --input=i32=$5 --input=i32=0 > $OUT/ncu-$1.csv 2> /tmp/ncu-$1.err
  echo "ncu $1 rc=$? $(wc -l < $OUT/ncu-$1.csv) lines" >> $OUT/bench.log; tail -n 3 /tmp/ncu-$1.err >> $OUT/bench.log; gzip -f $OUT/ncu-$1.csv
}
nc t32 extend_2048_t32 32 512 3
nc t128 extend_8192_t128 128 2048 91
nc t512 extend_2048 512 512 3
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
