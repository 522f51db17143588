#!/usr/bin/env bash
# Builds the carry folder for call.sh (the new families on the H200): the engine (make bundle), the IREE
# runtime wheel, the Llama 3 tokenizer, and one f32 module per family at context 256, compiled here for
# cuda sm_89 from the --family configs (written by `mlxcel synth --family F` into a temporary folder).
#   bash bench/results/2026-12-02-h200-families/prepare.sh .gpu/fam
set -euo pipefail
out=${1:?usage: prepare.sh OUT_DIR}
root=$(cd "$(dirname "$0")/../../.." && pwd) shared=${MLXCEL_SHARED:-$root/../shared}
mkdir -p "$out"/{bin,whl,tok,vmfb}
make -s -C "$root" bundle > "$out/bundle.log" 2>&1
cp -L "$root"/build-bundle/mlxcel "$root"/build-bundle/mlxcel-worker.py "$root"/build-bundle/libmicrohttpd.so.12 "$out/bin/"
ver=$(sed -n 's/^MLXCEL_IREE_VERSION=//p' "$root/scripts/iree/pin.env")
whl=${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel/wheels
ls "$whl"/iree_base_runtime-"$ver"-cp312-*.whl > /dev/null 2>&1 || python3 -m pip download --quiet --no-deps --only-binary=:all: \
  --python-version 3.12 --platform manylinux_2_28_x86_64 -d "$whl" "iree-base-runtime==$ver"
cp "$whl"/iree_base_runtime-"$ver"-cp312-*.whl "$out/whl/"
cp "$shared/data/llama3-tokenizer/tokenizer_config.json" "$out/tok/"
xz -9c "$shared/data/llama3-tokenizer/tokenizer.json" > "$out/tok/tokenizer.json.xz"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for fam in qwen2 qwen3 mistral gemma2 gemma3 phi3; do
  "$out/bin/mlxcel" synth --family $fam --tokenizer "$shared/data/llama3-tokenizer" -o "$tmp/$fam" --seed 0 --dtype f32 > /dev/null
  "$out/bin/mlxcel" compile --config "$tmp/$fam/config.json" --weights-dtype f32 --precision f32 --context 256 \
    --device cuda --cuda-target sm_89 -o "$out/vmfb/$fam.vmfb" 2>&1 | grep -v flags | tee -a "$out/vmfb/compile.log"
  rm -rf "${tmp:?}/$fam"
done
du -sh "$out"
