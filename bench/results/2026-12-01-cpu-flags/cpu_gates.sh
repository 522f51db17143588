#!/bin/bash
# The CPU gates with the compiler flags under test (wrapper, MX_EXTRA_FLAGS).
cd /work/wt-flags
[ -n "${MX_EXTRA_FLAGS+x}" ] && export MLXCEL_XLA_IREE_COMPILE=/tmp/fl/ic-wrap.sh
M=$(scripts/fetch-model.sh 2>/dev/null)
FIX=tests/oracle/fixtures
echo "### extra flags: [${MX_EXTRA_FLAGS:-}] binary: ${BIN:-build/mlxcel}; load $(cut -d' ' -f1-3 /proc/loadavg)"
B=${BIN:-build/mlxcel}
echo "## check SmolLM2 f32"; nice $B check -m $M --fixture $FIX/smollm2.json 2>&1 | grep -v "^mlxcel: \(compiling\|still\|compile cache\)"
echo "## check SmolLM2 f16"; nice $B check -m $M --fixture $FIX/smollm2.json --precision f16 2>&1 | grep -v "^mlxcel: \(compiling\|still\|compile cache\)"
echo "## check synthetic Llama-3.2-1B f32"; nice $B check -m build/oracle/llama-3.2-1b-synth --fixture $FIX/llama32-1b-synth.json 2>&1 | grep -v "^mlxcel: \(compiling\|still\|compile cache\)"
echo "## batch-bench SmolLM2 4,8"; nice $B batch-bench -m $M --slots 4,8 2>&1 | grep -v "^mlxcel: \(compiling\|still\|compile cache\)"
echo "### done; load $(cut -d' ' -f1-3 /proc/loadavg)"
