#!/usr/bin/env bash
# The load run of issue 14, as run: the machine's facts, a fresh build, the load, then the
# per-client connection limit at its default and at exactly the number of clients.
# From the repository root: bench/results/2026-12-01-cpu-load/run.sh
set -u
D=bench/results/2026-12-01-cpu-load
M=$(scripts/fetch-model.sh 2>/dev/null)
{
  echo "## $(date -u '+%F %T UTC')  git $(git rev-parse --short HEAD) (working tree with uncommitted changes: $(git status --porcelain | wc -l) paths)"
  git log -1 --format='HEAD: %h %s'; git status --porcelain | sed 's/^/uncommitted: /'
  echo "nproc: $(nproc)"; grep -m1 'model name' /proc/cpuinfo; grep -c ^processor /proc/cpuinfo | sed 's/^/processors: /'
  echo "memory: $(grep MemTotal /proc/meminfo)"; uname -srm; python3 --version
  echo "uptime before build: $(uptime)"
} > $D/env.log
make -s -j2 BUILD=build-load all >> $D/env.log 2>&1; echo "build exit $?" >> $D/env.log
ls -l --time-style=full-iso build-load/mlxcel build-load/mlxcel-server >> $D/env.log
echo "uptime before the load: $(uptime)" >> $D/env.log
tests/server/load.py --model "$M" --mlxcel build-load/mlxcel --stages 1,8,16,32,64 \
  --stage-requests 13,32,64,128,192 --max-tokens 32 --rounds 2 \
  --server-log $D/server.log --json $D/results.json > $D/output.txt 2>&1
echo "load.py exit $?" >> $D/env.log
echo "uptime after the load: $(uptime)" >> $D/env.log
# The per-client connection limit, plain requests only, 64 clients on one address: the server's
# default (128: --per-client 0 passes no option), then a limit of exactly 64.
for pc in default 64; do
  echo "uptime before per-client $pc: $(uptime)" >> $D/env.log
  tests/server/load.py --model "$M" --mlxcel build-load/mlxcel --stages 64 --stage-requests 96 --max-tokens 8 \
    --per-client $([ $pc = default ] && echo 0 || echo $pc) --mix completion,completion-stream,chat,chat-stream \
    --server-log $D/per-client-$pc.server.log --json $D/per-client-$pc.json > $D/per-client-$pc.txt 2>&1
  echo "load.py (per-client $pc) exit $?" >> $D/env.log
  echo "uptime after per-client $pc: $(uptime)" >> $D/env.log
done
