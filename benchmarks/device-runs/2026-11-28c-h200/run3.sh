#!/bin/bash
# Session 7, third command: the four-rank stall (roots 3, 4, 8 of 16 at SCALE 20, 3.6-4.6 s
# on a fresh machine even with max/sum warmed): every NVRTC compile logged with the kernel
# names in its source and its options.
FINAL=$OUT; export OUT=/tmp/r16; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout -k 5 110 mpiexec -n 4 python3 .device/stall_probe.py run --backend gpu --scale 20 \
    --roots 16 --json $OUT/probe.json > $OUT/probe.txt 2>&1
echo "probe rc $?" >> $OUT/probe.txt
tar czf $FINAL/r16.tgz -C /tmp r16
grep -h "s nvrtc \[root" $OUT/compiles.*.txt | grep -v "root 469580" | sed 's/ < .*kernels=/ kernels=/' | cut -c1-330
grep "max_time\|median_time" $OUT/probe.txt; tail -1 $OUT/probe.txt
