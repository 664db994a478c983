#!/bin/bash
# Session 8 (2026-11-28): the tuple-argument (record) CUDA kernels of issue 39 on a device:
# the device tests, each array-form algorithm at SCALE 20, four ranks on the GPU, and the
# default GPU run at SCALE 22 before (3e32088, .device/base) and after, interleaved.
FINAL=$OUT; export OUT=/tmp/r17; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
HEAD=$PWD/src; BASE=$PWD/.device/base/src
export PYTHONPATH=/tmp/site:$HEAD
{ nvidia-smi -L; nproc; python3 -c "import numpy, numba, cupy, scipy, mpi4py; print('numpy', numpy.__version__, 'numba', numba.__version__, 'cupy', cupy.__version__, 'scipy', scipy.__version__, 'mpi4py', mpi4py.__version__)"; } > $OUT/env.txt 2>&1
T0=$SECONDS; LIMIT=${LIMIT:-430}
step() {
  local name=$1 cap=$2; shift 2
  local left=$((LIMIT - (SECONDS - T0))); local t=$((cap < left ? cap : left))
  if [ $t -lt 10 ]; then echo "$name: skipped (deadline)" >> $OUT/log.txt; return; fi
  local s=$SECONDS
  timeout -k 5 $t "$@" > $OUT/$name.txt 2>&1; local rc=$?
  echo "$name: rc $rc, $((SECONDS - s)) s (cap $t), at $((SECONDS - T0)) s" >> $OUT/log.txt
  tar czf $FINAL/r17.tgz -C /tmp r17
}
G="python3 -m pygraph500"
step pytest 100 python3 -m pytest -q -m gpu -rs -p no:cacheprovider
for a in direction-optimizing hybrid determinate gpu-queue; do
  step alg-$a 40 $G run -a $a --backend gpu --scale 20 --roots 16 --json $OUT/alg-$a.json
done
step mpi4gpu 60 mpiexec -n 4 $G run --backend gpu --scale 20 --roots 16 --json $OUT/mpi4gpu.json
for r in warm 1 2; do
  order="base head"; [ $r = 2 ] && order="head base"
  for side in $order; do
    src=$HEAD; [ $side = base ] && src=$BASE
    step s22-$side-$r 45 env PYTHONPATH=/tmp/site:$src $G run --backend gpu --scale 22 \
        --roots 16 --json $OUT/s22-$side-$r.json
  done
done
echo "done at $((SECONDS - T0)) s" >> $OUT/log.txt
tar czf $FINAL/r17.tgz -C /tmp r17
cat $OUT/log.txt
for f in $OUT/s22-*.txt $OUT/alg-*.txt $OUT/mpi4gpu.txt; do echo "$f: $(grep -h 'harmonic_mean_TEPS\|median_time' $f | head -3 | tr '\n' ' ')"; done
tail -5 $OUT/pytest.txt
