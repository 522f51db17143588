#!/bin/bash
# Two H200s, data parallel: the same greedy requests on one device, then on --devices cuda://0,cuda://1.
set -u
cd "$(dirname "$0")/../.."
python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/iree_base_runtime-*cp312*.whl && export PYTHONPATH=/tmp/site
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1
B=build-bundle/mlxcel
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv > $OUT/env.log 2>&1
$B devices >> $OUT/env.log 2>&1
$B synth --config .shared/data/llama-3.2-1b/config.json --tokenizer .shared/data/llama3-tokenizer -o /tmp/l1b --seed 0 > $OUT/synth.log 2>&1
serve() { # LOG DEVICES...
  local log=$1; shift
  $B serve -m /tmp/l1b --port 0 --slots 4 --context 512 --cuda-target sm_89 --vmfb .gpu/dp/l1b-s4-f32.vmfb --quiet "$@" > $log 2>&1 &
  SPID=$!
  for i in $(seq 120); do grep -q "listening on" $log && break; sleep 1; done
  PORT=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' $log)
}
for cfg in "one --device cuda://0" "two --devices cuda://0,cuda://1"; do
  set -- $cfg; name=$1; shift
  serve $OUT/server-$name.log "$@"
  echo "== $name: port $PORT" | tee -a $OUT/client.log
  [ -n "$PORT" ] || { cat $OUT/server-$name.log; continue; }
  U=http://127.0.0.1:$PORT
  python3 .gpu/dp/client.py $U 4 4 16 /tmp/warm.json >> $OUT/client.log 2>&1   # warm-up
  for r in 1 2 3; do python3 .gpu/dp/client.py $U 32 32 64 $OUT/texts-$name-$r.json 2>&1 | tee -a $OUT/client.log; done
  kill -TERM $SPID; wait $SPID; echo "server exit $?" | tee -a $OUT/client.log
done
python3 - <<'PY' | tee -a $OUT/client.log
import json, os
o = os.environ["OUT"]
a = json.load(open(f"{o}/texts-one-1.json"))
for n in ("one-2", "one-3", "two-1", "two-2", "two-3"):
    b = json.load(open(f"{o}/texts-{n}.json"))
    print(n, "equal to one-1:", sum(x == y for x, y in zip(a, b)), "of", len(a))
PY
