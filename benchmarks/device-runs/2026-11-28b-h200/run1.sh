#!/bin/bash
# Issue 45, 2026-11-28 (sixth session): APSP per-thread tiles up to 8x8 with registers and
# local memory per kernel (the 1x1 regression's cause), TILE 64; four and two ranks on the one
# GPU against the CPU engine; the hybrid's auto lambda with its per-level JSON; SCALE 22 with
# per-level times; the device tests. Each step capped; results tarred after every step.
FINAL=$OUT; export OUT=/tmp/r10; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ nvidia-smi -L; nproc; python3 -c "import numpy, numba, cupy, scipy, mpi4py; print('numpy', numpy.__version__, 'numba', numba.__version__, 'cupy', cupy.__version__, 'scipy', scipy.__version__, 'mpi4py', mpi4py.__version__)"; } > $OUT/env.txt 2>&1
T0=$SECONDS; LIMIT=${LIMIT:-400}
step() {
  local name=$1 cap=$2; shift 2
  local left=$((LIMIT - (SECONDS - T0))); local t=$((cap < left ? cap : left))
  if [ $t -lt 10 ]; then echo "$name: skipped (deadline)" >> $OUT/log.txt; return; fi
  local s=$SECONDS
  timeout -k 5 $t "$@" > $OUT/$name.txt 2>&1; local rc=$?
  echo "$name: rc $rc, $((SECONDS - s)) s (cap $t), at $((SECONDS - T0)) s" >> $OUT/log.txt
  tar czf $FINAL/r10.tgz -C /tmp r10
}
G="python3 -m pygraph500"
step apsp32 70 python3 .device/apsp_diag.py 8192
step apsp64 40 env PYGRAPH500_CUDA_TILE=64 python3 .device/apsp_diag.py 8192
step mpi4gpu 70 mpiexec -n 4 $G run --backend gpu --scale 20 --roots 16 --json $OUT/mpi4gpu.json
step mpi4cpu 40 mpiexec -n 4 $G run --backend cpu --scale 20 --roots 16 --json $OUT/mpi4cpu.json
step hybauto 45 $G run -a hybrid --backend gpu --scale 20 --roots 8 --lambda auto --json $OUT/hybauto.json
step hybcpu 30 $G run -a hybrid --backend gpu --scale 20 --roots 8 --lambda 1048576 --json $OUT/hybcpu.json
step run22 60 $G run --backend gpu --scale 22 --roots 16 --levels --json $OUT/run22.json
step pytest 100 python3 -m pytest -q -m gpu -p no:cacheprovider tests/test_apsp.py \
    tests/test_array_bfs.py tests/test_dist_device.py tests/test_hybrid.py tests/test_gpu_budget.py
echo "done at $((SECONDS - T0)) s" >> $OUT/log.txt
tar czf $FINAL/r10.tgz -C /tmp r10
cat $OUT/log.txt
