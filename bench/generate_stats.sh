#!/usr/bin/env bash
# Prints a table of `mlxcel generate --stats` figures: one warm-up run (it also fills the compile and
# weight caches, and its cold compile time is reported separately), then RUNS measured runs; each
# figure as median (min..max).
#   bench/generate_stats.sh MODEL PRECISION [RUNS] [PROMPT_TOKENS_HINT]
set -euo pipefail
model=$1 prec=$2 runs=${3:-3}
bin=${MLXCEL:-build/mlxcel}
prompt=${PROMPT:-"The capital of France is"}
n=${NEW_TOKENS:-64}
ctx=${CONTEXT:-512}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# EXTRA: more generate options, e.g. "--device cuda --vmfb graph.vmfb" on a host without the compiler.
run() { "$bin" generate -m "$model" -p "$prompt" -n "$n" --no-chat --ignore-eos --precision "$prec" --context "$ctx" --stats \
          ${EXTRA:-} 2>&1 >/dev/null | grep '^mlxcel stats:'; }
warm=$(run)
cold_compile=$(echo "$warm" | sed -n 's/.*compile \(cache hit, \)\{0,1\}\([0-9]*\) ms.*/\2/p')
for i in $(seq "$runs"); do run >> "$log"; done
field() { sed -n "s/.*$1.*/\\1/p" "$log"; }
stat() { sort -g | awk '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%.1f (%.1f..%.1f)", m, v[1], v[NR]}'; }
echo "model: $model   precision: $prec   device: ${MLXCEL_XLA_DEVICE:-local-task} ${EXTRA:-}   prompt: \"${prompt:0:40}...\"   new tokens: $n   context: $ctx"
echo "warm-up run (cold caches): compile ${cold_compile:-?} ms; then $runs measured runs, median (min..max):"
printf '  %-22s %s\n' "load ms" "$(field 'load \([0-9]*\) ms' | stat)"
printf '  %-22s %s\n' "module+parameters ms" "$(field 'module+parameters \([0-9]*\))' | stat)"
printf '  %-22s %s\n' "prefill ms" "$(field 'tokens \([0-9.]*\) ms; decode' | stat)"
printf '  %-22s %s\n' "decode tok/s" "$(field ' \([0-9.]*\) tok\/s' | stat)"
printf '  %-22s %s\n' "peak device bytes" "$(field 'peak device bytes \([0-9]*\)' | stat)"
