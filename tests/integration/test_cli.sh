#!/usr/bin/env bash
# Integration tests of the mlxcel binary and the setup scripts: the smoke on local-task, and every
# kind of bad input the foundation must turn into one clear line, the right exit code and no
# leftover worker process. Prints "N passed, N failed" last.
set -uo pipefail
BIN=${1:-build/mlxcel}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
# A TMPDIR of its own: "smokes leave no work directory" counts the smokes' directories in it, and
# other runs on the same machine (another checkout's tests) make and remove theirs in /tmp.
TMPDIR=$(mktemp -d)
export TMPDIR
out=$(mktemp) err=$(mktemp)
trap 'rm -rf "$TMPDIR"' EXIT

ok()  { pass=$((pass + 1)); echo "ok    $1"; }
bad() { fail=$((fail + 1)); echo "FAIL  $1"; sed 's/^/      | /' "$out" "$err" | tail -n 20; }

# A worker outliving its client is reparented to init: look for those (other mlxcel runs on the
# machine keep theirs as children and are not counted).
workers_left() { ps -eo ppid=,args= | awk '$1 == 1 && /mlxcel[-_]worker\.py/ {found = 1} END {exit !found}'; }

# expect_error NAME EXIT_CODE STAGE_REGEX COMMAND...: exactly one stderr line "mlxcel: <stage>: ...",
# the given exit status, and no worker process left behind.
expect_error() {
  local name=$1 code=$2 stage=$3; shift 3
  timeout 120 "$@" >"$out" 2>"$err"
  local rc=$?
  local lines; lines=$(grep -c '^mlxcel: ' "$err")
  if [ "$rc" -ne "$code" ]; then bad "$name: exit $rc, expected $code"
  elif [ "$lines" -ne 1 ] || ! grep -qE "^mlxcel: ($stage): " "$err"; then bad "$name: expected one '$stage' error line"
  elif grep -qE 'Traceback|Segmentation|core dumped' "$err"; then bad "$name: crash output"
  elif workers_left; then bad "$name: a worker process was left running"
  else ok "$name"; fi
}

expect_ok() {
  local name=$1 pattern=$2; shift 2
  timeout 600 "$@" >"$out" 2>"$err"
  local rc=$?
  if [ "$rc" -ne 0 ]; then bad "$name: exit $rc"
  elif ! grep -qE -e "$pattern" "$out"; then bad "$name: output lacks /$pattern/"
  elif workers_left; then bad "$name: a worker process was left running"
  else ok "$name"; fi
}

# --- the main job and its companions ---------------------------------------------------------
count_work_dirs() { find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'mlxcel-smoke-*' 2>/dev/null | wc -l; }
work_dirs_before=$(count_work_dirs)
expect_ok "smoke --repeat 20 passes on local-task" '^PASS$' "$BIN" smoke --device local-task --repeat 20
if grep -qE 'bridge round trip .*ping [0-9.]+ ms' "$out" && grep -qE '^  matmul +[0-9.]+ ' "$out"; then
  ok "smoke prints per-stage timings and the bridge round trip"
else bad "smoke timings missing"; fi
expect_ok "smoke on local-sync via MLXCEL_XLA_DEVICE" '^PASS$' env MLXCEL_XLA_DEVICE=local-sync "$BIN" smoke
expect_ok "devices lists local-task with its architecture" '^local-task +local-task://0 +x86_64|^local-task +local-task://0 +[a-z0-9_]+' "$BIN" devices
expect_ok "devices says why hip is unavailable" '^hip .*unavailable: .*amdhip64' "$BIN" devices
expect_ok "--help lists the commands" 'smoke' "$BIN" --help
expect_ok "smoke --help is true about --repeat" '--repeat N' "$BIN" smoke --help

pre=$(mktemp -d)
expect_ok "smoke --compile-only writes both VMFBs" 'matmul\.vmfb' "$BIN" smoke --compile-only "$pre/cpu"
expect_ok "smoke --prebuilt runs them without compiling" '^PASS$' "$BIN" smoke --prebuilt "$pre/cpu" --repeat 3
[ -f "$pre/cpu/add.vmfb" ] && [ -f "$pre/cpu/matmul.vmfb" ] && ok "prebuilt VMFBs survive the run" || bad "prebuilt VMFBs were deleted"
"$BIN" smoke --device cuda --cuda-target sm_80 --compile-only "$pre/sm_80" >"$out" 2>"$err" \
  && ok "cross-compiles the smoke for cuda sm_80 without a GPU" || bad "cuda sm_80 compile"
expect_error "a CUDA VMFB on the CPU device is refused at load" 1 module_load "$BIN" smoke --prebuilt "$pre/sm_80"
expect_error "prebuilt directory without VMFBs" 1 io "$BIN" smoke --prebuilt "$pre/none"
rm -rf "$pre"
[ "$(count_work_dirs)" -eq "$work_dirs_before" ] && ok "successful smokes leave no work directory" || bad "smoke work directories left behind"

