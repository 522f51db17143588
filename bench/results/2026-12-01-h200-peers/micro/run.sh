#!/bin/bash
# Times every module of modules.txt (written by build.sh) on the GPU with iree-benchmark-module:
# 5 repetitions of at least 0.1 s each, splat inputs, `timeout 60` per module. Prints one line per
# module to stdout: NAME rc=RC median MIN..MAX UNIT of real_time over the 5 repetitions.
# Usage (from this directory or anywhere):
#   BM=/path/to/iree-benchmark-module ./run.sh [VMFB_DIR] [NAME_REGEX]
# VMFB_DIR defaults to vmfb/ next to this script; NAME_REGEX (default: all) selects modules.
# Full benchmark logs and JSON go to $LOG_DIR (default /tmp/mm-bench). DEVICE (default cuda) and
# MODULES (default modules.txt next to this script) exist to test the script itself on a CPU.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-$HERE/vmfb}
FILTER=${2:-.}
: "${BM:?set BM to the iree-benchmark-module binary}"
LOG_DIR=${LOG_DIR:-/tmp/mm-bench}
DEVICE=${DEVICE:-cuda}
MODULES=${MODULES:-$HERE/modules.txt}
mkdir -p "$LOG_DIR"
t0=$(date +%s)
echo "# $(date -u +%FT%TZ) $(hostname) BM=$BM; name rc median min..max (real_time, 5 repetitions)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>/dev/null | sed 's/^/# /'
while IFS='|' read -r name fn inputs; do
  [[ $name =~ $FILTER ]] || continue
  f=$DIR/$name.vmfb
  if [ ! -f "$f" ]; then echo "$name missing"; continue; fi
  # shellcheck disable=SC2086 # $inputs is a list of --input flags
  timeout 60 "$BM" --device="$DEVICE" --module="$f" --function="$fn" $inputs \
    --benchmark_repetitions=5 --benchmark_min_time=0.1s \
    --benchmark_out="$LOG_DIR/$name.json" --benchmark_out_format=json < /dev/null > "$LOG_DIR/$name.log" 2>&1
  rc=$?
  stats=$(python3 - "$LOG_DIR/$name.json" <<'EOF' 2>/dev/null
import json, statistics, sys
try:
    runs = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("run_type") == "iteration" and not b.get("error_occurred")]
    t = sorted(b["real_time"] for b in runs)
    print(f"{statistics.median(t):.4g} {t[0]:.4g}..{t[-1]:.4g} {runs[0]['time_unit']} (n={len(t)})")
except Exception as e:
    print(f"no timings ({type(e).__name__})")
EOF
)
  echo "$name rc=$rc $stats"
  [ $rc -ne 0 ] && tail -3 "$LOG_DIR/$name.log" | sed 's/^/#   /'
done < "$MODULES"
echo "# total $(( $(date +%s) - t0 )) s"
