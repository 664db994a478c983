#!/bin/bash
# Issue 45, fourth command: which compiles fall inside the timed searches of four ranks on
# the one GPU (roots 3 and 4 of run 1 stall one rank 4-6 s at level 1).
FINAL=$OUT; export OUT=/tmp/r13; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout -k 5 140 mpiexec -n 4 python3 .device/stall_probe.py run --backend gpu --scale 20 \
    --roots 5 --json $OUT/probe.json > $OUT/probe.txt 2>&1
echo "probe rc $?" >> $OUT/probe.txt
tar czf $FINAL/r13.tgz -C /tmp r13
tail -3 $OUT/probe.txt
