#!/bin/bash
# Issue 45, second command: phase 3 of the blocked APSP specialised (no predecessors: an add
# and a min a step), per tile at TILE 32 and 64, the default through the benchmark (with
# predecessors too); four ranks on the one GPU twice in a row (are the 4 s stalls of run 1
# first-use compilation?).
FINAL=$OUT; export OUT=/tmp/r11; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T0=$SECONDS; LIMIT=${LIMIT:-240}
step() {
  local name=$1 cap=$2; shift 2
  local left=$((LIMIT - (SECONDS - T0))); local t=$((cap < left ? cap : left))
  if [ $t -lt 10 ]; then echo "$name: skipped (deadline)" >> $OUT/log.txt; return; fi
  local s=$SECONDS
  timeout -k 5 $t "$@" > $OUT/$name.txt 2>&1; local rc=$?
  echo "$name: rc $rc, $((SECONDS - s)) s (cap $t), at $((SECONDS - T0)) s" >> $OUT/log.txt
  tar czf $FINAL/r11.tgz -C /tmp r11
}
G="python3 -m pygraph500"
step apsp32 45 python3 .device/apsp_diag.py 8192 4x2 2x4 4x4 8x4
step apsp64 35 env PYGRAPH500_CUDA_TILE=64 python3 .device/apsp_diag.py 8192 4x2 2x4 4x4
step bench 40 python3 benchmarks/bench_apsp.py --backend gpu --algorithms blocked --dtypes float32 \
    --sizes 8192 --predecessors --scipy-max-n 0
step mpi4a 60 mpiexec -n 4 $G run --backend gpu --scale 20 --roots 16 --json $OUT/mpi4a.json
step mpi4b 45 mpiexec -n 4 $G run --backend gpu --scale 20 --roots 16 --json $OUT/mpi4b.json
echo "done at $((SECONDS - T0)) s" >> $OUT/log.txt
tar czf $FINAL/r11.tgz -C /tmp r11
cat $OUT/log.txt
