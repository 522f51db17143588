#!/bin/bash
# Generates (gen.py) and compiles every micro-benchmark module for cuda:sm_89 with the engine's flags
# (src/compiler/compile.c + src/compiler/target.c: --iree-input-type=stablehlo, the cuda target's
# --iree-hal-target-device=cuda --iree-cuda-target=sm_89, and the opt flag --iree-opt-level=O3), one
# compile at a time. Writes mlir/NAME.mlir, vmfb/NAME.vmfb, modules.txt (what run.sh reads: name,
# function, inputs), compile-commands.txt, compile.log (rc, seconds, size) and dispatches.txt (per
# module: each dispatch kind, its launches per call, workgroup tile, threads and workgroups, wgcount.py).
# Usage: build.sh [NAME_FILTER_REGEX]   (IREE_COMPILE overrides the compiler path)
set -u
cd "$(dirname "$0")"
IC=${IREE_COMPILE:-$HOME/.cache/mlxcel/iree-3.13.0/venv/bin/iree-compile}
FLAGS="--iree-input-type=stablehlo --iree-hal-target-device=cuda --iree-cuda-target=sm_89 --iree-opt-level=O3"
FILTER=${1:-.}
mkdir -p mlir vmfb
: > modules.txt
L=16

rep() { # rep COUNT STRING: the string COUNT times, space separated
  local i out=""; for ((i = 0; i < $1; i++)); do out+="$2 "; done; echo -n "$out"
}

add() { # add NAME FUNCTION INPUTS GEN_ARGS...
  local name=$1 fn=$2 inputs=$3; shift 3
  echo "$name|$fn|$inputs" >> modules.txt
  [[ $name =~ $FILTER ]] || return 0
  python3 gen.py "$@" > mlir/$name.mlir || { echo "$name gen-failed" | tee -a compile.log; return; }
  local cmd="$IC $FLAGS mlir/$name.mlir -o vmfb/$name.vmfb"
  grep -v "^$name: " compile-commands.txt > compile-commands.tmp 2>/dev/null; mv compile-commands.tmp compile-commands.txt
  echo "$name: $cmd" >> compile-commands.txt
  local t0=$(date +%s.%N)
  $cmd > /tmp/ic-$name.log 2>&1
  local rc=$? t1=$(date +%s.%N)
  local size=$(stat -c %s vmfb/$name.vmfb 2>/dev/null || echo 0)
  grep -v "^$name " compile.log > compile.tmp 2>/dev/null; mv compile.tmp compile.log
  printf "%s rc=%d %.1fs %d bytes\n" $name $rc $(echo "$t1 - $t0" | bc) $size | tee -a compile.log
  [ $rc -ne 0 ] && { sed -e "s/^/  /" /tmp/ic-$name.log | head -20 | tee -a compile.log; rm -f vmfb/$name.vmfb; }
  # What IREE made of it: the same compile stopped after strategy selection (not the VMFB's command;
  # codegen is not run), summarised by wgcount.py.
  grep -v "^$name:" dispatches.txt > dispatches.tmp 2>/dev/null; mv dispatches.tmp dispatches.txt
  if [ $rc -eq 0 ]; then
    $IC $FLAGS mlir/$name.mlir --compile-to=executable-configurations -o /tmp/cfg-$name.mlir 2>/dev/null &&
      python3 wgcount.py $name /tmp/cfg-$name.mlir >> dispatches.txt
    rm -f /tmp/cfg-$name.mlir
  fi
  rm -f /tmp/ic-$name.log
}

# 1. Prefill products: shapes (N, K): gate/up 8192 x 2048, down 2048 x 8192, q/o 2048 x 2048.
for M in 128 512; do
  for sh in gu:8192:2048 down:2048:8192 qo:2048:2048; do
    IFS=: read s N K <<< "$sh"
    forms="A S2 S4 S8 KN"; [ $M = 128 ] && forms="$forms KNS4"
    for f in $forms; do
      w="${N}x${K}"; case $f in KN*) w="${K}x${N}";; esac
      add pre-$f-$s-$M-bf16 mm "--input=${M}x${K}xf32=0.01 $(rep $L --input=${w}xbf16=0.01)" pre $f bf16 $M $N $K $L
    done
    if [ $M = 128 ]; then
      for f in A S4; do
        add pre-$f-$s-$M-f32 mm "--input=${M}x${K}xf32=0.01 $(rep $L --input=${N}x${K}xbf16=0.01)" pre $f f32 $M $N $K $L
      done
    fi
  done
done

# 2. Decode products, separate against fused: q/k/v (2048, 512, 512 x 2048) and gate/up (8192 x 2048 each).
for M in 1 4; do
  precs="bf16"; [ $M = 1 ] && precs="bf16 f32"
  for p in $precs; do
    add fuse-qkv-sep-$M-$p qkv "--input=${M}x2048xf32=0.01 $(rep $L '--input=2048x2048xbf16=0.01 --input=512x2048xbf16=0.01 --input=512x2048xbf16=0.01')" fuse qkv sep $p $M 2048 2048 512 $L
    add fuse-qkv-fused-$M-$p qkv "--input=${M}x2048xf32=0.01 $(rep $L --input=3072x2048xbf16=0.01)" fuse qkv fused $p $M 2048 2048 512 $L
    add fuse-gu-sep-$M-$p gu "--input=${M}x2048xf32=0.01 $(rep $L '--input=8192x2048xbf16=0.01 --input=8192x2048xbf16=0.01')" fuse gu sep $p $M 2048 8192 $L
    add fuse-gu-fused-$M-$p gu "--input=${M}x2048xf32=0.01 $(rep $L --input=16384x2048xbf16=0.01)" fuse gu fused $p $M 2048 8192 $L
  done
done
# At M = 4 the fused forms' column slices become copies (slow_memcpy): the same computed transposed.
M=4 p=bf16
add fuse-qkv-sepT-$M-$p qkv "--input=${M}x2048xf32=0.01 $(rep $L '--input=2048x2048xbf16=0.01 --input=512x2048xbf16=0.01 --input=512x2048xbf16=0.01')" fuse qkv sepT $p $M 2048 2048 512 $L
add fuse-qkv-fusedT-$M-$p qkv "--input=${M}x2048xf32=0.01 $(rep $L --input=3072x2048xbf16=0.01)" fuse qkv fusedT $p $M 2048 2048 512 $L
add fuse-gu-sepT-$M-$p gu "--input=${M}x2048xf32=0.01 $(rep $L '--input=8192x2048xbf16=0.01 --input=8192x2048xbf16=0.01')" fuse gu sepT $p $M 2048 8192 $L
add fuse-gu-fusedT-$M-$p gu "--input=${M}x2048xf32=0.01 $(rep $L --input=16384x2048xbf16=0.01)" fuse gu fusedT $p $M 2048 8192 $L
sort -o compile.log compile.log; sort -o compile-commands.txt compile-commands.txt; sort -o dispatches.txt dispatches.txt
echo "total VMFB bytes: $(cat vmfb/*.vmfb 2>/dev/null | wc -c)"
