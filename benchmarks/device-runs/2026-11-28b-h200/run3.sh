#!/bin/bash
# Issue 45, third command: the blocked APSP's new default (64 x 64 tiles for 4-byte elements,
# 4 x 4 a thread) through the benchmark, float32 and float64, with predecessors; the four
# ranks' stalls (roots 3, 4 and 8 of 16, one rank's small top-down level taking 4-6 s)
# profiled per rank.
FINAL=$OUT; export OUT=/tmp/r12; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T0=$SECONDS; LIMIT=${LIMIT:-190}
step() {
  local name=$1 cap=$2; shift 2
  local left=$((LIMIT - (SECONDS - T0))); local t=$((cap < left ? cap : left))
  if [ $t -lt 10 ]; then echo "$name: skipped (deadline)" >> $OUT/log.txt; return; fi
  local s=$SECONDS
  timeout -k 5 $t "$@" > $OUT/$name.txt 2>&1; local rc=$?
  echo "$name: rc $rc, $((SECONDS - s)) s (cap $t), at $((SECONDS - T0)) s" >> $OUT/log.txt
  tar czf $FINAL/r12.tgz -C /tmp r12
}
step bench 50 python3 benchmarks/bench_apsp.py --backend gpu --algorithms blocked \
    --dtypes float32 float64 --sizes 8192 --predecessors --scipy-max-n 0
step mpi4prof 110 mpiexec -n 4 bash -c 'python3 -m cProfile -o /tmp/prof.$OMPI_COMM_WORLD_RANK \
    -m pygraph500 run --backend gpu --scale 20 --roots 5 --json '$OUT'/mpi4prof.json'
step proftop 20 python3 .device/prof_top.py /tmp/prof
echo "done at $((SECONDS - T0)) s" >> $OUT/log.txt
tar czf $FINAL/r12.tgz -C /tmp r12
cat $OUT/log.txt
