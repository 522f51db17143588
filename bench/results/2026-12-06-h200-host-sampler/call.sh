#!/bin/bash
# GPU call of 2026-12-06: sampled decode with the host sampler that no longer sorts the vocabulary
# (engine/sampler.c: radix select of the candidates, draw in id order), against greedy decode and
# JAX/XLA in the same call; the sampler's cost per pick on this host's CPU; and the HF warpers fixture
# (tests/oracle/hf_warpers.py needs torch, which this machine has).
# Bundle: `CONTEXT=2048 MODULES=" " bench/peers/prepare-gpu.sh .gpu/s sm_89`, then m16.vmfb (bf16 weights
# and cache, 1 slot, context 2048: `mlxcel compile --config .../llama-3.2-1b/config.json --device cuda
# --cuda-target sm_89 --weights-dtype bf16 --precision bf16 --slots 1 --context 2048`) copied to
# .gpu/s/vmfb/, and bench/sampler_bench.c built to .gpu/s/bin/sampler_bench (gcc -O2, sampler.c and
# status.c linked in). Run from the repository root with .gpu/s carried.
set -u
L=$OUT/logs; mkdir -p $L
G=${G:-.gpu/s} M=/tmp/peers-l1b
python3 tests/oracle/hf_warpers.py -o $OUT/hf-warpers.json > $L/hf-warpers.log 2>&1; echo "hf_warpers rc=$?" >> $OUT/steps.out
$G/bin/sampler_bench 5 20 > $OUT/sampler-bench.md 2> $L/sampler-bench.err; echo "sampler_bench rc=$?" >> $OUT/steps.out
lscpu | grep -E "Model name|^CPU\(s\)" > $OUT/host-cpu.txt
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $G/whl/*.whl || exit 1
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3)
mkdir -p /tmp/peers-tok && cp $G/data/tokenizer/tokenizer_config.json /tmp/peers-tok/ && xz -dc $G/data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
LD_LIBRARY_PATH=$PWD/$G/bin $G/bin/mlxcel synth --config $G/data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $L/synth.log 2>&1
R=$OUT/results.jsonl p=prompt
run() { # NOTE [GENERATE-FLAGS...]
  local note=$1; shift
  LD_LIBRARY_PATH=$PWD/$G/bin timeout 200 python3 $G/peers/mlxcel_peer.py --mlxcel $G/bin/mlxcel --model $M \
    --dtype bf16 --batch 1 --prompt-ids $G/data/${p}_ids.json --prompt-file $G/data/$p.txt --new 128 --runs 3 --out $R --vmfb $G/vmfb/m16.vmfb \
    --context 2048 --note "$note" -- --device cuda --cuda-target sm_89 "$@" > $L/mlxcel-${note// /_}.log 2>&1; echo "$note rc=$?" >> $OUT/steps.out
}
run "greedy"
run "sampled T0.8 top-p 0.95" --temperature 0.8 --top-p 0.95 --seed 7
run "sampled T1" --temperature 1 --seed 7
run "sampled T1 top-k 40" --temperature 1 --top-k 40 --seed 7
run "greedy again"
timeout 200 python3 $G/peers/jax_peer.py --model $M --dtype bf16 --batch 1 --prompt-ids $G/data/${p}_ids.json --new 128 --runs 3 --out $R \
  --note "jax" --context 254 > $L/jax.log 2>&1; echo "jax rc=$?" >> $OUT/steps.out
python3 $G/peers/table.py $R --bandwidth 4.3e12 --weight-bytes $(stat -c %s $M/model.safetensors) > $OUT/table.txt 2>&1
tar -czf $OUT/logs.tar.gz -C $OUT logs && rm -rf $L
