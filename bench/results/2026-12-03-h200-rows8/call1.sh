#!/bin/bash
# H200 call 1 (2026-12-03): every module of build.sh timed by ../2026-12-01-h200-peers/micro/run.sh
# (iree-benchmark-module, 5 repetitions of >= 0.1 s, splat inputs), in two rounds (rows-8 forms
# interleaved by the module list's order). Run from the repository root with .gpu/rows8 carried
# (vmfb/, modules.txt and the iree-base-runtime 3.13.0 wheel): bash bench/results/2026-12-03-h200-rows8/call1.sh
set -u
G=.gpu/rows8
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site $G/whl/*.whl || exit 1
export BM=/tmp/site/iree/_runtime_libs/iree-benchmark-module MODULES=$G/modules.txt
for r in 1 2; do
  LOG_DIR=/tmp/mm-$r bash bench/results/2026-12-01-h200-peers/micro/run.sh $G/vmfb > $OUT/round$r.txt 2>&1
done
