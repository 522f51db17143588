#!/usr/bin/env bash
# The packed-quantization fusion probe (issue 16, the seed's #574): what IREE makes of the packed graph
# on one target, from the compiler alone (no device).
#   scripts/xla/fusion_spike.sh TARGET [OUT_DIR]
#   TARGET: llvm-cpu | cuda:sm_XY | rocm:gfxNNNN
# For the packed graph (4-bit affine and 8-bit) and the f16 graph of the same model, it
#   - compiles with `mlxcel compile` (the session's own flags) and again with --compile-to=flow,
#   - counts the dispatches of one decode step (decode_128) and of one prefill (prefill_128),
#   - finds materialised dequantized weights: a dispatch that reads packed values (i4/i8) and writes a
#     floating tensor of at least a weight's size (then the product reads floats, not packed bytes),
#   - looks for integer dot instructions in the executables (CUDA PTX: dp4a, integer mma; ROCm:
#     v_dot4/v_dot8, integer MFMA/WMMA; CPU: VNNI and the other integer multiply-adds),
#   - sweeps --iree-opt-data-tiling (and on ROCm its ukernels) and reports how the dispatches change.
# Prints one markdown report (also OUT_DIR/report.md). Environment: MLXCEL (build/mlxcel), MODEL (a
# model file or directory; default: the Llama-3.2-1B configuration with LAYERS layers, weights taken
# to be float, so --quant packed quantizes them on the host), LAYERS (2), CHECK (1: exit 1 unless every
# packed decode product reads its packed values in place, with the session's flags: the CI's gate),
# SWEEP (0: the session's flags only, without the data-tiling and ukernel rows and the search for
# integer dot instructions; what CHECK needs).
set -euo pipefail
target=${1:?usage: fusion_spike.sh llvm-cpu|cuda:sm_XY|rocm:gfxNNNN [OUT_DIR]}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$(mktemp -d "${TMPDIR:-/tmp}/fusion-spike-XXXXXX")}
mlxcel=${MLXCEL:-$root/build/mlxcel} layers=${LAYERS:-2}
shared=${MLXCEL_SHARED:-$root/../shared}
say() { echo "fusion_spike: $*" >&2; }
[ -x "$mlxcel" ] || { say "no mlxcel at $mlxcel (make, or set MLXCEL)"; exit 2; }
case $target in
  llvm-cpu) dev=(--device local-task) ;;
  cuda:sm_*) dev=(--device cuda --cuda-target "${target#cuda:}") ;;
  rocm:gfx*) dev=(--device hip --rocm-target "${target#rocm:}") ;;
  *) say "unknown target '$target' (llvm-cpu, cuda:sm_XY, rocm:gfxNNNN)"; exit 2 ;;
esac
if [ -n "${MODEL:-}" ]; then src=(-m "$MODEL"); what="$MODEL"
else
  cfg=$shared/data/llama-3.2-1b/config.json
  [ -f "$cfg" ] || { say "no $cfg: set MODEL or MLXCEL_SHARED"; exit 2; }
  src=(--config "$cfg"); what="Llama-3.2-1B configuration"
fi
iree_compile=$(ls "${XDG_CACHE_HOME:-$HOME/.cache}"/mlxcel/iree-*/venv/lib/python3*/site-packages/iree/compiler/_mlir_libs/iree-compile 2>/dev/null | head -1)
[ -x "$iree_compile" ] || { say "no pinned iree-compile (make iree)"; exit 2; }
mkdir -p "$out"
rm -f "$out/gate-failures"

