#!/usr/bin/env bash
# The seed's validation entry point: three gates on one model and device, PASS/FAIL each, exit 1 on
# any FAIL (2 on bad usage).
#   1 structural pre-gate: the pinned graph goldens (unit suites test_hlo and test_llama: the
#     emitted StableHLO of the smoke ops and of a tiny Llama, byte for byte)
#   2 oracle gate: `mlxcel check` against the model's HF fp32 fixture, --max-new greedy steps per
#     prompt; f32 must be token-exact, f16/bf16 (MLXCEL_XLA_PRECISION) pass the low-precision rule
#   3 batch gate: `mlxcel batch-bench` at B_max --batch on --requests requests, each budget capped at
#     --maxcap tokens: every batched stream equals its single-sequence run
#
#   scripts/xla/validate_arch.sh --model M --device D [--max-new 64] [--batch 4] [--requests 8]
#                                [--maxcap 24] [--fixture F.json] [--vmfb-dir DIR]
# The device's target comes from MLXCEL_XLA_CUDA_TARGET / MLXCEL_XLA_ROCM_TARGET as for every command.
# `mlxcel qualify` runs these gates and everything else the qualification needs.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
bin=${MLXCEL:-$root/$build/mlxcel}
model="" device=${MLXCEL_XLA_DEVICE:-local-task} max_new=64 batch=4 requests=8 maxcap=24 fixture="" vmfb_dir=""
usage() { echo "usage: validate_arch.sh --model M --device D [--max-new N] [--batch B] [--requests N] [--maxcap N] [--fixture F] [--vmfb-dir DIR]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --model) model=$2 ;; --device) device=$2 ;; --max-new) max_new=$2 ;; --batch) batch=$2 ;;
    --requests) requests=$2 ;; --maxcap) maxcap=$2 ;; --fixture) fixture=$2 ;; --vmfb-dir) vmfb_dir=$2 ;;
    *) usage ;;
  esac
  shift 2
done
[ -n "$model" ] || { echo "validate_arch.sh: usage: --model is required; remedy: pass an HF directory or a GGUF file" >&2; exit 2; }
for n in "$max_new" "$batch" "$requests" "$maxcap"; do
  [[ $n =~ ^[0-9]+$ ]] || { echo "validate_arch.sh: usage: '$n' is not a number; remedy: give whole numbers" >&2; exit 2; }
done
[ -x "$bin" ] || { echo "validate_arch.sh: build: no $bin; remedy: run make (or set MLXCEL=path/to/mlxcel)" >&2; exit 2; }
if [ -z "$fixture" ]; then # the project's HF fixture for the model, by its file name
  case $(basename "$model") in
    SmolLM2-135M-Instruct.Q4_1.gguf) fixture=$root/tests/oracle/fixtures/smollm2.json ;;
    llama-3.2-1b-synth) fixture=$root/tests/oracle/fixtures/llama32-1b-synth.json ;;
    *) echo "validate_arch.sh: usage: no HF fixture known for $(basename "$model"); remedy: pass --fixture (tests/oracle/hf_trajectory.py makes one)" >&2; exit 2 ;;
  esac
fi
fails=0
report() { # NAME RC
  if [ "$2" -eq 0 ]; then echo "PASS  $1"; else echo "FAIL  $1 (exit $2)"; fails=$((fails + 1)); fi
}

echo "== 1 structural pre-gate: the pinned graph goldens"
rc=0
if make -s -C "$root" BUILD="$build" "$build/tests/test_hlo" "$build/tests/test_llama" >/dev/null; then
  (cd "$root" && "$build/tests/test_hlo" && "$build/tests/test_llama") || rc=1
else
  echo "validate_arch.sh: build: the golden suites do not build; remedy: run make unit-bins and read its errors" >&2
  rc=1
fi
report "structural pre-gate (test_hlo, test_llama)" $rc

echo "== 2 oracle gate: mlxcel check, $max_new steps, $(basename "$fixture")"
"$bin" check -m "$model" --device "$device" --fixture "$fixture" --steps "$max_new"
report "oracle gate (${MLXCEL_XLA_PRECISION:-f32}, $max_new steps)" $?

echo "== 3 batch gate: mlxcel batch-bench, B_max $batch, $requests requests, budgets capped at $maxcap"
extra=()
[ -n "$vmfb_dir" ] && extra=(--vmfb-dir "$vmfb_dir")
"$bin" batch-bench -m "$model" --device "$device" --slots "$batch" --requests "$requests" --budget-cap "$maxcap" "${extra[@]}"
report "batch gate (B_max $batch, $requests requests, cap $maxcap)" $?

echo "$((3 - fails)) passed, $fails failed" # the gates, counted as the test runner counts suites
[ $fails -eq 0 ]
