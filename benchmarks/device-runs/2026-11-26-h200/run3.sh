#!/bin/bash
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export CUPY_CACHE_DIR=/tmp/cupy-fresh CUPY_CACHE_SAVE_CUDA_SOURCE=1
timeout 150 python3 .device/diag.py ${DSCALE:-22} 12 2>&1 | grep -v Warn | tee $OUT/diag.txt
ls -la /tmp/cupy-fresh | head -50 > $OUT/cache-listing.txt
