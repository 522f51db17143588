#!/usr/bin/env bash
# Runs the curl examples of README.md's "Serving" section (between the curl-examples markers)
# against a live server, so the documentation stays true. Each example must exit 0, get a 2xx,
# and give what its endpoint promises: a JSON object without "error", an SSE stream ending in
# "data: [DONE]", or the Prometheus text. Prints "N passed, N failed" last.
#
# usage: tests/server/curl_examples.sh [build/mlxcel] [MODEL]
set -uo pipefail
BIN=${1:-build/mlxcel}
MODEL=${2:-$(scripts/fetch-model.sh)}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERVER="$(dirname "$BIN")/mlxcel-server"
pass=0 fail=0
work=$(mktemp -d)
srv_pid=""
cleanup() { [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

ok()  { pass=$((pass + 1)); echo "ok    $1"; }
bad() { fail=$((fail + 1)); echo "FAIL  $1"; sed 's/^/      | /' "$work/out" | tail -n 8; }

# The examples: the fenced block between the markers, continuation lines joined.
awk '/<!-- curl-examples:begin -->/ {on = 1; next} /<!-- curl-examples:end -->/ {on = 0} on && !/^```/' \
  "$ROOT/README.md" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' > "$work/examples"
n=$(grep -c '^curl ' "$work/examples")
[ "$n" -ge 5 ] || { echo "README.md has $n curl examples between the markers (expected at least 5)"; echo "0 passed, 1 failed"; exit 1; }

"$SERVER" -m "$MODEL" --port 0 --quiet 2>"$work/server.log" &
srv_pid=$!
for _ in $(seq 600); do grep -q 'listening on' "$work/server.log" && break; kill -0 "$srv_pid" 2>/dev/null || break; sleep 1; done
port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/server.log")
[ -n "$port" ] || { echo "the server did not start:"; cat "$work/server.log"; echo "0 passed, 1 failed"; exit 1; }

while IFS= read -r cmd; do
  [[ $cmd == curl* ]] || continue
  # The README's port becomes the test server's; -w appends the status code on a line of its own.
  run=${cmd//127.0.0.1:8080/127.0.0.1:$port}
  name=$(printf '%s' "$cmd" | cut -c1-90)
  bash -c "$run -w '\n%{http_code}\n'" >"$work/out" 2>&1
  rc=$?
  code=$(tail -n 1 "$work/out")
  head -n -1 "$work/out" >"$work/body"
  if [ "$rc" -ne 0 ]; then bad "$name: curl exit $rc"; continue; fi
  if [[ $code != 2* ]]; then bad "$name: HTTP $code"; continue; fi
  if [[ $cmd == *'"stream": true'* ]]; then
    if grep -q '^data: \[DONE\]$' "$work/body" && ! grep -q '"error"' "$work/body"; then ok "$name"; else bad "$name: not a complete SSE stream"; fi
  elif [[ $cmd == */metrics* ]]; then
    if grep -q '^mlxcel_http_requests_total{' "$work/body"; then ok "$name"; else bad "$name: no metrics"; fi
  elif python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if isinstance(d, dict) and "error" not in d else 1)' "$work/body"; then
    ok "$name"
  else bad "$name: not a JSON answer"; fi
done <"$work/examples"

kill -TERM "$srv_pid"
wait "$srv_pid"
rc=$?
srv_pid=""
if [ "$rc" -eq 0 ]; then ok "the server exits 0 on SIGTERM"; else fail=$((fail + 1)); echo "FAIL  server exit $rc"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