# --- bad input ------------------------------------------------------------------------------
expect_error "unknown device" 2 usage "$BIN" smoke --device nope
expect_error "malformed device URI" 2 usage "$BIN" smoke --device 'cuda://x'
expect_error "metal on Linux: driver missing from the runtime" 1 driver "$BIN" smoke --device metal
expect_error "device index out of range" 1 device "$BIN" smoke --device local-task://3
expect_error "hip without a ROCm target" 2 usage env -u MLXCEL_XLA_ROCM_TARGET "$BIN" smoke --device hip
grep -q 'rocminfo' "$err" && ok "hip target error says how to find the target" || bad "hip target remedy"
expect_error "hip with two targets" 2 usage "$BIN" smoke --device hip --rocm-target gfx942,gfx90a
expect_error "vulkan without a Vulkan target" 2 usage env -u MLXCEL_XLA_VULKAN_TARGET "$BIN" smoke --device vulkan
expect_error "vulkan: bf16 is refused before compiling" 2 usage "$BIN" compile --config "${MLXCEL_SHARED_DIR:-$ROOT/../shared}/data/llama-3.2-1b/config.json" --device vulkan --vulkan-target rdna3 --precision bf16 --layers 1
expect_error "hip with a valid target but no HIP runtime" 1 driver "$BIN" smoke --device hip --rocm-target gfx942
expect_error "cuda with a target but no CUDA driver" 1 driver "$BIN" smoke --device cuda --cuda-target sm_80
expect_error "cuda sm_90, which the pinned compiler cannot target" 2 usage "$BIN" smoke --device cuda --cuda-target sm_90
expect_error "--repeat 0" 2 usage "$BIN" smoke --repeat 0
expect_error "--repeat not a number" 2 usage "$BIN" smoke --repeat 3x
expect_error "--device without a value" 2 usage "$BIN" smoke --device
expect_error "unknown option" 2 usage "$BIN" smoke --frobnicate
expect_error "unknown command" 2 usage "$BIN" frobnicate
expect_error "MLXCEL_BACKEND other than xla" 2 usage env MLXCEL_BACKEND=mlx "$BIN" smoke
expect_error "toolchain not set up" 1 toolchain \
  env -u MLXCEL_XLA_IREE_COMPILE -u MLXCEL_XLA_WORKER_PYTHON XDG_CACHE_HOME=/nonexistent "$BIN" smoke
grep -q 'make iree' "$err" && ok "toolchain error names the setup command" || bad "toolchain remedy"
expect_error "worker interpreter override that does not exist" 1 toolchain \
  env MLXCEL_XLA_WORKER_PYTHON=/nonexistent/python "$BIN" devices
expect_error "bad worker timeout value" 2 usage env MLXCEL_XLA_WORKER_TIMEOUT_MS=soon "$BIN" devices
tmpd=$(mktemp -d)
printf 'import sys\nsys.exit(0)\n' > "$tmpd/quits.py"
expect_error "worker that quits at start" 1 spawn env MLXCEL_XLA_WORKER_SCRIPT="$tmpd/quits.py" "$BIN" devices
printf 'import time\ntime.sleep(30)\n' > "$tmpd/hangs.py"
expect_error "worker that never answers (timeout)" 1 spawn \
  env MLXCEL_XLA_WORKER_SCRIPT="$tmpd/hangs.py" MLXCEL_XLA_WORKER_TIMEOUT_MS=1000 "$BIN" devices
rm -rf "$tmpd"

# --- options and their help (one table per command, src/cli/options.h) ---------------------
# help_lists COMMAND FLAG...: COMMAND --help exits 0 with its usage line and lists every FLAG (and -h).
help_lists() {
  local cmd=$1 missing=""; shift
  "$BIN" "$cmd" --help >"$out" 2>"$err"
  local rc=$?
  for f in "$@" -h --help; do grep -qE -- "^  (-[a-z], )?$f( |,|\$)" "$out" || missing="$missing $f"; done
  if [ "$rc" -ne 0 ]; then bad "$cmd --help: exit $rc"
  elif ! head -1 "$out" | grep -q "^usage: mlxcel $cmd"; then bad "$cmd --help: no usage line"
  elif [ -n "$missing" ]; then bad "$cmd --help lacks$missing"
  else ok "$cmd --help lists its options"; fi
}
SESSION_FLAGS="--device --cuda-target --rocm-target --vulkan-target --precision --context --quant --quant-bits --quant-group"
help_lists generate -m --model -p --prompt -n --max-tokens --chat --no-chat --system --temperature --top-k --top-p \
  --min-p --repeat-penalty --presence-penalty --frequency-penalty --logit-bias --seed --stop --ignore-eos --stats \
  $SESSION_FLAGS --vmfb
help_lists check -m --model --fixture --steps $SESSION_FLAGS --vmfb
help_lists serve -m --model --model-name --host --port --api-key --devices --queue --max-body --timeout \
  --max-connections --shutdown-timeout --quiet $SESSION_FLAGS --slots --vmfb
help_lists batch-bench -m --model --slots --requests $SESSION_FLAGS
help_lists compile --config $SESSION_FLAGS --slots --weights-dtype --layers -o --output
help_lists smoke --device --cuda-target --rocm-target --vulkan-target --repeat --keep --compile-only --prebuilt
help_lists devices
help_lists qualify --device --cuda-target --rocm-target -m --model --quick --full --soak-minutes --fixture --prebuilt \
  --prepare -o --output --note --force
help_lists info -m --model
help_lists synth --config --family --tokenizer -o --output --seed --dtype --q4-grid
help_lists tokenize -m --model -p --prompt --jsonl --no-bos
help_lists template -m --model --messages --no-generation-prompt
"$BIN-server" --help >"$out" 2>&1 && head -1 "$out" | grep -q '^usage: mlxcel-server ' \
  && ok "mlxcel-server --help names itself" || bad "mlxcel-server --help"
# Every option a help lists is one the parser takes: FLAG [VALUE] --help reads FLAG, then stops at
# --help (an unknown flag would fail first).
untrue=""
for cmd in generate check serve batch-bench compile smoke devices qualify info synth tokenize template; do
  "$BIN" "$cmd" --help 2>/dev/null | grep -E '^  -' | sed -E 's/^  //; s/  .*//' > "$out"
  while read -r left; do
    meta=$(sed -E 's/^(-[a-z], )?--?[a-z0-9-]+ ?//' <<<"$left")
    for f in $(grep -oE -- '(^|, )--?[a-z][a-z0-9-]*' <<<"$left" | sed 's/^, //'); do
      if [ -n "$meta" ]; then "$BIN" "$cmd" "$f" x --help >/dev/null 2>&1 || untrue="$untrue $cmd:$f"
      else "$BIN" "$cmd" "$f" --help >/dev/null 2>&1 || untrue="$untrue $cmd:$f"; fi
    done
  done < "$out"
