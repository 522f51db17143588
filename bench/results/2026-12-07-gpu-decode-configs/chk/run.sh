#!/bin/bash
# run.sh RUNTIME_DIR DEVICE TAG VMFB: every attention product of att.mlir on the device, outputs out-TAG-*.npy
RT=$1 DEV=$2 TAG=$3 V=$4
for W in 128 256 512; do
  $RT/iree-run-module --device=$DEV --module=$V --function=qk_$W --input=@k$W.npy --input=@q$W.npy --output=@out-$TAG-qk$W.npy > /dev/null || echo "run qk_$W failed"
  $RT/iree-run-module --device=$DEV --module=$V --function=pv_$W --input=@v$W.npy --input=@p$W.npy --output=@out-$TAG-pv$W.npy > /dev/null || echo "run pv_$W failed"
  $RT/iree-run-module --device=$DEV --module=$V --function=qkg_$W --input=@k$W.npy --input=@qg$W.npy --output=@out-$TAG-qkg$W.npy > /dev/null || echo "run qkg_$W failed"
  $RT/iree-run-module --device=$DEV --module=$V --function=pvg_$W --input=@v$W.npy --input=@pg$W.npy --output=@out-$TAG-pvg$W.npy > /dev/null || echo "run pvg_$W failed"
done
