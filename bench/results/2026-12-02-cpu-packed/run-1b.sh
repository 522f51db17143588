#!/bin/bash
# CPU: the synthetic Llama-3.2-1B on the 4-bit grid (f32, mlxcel synth --dtype f32 --q4-grid 32 --seed 0),
# expanded f32 against packed f32 (the same weights: the host quantizer recovers them exactly), 3 runs
# after a warm-up, two interleaved rounds. MODEL: the grid checkpoint's directory.
cd "$(dirname "$0")/../../.."
M=${MODEL:?set MODEL to the grid checkpoint}
for r in 1 2; do for q in none packed; do
  echo "### round $r precision f32 quant $q"
  MLXCEL=${MLXCEL:-build/mlxcel} EXTRA="--quant $q" NEW_TOKENS=32 PROMPT="$(cat bench/peers/prompt.txt)" bench/generate_stats.sh $M f32 3
done; done
