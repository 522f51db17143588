#!/bin/bash
# iree-compile with extra flags from MX_EXTRA_FLAGS; --version names them so the VMFB cache key changes.
IC=/root/.cache/mlxcel/iree-3.13.0/venv/lib/python3.11/site-packages/iree/compiler/_mlir_libs/iree-compile
if [ "${1:-}" = "--version" ]; then "$IC" --version; echo "wrapper extra flags: ${MX_EXTRA_FLAGS:-none}"; exit 0; fi
exec "$IC" "$@" ${MX_EXTRA_FLAGS:-}
