#!/bin/bash
# usage: run.sh NAME PRECISION [ENV=VAL...]
name=$1; prec=$2; shift 2
cd /tmp/wt-bf16
M=~/.cache/mlxcel/models/SmolLM2-135M-Instruct.Q4_1.gguf
s=$(date +%s.%N)
env MLXCEL_EXP_DEBUG=1 "$@" nice -n 10 build/mlxcel check -m $M --fixture tests/oracle/fixtures/smollm2.json --precision $prec > /tmp/bf16-runs/$name.out 2> /tmp/bf16-runs/$name.err
rc=$?
e=$(date +%s.%N)
echo "rc=$rc wall=$(echo "$e - $s" | bc) s" >> /tmp/bf16-runs/$name.out
