#!/bin/bash
# run.sh RUNTIME_DIR DEVICE TAG VMFB: each product of prod.mlir on the device, outputs out-TAG-N.npy
RT=$1 DEV=$2 TAG=$3 V=$4
for N in 3072 2048 16384; do
  $RT/iree-run-module --device=$DEV --module=$V --function=p$N --input=@x.npy --input=@w$N.npy --output=@out-$TAG-$N.npy > /dev/null || echo "run p$N failed"
done
