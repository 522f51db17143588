#!/usr/bin/env bash
# The peer table on a GPU machine, in one call: mlxcel (prebuilt modules), JAX/XLA and HF transformers
# (static cache) on the same synthetic Llama-3.2-1B (`mlxcel synth --seed 0`), the same prompt, greedy,
# NEW tokens per sequence; then `mlxcel check` f32 against the HF fixture, and the table.
#   OUT=DIR bash peers/gpu.sh      (in the folder prepare-gpu.sh made; the results go to $OUT)
# Environment: PEERS ("mlxcel jax hf check"), DTYPES ("bf16 f16 f32"), BATCHES ("1 4 8"), RUNS (3),
# NEW (128), JAX_DTYPES ("bf16 f32"), HF_DTYPES ("bf16 f32"), VMFB (vmfb: the modules' folder, for an
# A/B of two builds), TAG (a label for this build's mlxcel records), CUDA_TARGET (sm_89), CONTEXT (the
# modules' --context, as prepare-gpu.sh had it; 0), PROMPT (data/prompt: the prompt's .txt and _ids.json).
# A DTYPES entry packed-bf16 (f16, f32) runs that precision's packed module with --quant packed.
set -u
cd "$(dirname "$0")/.."
: "${OUT:?set OUT to the folder for the results}"
PEERS=${PEERS:-mlxcel jax hf check} DTYPES=${DTYPES:-bf16 f16 f32} BATCHES=${BATCHES:-1 4 8} RUNS=${RUNS:-3} NEW=${NEW:-128}
JAX_DTYPES=${JAX_DTYPES:-bf16 f32} HF_DTYPES=${HF_DTYPES:-bf16 f32} VMFB=${VMFB:-vmfb} TAG=${TAG:-} CUDA_TARGET=${CUDA_TARGET:-sm_89}
CONTEXT=${CONTEXT:-0} PROMPT=${PROMPT:-data/prompt}
R=$OUT/results.jsonl M=/tmp/peers-l1b
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1 LD_LIBRARY_PATH=$PWD/bin
if [ ! -d /tmp/peers-site/iree ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/peers-site whl/*.whl \
    || { echo "gpu.sh: the runtime wheel did not install" >&2; exit 1; }
fi
export PYTHONPATH=/tmp/peers-site
if [ ! -f $M/model.safetensors ]; then
  mkdir -p /tmp/peers-tok && cp data/tokenizer/tokenizer_config.json /tmp/peers-tok/ \
    && xz -dc data/tokenizer/tokenizer.json.xz > /tmp/peers-tok/tokenizer.json
  bin/mlxcel synth --config data/config.json --tokenizer /tmp/peers-tok -o $M --seed 0 > $OUT/synth.log 2>&1 \
    || { echo "gpu.sh: synth failed: $(tail -1 $OUT/synth.log)" >&2; exit 1; }
  sha256sum $M/model.safetensors >> $OUT/synth.log
fi
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,temperature.gpu --format=csv
  python3 -c "import jax, torch, transformers; print('jax', jax.__version__, 'torch', torch.__version__, 'transformers', transformers.__version__)"
} >> $OUT/env.log 2>&1
step() { # NAME SECONDS CMD...: one peer run with a limit; its output to $OUT/NAME.log
  local name=$1 secs=$2; shift 2
  echo "== $name" >&2
  timeout "$secs" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || echo "gpu.sh: $name exit $rc: $(grep -v '^W0000\|^I0000' "$OUT/$name.log" | tail -1)" | tee -a $OUT/failures.log >&2
  grep -E " B=[0-9]+: decode" "$OUT/$name.log" >&2
}
ids=${PROMPT}_ids.json
for peer in $PEERS; do case $peer in
  mlxcel)
    for p in $DTYPES; do for s in $BATCHES; do
      cc=$(python3 -c "import json,sys; print(next((r['cold_compile_s'] for r in map(json.loads, open('$VMFB/compile.jsonl')) if r['dtype']=='$p' and r['slots']==$s), ''))" 2>/dev/null)
      q=none qn=; case $p in packed-*) q=packed qn="packed; " ;; esac
      step mlxcel${TAG:+-$TAG}-$p-b$s 240 python3 peers/mlxcel_peer.py --mlxcel bin/mlxcel --model $M --dtype ${p#packed-} --batch $s \
        --prompt-ids $ids --prompt-file $PROMPT.txt --new $NEW --runs $RUNS --out $R --vmfb $VMFB/$p-s$s.vmfb --context $CONTEXT \
        ${cc:+--cold-compile-s $cc} --note "${TAG:+$TAG; }${qn}cold compile on the development VM" \
        -- --device cuda --cuda-target $CUDA_TARGET --quant $q
    done; done ;;
  jax)
    for p in $JAX_DTYPES; do
      step jax-$p${TAG:+-$TAG} 300 python3 peers/jax_peer.py --model $M --dtype $p --batch "$(echo $BATCHES | tr ' ' ,)" --prompt-ids $ids \
        --new $NEW --runs $RUNS --out $R --context $(python3 -c "import json; print(max(512, len(json.load(open('$ids'))) + $NEW))")
    done ;;
  hf)
    for p in $HF_DTYPES; do
      step hf-$p 400 python3 peers/hf_peer.py --model $M --dtype $p --batch "$(echo $BATCHES | tr ' ' ,)" --prompt-ids $ids \
        --new $NEW --runs $RUNS --out $R --device cuda --cache static
    done ;;
  check)
    echo "== check" >&2
    timeout 200 bin/mlxcel check -m $M --fixture data/llama32-1b-synth.json --device cuda --cuda-target $CUDA_TARGET \
      --context $CONTEXT --vmfb $VMFB/f32-s1.vmfb > $OUT/check.log 2>&1
    echo "check rc=$?" >> $OUT/check.log; tail -2 $OUT/check.log >&2 ;;
  *) echo "gpu.sh: unknown peer '$peer' in PEERS (mlxcel, jax, hf, check)" >&2; exit 2 ;;
esac; done
bytes=$(stat -c %s $M/model.safetensors)
python3 peers/table.py $R --bandwidth 4.3e12 --weight-bytes "$bytes" | tee $OUT/table.txt
