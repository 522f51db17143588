#!/bin/bash
# Device call 2: the integer-reduction reproducer, the fixed graph (f32 argmax), generate, serve, 1B.
cd "$(git rev-parse --show-toplevel)"
python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site || exit 1
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1
D=.gpu/dbg; O=$OUT; M=build-bundle/mlxcel
$M synth --config $D/small.json --tokenizer .shared/data/llama3-tokenizer -o /tmp/m --seed 0 --dtype bf16 > $O/env.log 2>&1
sha256sum /tmp/m/model.safetensors >> $O/env.log
H="timeout 60 python3 $D/h.py"
$H red cuda $D/red/red-cuda.vmfb >> $O/harness.jsonl 2>>$O/stderr.log || echo '{"exp":"red","rc":'$?'}' >> $O/harness.jsonl
for e in model1 model1_L model1_decodeonly; do $H $e cuda $D/f1-cuda.vmfb /tmp/m/model.safetensors >> $O/harness.jsonl 2>>$O/stderr.log || echo '{"exp":"'$e'","rc":'$?'}' >> $O/harness.jsonl; done
for e in model4 model4_1 model4_L; do $H $e cuda $D/f4-cuda.vmfb /tmp/m/model.safetensors >> $O/harness.jsonl 2>>$O/stderr.log || echo '{"exp":"'$e'","rc":'$?'}' >> $O/harness.jsonl; done
$H model1 cuda $D/f1-cuda.vmfb /tmp/m/model.safetensors --flags "--cuda_async_allocations=false" >> $O/harness.jsonl 2>>$O/stderr.log
G="timeout 120 $M generate -m /tmp/m --no-chat --ignore-eos --context 128 --device cuda --cuda-target sm_89 --vmfb $D/f1-cuda.vmfb"
{ for p in "The capital of France is" "Once upon a time" "def fib(n):"; do echo "== $p"; $G -p "$p" -n 32; echo; done
  for k in 1 2 3; do echo "== stats run $k"; $G -p "The capital of France is" -n 100 --stats > /dev/null; done; } > $O/generate.log 2>&1
{ timeout 150 $M serve -m /tmp/m --vmfb $D/f4-cuda.vmfb --slots 4 --context 128 --device cuda --cuda-target sm_89 --port 18080 --quiet & SP=$!
  timeout 120 python3 $D/serve_test.py 18080 > $O/serve.json; kill $SP; wait $SP; echo "serve rc=$?"; } > $O/serve.log 2>&1
if [ -f $D/f1b-cuda.vmfb ]; then
  { $M synth --config .shared/data/llama-3.2-1b/config.json --tokenizer .shared/data/llama3-tokenizer -o /tmp/l1b --seed 0 --dtype bf16
    sha256sum /tmp/l1b/model.safetensors
    for k in 1 2; do timeout 150 $M generate -m /tmp/l1b -p "The capital of France is" --no-chat --ignore-eos -n 64 --context 512 --device cuda --cuda-target sm_89 --vmfb $D/f1b-cuda.vmfb --stats; echo " rc=$?"; done; } > $O/l1b.log 2>&1
fi
python3 $D/summ.py $O/harness.jsonl | cut -c1-700; grep -h "stats\|rc=" $O/generate.log $O/serve.log $O/l1b.log
