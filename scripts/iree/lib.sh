#!/usr/bin/env bash
# Shared pinned-toolchain helper for scripts/iree/setup-{cpu,cuda,rocm}.sh.
#
# One IREE release (compiler and runtime of the same version) is installed into a versioned cache,
#   ${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel/iree-<version>/venv
# with pip in hash-checking mode against the sha256 values recorded below. A pin change gives a new
# directory, so an old cache is never used again; a second run with the same pin does nothing.
# The flavours differ only in what they verify and export: every flavour installs the same two
# wheels, because the compiler wheel carries all target backends and the runtime wheel all drivers.

set -euo pipefail

MX_IREE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=pin.env
. "$MX_IREE_DIR/pin.env"

# The lock: every wheel we install, with the sha256 of each file we downloaded and checked
# (cp311 and cp312 builds for manylinux x86_64). sympy, which the compiler wheel declares, is left
# out on purpose: it serves only the compiler's Python API, and we run the native iree-compile.
mx_iree_lock() {
  cat <<LOCK
iree-base-compiler==${MLXCEL_IREE_VERSION} \
  --hash=sha256:6e1f83dc404f5dcdd76354a869cbbb389bd3f93b4623096de3195799ceb323a7 \
  --hash=sha256:d09d2ebd8955d3eeeab5677007c3d26830c8585c61a0e0ccdfc020b63c129e6f
iree-base-runtime==${MLXCEL_IREE_VERSION} \
  --hash=sha256:4ecb03d5a33989d765eaa8bf1fe6199a937c88c1004e56c85714532cd95934fa \
  --hash=sha256:e342bf407010dd42ee2fb431ab763d97c6ebbcad0762c1e843806db3db31572c
numpy==2.4.6 \
  --hash=sha256:89cd468399cfd2504718f0ba50e410dca55a170b61a02ad92bb18c8a65186e93 \
  --hash=sha256:90f9849678c75fe7afa2d348ac842c168b0a4d3d61919687216dfc547976d853
ml-dtypes==0.6.0 \
  --hash=sha256:6c8e39b53e90afda8ce52859c93de4dba3e02b76d85dcf091cc469f9184c6dae \
  --hash=sha256:3b4a480aa8fd54a1805b8ac10f3f91763926a74f73c0c364c10f9231854f4170
LOCK
}

MX_CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/mlxcel"
MX_IREE_HOME="$MX_CACHE_ROOT/iree-${MLXCEL_IREE_VERSION}"
MX_IREE_VENV="$MX_IREE_HOME/venv"
MX_IREE_PY="$MX_IREE_VENV/bin/python"
MX_IREE_STAMP="$MX_IREE_HOME/.complete"

mx_die() { echo "mlxcel setup: $*" >&2; exit 1; }
mx_say() { echo "mlxcel setup: $*" >&2; }

# The stamp records the lock's digest: a lock edited without a version bump is not silently reused.
mx_lock_digest() { mx_iree_lock | sha256sum | cut -c1-16; }

mx_iree_site() {
  "$MX_IREE_PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'
}

# The native compiler binary inside the wheel. Calling it directly skips the Python console-script
# wrapper (about 0.3 s of interpreter start per compile, and an import of sympy we do not install).
mx_iree_compile_path() {
  echo "$(mx_iree_site)/iree/compiler/_mlir_libs/iree-compile"
}

mx_iree_installed() {
  [ -f "$MX_IREE_STAMP" ] && [ "$(cat "$MX_IREE_STAMP")" = "$(mx_lock_digest)" ] \
    && [ -x "$MX_IREE_PY" ] && [ -x "$(mx_iree_compile_path)" ]
}

