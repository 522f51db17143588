#!/bin/bash
# CPU: SmolLM2 Q4_1, expanded against packed, f32 and f16, 3 runs after a warm-up, two interleaved rounds.
cd "$(dirname "$0")/../../.."
M=$HOME/.cache/mlxcel/models/SmolLM2-135M-Instruct.Q4_1.gguf
for r in 1 2; do for p in f32 f16; do for q in none packed; do
  echo "### round $r precision $p quant $q"
  MLXCEL=build-dev/mlxcel EXTRA="--quant $q" PROMPT="$(cat bench/peers/prompt.txt)" bench/generate_stats.sh $M $p 3
done; done; done
