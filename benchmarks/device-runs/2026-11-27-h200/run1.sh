#!/bin/bash
# Device session 2026-11-27 (issue 45): one command, every step capped, a deadline over all.
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T0=$SECONDS; LIMIT=${LIMIT:-520}; W=/tmp/w; mkdir -p $W
step() {  # step NAME CAP CMD...: output to $OUT/NAME.txt, capped by CAP and the deadline
  local name=$1 cap=$2; shift 2
  local left=$((LIMIT - (SECONDS - T0))); local t=$((cap < left ? cap : left))
  if [ $t -lt 10 ]; then echo "$name: skipped (deadline)" | tee -a $OUT/log.txt; return; fi
  local s=$SECONDS
  timeout -k 5 $t "$@" > $OUT/$name.txt 2>&1; local rc=$?
  echo "$name: rc $rc, $((SECONDS - s)) s (cap $t), at $((SECONDS - T0)) s" | tee -a $OUT/log.txt
}
{ nvidia-smi -L; nproc; python3 -c "import numpy, numba, scipy, cupy, mpi4py; print(numpy.__version__, numba.__version__, scipy.__version__, cupy.__version__, mpi4py.__version__)"; which mpiexec g++; mpiexec --version | head -2; } > $OUT/env.txt 2>&1
G="python3 -m pygraph500"
step bfs24 110 python3 benchmarks/bench_array_bfs.py --backend gpu --scales 24 --roots 8 \
    --algorithms sort-unique direction-optimizing --compare-forms
step run22 100 $G run --backend gpu --scale 22 --json $OUT/run22.json
step mpi2gpu 60 mpiexec -n 2 $G run --backend gpu --scale 20 --roots 16 --json $OUT/mpi2gpu.json
step mpi2cpu 40 mpiexec -n 2 $G run --backend cpu --scale 20 --roots 16 --json $OUT/mpi2cpu.json
step pytest 150 python3 -m pytest -m gpu -q -rs -x -p no:cacheprovider
step hybrid20 50 $G run --backend gpu --algorithm hybrid --scale 20 --roots 16 --json $OUT/hybrid20.json
step apsp 25 python3 benchmarks/bench_apsp.py --backend gpu --sizes 8192 --algorithms blocked \
    --dtypes float32 --scipy-max-n 0 --json $OUT/apsp.json
step hybridbench 80 python3 benchmarks/bench_hybrid.py --backend gpu --scale 20 --roots 4 \
    --tasks 16 128 1024 --repeats 1 --skip standin --json $OUT/hybrid.json
step gapbuild 40 bash .device/peers/gap.sh build $W/gap
step gen22 40 $G generate --scale 22 --out $W/g22.txt -q
ln -sf $W/g22.txt $W/g22.el
step ours22cpu 60 $G run --backend cpu --scale 22 --roots 8 --json $OUT/ours22cpu.json
python3 -c "import json; print(' '.join(str(r) for r in json.load(open('$OUT/ours22cpu.json'))['roots']))" > $W/roots.txt 2>/dev/null
cp $W/roots.txt $OUT/
step gap22 80 bash .device/peers/gap.sh bfs $W/gap $W/g22.el $W/roots.txt 16
echo "total $((SECONDS - T0)) s" >> $OUT/log.txt