mx_iree_install() {
  if mx_iree_installed; then
    mx_say "IREE ${MLXCEL_IREE_VERSION} is already set up in $MX_IREE_HOME; nothing to do"
    return 0
  fi
  local py="${MLXCEL_PYTHON:-python3}"
  command -v "$py" >/dev/null 2>&1 || mx_die "no '$py' on PATH; install python3 (>= 3.10) or set MLXCEL_PYTHON"
  "$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
    || mx_die "$py is older than 3.10; the IREE ${MLXCEL_IREE_VERSION} wheels need >= 3.10 (set MLXCEL_PYTHON)"
  # Stale or partial install of the same pin: start over rather than patch it.
  rm -rf "$MX_IREE_HOME"
  mkdir -p "$MX_IREE_HOME"
  mx_say "installing IREE ${MLXCEL_IREE_VERSION} (compiler + runtime, hash-checked) into $MX_IREE_HOME"
  local t0=$SECONDS
  "$py" -m venv "$MX_IREE_VENV" \
    || mx_die "could not create a venv with $py; on Debian: apt-get install python3-venv"
  local lock="$MX_IREE_HOME/requirements.lock"
  mx_iree_lock > "$lock"
  local hashmode=(--require-hashes)
  if [ "${MLXCEL_IREE_ALLOW_UNHASHED:-0}" = 1 ]; then
    mx_say "WARNING: MLXCEL_IREE_ALLOW_UNHASHED=1: installing without hash checks"
    sed -i 's/ \\$//; /--hash=/d' "$lock"
    hashmode=()
  fi
  if ! "$MX_IREE_VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps \
        --only-binary=:all: "${hashmode[@]}" -r "$lock"; then
    rm -rf "$MX_IREE_HOME"
    mx_die "pip could not install the pinned wheels. A hash mismatch on a platform other than \
manylinux x86_64 with CPython 3.11/3.12 means no hash is recorded for it: record it in \
scripts/iree/lib.sh, or set MLXCEL_IREE_ALLOW_UNHASHED=1 to install unverified"
  fi
  "$(mx_iree_compile_path)" --version >/dev/null 2>&1 || mx_die "the installed iree-compile does not run"
  "$MX_IREE_PY" -c 'import iree.runtime' || mx_die "the installed IREE runtime does not import"
  mx_lock_digest > "$MX_IREE_STAMP"
  mx_say "IREE ${MLXCEL_IREE_VERSION} set up in $((SECONDS - t0)) s"
}

mx_require_installed() {
  mx_iree_installed || mx_die "IREE ${MLXCEL_IREE_VERSION} is not set up in $MX_IREE_HOME; run: $1"
}

# Driver names the runtime was built with (not whether a device exists).
mx_runtime_drivers() {
  "$MX_IREE_PY" -c 'import iree.runtime as rt; print(" ".join(rt.query_available_drivers()))'
}

mx_compiler_backends() {
  "$(mx_iree_compile_path)" --iree-hal-list-target-backends | awk 'NR > 1 { printf "%s ", $1 }'
  echo
}

# mx_check_has LIST WORD WHAT: fail when the toolchain lacks a backend or driver a flavour needs.
mx_check_has() {
  case " $1 " in *" $2 "*) ;; *) mx_die "the pinned IREE lacks the $3 '$2' (has: $1)";; esac
}

mx_print_info() {
  local flavour=$1
  echo "flavour:           $flavour"
  echo "pin:               IREE ${MLXCEL_IREE_VERSION} (compiler and runtime)"
  echo "home:              $MX_IREE_HOME"
  echo "python:            $MX_IREE_PY ($("$MX_IREE_PY" --version 2>&1))"
  echo "iree-compile:      $(mx_iree_compile_path)"
  echo "compiler version:  $("$(mx_iree_compile_path)" --version | sed -n 's/^ *IREE compiler version //p')"
  echo "runtime version:   $("$MX_IREE_PY" -c 'import importlib.metadata as m; print(m.version("iree-base-runtime"))')"
  echo "compiler targets:  $(mx_compiler_backends)"
  echo "runtime drivers:   $(mx_runtime_drivers)"
}

mx_print_common_env() {
  echo "export MLXCEL_XLA_IREE_COMPILE='$(mx_iree_compile_path)'"
  echo "export MLXCEL_XLA_WORKER_PYTHON='$MX_IREE_PY'"
}

# mx_setup_main FLAVOUR BACKEND DRIVER "$@": the whole command line of a setup-<flavour>.sh.
mx_setup_main() {
  local flavour=$1 backend=$2 driver=$3; shift 3
  local self="scripts/iree/setup-$flavour.sh"
  case "${1:-}" in
    "")
      mx_iree_install
      mx_check_has "$(mx_compiler_backends)" "$backend" "compiler target backend"
      mx_check_has "$(mx_runtime_drivers)" "$driver" "runtime driver"
      mx_say "ready: eval \"\$($self --env)\" to use it" ;;
    --info)
      mx_require_installed "$self"
      mx_print_info "$flavour" ;;
    --env)
      mx_require_installed "$self"
      mx_print_common_env
      mx_print_flavour_env ;;
    -h|--help)
      echo "usage: $self [--info | --env]"
      echo "  (no flag)  install IREE ${MLXCEL_IREE_VERSION} into $MX_IREE_HOME (idempotent)"
      echo "  --info     print the pin, paths, compiler version, target backends and runtime drivers"
      echo "  --env      print eval-able exports for the mlxcel build and engine" ;;
    *) mx_die "unknown option '$1' (try --help)" ;;
  esac
}