done
[ -z "$untrue" ] && ok "every option in every --help is accepted" || { echo "" > "$out"; : > "$err"; bad "options listed but refused:$untrue"; }
# help_shows COMMAND TEXT: the help (its lines joined) says TEXT.
help_shows() {
  "$BIN" "$1" --help 2>/dev/null | tr '\n' ' ' | tr -s ' ' > "$out"
  grep -qF -- "$2" "$out" && ok "$1 --help shows '$2'" || bad "$1 --help lacks '$2'"
}
help_shows generate "--context N KV positions"
help_shows generate "[0 or 16..1048576; env MLXCEL_XLA_CONTEXT_CAPACITY; default 0]"
help_shows generate "env MLXCEL_XLA_DEVICE; default local-task]"
help_shows check "env MLXCEL_XLA_CONTEXT_CAPACITY; default 128 here:"
help_shows batch-bench "env MLXCEL_XLA_CONTEXT_CAPACITY; default 256 here:"
help_shows serve "default 4 here:"
help_shows serve "env MLXCEL_API_KEY"
# One --context, one bound: the same refusal from every command that takes it (0 is the default:
# the model's maximum, at most 8192).
ctx_msgs=""
for args in "generate -m m -p hi" "check -m m --fixture f" "serve -m m" "batch-bench -m m" "compile --config c"; do
  expect_error "${args%% *} --context 8" 2 usage "$BIN" $args --context 8
  ctx_msgs="$ctx_msgs$(sed 's/; remedy: .*//' "$err")"$'\n'
done
[ "$(sort -u <<<"${ctx_msgs%$'\n'}" | wc -l)" -eq 1 ] && grep -q '0 or a whole number from 16 to' <<<"$ctx_msgs" \
  && ok "--context 8 is refused with one message everywhere" || { echo "$ctx_msgs" > "$out"; bad "--context messages differ"; }
expect_error "--context 15 (below the session's 16)" 2 usage "$BIN" generate -m m -p hi --context=15
expect_error "--kv-precision with an unknown type" 2 usage "$BIN" generate -m m -p hi --kv-precision f8
expect_error "a bad MLXCEL_XLA_CONTEXT_CAPACITY" 2 usage env MLXCEL_XLA_CONTEXT_CAPACITY=lots "$BIN" check -m m --fixture f
grep -q 'MLXCEL_XLA_CONTEXT_CAPACITY must be' "$err" && ok "the error names the variable, not the flag" || bad "env error names"
# Unknown options and missing values, everywhere.
for cmd in generate check serve batch-bench compile smoke devices qualify info synth tokenize template; do
  expect_error "$cmd: unknown option" 2 usage "$BIN" "$cmd" --frobnicate
done
grep -q "unknown option '--frobnicate'; remedy: run \`mlxcel template --help\`" "$err" && ok "the unknown option names the help" || bad "unknown option remedy"
for args in "generate -m m -p" "check -m" "serve --port" "batch-bench --requests" "compile --config" "info -m" \
            "synth --config" "tokenize --jsonl" "template --messages"; do
  expect_error "${args} (missing value)" 2 usage "$BIN" $args
  grep -q 'needs a value' "$err" || bad "${args}: says what is missing"
done
expect_error "--name=value form is read as the value" 2 usage "$BIN" serve -m m --port=70000
grep -q "^mlxcel: usage: --port must be a whole number from 0 to 65535, not '70000'" "$err" && ok "--port=70000 names the value" || bad "--port= form"
expect_error "a switch refuses a value" 2 usage "$BIN" generate -m m -p hi --stats=yes
expect_error "--device and --devices together" 2 usage "$BIN" serve -m m --device local-task --devices local-task
expect_error "--stop beyond its maximum" 2 usage "$BIN" generate -m m -p hi --stop a --stop b --stop c --stop d \
  --stop e --stop f --stop g --stop h --stop i

# --- models and tokenizers --------------------------------------------------------------------
SHARED=${MLXCEL_SHARED_DIR:-$ROOT/../shared}
SMOL=$("$ROOT/scripts/fetch-model.sh" 2>/dev/null)
tmpm=$(mktemp -d)
expect_ok "info describes the SmolLM2 GGUF" 'llama: 30 layers, dim 576, 9/3 heads x 64' "$BIN" info -m "$SMOL"
expect_ok "tokenize a prompt with the GGUF tokenizer" '^19556 905' "$BIN" tokenize -m "$SMOL" -p "Hello world"
expect_ok "tokenize with --name=value flags" '^19556 905' "$BIN" tokenize --model="$SMOL" --prompt="Hello world"
expect_ok "tokenize with the Llama 3 tokenizer adds BOS" '^128000 9906 1917$' "$BIN" tokenize -m "$SHARED/data/llama3-tokenizer" -p "Hello world"
expect_error "tokenize refuses invalid UTF-8" 2 usage "$BIN" tokenize -m "$SMOL" -p "$(printf 'abc\xff')"
grep -q 'at byte 3' "$err" && ok "the UTF-8 error names the byte offset" || bad "UTF-8 error offset"
expect_error "model path that does not exist" 1 io "$BIN" info -m /nonexistent/model.gguf
head -c 100000 "$SMOL" > "$tmpm/truncated.gguf"
expect_error "truncated GGUF" 1 io "$BIN" info -m "$tmpm/truncated.gguf"
grep -q 'truncated.gguf' "$err" && ok "the GGUF error names the file" || bad "GGUF error file name"
printf 'not a model' > "$tmpm/garbage.gguf"
expect_error "a file that is not GGUF" 1 io "$BIN" info -m "$tmpm/garbage.gguf"
mkdir -p "$tmpm/empty"
expect_error "directory without config.json" 1 io "$BIN" info -m "$tmpm/empty"
expect_error "directory without tokenizer.json" 1 io "$BIN" tokenize -m "$tmpm/empty" -p hi
expect_error "synth without --config" 2 usage "$BIN" synth -o "$tmpm/x"
expect_error "synth with neither --config nor --family" 2 usage "$BIN" synth --tokenizer "$SHARED/data/llama3-tokenizer" -o "$tmpm/x"
grep -q 'exactly one of --config and --family' "$err" && ok "synth names the two sources" || bad "synth source error"
expect_error "synth with both --config and --family" 2 usage "$BIN" synth --family qwen2 \
  --config "$SHARED/data/llama-3.2-1b/config.json" --tokenizer "$SHARED/data/llama3-tokenizer" -o "$tmpm/x"