# variant NAME MLXCEL-OPTIONS...: the module, its MLIR, and the flags the session compiles with.
variant() {
  local name=$1; shift
  "$mlxcel" compile "${src[@]}" --layers "$layers" --context 128 "${dev[@]}" "$@" --mlir "$out/$name.mlir" \
    -o "$out/$name.vmfb" > "$out/$name.compile.log" 2>&1 || { say "compile of $name failed: $(tail -1 "$out/$name.compile.log")"; exit 1; }
  sed -n 's/^  flags: //p' "$out/$name.compile.log" > "$out/$name.flags"
}
# flow NAME TAG EXTRA-FLAGS...: the flow-level module of NAME with the session's flags plus EXTRA.
flow() {
  local name=$1 tag=$2; shift 2
  # shellcheck disable=SC2046 # the flags are words
  "$iree_compile" --iree-input-type=stablehlo $(cat "$out/$name.flags") "$@" --compile-to=flow "$out/$name.mlir" \
    -o "$out/$name.$tag.flow.mlir" 2> "$out/$name.$tag.flow.log" || { echo "compile failed"; return; }
  python3 - "$out/$name.$tag.flow.mlir" <<'PY'
import math, re, sys
text = open(sys.argv[1]).read()
# Each executable's entry point: does it read packed values (i4/i8) and write a floating tensor of at
# least 2^20 elements (a weight's size here) without being a product? Then it materialises weights.
kind = {}
for m in re.finditer(r"func\.func @(\w+)\((.*?)\) \{", text):
    name, args = m.group(1), m.group(2)
    if not re.search(r"readonly:tensor<[0-9x]+x(i4|i8)>", args):
        continue
    outs = re.findall(r"writeonly:tensor<([0-9x]+)x(?:f32|f16|bf16)>", args)
    big = any(math.prod(int(d) for d in o.split("x")) >= 2**20 for o in outs)
    kind[name] = "mat" if big and not re.search(r"mat(vec|mul)|reduction|contract", name) else "fused"
def fn(f):
    m = re.search(r"util\.func public @%s\(.*?\n  }\n" % f, text, re.S)
    names = re.findall(r"flow\.dispatch @\w+::@(\w+)", m.group(0)) if m else []
    mat = [n for n in names if kind.get(n) == "mat"]
    fused = [n for n in names if kind.get(n) == "fused"]
    return [str(len(names)), str(len(mat)), str(len(fused)), mat[0] if mat else (fused[0] if fused else "")]
print("|".join(fn("decode_128") + fn("prefill_128")))
PY
}
# Integer dot instructions in the executables of NAME (the session's flags).
intdot() {
  local name=$1 dir=$out/$1.exe
  rm -rf "$dir" && mkdir -p "$dir"
  # shellcheck disable=SC2046
  "$iree_compile" --iree-input-type=stablehlo $(cat "$out/$name.flags") --iree-hal-dump-executable-intermediates-to="$dir" \
    "$out/$name.mlir" -o /dev/null 2> "$dir.log" || { echo "compile failed"; return; }
  local pat
  case $target in
    cuda:*) pat='dp4a|dp2a|mma\.sync[^;]*\.(s8|u8|s4|u4)' ;;
    rocm:*) pat='v_dot[248]|v_mfma_i32|v_wmma_i32|v_dot4c' ;;
    *) pat='vpdpbusd|vpdpwssd|vpmaddubsw|vpmaddwd|sdot|udot|smmla|ummla' ;;
  esac
  local files; files=$(find "$dir" -type f \( -name '*.ptx' -o -name '*.rocmasm' -o -name '*.s' -o -name '*.ll' \) | wc -l)
  local hits; hits=$(find "$dir" -type f \( -name '*.ptx' -o -name '*.rocmasm' -o -name '*.s' \) -print0 | xargs -0 -r grep -hoE "$pat" | sort | uniq -c | awk '{printf "%s %s; ", $2, $1}')
  if [ "$target" = llvm-cpu ] && [ -z "$hits" ]; then # the CPU dump is LLVM IR: its vector integer multiply-adds
    hits=$(find "$dir" -name '*.ll' -print0 | xargs -0 -r grep -hoE 'llvm\.x86\.avx512\.vpdpbusd[^(]*|llvm\.x86\.avx2\.pmadd[^(]*' | sort | uniq -c | awk '{printf "%s %s; ", $2, $1}')
  fi
  echo "${hits:-none} (in $files files)"
}

say "compiling the packed (4-bit, 8-bit) and f16 graphs of the $what ($layers layers) for $target"
variant f16 --precision f16
variant packed4 --precision f16 --quant packed --quant-bits 4
variant packed8 --precision f16 --quant packed --quant-bits 8
sweep=("default:")
if [ "${SWEEP:-1}" != 0 ]; then
  sweep+=("data-tiling:--iree-opt-data-tiling")
  case $target in rocm:*) sweep+=("ukernels:--iree-rocm-enable-ukernels=all" "tiling+ukernels:--iree-opt-data-tiling --iree-rocm-enable-ukernels=all") ;; esac
fi
{
  echo "# Packed-quantization fusion probe: $target"
  echo
  echo "\`scripts/xla/fusion_spike.sh $target\` on $(date -u +%Y-%m-%d) ($("$mlxcel" --version 2>/dev/null | head -1), commit"
  echo "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')); the $what, $layers layers, context 128, f16 products."
  echo "Session flags: \`$(cat "$out/packed4.flags")\`."
  echo
  echo "Per function: dispatches in all; those that read packed values and write a dequantized weight to"
  echo "memory (**materialised**: the product then reads floats); those that read packed values inside the"
  echo "product (**in place**); one of them as an example."
  echo
  echo "| graph | flags | decode_128 dispatches | materialised | in place | example | prefill_128 dispatches | materialised | in place | example |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for v in f16 packed4 packed8; do
    for s in "${sweep[@]}"; do
      tag=${s%%:*} extra=${s#*:}
      # shellcheck disable=SC2086
      IFS='|' read -r dn dm df dx pn pm pf px <<< "$(flow $v "$tag" $extra)"
      echo "| $v | $tag | $dn | ${dm:-?} | ${df:-?} | ${dx:+\`$dx\`} | ${pn:-?} | ${pm:-?} | ${pf:-?} | ${px:+\`$px\`} |"
      if [ "$v" != f16 ] && [ "$tag" = default ] && { [ "${dm:-1}" != 0 ] || [ "${df:-0}" = 0 ]; }; then
        echo "$v decode_128: $dm materialised, $df in place" >> "$out/gate-failures"
      fi
    done
  done
  echo
  if [ "${SWEEP:-1}" != 0 ]; then
    echo "Integer dot instructions in the executables (session flags): packed 4-bit: $(intdot packed4); packed 8-bit: $(intdot packed8); f16: $(intdot f16)."
  else
    echo "Integer dot instructions: not looked for (SWEEP=0)."
  fi
} | tee "$out/report.md"
say "report: $out/report.md (modules, MLIR and flow files beside it)"
if [ "${CHECK:-0}" = 1 ]; then
  if [ -s "$out/gate-failures" ]; then say "gate failed: $(tr '\n' ';' < "$out/gate-failures")"; exit 1; fi
  echo "1 passed, 0 failed"
fi
