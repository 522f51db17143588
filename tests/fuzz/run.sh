#!/usr/bin/env bash
# Runs each libFuzzer target for N seconds (FUZZ_RUNS=K: for K inputs instead, FUZZ_SEED=S: a fixed
# random seed; make test uses both so that CI is reproducible) from a seed corpus (made here: a valid tiny GGUF, a valid
# safetensors file, some text) and prints executions and findings. Exit 1 if any target found a crash.
set -uo pipefail
secs=$1; shift
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
seeds=build-fuzz/seeds
mkdir -p "$seeds"/{fuzz_safetensors,fuzz_gguf,fuzz_tokenizer,fuzz_tokenizer_json,fuzz_jinja,fuzz_baseline,fuzz_api_request}
# The chat templates the project tests with (test data, beside the checkout) seed the template engine.
shared=${MLXCEL_SHARED_DIR:-$root/../shared}
cp "$shared"/data/chat-templates/*.jinja "$seeds/fuzz_jinja/" 2>/dev/null
printf '{%%- for m in messages -%%}{{ m.role | upper }}: {{ m.content | trim }}{%% if not loop.last %%}\n{%% endif %%}{%%- endfor %%}' \
  > "$seeds/fuzz_jinja/loop"
build-fuzz/make_seeds "$seeds" || { echo "cannot write seeds" >&2; exit 1; }
printf '\x08\x00\x00\x00\x00\x00\x00\x00{"a":{}}' > "$seeds/fuzz_safetensors/min"
printf '\x00Hello world 12345 <|im_start|>user\n' > "$seeds/fuzz_tokenizer/text"
printf '\x01\x10\x00\x20\x00\xc3\x00\x41\x01' > "$seeds/fuzz_tokenizer/ids"
# Request bodies (first byte: 0 completions, 1 chat) with every field the parser knows.
printf '\x00{"model":"m","prompt":"Once upon","max_tokens":16,"temperature":0.7,"top_p":0.9,"seed":3,"stop":["a","b"],"stream":true,"stream_options":{"include_usage":true}}' \
  > "$seeds/fuzz_api_request/completion"
printf '\x01{"messages":[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"hi"}]}],"max_tokens":8,"top_k":4,"min_p":0.1,"repetition_penalty":1.1,"presence_penalty":-0.5,"frequency_penalty":1.5,"logit_bias":{"0":-100,"999":2.5},"ignore_eos":false}' \
  > "$seeds/fuzz_api_request/chat"
printf '\x00{"prompt":[1,2,3],"echo":true,"logprobs":2,"n":2}' > "$seeds/fuzz_api_request/completion-ids"
printf '\x01{"messages":[{"role":"user","content":"hi"}],"n":2,"response_format":{"type":"json_object"}}' > "$seeds/fuzz_api_request/chat-json"
printf '\x01{"messages":[{"role":"user","content":"hi"}],"n":2,"response_format":{"type":"json_schema","json_schema":{"name":"x","strict":true,"schema":{"type":"object","properties":{"a":{"type":"array","items":{"enum":["x",1,true,null]}},"b":{"type":"object","properties":{"c":{"type":"integer"}},"required":["c"],"additionalProperties":false}},"required":["a"]}}}}' \
  > "$seeds/fuzz_api_request/chat-schema"
printf '\x01{"messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"u","schema":{"anyOf":[{"type":"object","properties":{"k":{"const":"a"},"x":{"type":"integer"}}},{"type":"object","properties":{"k":{"const":"b"},"y":{"type":"object"}}}]}}}}' \
  > "$seeds/fuzz_api_request/chat-union"
# Tools: a round trip (an assistant's call, its result), a named function, and an answer's call in the body.
printf '\x01{"messages":[{"role":"user","content":"w? <tool_call>{}</tool_call>"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Oslo\\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"sunny"}],"tools":[{"type":"function","function":{"name":"get_weather","description":"d","strict":true,"parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}},{"type":"function","function":{"name":"t","parameters":{"type":"object"}}}],"tool_choice":{"type":"function","function":{"name":"t"}},"parallel_tool_calls":false}' \
  > "$seeds/fuzz_api_request/chat-tools"
printf '\x01{"messages":[{"role":"user","content":"{\\"name\\": \\"t\\", \\"arguments\\": {\\"a\\": \\"}\\\\\\"\\", \\"b\\": [1, {\\"c\\": null}]}} <tool_call>{\\"name\\":\\"t\\",\\"arguments\\":{}}</tool_call>"}],"tools":[{"type":"function","function":{"name":"t"}}],"tool_choice":"required"}' \
  > "$seeds/fuzz_api_request/chat-call-text"
printf '\x02{"content":"Hello <|im_start|> world","add_special":true,"with_pieces":true}' > "$seeds/fuzz_api_request/tokenize"
printf '\x03{"tokens":[1,2,999,0]}' > "$seeds/fuzz_api_request/detokenize"
printf '\x06{"input":["Hello",[1,2,3],"x"],"model":"m","encoding_format":"base64","dimensions":8}' > "$seeds/fuzz_api_request/embeddings"
printf '\x06{"input":[5,6,7]}' > "$seeds/fuzz_api_request/embeddings-ids"
# The baseline parsers start from the captured tool outputs, one per parser (first byte: which).
i=0
for c in nvidia-smi-query-h200 rocminfo-mi300x-documented rocm_agent_enumerator-documented iree-compile-targets \
         proc-status-devvm cpuinfo-devvm os-release-debian12 nvidia-smi-h200; do
  { printf "\\$(printf %03o $i)"; cat "tests/unit/data/qualify/captures/$c.txt"; } > "$seeds/fuzz_baseline/$c"
  i=$((i + 1))
done
failed=0
for t in "$@"; do
  corpus=build-fuzz/corpus/$t
  mkdir -p "$corpus"
  log=build-fuzz/$t.log
  # Inputs that once found a bug (tests/fuzz/regressions/<target>/) are replayed as part of the corpus.
  regress=()
  [ -d "tests/fuzz/regressions/$t" ] && regress=("tests/fuzz/regressions/$t")
  limit=(-max_total_time="$secs")
  [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
  [ -n "${FUZZ_SEED:-}" ] && limit+=(-seed="$FUZZ_SEED")
  build-fuzz/$t "${limit[@]}" -print_final_stats=1 -artifact_prefix="build-fuzz/$t-" \
    "$corpus" "$seeds/$t" "${regress[@]}" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crashes=$(ls build-fuzz/"$t"-crash-* build-fuzz/"$t"-leak-* build-fuzz/"$t"-timeout-* 2>/dev/null | wc -l)
  budget="${secs}s"
  [ -n "${FUZZ_RUNS:-}" ] && budget="${FUZZ_RUNS} inputs"
  printf '%-18s %-14s %10s executions  %s findings  (exit %s, log %s)\n' "$t" "$budget" "${execs:-?}" "$crashes" "$rc" "$log"
  [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ] && failed=1
done
exit $failed