expect_error "synth with an unknown family" 2 usage "$BIN" synth --family phi2 --tokenizer "$SHARED/data/llama3-tokenizer" -o "$tmpm/x"
[ ! -e "$tmpm/x" ] && ok "a refused synth leaves nothing behind" || bad "a refused synth wrote $tmpm/x"
expect_error "synth with a bad dtype" 2 usage "$BIN" synth --config "$SHARED/data/llama-3.2-1b/config.json" \
  --tokenizer "$SHARED/data/llama3-tokenizer" -o "$tmpm/x" --dtype f8
expect_error "synth with a missing tokenizer" 2 usage "$BIN" synth --config "$SHARED/data/llama-3.2-1b/config.json" -o "$tmpm/x"
printf '[{"role":"user","content":"hi"}]' > "$tmpm/m.json"
expect_ok "template renders ChatML with the default system turn" 'named SmolLM' "$BIN" template -m "$SMOL" --messages "$tmpm/m.json"
expect_error "template with neither --messages nor --context" 2 usage "$BIN" template -m "$SMOL"
printf '{%% for m in messages %%}{{ m.content | frobnicate }}{%% endfor %%}' > "$tmpm/bad.jinja"
expect_error "a chat template with an unknown filter" 2 usage "$BIN" template -m "$SMOL" --chat-template "$tmpm/bad.jinja" --messages "$tmpm/m.json"
grep -q "line 1: the filter 'frobnicate' is not supported" "$err" && ok "the refusal names the filter and its line" || bad "template refusal text"
expect_error "generate with a missing --chat-template file" 1 io "$BIN" generate -m "$SMOL" --chat-template "$tmpm/none.jinja" -p hi
printf '{%% if true %%}never closed' > "$tmpm/open.jinja"
expect_error "generate with an unclosed {% if %}" 2 usage "$BIN" generate -m "$SMOL" --chat-template "$tmpm/open.jinja" -p hi
grep -q 'compiling' "$err" && bad "the bad template reached the compiler" || ok "a bad template is refused before compiling"
printf '{{ bos_token }}{%% for m in messages %%}[{{ m.role }}]{{ m.content }}{%% endfor %%}' > "$tmpm/mine.jinja"
expect_ok "template renders a --chat-template file" '\[user\]hi' "$BIN" template -m "$SMOL" --chat-template "$tmpm/mine.jinja" --messages "$tmpm/m.json"
printf '{"role":"user"}' > "$tmpm/bad.json"
expect_error "template with a messages file that is not an array" 2 usage "$BIN" template -m "$SMOL" --messages "$tmpm/bad.json"
# generate: everything that cannot work is refused before any compile
long=$(python3 -c 'print("word " * 400)')
expect_error "prompt longer than the context capacity" 2 usage "$BIN" generate -m "$SMOL" -p "$long" --context 64
grep -q 'compiling' "$err" && bad "the long prompt reached the compiler" || ok "the long prompt is refused before compiling"
expect_error "-n beyond the context capacity" 2 usage "$BIN" generate -m "$SMOL" -p hi -n 600 --context 512
expect_error "an f16 KV cache with the exact f32 mode" 2 usage "$BIN" generate -m "$SMOL" -p hi --kv-precision f16
grep -q 'needs --precision f16 or bf16' "$err" && ok "the refusal names the precisions it needs" || bad "kv refusal text"
# packed quantization's options: refused before compiling, in one line
expect_error "unknown --quant" 2 usage "$BIN" generate -m "$SMOL" -p hi --quant int3
expect_error "unknown MLXCEL_XLA_QUANT" 2 usage env MLXCEL_XLA_QUANT=gptq "$BIN" generate -m "$SMOL" -p hi
expect_error "a quantization group that is not 32, 64 or 128" 2 usage "$BIN" generate -m "$SMOL" -p hi --quant packed --quant-group 48
expect_error "--weights-dtype other than the precision with --quant packed" 2 usage "$BIN" compile \
  --config "$SHARED/data/llama-3.2-1b/config.json" --layers 1 --quant packed --precision f32 --weights-dtype bf16
expect_error "a 4-bit grid in bf16" 2 usage "$BIN" synth --config "$SHARED/data/llama-3.2-1b/config.json" \
  --tokenizer "$SHARED/data/llama3-tokenizer" -o "$tmpm/grid" --q4-grid 32
expect_error "unknown precision (flag)" 2 usage "$BIN" generate -m "$SMOL" -p hi --precision f8
expect_error "unknown precision (environment)" 2 usage env MLXCEL_XLA_PRECISION=int4 "$BIN" generate -m "$SMOL" -p hi
expect_error "context capacity out of range" 2 usage "$BIN" generate -m "$SMOL" -p hi --context 999999
expect_error "unsupported model file" 1 io "$BIN" generate -m "$tmpm/garbage.gguf" -p hi
expect_error "bad sampling value" 2 usage "$BIN" generate -m "$SMOL" -p hi --temperature -1
expect_error "--system without the chat template" 2 usage "$BIN" generate -m "$SMOL" -p hi --no-chat --system "be brief"
expect_error "generate without a prompt" 2 usage "$BIN" generate -m "$SMOL"
rm -rf "$tmpm"

# --- ROCm/HIP diagnostics (no AMD GPU here: every path up to execution) -------------------------
FAKEHIP=$(cd "$(dirname "$BIN")" && pwd)/fake-hip
expect_error "hip: no libamdhip64 on the host" 1 driver env IREE_HIP_DYLIB_PATH=/nonexistent "$BIN" smoke --device hip --rocm-target gfx942
grep -q 'no HIP runtime on this host' "$err" && grep -q 'IREE_HIP_DYLIB_PATH' "$err" && ok "the missing-runtime error says how to point IREE at ROCm" || bad "missing HIP runtime message"
if [ -e /usr/lib/x86_64-linux-gnu/libamdhip64.so ]; then
  expect_error "hip: Debian's libamdhip64 (5.2) is present but too old" 1 driver "$BIN" smoke --device hip --rocm-target gfx942
  grep -q 'too old for IREE' "$err" && ok "the old runtime is named as too old, with the symbol" || bad "old HIP runtime message"
