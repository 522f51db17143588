#!/bin/bash
exec /root/.cache/mlxcel/iree-3.13.0/venv/bin/iree-compile "$@" $IC_EXTRA
