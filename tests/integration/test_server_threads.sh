#!/usr/bin/env bash
# The live server's threads under load, for the ThreadSanitizer build (tests/run_tests.sh --tier tsan
# runs it on build-tsan/mlxcel): concurrent completions (greedy and sampled, plain and streamed),
# clients that hang up mid-stream, /metrics, /health and bad requests all at once, then SIGTERM's
# drain — on one device and on two (the fleet). A race makes TSan end the server (halt_on_error=1,
# exit 66) or, at the latest, its exit status non-zero; either fails the check, and the report's first
# lines are printed. Works on a normal build too (then it only checks the answers and the exit).
# Prints "N passed, N failed" last.
#
#   tests/integration/test_server_threads.sh [BIN] [MODEL]     (default build-tsan/mlxcel, the default model)
set -uo pipefail
BIN=${1:-build-tsan/mlxcel}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MODEL=${2:-${MLXCEL_TEST_MODEL:-$("$ROOT/scripts/fetch-model.sh" 2>/dev/null)}}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}
pass=0 fail=0
work=$(mktemp -d)
srv_pid=""
cleanup() { [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

ok()  { pass=$((pass + 1)); echo "ok    $1"; }
bad() { fail=$((fail + 1)); echo "FAIL  $1"; [ -n "${2:-}" ] && sed 's/^/      | /' "$2" | head -n 60; }

# post N PATH BODY: the status code into $work/code.N, the body into $work/body.N.
post() {
  curl -s -o "$work/body.$1" -w '%{http_code}' --max-time 300 -H 'Content-Type: application/json' \
    -d "$3" "http://127.0.0.1:$port$2" >"$work/code.$1" 2>/dev/null
}

# round NAME SERVE_ARGS...: one server, one burst of concurrent traffic, one SIGTERM.
round() {
  local name=$1; shift
  rm -f "$work"/code.* "$work"/body.*
  "$BIN" serve -m "$MODEL" --port 0 --quiet "$@" 2>"$work/server.log" &
  srv_pid=$!
  port=""
  for _ in $(seq 900); do
    grep -q 'listening on' "$work/server.log" && break
    kill -0 "$srv_pid" 2>/dev/null || break
    sleep 0.2
  done
  port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/server.log")
  if [ -z "$port" ]; then
    bad "$name: the server did not start" "$work/server.log"
    srv_pid=""
    return
  fi
  local i pids=()
  for i in 1 2 3 4 5 6; do # greedy and sampled completions, more than there are slots
    local t; t=$([ $((i % 2)) = 0 ] && echo 0.8 || echo 0)
    post "c$i" /v1/completions "{\"prompt\":\"Count to $i:\",\"max_tokens\":16,\"temperature\":$t,\"seed\":$i}" &
    pids+=($!)
  done
  for i in 1 2 3; do # streamed chat
    post "s$i" /v1/chat/completions "{\"messages\":[{\"role\":\"user\",\"content\":\"Name $i colors.\"}],\"max_tokens\":12,\"stream\":true}" &
    pids+=($!)
  done
  for i in 1 2; do # hang up mid-stream: the server must cancel the request and free its slot
    curl -s -N --max-time 1.5 -H 'Content-Type: application/json' \
      -d '{"prompt":"Tell a long story.","max_tokens":400,"stream":true,"ignore_eos":true}' \
      "http://127.0.0.1:$port/v1/completions" >/dev/null 2>&1 &
    pids+=($!)
  done
  post bad /v1/completions '{"prompt":"x","temperature":7}' &
  pids+=($!)
  for i in 1 2 3 4 5 6 7 8; do # scrapes and probes while all that runs
    curl -s --max-time 30 "http://127.0.0.1:$port/metrics" >/dev/null 2>&1
    curl -s --max-time 30 "http://127.0.0.1:$port/health" >/dev/null 2>&1
    sleep 0.2
  done
  wait "${pids[@]}" 2>/dev/null
  local answered=0 codes=""
  for f in "$work"/code.c* "$work"/code.s*; do
    [ "$(cat "$f" 2>/dev/null)" = 200 ] && answered=$((answered + 1))
    codes="$codes $(basename "$f")=$(cat "$f" 2>/dev/null)"
  done
  if [ "$answered" -eq 9 ] && [ "$(cat "$work/code.bad" 2>/dev/null)" = 400 ]; then ok "$name: 9 concurrent requests answered 200, the bad one 400"
  else echo "codes:$codes bad=$(cat "$work/code.bad" 2>/dev/null)" >>"$work/server.log"; bad "$name: answers" "$work/server.log"; fi
  kill -TERM "$srv_pid" 2>/dev/null
  wait "$srv_pid"
  local rc=$?
  srv_pid=""
  if grep -q 'ThreadSanitizer' "$work/server.log"; then bad "$name: ThreadSanitizer reported" "$work/server.log"
  elif [ "$rc" -ne 0 ]; then bad "$name: the server exited $rc after SIGTERM" "$work/server.log"
  else ok "$name: no race reported, exit 0 after SIGTERM's drain"; fi
}

round "one device, 4 slots"
round "two devices (fleet), 2 slots each" --devices local-task,local-task --slots 2

# The worker killed under a running request: the scheduler's failure, probe and restart paths run on
# its thread while connection threads wait on the request. What the clients get is the fault tests'
# business (tests/server/reliability_test.py); here only a race report or a crash fails.
"$BIN" serve -m "$MODEL" --port 0 --quiet 2>"$work/server.log" &
srv_pid=$!
for _ in $(seq 900); do grep -q 'listening on' "$work/server.log" && break; kill -0 "$srv_pid" 2>/dev/null || break; sleep 0.2; done
port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/server.log")
if [ -n "$port" ]; then
  post k1 /v1/completions '{"prompt":"Tell a long story.","max_tokens":200,"ignore_eos":true}' &
  kpid=$!
  sleep 1
  pkill -KILL -P "$srv_pid" -f 'mlxcel[-_]worker' 2>/dev/null
  wait "$kpid" 2>/dev/null
  sleep 2
  post k2 /v1/completions '{"prompt":"Hello","max_tokens":4}'
  kill -TERM "$srv_pid" 2>/dev/null
  wait "$srv_pid"
  rc=$?
  if grep -q 'ThreadSanitizer' "$work/server.log"; then bad "worker killed under a request: ThreadSanitizer reported" "$work/server.log"
  elif [ "$rc" -eq 66 ] || [ "$rc" -gt 128 ]; then bad "worker killed under a request: exit $rc" "$work/server.log"
  else ok "worker killed under a request: no race reported (exit $rc; answers $(cat "$work/code.k1") then $(cat "$work/code.k2"))"; fi
else
  bad "worker killed under a request: the server did not start" "$work/server.log"
fi
srv_pid=""

# SIGTERM during start-up: the signal watcher's thread records it while the main thread opens the
# model and starts the worker. Whether it lands before or after "listening" depends on timing, so
# only the race report and a crash (TSan's 66, a signal's 128+) fail it.
"$BIN" serve -m "$MODEL" --port 0 --quiet 2>"$work/server.log" &
srv_pid=$!
sleep 0.3
kill -TERM "$srv_pid" 2>/dev/null
wait "$srv_pid"
rc=$?
srv_pid=""
if grep -q 'ThreadSanitizer' "$work/server.log"; then bad "SIGTERM during start-up: ThreadSanitizer reported" "$work/server.log"
elif [ "$rc" -eq 66 ] || { [ "$rc" -gt 128 ] && [ "$rc" -ne 130 ] && [ "$rc" -ne 143 ]; }; then
  bad "SIGTERM during start-up: exit $rc" "$work/server.log"
else ok "SIGTERM during start-up: no race reported (exit $rc)"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
