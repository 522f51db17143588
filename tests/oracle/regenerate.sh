#!/usr/bin/env bash
# `make oracle`: regenerates the HF transformers fp32 trajectories of tests/oracle/fixtures/ into
# build/oracle/fixtures/ and diffs the token ids (prompt and greedy) with the committed fixtures.
# Needs torch, transformers, accelerate (transformers' GGUF loading) and gguf in PYTHON (default python3): the GPU machine has them (see
# tests/oracle/fixtures/README.md for how they were made there); CI compares against the committed
# fixtures instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
py=${PYTHON:-python3}
shared=${MLXCEL_SHARED_DIR:-$root/../shared}
"$py" -c 'import torch, transformers, gguf' 2>/dev/null || {
  echo "mlxcel oracle: $py lacks torch, transformers or gguf; remedy: run make oracle where they are installed (the GPU machine), or set PYTHON" >&2
  exit 1
}
out=build/oracle/fixtures
mkdir -p "$out"
model=$(scripts/fetch-model.sh)
synth=build/oracle/llama-3.2-1b-synth
[ -f "$synth/model.safetensors" ] || build/mlxcel synth --config "$shared/data/llama-3.2-1b/config.json" \
  --tokenizer "$shared/data/llama3-tokenizer" -o "$synth" --seed 0
"$py" tests/oracle/hf_trajectory.py --dir "$(dirname "$model")" --gguf "$(basename "$model")" \
  --prompts tests/oracle/prompts.json --set smollm2 --steps 64 -o "$out/smollm2.json"
"$py" tests/oracle/hf_trajectory.py --dir "$(dirname "$model")" --gguf "$(basename "$model")" \
  --prompts tests/oracle/prompts.json --set smollm2-long --steps 32 -o "$out/smollm2-long.json"
"$py" tests/oracle/hf_trajectory.py --dir "$synth" --prompts tests/oracle/prompts.json --set llama32-1b-synth \
  --steps 64 -o "$out/llama32-1b-synth.json"
"$py" tests/oracle/hf_trajectory.py --dir "$synth" --prompts tests/oracle/prompts.json --set llama32-1b-synth-long \
  --steps 32 -o "$out/llama32-1b-synth-long.json"
grid=build/oracle/llama-3.2-1b-q4grid
[ -f "$grid/model.safetensors" ] || build/mlxcel synth --config "$shared/data/llama-3.2-1b/config.json" \
  --tokenizer "$shared/data/llama3-tokenizer" -o "$grid" --seed 0 --dtype f32 --q4-grid 32
"$py" tests/oracle/hf_trajectory.py --dir "$grid" --prompts tests/oracle/prompts.json --set llama32-1b-synth \
  --steps 64 -o "$out/llama32-1b-q4grid.json"
gemma=$(scripts/fetch-model.sh gemma3)
"$py" tests/oracle/hf_trajectory.py --dir "$(dirname "$gemma")" --gguf "$(basename "$gemma")" \
  --prompts tests/oracle/prompts.json --set gemma3 --steps 64 -o "$out/gemma3.json"
"$py" tests/oracle/hf_trajectory.py --dir "$(dirname "$gemma")" --gguf "$(basename "$gemma")" \
  --prompts tests/oracle/prompts.json --set gemma3-long --steps 32 -o "$out/gemma3-long.json"
for fam in llama qwen2 qwen3 gemma2 gemma3 phi3; do
  dir=build/oracle/$fam-synth
  [ -f "$dir/model.safetensors" ] || build/mlxcel synth --family "$fam" --tokenizer "$shared/data/llama3-tokenizer" \
    -o "$dir" --seed 0 --dtype f32
  "$py" tests/oracle/make_gguf.py --hf "$dir" --gguf "build/oracle/$fam-synth.gguf" --oracle-dir "build/oracle/$fam-synth-gguf-oracle"
  "$py" tests/oracle/hf_trajectory.py --dir "build/oracle/$fam-synth-gguf-oracle" --prompts tests/oracle/prompts.json \
    --set llama32-1b-synth --steps 64 -o "$out/$fam-synth-gguf.json"
done
for fam in qwen2 qwen3 mistral gemma2 gemma3 phi3; do
  dir=build/oracle/$fam-synth
  [ -f "$dir/model.safetensors" ] || build/mlxcel synth --family "$fam" --tokenizer "$shared/data/llama3-tokenizer" \
    -o "$dir" --seed 0 --dtype f32
  "$py" tests/oracle/hf_trajectory.py --dir "$dir" --prompts tests/oracle/prompts.json --set llama32-1b-synth \
    --steps 64 -o "$out/$fam-synth.json"
done
"$py" tests/oracle/hf_logprobs.py --dir build/oracle/gemma2-synth --steps 16 -o "$out/gemma2-synth-logprobs.json"
"$py" tests/oracle/smollm2_tokenizer.py "$model" build/oracle/smollm2-tok >&2
"$py" tests/oracle/hf_embeddings.py --dir "$(dirname "$model")" --gguf "$(basename "$model")" --tokenizer build/oracle/smollm2-tok \
  --prompts tests/oracle/prompts.json -o "$out/smollm2-embeddings.json"
"$py" - "$out" <<'PY'
import json, sys
bad = 0
for name in ("smollm2", "smollm2-long", "llama32-1b-synth", "llama32-1b-synth-long", "llama32-1b-q4grid",
             "qwen2-synth", "qwen3-synth", "mistral-synth", "gemma2-synth", "gemma3-synth", "phi3-synth", "gemma3",
             "gemma3-long", "llama-synth-gguf", "qwen2-synth-gguf", "qwen3-synth-gguf", "gemma2-synth-gguf",
             "gemma3-synth-gguf", "phi3-synth-gguf"):
    old = json.load(open(f"tests/oracle/fixtures/{name}.json"))["prompts"]
    new = json.load(open(f"{sys.argv[1]}/{name}.json"))["prompts"]
    for o, n in zip(old, new):
        same = o["prompt_ids"] == n["prompt_ids"] and o["greedy_ids"] == n["greedy_ids"]
        bad += not same
        print(f"{name}/{o['name']}: {'same' if same else 'DIFFERENT'}")
old = json.load(open("tests/oracle/fixtures/smollm2-embeddings.json"))["items"]
new = json.load(open(f"{sys.argv[1]}/smollm2-embeddings.json"))["items"]
for o, n in zip(old, new):
    diff = max(abs(a - b) for a, b in zip(o["embedding"], n["embedding"]))
    same = o["ids"] == n["ids"] and diff <= 1e-6
    bad += not same
    print(f"smollm2-embeddings/{o['name']}: {'same' if same else 'DIFFERENT'} (largest difference {diff:.1e})")
print(f"{bad} different" if bad else "all trajectories and embeddings identical")
sys.exit(1 if bad else 0)
PY
