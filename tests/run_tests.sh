#!/usr/bin/env bash
# Runs every test: the cmocka unit tests of the normal build and of the sanitizer build, then the
# CLI integration tests. Each suite prints its own results; the last line sums them up.
set -uo pipefail
build=${1:-build} asan=${2:-build-asan}
passed=0 failed=0 suites_failed=0
export CMOCKA_MESSAGE_OUTPUT=stdout
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

run_suite() { # NAME COMMAND...: runs it, adds its counts
  local name=$1; shift
  echo "=== $name"
  local log; log=$(mktemp)
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local p f
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p; s/^\([0-9]*\) passed, [0-9]* failed$/\1/p' "$log" | tail -1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p; s/^[0-9]* passed, \([0-9]*\) failed$/\1/p' "$log" | tail -1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [ "$rc" -ne 0 ]; then
    suites_failed=$((suites_failed + 1))
    [ "${f:-0}" -eq 0 ] && failed=$((failed + 1)) # a crash or sanitizer abort counts as a failure
  fi
  rm -f "$log"
}

for t in "$build"/tests/test_*; do run_suite "unit: $(basename "$t")" "$t"; done
for t in "$asan"/tests/test_*; do run_suite "unit (asan+ubsan): $(basename "$t")" "$t"; done
run_suite "integration: cli" tests/integration/test_cli.sh "$build/mlxcel"

echo "=== summary"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$suites_failed" -eq 0 ]
