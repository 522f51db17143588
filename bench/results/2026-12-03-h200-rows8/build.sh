#!/bin/bash
# Decode weight products at 8 rows (issue 11, the 8-slot step): does one 8-row product with its
# reduction split into chunks read each weight once, fast, where today's two 4-row products read it
# twice? And at 1 row, does a split help the matrix-vector products? Generates the modules with
# ../2026-12-01-h200-peers/micro/gen.py (forms A, R4, S2, S4, S8: its docstring) and compiles each for
# cuda:sm_89 with the engine's flags, one compile at a time. Writes mlir/, vmfb/, modules.txt (what
# ../2026-12-01-h200-peers/micro/run.sh reads), compile.log and dispatches.txt (wgcount.py: each
# dispatch's tile, threads, workgroups and pipeline).
# Usage: build.sh [NAME_FILTER_REGEX]   (IREE_COMPILE overrides the compiler path)
set -u
cd "$(dirname "$0")"
MICRO=../2026-12-01-h200-peers/micro
IC=${IREE_COMPILE:-$HOME/.cache/mlxcel/iree-3.13.0/venv/bin/iree-compile}
FLAGS="--iree-input-type=stablehlo --iree-hal-target-device=cuda --iree-cuda-target=sm_89 --iree-opt-level=O3"
FILTER=${1:-.}
mkdir -p mlir vmfb
: > modules.txt
rep() { local i out=""; for ((i = 0; i < $1; i++)); do out+="$2 "; done; echo -n "$out"; }
add() { # add NAME INPUTS GEN_ARGS...
  local name=$1 inputs=$2; shift 2
  echo "$name|mm|$inputs" >> modules.txt
  [[ $name =~ $FILTER ]] || return 0
  [ -f vmfb/$name.vmfb ] && return 0
  python3 $MICRO/gen.py "$@" > mlir/$name.mlir || { echo "$name gen-failed" | tee -a compile.log; return; }
  local t0=$(date +%s.%N)
  $IC $FLAGS mlir/$name.mlir -o vmfb/$name.vmfb > /tmp/ic-$name.log 2>&1
  local rc=$? t1=$(date +%s.%N)
  printf "%s rc=%d %.1fs %d bytes\n" $name $rc $(echo "$t1 - $t0" | bc) $(stat -c %s vmfb/$name.vmfb 2>/dev/null || echo 0) | tee -a compile.log
  if [ $rc -ne 0 ]; then sed -e "s/^/  /" /tmp/ic-$name.log | head -20 | tee -a compile.log; rm -f vmfb/$name.vmfb; return; fi
  $IC $FLAGS mlir/$name.mlir --compile-to=executable-configurations -o /tmp/cfg-$name.mlir 2>/dev/null &&
    python3 $MICRO/wgcount.py $name /tmp/cfg-$name.mlir >> dispatches.txt
  rm -f /tmp/cfg-$name.mlir /tmp/ic-$name.log
}
# shapes (N, K, layers): the Llama-3.2-1B's gate/up, down, q/o, k/v, and the tied LM head once
for sh in gu:8192:2048:16 down:2048:8192:16 qo:2048:2048:16 kv:512:2048:16 head:128256:2048:1; do
  IFS=: read s N K L <<< "$sh"
  for p in bf16 f32; do
    for f in R4 A S2 S4 S8; do
      add r8-$f-$s-$p "--input=8x${K}xf32=0.01 $(rep $L --input=${N}x${K}xbf16=0.01)" pre $f $p 8 $N $K $L
    done
  done
  for f in A S4 S8; do
    add r1-$f-$s-bf16 "--input=1x${K}xf32=0.01 $(rep $L --input=${N}x${K}xbf16=0.01)" pre $f bf16 1 $N $K $L
  done
done
sort -o compile.log compile.log; sort -u -o dispatches.txt dispatches.txt
echo "total VMFB bytes: $(cat vmfb/*.vmfb 2>/dev/null | wc -c)"