else
  bad "libamdhip64-dev is not installed (scripts/install-deps.sh installs it)"
fi
kfdd=$(mktemp -d)
touch "$kfdd/kfd"; mkdir -p "$kfdd/dri"; touch "$kfdd/dri/renderD128"
expect_error "hip: runtime present, no GPU" 1 device env IREE_HIP_DYLIB_PATH="$FAKEHIP" MLXCEL_KFD_PROBE="$kfdd/kfd" \
  MLXCEL_DRI_PROBE="$kfdd/dri" HIP_VISIBLE_DEVICES=3 "$BIN" smoke --device hip --rocm-target gfx942
grep -q 'reports no GPU (HIP_VISIBLE_DEVICES=3)' "$err" && ok "no-GPU error records HIP_VISIBLE_DEVICES" || bad "no-GPU message"
expect_error "hip: /dev/kfd missing" 1 device env IREE_HIP_DYLIB_PATH="$FAKEHIP" MLXCEL_KFD_PROBE="$kfdd/nokfd" \
  MLXCEL_DRI_PROBE="$kfdd/dri" "$BIN" smoke --device hip --rocm-target gfx942
grep -q -- '--device=/dev/kfd --device=/dev/dri' "$err" && ok "the kfd error names the container flags" || bad "kfd message"
rm "$kfdd/dri/renderD128"
expect_error "hip: no /dev/dri render node" 1 device env IREE_HIP_DYLIB_PATH="$FAKEHIP" MLXCEL_KFD_PROBE="$kfdd/kfd" \
  MLXCEL_DRI_PROBE="$kfdd/dri" "$BIN" smoke --device hip --rocm-target gfx942
expect_ok "devices explains why hip has no devices" 'hip .*no devices: .*kfd' env IREE_HIP_DYLIB_PATH="$FAKEHIP" "$BIN" devices
rm -rf "$kfdd"
expect_error "hip: target that is not a ROCm target" 2 usage "$BIN" generate -m "$SMOL" -p hi --device hip --rocm-target gfx9999
expect_error "hip: two targets in one value" 2 usage env MLXCEL_XLA_ROCM_TARGET="gfx942 gfx90a" "$BIN" generate -m "$SMOL" -p hi --device hip
expect_error "hip: no target given" 2 usage env -u MLXCEL_XLA_ROCM_TARGET "$BIN" generate -m "$SMOL" -p hi --device hip://1
grep -q 'rocminfo' "$err" && grep -q 'amdgpu-arch' "$err" && ok "the missing-target error lists how to find it" || bad "missing target remedy"
expect_error "precision the target cannot compile (guard table)" 2 usage "$BIN" generate -m "$SMOL" -p hi --device metal --precision bf16
expect_ok "make iree picks rocm when only AMD KFD is present" 'flavour rocm' env MLXCEL_KFD_PROBE=/dev/null MLXCEL_NVIDIA_PROBE=/nonexistent \
  sh -c "$ROOT/scripts/iree/select.sh --info 2>&1"
expect_ok "setup-rocm.sh --env passes an explicit target on" "MLXCEL_XLA_ROCM_TARGET='gfx942'" env MLXCEL_XLA_ROCM_TARGET=gfx942 "$ROOT/scripts/iree/setup-rocm.sh" --env
"$ROOT/scripts/iree/setup-rocm.sh" --env > "$out" 2>&1
grep -q MLXCEL_XLA_ROCM_TARGET "$out" && bad "setup-rocm.sh --env invented a target" || ok "setup-rocm.sh --env exports no target when none was given"
grep -q "IREE_ROCM_HOME=" "$out" && grep -q "IREE_ROCM_COMPILE=" "$out" && grep -q "MLXCEL_XLA_IREE_COMPILE=" "$out" && ok "setup-rocm.sh --env exports the ROCm paths" || bad "setup-rocm --env"

# --- the pinned toolchain -------------------------------------------------------------------
"$ROOT/scripts/iree/setup-cpu.sh" >"$out" 2>"$err"
grep -q 'nothing to do' "$err" && ok "setup-cpu.sh is idempotent" || bad "setup-cpu.sh second run"
"$ROOT/scripts/iree/setup-cpu.sh" --info >"$out" 2>"$err"
if grep -qE '^compiler targets: .*\bcuda\b' "$out" && grep -qE '^compiler targets: .*\bllvm-cpu\b' "$out" \
   && grep -qE '^compiler targets: .*\brocm\b' "$out" && grep -qE '^runtime drivers: .*\bhip\b' "$out" \
   && grep -qE '^runtime drivers: .*\blocal-task\b' "$out" && grep -qE '^runtime drivers: .*\bcuda\b' "$out"; then
  ok "--info shows llvm-cpu/cuda/rocm targets and local-task/cuda/hip drivers"
else bad "--info targets and drivers"; fi
cv=$(sed -n 's/^compiler version: *\([0-9.]*\)rc.*/\1/p; s/^compiler version: *\([0-9.]*\) .*/\1/p' "$out" | head -1)
rv=$(sed -n 's/^runtime version: *//p' "$out")
[ -n "$cv" ] && [ "$cv" = "$rv" ] && ok "compiler ($cv) and runtime ($rv) are one release" || bad "compiler '$cv' vs runtime '$rv'"
( eval "$("$ROOT/scripts/iree/setup-cpu.sh" --env)" && [ -x "$MLXCEL_XLA_IREE_COMPILE" ] && [ -x "$MLXCEL_XLA_WORKER_PYTHON" ] \
  && [ -d "$IREE_CPU_HOME" ] ) && ok "--env exports usable paths" || bad "--env exports"
