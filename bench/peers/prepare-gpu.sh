#!/usr/bin/env bash
# Builds what `gpu.sh` needs on a GPU machine that has no compiler and no registry: the engine (`make
# bundle`), the IREE runtime wheel, the peer scripts, the synthetic Llama-3.2-1B's config and tokenizer
# (the weights are made there by `mlxcel synth --seed 0`), the prompt, and one module per precision and
# slot count, compiled here; each compile's time is the table's "cold compile s" (on this machine).
#   bench/peers/prepare-gpu.sh OUT_DIR [CUDA_TARGET (sm_89)] [PRECISIONS ("bf16 f16 f32")] [SLOTS ("1 4 8")]
# Environment: CONTEXT (the modules' --context; default 0, the engine's default capacity: give gpu.sh
# the same), MODULES ("bf16:1 f32:1 ...": instead of every precision x slot count; "packed-bf16:1" is
# the bf16 module with --quant packed, its weights quantized to 4 bits on the GPU machine's host).
# Then carry OUT_DIR to the GPU machine and run `bash OUT_DIR/peers/gpu.sh` there.
set -euo pipefail
out=${1:?usage: prepare-gpu.sh OUT_DIR [CUDA_TARGET] [PRECISIONS] [SLOTS]}
target=${2:-sm_89} precs=${3:-bf16 f16 f32} slots=${4:-1 4 8}
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${MLXCEL_SHARED:-$root/../shared}
say() { echo "prepare-gpu: $*" >&2; }
[ -f "$shared/data/llama-3.2-1b/config.json" ] || { say "no $shared/data/llama-3.2-1b/config.json (set MLXCEL_SHARED to the shared folder)"; exit 1; }
mkdir -p "$out"/{bin,whl,data,vmfb,peers}
say "building the bundle (make bundle)"
make -s -C "$root" bundle > "$out/bundle.log" 2>&1 || { say "make bundle failed: $out/bundle.log"; exit 1; }
cp -L "$root"/build-bundle/mlxcel "$root"/build-bundle/mlxcel-worker.py "$root"/build-bundle/libmicrohttpd.so.12 "$out/bin/"
cp "$here"/*.py "$here"/gpu.sh "$out/peers/"
ver=$(sed -n 's/^MLXCEL_IREE_VERSION=//p' "$root/scripts/iree/pin.env")
whl_cache=${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel/wheels
if ! ls "$whl_cache"/iree_base_runtime-"$ver"-cp312-*.whl > /dev/null 2>&1; then
  say "downloading iree-base-runtime $ver for Python 3.12 (the GPU machine's)"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
    --platform manylinux_2_28_x86_64 -d "$whl_cache" "iree-base-runtime==$ver" \
    || { say "pip could not download iree-base-runtime==$ver (registry?)"; exit 1; }
fi
cp "$whl_cache"/iree_base_runtime-"$ver"-cp312-*.whl "$out/whl/"
cfg=$shared/data/llama-3.2-1b/config.json
mkdir -p "$out/data/tokenizer"
cp "$cfg" "$out/data/config.json"
cp "$shared/data/llama3-tokenizer/tokenizer_config.json" "$out/data/tokenizer/"
xz -9c "$shared/data/llama3-tokenizer/tokenizer.json" > "$out/data/tokenizer/tokenizer.json.xz"
cp "$here/prompt.txt" "$root/tests/oracle/fixtures/llama32-1b-synth.json" "$out/data/"
# The prompt's ids, as `mlxcel generate --no-chat` encodes it (BOS included), for the peers that take ids.
tmpd=$(mktemp -d); trap 'rm -rf "$tmpd"' EXIT
cp "$out/data/tokenizer/tokenizer_config.json" "$tmpd/" && cp "$shared/data/llama3-tokenizer/tokenizer.json" "$tmpd/"
ids_of() { "$out/bin/mlxcel" tokenize -m "$tmpd" -p "$1" | sed -n 1p | python3 -c "import sys, json; print(json.dumps([int(x) for x in sys.stdin.read().split()]))"; }
ids_of "$(cat "$here/prompt.txt")" > "$out/data/prompt_ids.json"
# Prefill prompts of about 512 and 2048 tokens (issue 11 item 5): prefixes of the long test prompt
# (tests/oracle/prompts.json, set smollm2-long), cut at a line so the text tokenizes as in the file.
for n in 512 2048; do
  python3 - "$root/tests/oracle/prompts.json" "$n" > "$out/data/prompt-$n.txt" <<'PY'
import json, sys
text = json.load(open(sys.argv[1]))["smollm2-long"][1]["text"]
lines, out = text.splitlines(keepends=True), ""
for l in lines:  # about 4.4 characters per Llama 3 token in this text
    if len(out) + len(l) > int(sys.argv[2]) * 4.4: break
    out += l
sys.stdout.write(out)
PY
  ids_of "$(cat "$out/data/prompt-$n.txt")" > "$out/data/prompt-${n}_ids.json"
  say "prompt-$n: $(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$out/data/prompt-${n}_ids.json") tokens"
done
: > "$out/vmfb/compile.jsonl"
context=${CONTEXT:-0}
modules=${MODULES:-$(for p in $precs; do for s in $slots; do echo "$p:$s"; done; done)}
for m in $modules; do
  p=${m%%:*} s=${m##*:} quant=none
  case $p in packed-*) quant=packed ;; esac
  v=$out/vmfb/$p-s$s.vmfb
  say "compiling $p, $s slot(s) for cuda:$target"
  wd=bf16; [ $quant = packed ] && wd=${p#packed-} # a packed model's other weights are in the precision's type
  log=$("$out/bin/mlxcel" compile --config "$cfg" --weights-dtype $wd --precision "${p#packed-}" --quant $quant --slots "$s" --context "$context" \
        --device cuda --cuda-target "$target" -o "$v" 2>&1) || { say "compile failed: $log"; exit 1; }
  echo "$log" >> "$out/vmfb/compile.log"
  secs=$(echo "$log" | sed -n 's/.* in \([0-9.]*\) s: .*/\1/p' | head -1)
  echo "{\"dtype\": \"$p\", \"slots\": $s, \"context\": $context, \"cold_compile_s\": ${secs:-null}, \"machine\": \"$(nproc)-core $(uname -m) (where it was compiled)\"}" >> "$out/vmfb/compile.jsonl"
done
du -sh "$out" >&2
