#!/bin/bash
# The two commands run on call 2's machine while it was still warm (same H100, bundles as in call2.sh,
# /tmp/peers-site and /tmp/peers-l1b left by call2.sh). results-reversed.jsonl is the first,
# results-pairs.jsonl the second (its decode_256_steps lines are in README.md: the reply's output).
S=.gpu/n M=/tmp/peers-l1b P=bench/peers RT=/tmp/peers-site/iree/_runtime_libs
export PYTHONPATH=/tmp/peers-site PYTHONUNBUFFERED=1 MLXCEL_XLA_WORKER_PYTHON=$(command -v python3); R=$OUT/results.jsonl
peer() { LD_LIBRARY_PATH=$PWD/.gpu/$1/bin timeout 100 python3 $P/mlxcel_peer.py --mlxcel .gpu/$1/bin/mlxcel --model $M --dtype bf16 \
  --batch 8 --prompt-ids $S/data/prompt_ids.json --prompt-file $S/data/prompt.txt --new 128 --runs 3 --out $R \
  --vmfb .gpu/$1/vmfb/bf16-s8.vmfb --context 512 --note "$1 B8" -- --device cuda --cuda-target sm_89 > /dev/null 2>&1; echo "$1 rc=$?"; }
if [ "${1:-pairs}" = reversed ]; then
  for b in m h m h; do peer $b; done
else
  for b in h m h m h m; do peer $b; done
  for r in 1 2 3; do for b in h m; do
    timeout 60 $RT/iree-benchmark-module --device=cuda --module=.gpu/$b/vmfb/bf16-s8.vmfb --parameters=model=$M/model.safetensors \
      --function=decode_256_steps --input=8xi32=5 --input=8xi32=200 --input=8xf32=0 --input=8xi32=7 --benchmark_repetitions=5 2>&1 |
      grep real_time_median | sed "s/^/$r $b /"
  done; done
fi
python3 $P/table.py $R --bandwidth 3.35e12 --weight-bytes $(stat -c %s $M/model.safetensors)