expect_error_script() {
  local name=$1; shift
  "$@" >"$out" 2>"$err"; local rc=$?
  if [ $rc -ne 0 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q '^mlxcel setup: ' "$err"; then ok "$name"; else bad "$name"; fi
}
expect_error_script "setup --info before setup names the command" env XDG_CACHE_HOME=/nonexistent "$ROOT/scripts/iree/setup-cpu.sh" --info
expect_error_script "setup rejects an unknown option" "$ROOT/scripts/iree/setup-cpu.sh" --frobnicate
MLXCEL_IREE_FLAVOUR=cpu "$ROOT/scripts/iree/select.sh" --info >"$out" 2>"$err"
grep -q 'flavour cpu (MLXCEL_IREE_FLAVOUR=cpu)' "$err" && ok "make iree says which flavour and why" || bad "select.sh"

# compile -m: the graph for a model as the session builds it (its configuration and weight storage
# type), so the module fits --vmfb; without --config or -m there is nothing to compile.
expect_error "compile without --config or -m is refused" 2 usage "$BIN" compile
if [ -n "${MLXCEL_TEST_MODEL:-}" ]; then
  expect_ok "compile -m stores a GGUF's weights in the precision, as the session prepares them" \
    'f16 graph \(context 128, f16 weights\)' "$BIN" compile -m "$MLXCEL_TEST_MODEL" --precision f16 --layers 2 --context 128
  # The module carries what it was built for: the same options load it, other options are refused at
  # load with both named (a context of 128 against the module's 64, same weights).
  vm="$TMPDIR/m64.vmfb"
  expect_ok "a module from compile -m runs under --vmfb with the same options" 'mlxcel stats:' \
    sh -c "'$BIN' compile -m '$MLXCEL_TEST_MODEL' --context 64 -o '$vm' >/dev/null 2>&1 && '$BIN' generate -m '$MLXCEL_TEST_MODEL' -p Hi -n 4 --context 64 --vmfb '$vm' --stats 2>&1"
  expect_error "a module built for other options is refused at load" 1 module_load \
    "$BIN" generate -m "$MLXCEL_TEST_MODEL" -p Hi -n 4 --context 128 --vmfb "$vm"
  # batch-bench on prebuilt modules (the GPU machine compiles nothing): one per configuration.
  vd="$TMPDIR/vmfbs"; mkdir -p "$vd"
  expect_error "batch-bench --vmfb-dir without the module for a configuration names the file to build" 2 usage \
    "$BIN" batch-bench -m "$MLXCEL_TEST_MODEL" --slots 2 --requests 4 --vmfb-dir "$vd"
  expect_ok "batch-bench runs the modules of --vmfb-dir, every stream exact" '^1 passed, 0 failed' \
    sh -c "'$BIN' compile -m '$MLXCEL_TEST_MODEL' --context 128 -o '$vd/s1.vmfb' >/dev/null 2>&1 &&
           '$BIN' compile -m '$MLXCEL_TEST_MODEL' --context 128 --slots 2 -o '$vd/s2.vmfb' >/dev/null 2>&1 &&
           '$BIN' batch-bench -m '$MLXCEL_TEST_MODEL' --slots 2 --requests 4 --context 128 --vmfb-dir '$vd' 2>&1"
fi

# --- the caches: checked before they are trusted, no litter, interruptible --------------------------
# A cache of its own (XDG_CACHE_HOME in TMPDIR; the pinned toolchain stays where it is). The tiny model
# (one layer, dim 64, one tensor widened to f32 so that its weights are prepared into the cache)
# compiles in ~3 s; SmolLM2's graph takes ~40 s, long enough to interrupt.
cx="$TMPDIR/caches"
mkdir -p "$cx"
read -r cx_compile cx_python < <(eval "$("$ROOT/scripts/iree/setup-cpu.sh" --env 2>/dev/null)"; echo "$MLXCEL_XLA_IREE_COMPILE $MLXCEL_XLA_WORKER_PYTHON")
CX=(env XDG_CACHE_HOME="$cx/xdg" MLXCEL_XLA_IREE_COMPILE="$cx_compile" MLXCEL_XLA_WORKER_PYTHON="$cx_python")
cx_w="$cx/xdg/mlxcel/weights" cx_vm="$cx/xdg/mlxcel/iree-$("$BIN" --version | sed -n 's/.*IREE pin \([^)]*\)).*/\1/p')/vmfb"
python3 - "$SHARED/data/llama-3.2-1b/config.json" "$cx/tiny.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.update(hidden_size=64, intermediate_size=128, num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1, head_dim=32)
c.pop("rope_scaling", None)
json.dump(c, open(sys.argv[2], "w"))
PY
"$BIN" synth --config "$cx/tiny.json" --tokenizer "$SHARED/data/llama3-tokenizer" -o "$cx/tiny" >/dev/null 2>&1
python3 - "$cx/tiny/model.safetensors" <<'PY'
import json, struct, sys  # model.norm.weight bf16 -> f32: mixed types, so the weights get prepared
raw = open(sys.argv[1], "rb").read()
n = struct.unpack("<Q", raw[:8])[0]
head, body, out, parts, off = json.loads(raw[8:8 + n]), raw[8 + n:], {}, [], 0
for name, t in head.items():
    if name == "__metadata__": out[name] = t; continue
    b = body[t["data_offsets"][0]:t["data_offsets"][1]]
    if name == "model.norm.weight": b, t = b"".join(b"\0\0" + b[i:i + 2] for i in range(0, len(b), 2)), dict(t, dtype="F32")
    out[name] = dict(t, data_offsets=[off, off + len(b)]); parts.append(b); off += len(b)
h = json.dumps(out).encode(); h += b" " * (-len(h) % 8)
open(sys.argv[1], "wb").write(struct.pack("<Q", len(h)) + h + b"".join(parts))
PY
damage() { # damage HOW FILE: zero (the tensors after the safetensors header), flip (one byte), truncate
  python3 - "$@" <<'PY'
import os, struct, sys
how, p = sys.argv[1], sys.argv[2]
size = os.path.getsize(p)
with open(p, "r+b") as f:
    if how == "zero":
        n = 8 + struct.unpack("<Q", f.read(8))[0]; f.truncate(n); f.truncate(size)
    elif how == "flip":
        f.seek(size // 2); b = f.read(1); f.seek(size // 2); f.write(bytes([b[0] ^ 0x10]))
    else:
        f.truncate(size // 3)
PY
}
tiny=("${CX[@]}" "$BIN" generate -m "$cx/tiny" -p "The sky is" -n 8 --no-chat --context 32)
# Litter of writers that were killed (their pid is gone), and a file of one still running (this shell).
mkdir -p "$cx_w" "$cx_vm"
sh -c 'exit 0' & dead=$!
wait "$dead"
touch "$cx_vm/0123.vmfb.tmp$dead" "$cx_vm/0123.vmfb.tmp$dead.mlir" "$cx_vm/0123.vmfb.tmp$dead.log" \
  "$cx_w/0123-f32.safetensors.tmp$dead" "$cx_w/4567-f32.safetensors.tmp$$"
expect_ok "the tiny model answers from a cold cache" '.' "${tiny[@]}"
cp "$out" "$cx/clean.txt"
if [ -n "$(find "$cx_w" "$cx_vm" -maxdepth 1 -name "*.tmp$dead*")" ] || [ ! -e "$cx_w/4567-f32.safetensors.tmp$$" ] \
   || [ "$(grep -c 'which is gone' "$err")" -ne 4 ]; then bad "stale temporary files of dead writers are swept from both caches"
else ok "stale temporary files of dead writers are swept from both caches (a live writer's kept)"; fi
rm -f "$cx_w/4567-f32.safetensors.tmp$$"
cx_weights=$(ls "$cx_w"/*.safetensors) cx_module=$(ls "$cx_vm"/*.vmfb)
[ -s "$cx_weights.sum" ] && [ -s "$cx_module.sum" ] && ok "both caches write a checksum beside their file" || bad "no checksum sidecars"
# rebuilt NAME HOW FILE WHAT: after damaging FILE, the next start logs that FILE failed verification,
# rebuilds it (WHAT: the log line of the rebuild) and answers as the clean run did.
rebuilt() {
  local name=$1 how=$2 file=$3 what=$4
  damage "$how" "$file"
  timeout 300 "${tiny[@]}" >"$out" 2>"$err"
  local rc=$?
  if [ "$rc" -ne 0 ]; then bad "$name: exit $rc"
  elif ! grep -qF "mlxcel: cache: $file failed verification (" "$err" || ! grep -q "$what" "$err"; then bad "$name: no verification line or no rebuild"
  elif ! cmp -s "$out" "$cx/clean.txt"; then bad "$name: the answer differs from the clean run's"
  else ok "$name"; fi
}
rebuilt "zeroed prepared weights are caught, prepared again, same answer" zero "$cx_weights" '^mlxcel: preparing f32 weights'
rebuilt "prepared weights with one byte flipped are caught, prepared again, same answer" flip "$cx_weights" '^mlxcel: preparing f32 weights'
rebuilt "a truncated cached module is caught, compiled again, same answer" truncate "$cx_module" '^mlxcel: compiling '
# A full disk, as iree-compile 3.13 reports it (checked with -o /dev/full): named, with the free space,
# and a failed compile keeps only its last MLIR and log.
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "IREE (a fake that finds the disk full)"; exit 0; }\necho "error opening input file: No space left on device"\necho "LLVM ERROR: IO failure on output stream: No space left on device"\nexit 1\n' > "$cx/full-disk-compile"
chmod +x "$cx/full-disk-compile"
for i in 1 2; do
  timeout 120 "${CX[@]}" MLXCEL_XLA_IREE_COMPILE="$cx/full-disk-compile" "$BIN" generate -m "$cx/tiny" -p hi -n 2 --no-chat --context 32 >"$out" 2>"$err"
  rc=$?
  [ "$rc" -eq 1 ] && [ "$(grep -c '^mlxcel: io: ' "$err")" -eq 1 ] && ! grep -q '^mlxcel: compile: ' "$err" && ! workers_left \
    && ok "compiling on a full disk is reported as a disk problem, stage io ($i)" || bad "full disk ($i): exit $rc"
done
grep -q "No space left on device (.* bytes free in $cx_vm; log: $cx_vm/failed/last.log); remedy: .*XDG_CACHE_HOME" "$err" \
  && ok "the disk error names the directory, its free bytes and the log; the remedy moves the cache" || bad "disk error wording"
[ -z "$(find "$cx_vm" -maxdepth 1 -type f ! -name '*.vmfb' ! -name '*.vmfb.sum')" ] && [ "$(ls "$cx_vm/failed" | tr '\n' ' ')" = "last.log last.mlir " ] \
  && ok "failed compiles leave only failed/last.mlir and last.log" || { ls -R "$cx_vm" > "$out"; bad "failed compiles left litter"; }

# interrupt_during_compile NAME SIGNAL COMMAND...: COMMAND (caches in $cx/xdg, started as a terminal job
# is, with SIGINT not ignored) gets SIGNAL once it logs that it is compiling. It must exit 130 within
# 2 s with an "interrupted" line, and leave no compiler, no worker and no temporary file. `set -m`
# keeps bash from ignoring SIGINT in the background job; `env --default-signal` undoes an ignore the
# test itself inherited (a CI runner or `cmd &` started it so), which no shell can undo.
interrupt_during_compile() {
  local name=$1 sig=$2 i p; shift 2
  set -m
  env --default-signal=INT,TERM "$@" >"$out" 2>"$err" &
  local pid=$!
  set +m
  for i in $(seq 1 1200); do grep -q '^mlxcel: compiling' "$err" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  local t0; t0=$(date +%s%N)
  kill -s "$sig" "$pid" 2>/dev/null
  for i in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  wait "$pid" 2>/dev/null; local rc=$?
  sleep 0.2
  local left; left=$(pgrep -f -- "$cx/xdg" | tr '\n' ' ') # the compiler's arguments name the cache
  for p in $left; do kill -KILL "$p" 2>/dev/null; done
  local tmps; tmps=$(find "$cx/xdg" -name '*.tmp[0-9]*' | tr '\n' ' ')
  if [ "$rc" -ne 130 ]; then bad "$name: exit $rc ${ms} ms after SIG$sig, expected 130"
  elif [ "$ms" -gt 2000 ]; then bad "$name: took ${ms} ms"
  elif [ "$(grep -c "^mlxcel: interrupted: .*SIG$sig while compiling" "$err")" -ne 1 ]; then bad "$name: no 'interrupted' line"
  elif [ -n "$left" ]; then bad "$name: left running: $left"
  elif workers_left; then bad "$name: a worker process was left running"
  elif [ -n "$tmps" ]; then bad "$name: temporary files left: $tmps"
  else ok "$name (exit 130 after ${ms} ms)"; fi
}
if [ -n "${MLXCEL_TEST_MODEL:-}" ]; then
  interrupt_during_compile "generate: SIGTERM during a cold compile" TERM "${CX[@]}" "$BIN" generate -m "$MLXCEL_TEST_MODEL" -p Hi -n 2 --context 48
  interrupt_during_compile "generate: SIGINT during a cold compile" INT "${CX[@]}" "$BIN" generate -m "$MLXCEL_TEST_MODEL" -p Hi -n 2 --context 48
  interrupt_during_compile "serve: SIGINT during the start-up compile" INT "${CX[@]}" "$BIN" serve -m "$MLXCEL_TEST_MODEL" --port 0 --context 48
  interrupt_during_compile "serve: SIGTERM during the start-up compile" TERM "${CX[@]}" "$BIN" serve -m "$MLXCEL_TEST_MODEL" --port 0 --context 48
fi
rm -rf "$cx"

# --- the qualification kit: bad input, the HIP report, an interrupt -------------------------------
q="$TMPDIR/qualify"
expect_error "qualify: unknown device" 2 usage "$BIN" qualify --device nope -o "$q-a"
expect_error "qualify: hip without a ROCm target" 2 usage env -u MLXCEL_XLA_ROCM_TARGET "$BIN" qualify --device hip -o "$q-a"
expect_error "qualify: no model at the path" 2 usage "$BIN" qualify --device local-task -m /nonexistent/model -o "$q-a"
expect_error "qualify: no model given and none fetched" 2 usage env XDG_CACHE_HOME="$TMPDIR/empty" "$BIN" qualify --device local-task -o "$q-a"
expect_error "qualify: a bad --soak-minutes" 2 usage "$BIN" qualify --device local-task --soak-minutes -1 -o "$q-a"
expect_error "qualify: --prebuilt that is not a directory" 2 usage "$BIN" qualify --device local-task --prebuilt /nonexistent -o "$q-a"
mkdir -p "$q-b" && echo earlier > "$q-b/results.json"
expect_error "qualify: an earlier report is never overwritten without --force" 2 usage "$BIN" qualify --device local-task -o "$q-b"
grep -q earlier "$q-b/results.json" && ok "qualify: the earlier report is untouched" || bad "qualify overwrote a report"
if [ -n "${MLXCEL_TEST_MODEL:-}" ]; then
  # On a machine without a ROCm GPU, --device hip qualifies to "blocked" at the runtime driver, with
  # the baseline recorded: the run itself completes (exit 0).
  expect_ok "qualify --device hip here: blocked at the runtime driver" 'hip: blocked' \
    "$BIN" qualify --device hip --rocm-target gfx942 -m "$MLXCEL_TEST_MODEL" -o "$q-hip"
  if grep -q '"verdict": "blocked"' "$q-hip/results.json" && grep -q 'blocked at toolchain.runtime_driver' "$q-hip/findings.md" \
     && grep -q '"gpus"\|"amd"' "$q-hip/env.json"; then
    ok "qualify --device hip: results.json and findings.md say blocked at the runtime driver"
  else bad "qualify --device hip report"; fi
  # A model that cannot load: blocked at the engine, the failing step's command in the report.
  head -c 5000000 "$MLXCEL_TEST_MODEL" > "$TMPDIR/truncated.gguf"
  expect_ok "qualify with a truncated model: blocked at the engine" 'local-task: blocked' \
    "$BIN" qualify --device local-task -m "$TMPDIR/truncated.gguf" -o "$q-trunc"
  grep -q 'blocked at engine.generate: .*runs past the end of the file' "$q-trunc/findings.md" \
    && grep -A4 '^## Failures and their reproducers' "$q-trunc/findings.md" | grep -q '^  mlxcel generate -m ' \
    && ok "qualify: the failing stage is named, with its reproducer command" || bad "qualify truncated-model report"
  # Ctrl-C mid-run: exit 130, partial results marked incomplete, no worker left behind.
  "$BIN" qualify --device local-task -m "$MLXCEL_TEST_MODEL" -o "$q-int" >"$out" 2>"$err" &
  qpid=$!
  for _ in $(seq 1 600); do grep -q 'engine.generate' "$err" 2>/dev/null && break; sleep 0.2; done
  kill -INT "$qpid"
  wait "$qpid"; rc=$?
  sleep 0.5
  if [ "$rc" -ne 130 ]; then bad "qualify interrupted: exit $rc, expected 130"
  elif ! grep -q '"complete": false' "$q-int/results.json" || ! grep -q '"interrupted": true' "$q-int/results.json"; then bad "qualify interrupted: results.json not marked incomplete"
  elif ! grep -q '^\*\*INCOMPLETE (interrupted)' "$q-int/findings.md"; then bad "qualify interrupted: findings.md not marked"
  elif workers_left || pgrep -f -- "$q-int/" >/dev/null; then bad "qualify interrupted: a process was left running"
  else ok "qualify interrupted: exit 130, partial results marked incomplete, nothing left running"; fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
