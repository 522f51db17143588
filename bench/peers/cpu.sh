#!/usr/bin/env bash
# The CPU peer table (issue 11 item 7): mlxcel (f32 and f16), llama.cpp (the GGUF's own quantisation)
# and HF transformers fp32 on the same GGUF, prompt and new-token count, batch 1; then the table.
#   bash bench/peers/cpu.sh OUT_DIR [MODEL.gguf (scripts/fetch-model.sh)] [THREADS (nproc)]
# Environment: NEW (64), RUNS (3), MLXCEL (build/mlxcel), QUIET_WAIT_S (600: how long to wait for the
# machine to be >= 90% idle before measuring; the figures are worthless on a busy machine).
# The venv for llama.cpp and HF comes from bench/peers/setup-cpu-peers.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: cpu.sh OUT_DIR [MODEL.gguf] [THREADS]}
model=${2:-$("$root/scripts/fetch-model.sh")} threads=${3:-$(nproc)}
NEW=${NEW:-64} RUNS=${RUNS:-3} bin=${MLXCEL:-$root/build/mlxcel}
venv=${MLXCEL_PEERS_VENV:-$HOME/.cache/mlxcel/bench-peers-venv}
say() { echo "cpu.sh: $*" >&2; }
[ -x "$venv/bin/python" ] || { say "no peer venv at $venv: run bench/peers/setup-cpu-peers.sh"; exit 1; }
[ -x "$bin" ] || { say "no mlxcel at $bin: run make (or set MLXCEL)"; exit 1; }
mkdir -p "$out"
R=$out/results.jsonl
"$bin" tokenize -m "$model" -p "$(cat "$here/prompt.txt")" | sed -n 1p \
  | python3 -c "import sys, json; print(json.dumps([int(x) for x in sys.stdin.read().split()]))" > "$out/prompt_ids.json"
idle() { # the machine's idle percentage over 5 s
  local u n s i w x y z t1 i1 t2 i2
  read -r _ u n s i w x y z _ < /proc/stat; t1=$((u+n+s+i+w+x+y+z)); i1=$((i+w))
  sleep 5
  read -r _ u n s i w x y z _ < /proc/stat; t2=$((u+n+s+i+w+x+y+z)); i2=$((i+w))
  echo $(( 100 * (i2 - i1) / (t2 - t1) ))
}
quiet() { # waits for two quiet samples in a row, at most QUIET_WAIT_S
  local start=$SECONDS ok=0 v
  while [ $((SECONDS - start)) -lt "${QUIET_WAIT_S:-600}" ]; do
    v=$(idle); echo "$(date +%T) idle $v% load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.log"
    if [ "$v" -ge 90 ]; then ok=$((ok + 1)); else ok=0; fi
    [ $ok -ge 2 ] && return 0
  done
  echo "no quiet window in ${QUIET_WAIT_S:-600} s: measuring anyway" | tee -a "$out/machine.log" >&2
}
step() { # NAME CMD...
  local name=$1; shift
  quiet
  echo "$(date +%T) $name: load before $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.log"
  "$@" > "$out/$name.log" 2>&1 || { say "$name failed: $(tail -1 "$out/$name.log")"; return 1; }
  echo "$(date +%T) $name: load after $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.log"
  grep -E " B=[0-9]+: decode" "$out/$name.log" >&2 || true
}
for p in f32 f16; do
  step mlxcel-$p python3 "$here/mlxcel_peer.py" --mlxcel "$bin" --model "$model" --dtype $p --prompt-ids "$out/prompt_ids.json" \
    --prompt-file "$here/prompt.txt" --new "$NEW" --runs "$RUNS" --out "$R" --device-name cpu --context 512 \
    --note "threads: IREE's local-task default"
done
step llama.cpp "$venv/bin/python" "$here/llamacpp_peer.py" --model "$model" --prompt-ids "$out/prompt_ids.json" \
  --new "$NEW" --runs "$RUNS" --threads "$threads" --out "$R"
step hf-f32 "$venv/bin/python" "$here/hf_peer.py" --model "$model" --dtype f32 --prompt-ids "$out/prompt_ids.json" \
  --new "$NEW" --runs "$RUNS" --out "$R" --device cpu --threads "$threads"
{ echo "nproc $(nproc); $(grep -m1 'model name' /proc/cpuinfo)"; "$venv/bin/python" -c \
  "import llama_cpp, torch, transformers; print('llama-cpp-python', llama_cpp.__version__, 'torch', torch.__version__, 'transformers', transformers.__version__)"; } > "$out/env.log"
python3 "$here/table.py" "$R" | tee "$out/table.txt"
