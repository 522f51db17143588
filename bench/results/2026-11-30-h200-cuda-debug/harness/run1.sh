#!/bin/bash
# Device call 1: current behaviour on CUDA, micro modules, runtime-flag and compile-flag matrix.
cd "$(git rev-parse --show-toplevel)"
python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site || exit 1
export MLXCEL_XLA_WORKER_PYTHON=$(command -v python3) PYTHONUNBUFFERED=1
D=.gpu/dbg; O=$OUT
{ date; nvidia-smi --query-gpu=name,driver_version,memory.used --format=csv; python3 -V; python3 -c "import numpy, ml_dtypes; print(numpy.__version__, ml_dtypes.__version__)";
  ldd build-bundle/mlxcel | grep -E "microhttpd|jansson|not found"; build-bundle/mlxcel devices; } > $O/env.log 2>&1
build-bundle/mlxcel synth --config $D/small.json --tokenizer .shared/data/llama3-tokenizer -o /tmp/m --seed 0 --dtype bf16 >> $O/env.log 2>&1
sha256sum /tmp/m/model.safetensors >> $O/env.log
H="timeout 90 python3 $D/h.py"
FL=("" "--cuda_async_allocations=false" "--cuda_use_streams=false" "--cuda_allow_inline_execution=true")
for f in "${FL[@]}"; do
  for e in m_a m_b m_c; do $H $e cuda $D/micro/$e-cuda.vmfb $D/micro/w.safetensors --flags "$f" >> $O/micro.jsonl 2>>$O/stderr.log || echo "{\"exp\":\"$e\",\"flags\":\"$f\",\"rc\":$?}" >> $O/micro.jsonl; done
done
for f in "${FL[@]}"; do
  for e in model1 model1_decodeonly model1_nologits; do $H $e cuda $D/s1-cuda.vmfb /tmp/m/model.safetensors --flags "$f" >> $O/model.jsonl 2>>$O/stderr.log || echo "{\"exp\":\"$e\",\"flags\":\"$f\",\"rc\":$?}" >> $O/model.jsonl; done
  $H model4 cuda $D/s4-cuda.vmfb /tmp/m/model.safetensors --flags "$f" >> $O/model.jsonl 2>>$O/stderr.log || echo "{\"exp\":\"model4\",\"flags\":\"$f\",\"rc\":$?}" >> $O/model.jsonl
done
for v in nohoist debug noind nomemo; do
  [ -f $D/v_$v.vmfb ] && for f in "" "--cuda_async_allocations=false"; do
    $H model1 cuda $D/v_$v.vmfb /tmp/m/model.safetensors --flags "$f" >> $O/variants.jsonl 2>>$O/stderr.log || echo "{\"exp\":\"v_$v\",\"flags\":\"$f\",\"rc\":$?}" >> $O/variants.jsonl; done
done
{ for f in "" "--cuda_async_allocations=false"; do echo "== generate flags=[$f]"; MLXCEL_XLA_RUNTIME_FLAGS="$f" timeout 120 build-bundle/mlxcel generate -m /tmp/m -p "The capital of France is" --no-chat --ignore-eos -n 16 --context 128 --device cuda --cuda-target sm_89 --vmfb $D/s1-cuda.vmfb --stats; echo " rc=$?"; done; } > $O/generate.log 2>&1
python3 $D/summ.py $O/micro.jsonl $O/model.jsonl $O/variants.jsonl
