#!/bin/bash
# Session 7, first command: (1) four ranks on the one GPU at SCALE 20 with the warm-up that
# searches from a root each rank owns (the 4-6 s stalls of 2026-11-28b were CuPy compiling
# bincount inside timed searches); (2) issue 44 item 1 on the 16-core host: bench_peers.py,
# BFS and SSSP, ours vs GAP on every core, SCALE 22, 3 interleaved rounds.
FINAL=$OUT; export OUT=/tmp/r14; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T0=$SECONDS; LIMIT=${LIMIT:-480}
step() {
  local name=$1 cap=$2; shift 2
  local left=$((LIMIT - (SECONDS - T0))); local t=$((cap < left ? cap : left))
  if [ $t -lt 10 ]; then echo "$name: skipped (deadline)" >> $OUT/log.txt; return; fi
  local s=$SECONDS
  timeout -k 5 $t "$@" > $OUT/$name.txt 2>&1; local rc=$?
  echo "$name: rc $rc, $((SECONDS - s)) s (cap $t), at $((SECONDS - T0)) s" >> $OUT/log.txt
  tar czf $FINAL/r14.tgz -C /tmp r14
}
{ nvidia-smi -L; nproc; uptime; git log --oneline -1; } > $OUT/env.txt 2>&1
step mpi4gpu 130 mpiexec -n 4 python3 -m pygraph500 run --backend gpu --scale 20 --roots 16 \
    --json $OUT/mpi4gpu.json
step peers 330 python3 benchmarks/bench_peers.py --scales 22 --all-cores --rounds 3 \
    --peers-dir .device/peers --gap-dir /tmp/gap --json $OUT/peers.json
echo "done at $((SECONDS - T0)) s" >> $OUT/log.txt
tar czf $FINAL/r14.tgz -C /tmp r14
cat $OUT/log.txt; tail -30 $OUT/peers.txt
