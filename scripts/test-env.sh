#!/usr/bin/env bash
# Sets up the Python packages that only the tests use (the tokenizer and chat-template oracles in
# tests/oracle/, the official openai client for tests/server/, jsonschema for the qualification
# kit's results.json in tests/qualify/, kubernetes-validate for the manifests in deploy/, selenium to
# drive Chromium through the chat page) in their own
# virtual environment:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel/testenv-<digest>/
# where <digest> is the first 12 hex digits of the sha256 of the pin list below, so changing a pin
# gives a new environment and never mutates an old one. Idempotent: a second run checks and prints
# "nothing to do". No torch: the oracles need only tokenizers, transformers' tokenizer side, gguf
# and jinja2.
#
# stdout: the environment's python, as the last line (PY=$(scripts/test-env.sh | tail -1)).
# stderr: progress and errors. Every error is one line ending in "remedy: ...".
set -euo pipefail

# What the oracles and the server test import. Every version is pinned; the second group is what
# transformers 5.24.0, openai 3.51.0 and the others pull in (pip freeze of a clean install on Python 3.11), pinned as constraints so
# that pip resolves to exactly these and a platform that needs a different set still installs. selenium
# is 4.51.0: 4.52 needs a certifi newer than the registry serves.
REQUIREMENTS='tokenizers==0.23.3
transformers==5.24.0
gguf==0.19.0
jinja2==3.1.6
numpy==2.4.6
openai==3.51.0
jsonschema==4.26.0
kubernetes-validate==1.37.0
selenium==4.51.0'
CONSTRAINTS='outcome==1.3.0.post0
PySocks==1.7.1
sortedcontainers==2.4.0
trio==0.35.0
trio-websocket==0.12.2
websocket-client==1.9.2
wsproto==1.3.2
annotated-doc==0.0.7
attrs==26.1.0
jsonschema-specifications==2025.9.1
referencing==0.37.0
rpds-py==2026.9.1
annotated-types==0.8.0
anyio==4.16.0
certifi==2026.10.19.post1
charset-normalizer==3.5.3
click==8.5.1
filelock==4.3.1
fsspec==2026.9.0
h11==0.16.0
hf-xet==1.8.0
httpcore2==2.16.2
httpx2==2.16.2
huggingface_hub==2.4.0
idna==3.20
jiter==0.19.0
markdown-it-py==4.3.0
MarkupSafe==3.0.4
mdurl==0.1.2
packaging==26.4
pydantic==2.14.4
pydantic_core==2.50.5
Pygments==2.21.0
PyYAML==6.0.4
regex==2026.11.19
requests==2.34.2
rich==15.0.0
safetensors==0.8.0
shellingham==1.5.4
sniffio==1.3.1
tqdm==4.70.1
truststore==0.10.5
typer==0.29.2
typing-inspection==0.4.5
typing_extensions==4.16.0
importlib_resources==7.1.0
urllib3==2.8.0'

say() { echo "mlxcel test-env: $*" >&2; }
die() { say "$*"; exit 1; }

py=${MLXCEL_PYTHON:-python3}
command -v "$py" >/dev/null \
  || die "no $py on PATH; remedy: apt-get install python3 python3-venv (or set MLXCEL_PYTHON)"

digest=$(printf '%s\n--\n%s\n' "$REQUIREMENTS" "$CONSTRAINTS" | sha256sum | cut -c1-12)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel"
venv="$cache/testenv-$digest"
stamp="$venv/.mlxcel-testenv-complete"
vpy="$venv/bin/python"
# The interpreter a venv was made from must still be there; record which one it was.
pyver=$("$py" -c 'import sys; print(sys.version.split()[0], sys.base_prefix)')

ready() { [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pyver" ] && "$vpy" -c 'import sys' 2>/dev/null; }

if ready; then
  say "testenv-$digest is already set up; nothing to do"
  echo "$vpy"; exit 0
fi

mkdir -p "$cache"
# One setter-up at a time (two test runs started together would otherwise both pip into one dir).
exec 9>"$cache/testenv-$digest.lock"
flock 9
if ready; then  # someone else finished it while we waited
  say "testenv-$digest is already set up; nothing to do"
  echo "$vpy"; exit 0
fi

start=$(date +%s)
rm -rf "$venv"   # a half-made one (no stamp) is not trusted
say "creating $venv (from $py $pyver)"
if ! "$py" -m venv "$venv" 2>"$cache/testenv-$digest.venv.log"; then
  rm -rf "$venv"
  # Debian splits ensurepip out of python3 into python3-venv; install it the way install-deps.sh
  # installs the build's packages, when we may.
  if grep -q "ensurepip" "$cache/testenv-$digest.venv.log" && command -v apt-get >/dev/null; then
    sudo=""
    [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && sudo=sudo
    if [ "$(id -u)" = 0 ] || [ -n "$sudo" ]; then
      pkg="python3-venv"
      v=$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
      apt-cache show "python$v-venv" >/dev/null 2>&1 && pkg="python$v-venv"
      say "python's venv module lacks ensurepip; apt-get installing $pkg"
      export DEBIAN_FRONTEND=noninteractive
      { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "$pkg"; } >/dev/null 2>&1 \
        || die "apt-get could not install $pkg; remedy: install $pkg (root needed) and rerun scripts/test-env.sh"
      "$py" -m venv "$venv" 2>"$cache/testenv-$digest.venv.log" \
        || { rm -rf "$venv"; die "$py -m venv failed (see $cache/testenv-$digest.venv.log); remedy: apt-get install python3-venv and rerun scripts/test-env.sh"; }
    else
      die "$py -m venv failed: no ensurepip; remedy: as root, apt-get install python3-venv, then rerun scripts/test-env.sh"
    fi
  else
    die "$py -m venv failed (see $cache/testenv-$digest.venv.log); remedy: apt-get install python3-venv and rerun scripts/test-env.sh"
  fi
fi

printf '%s\n' "$REQUIREMENTS" > "$venv/requirements.txt"
printf '%s\n' "$CONSTRAINTS" > "$venv/constraints.txt"
log="$cache/testenv-$digest.pip.log"
say "pip installing $(printf '%s' "$REQUIREMENTS" | tr "\n" " ")(+ $(printf '%s\n' "$CONSTRAINTS" | wc -l) pinned dependencies)"
# --only-binary: every pin has wheels for manylinux x86_64/aarch64; building from source would need
# a Rust toolchain (tokenizers) and is never what we want here.
if ! PIP_DISABLE_PIP_VERSION_CHECK=1 "$vpy" -m pip install --no-input --only-binary=:all: \
      -r "$venv/requirements.txt" -c "$venv/constraints.txt" >"$log" 2>&1; then
  rm -rf "$venv"
  die "pip could not install the pinned test packages (see $log); remedy: make PyPI reachable for pip (network, proxy, or PIP_INDEX_URL) and rerun scripts/test-env.sh"
fi
"$vpy" -c 'import tokenizers, gguf, jinja2, numpy, transformers, openai, selenium' 2>>"$log" \
  || { rm -rf "$venv"; die "the installed packages do not import (see $log); remedy: rm -rf $venv and rerun scripts/test-env.sh"; }
printf '%s\n' "$pyver" > "$stamp"
say "set up in $(( $(date +%s) - start )) s"
echo "$vpy"
