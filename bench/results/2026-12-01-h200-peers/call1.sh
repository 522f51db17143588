#!/bin/bash
# H200 call 1 (2026-12-01, session 5): the peer table for main at 4ab3360 (bench/peers/gpu.sh: mlxcel
# bf16/f16/f32 at B = 1, 4, 8 on modules prebuilt by bench/peers/prepare-gpu.sh, JAX/XLA bf16 and f32 at
# the same batches, `mlxcel check` f32), then the micro-benchmarks of micro/ (split-K prefill products,
# fused Q/K/V and gate/up). Run from the repository root with .gpu/peers carried:
#   bash bench/results/2026-12-01-h200-peers/call1.sh      (logs to $OUT)
set -u
P=.gpu/peers
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site $P/whl/*.whl || exit 1
mkdir -p $OUT/peers
OUT=$OUT/peers PEERS="check mlxcel jax" HF_DTYPES= timeout 430 bash $P/peers/gpu.sh > $OUT/peers.out 2>&1
echo "gpu.sh rc=$?" >> $OUT/peers.out
BM=/tmp/peers-site/iree/_runtime_libs/iree-benchmark-module LOG_DIR=/tmp/micro-logs \
  timeout 140 bash bench/results/2026-12-01-h200-peers/micro/run.sh > $OUT/micro.log 2>&1
echo "micro rc=$?" >> $OUT/micro.log
tar -czf $OUT/micro-logs.tar.gz -C /tmp micro-logs 2>/dev/null
# At most 8 files come back: the table and the records at the top, the per-step logs in one archive.
cp $OUT/peers/table.txt $OUT/peers/results.jsonl $OUT/ 2>/dev/null
tar -czf $OUT/peers.tar.gz -C $OUT peers && rm -rf $OUT/peers
