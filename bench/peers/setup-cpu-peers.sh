#!/usr/bin/env bash
# Creates the virtual environment the CPU benchmark peers run in (issue 11, item 7):
# llama-cpp-python built from PyPI's source package, HF transformers on a PyPI torch wheel, gguf and
# numpy, all pinned. It lives outside the repository because it is large (torch alone is gigabytes)
# and built for this machine's processor.
#
#   bash bench/peers/setup-cpu-peers.sh            # build, or do nothing when already built with these pins
#   MLXCEL_PEERS_VENV=/some/dir bash bench/peers/setup-cpu-peers.sh
#   FORCE=1 bash bench/peers/setup-cpu-peers.sh    # remove the environment and build it again
#
# On failure it prints one line naming the step and what to do, and leaves the pip output in
# $VENV.setup.log.
set -euo pipefail

VENV="${MLXCEL_PEERS_VENV:-$HOME/.cache/mlxcel/bench-peers-venv}"
LOG="$VENV.setup.log"

# The pins. llama-cpp-python is the one issue 11 names; the rest are the newest PyPI served for
# Python 3.11 when this was written (numpy 2.5 no longer supports 3.11).
LLAMA_CPP_PYTHON=0.3.36
TORCH=2.15.0
TRANSFORMERS=5.24.0
GGUF=0.19.0
NUMPY=2.4.6
# llama.cpp's own CMake defaults are kept (GGML_NATIVE=ON: -march=native, so the build is for this
# processor, which is what a benchmark on this machine wants; OpenMP on). The multimodal library
# (mtmd) is not needed to run a text model and only lengthens a 2-core build.
LLAMA_CMAKE_ARGS="-DLLAVA_BUILD=OFF"

PINS="python=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo none)"
PINS="$PINS llama-cpp-python=$LLAMA_CPP_PYTHON cmake_args=[$LLAMA_CMAKE_ARGS] torch=$TORCH"
PINS="$PINS transformers=$TRANSFORMERS gguf=$GGUF numpy=$NUMPY"
STAMP="$VENV/.mlxcel-peers-stamp"

fail() { # step, remedy
    echo "setup-cpu-peers: $1 failed: $2 (log: $LOG)" >&2
    exit 1
}

if [ "${FORCE:-0}" != 1 ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$PINS" ] \
    && "$VENV/bin/python" -c 'import llama_cpp, torch, transformers, gguf, numpy' 2>/dev/null; then
    echo "setup-cpu-peers: $VENV is up to date ($PINS)"
    exit 0
fi

command -v python3 >/dev/null || fail "python3" "install Python 3.10 or newer"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
    || fail "python3 version" "transformers $TRANSFORMERS needs Python 3.10 or newer"
command -v cc >/dev/null && command -v c++ >/dev/null \
    || fail "compiler check" "llama-cpp-python compiles llama.cpp: apt-get install build-essential"

mkdir -p "$(dirname "$VENV")"
: >"$LOG"
# A stale or half-built environment is removed whole: a partial one would pass the import check
# with the wrong versions.
rm -rf "$VENV"
echo "setup-cpu-peers: creating $VENV"
python3 -m venv "$VENV" >>"$LOG" 2>&1 || fail "venv creation" "apt-get install python3-venv, or use a Python with venv"
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)

# scikit-build-core (llama-cpp-python's build backend) wants CMake 3.21 or newer and uses ninja when
# it finds one. When the machine lacks them, the PyPI packages are put in the venv and on PATH.
need_cmake=0
if ! command -v cmake >/dev/null; then
    need_cmake=1
elif ! cmake --version | head -1 | awk '{split($3, v, "."); exit !(v[1] > 3 || (v[1] == 3 && v[2] >= 21))}'; then
    need_cmake=1
fi
if [ "$need_cmake" = 1 ] || ! command -v ninja >/dev/null; then
    echo "setup-cpu-peers: installing cmake and ninja from PyPI into the venv"
    "${PIP[@]}" install cmake==4.4.4 ninja==1.13.2 >>"$LOG" 2>&1 \
        || fail "cmake/ninja install" "check that PyPI is reachable, or apt-get install cmake ninja-build"
fi
export PATH="$VENV/bin:$PATH"

# Built from the source package on purpose (issue 11): no prebuilt wheel, and no pip wheel cache,
# whose key does not include CMAKE_ARGS, so a wheel built with other flags is never reused.
echo "setup-cpu-peers: building llama-cpp-python $LLAMA_CPP_PYTHON from source (about 10-20 min on 2 cores)"
CMAKE_ARGS="$LLAMA_CMAKE_ARGS" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    "${PIP[@]}" install --no-cache-dir --no-binary llama-cpp-python --verbose \
    "llama-cpp-python==$LLAMA_CPP_PYTHON" "numpy==$NUMPY" >>"$LOG" 2>&1 \
    || fail "llama-cpp-python build" "read the CMake/compiler error near the end of the log; a missing tool is usually build-essential, cmake>=3.21 or ninja"

# PyPI's Linux torch wheel is the CUDA build and pulls in NVIDIA's runtime wheels (several GB); it
# runs on the CPU all the same. The CPU-only wheel lives on another index this machine cannot reach.
echo "setup-cpu-peers: installing torch $TORCH, transformers $TRANSFORMERS, gguf $GGUF (large download)"
"${PIP[@]}" install "torch==$TORCH" "transformers==$TRANSFORMERS" "gguf==$GGUF" "numpy==$NUMPY" >>"$LOG" 2>&1 \
    || fail "torch/transformers install" "check PyPI is reachable and disk space (df -h $(dirname "$VENV")): torch with its NVIDIA wheels needs about 6 GB"

"$VENV/bin/python" -c 'import llama_cpp, torch, transformers, gguf, numpy' >>"$LOG" 2>&1 \
    || fail "import check" "an installed package does not import; see the traceback at the end of the log"
"$VENV/bin/python" -m pip freeze >"$VENV/requirements.freeze.txt" 2>>"$LOG" || true
echo "$PINS" >"$STAMP"
echo "setup-cpu-peers: done: $VENV ($PINS); full list in $VENV/requirements.freeze.txt"
