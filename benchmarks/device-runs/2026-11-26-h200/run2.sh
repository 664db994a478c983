#!/bin/bash
# Second device session: NumPy 2.4.6 carried (the image's numba-cuda 0.30.4 calls np.row_stack,
# gone in its NumPy 2.5.2), OpenMPI allowed as root; tests + targets, then the benchmarks.
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T0=$SECONDS
python3 -c "import numpy, numba, scipy, cupy; print(numpy.__version__, numba.__version__, scipy.__version__, cupy.__version__)" 2>&1 | tee $OUT/env.txt
python3 benchmarks/gpu_check.py --only ${ONLY:-tests targets} --step-timeout ${STEP:-150} \
    --report $OUT/gpu-check-report.txt
echo "elapsed $((SECONDS - T0)) s"
if [ $((SECONDS - T0)) -lt ${BENCH_BEFORE:-300} ]; then
  timeout ${BT:-90} python3 benchmarks/bench_array_bfs.py --backend gpu --scales 18 20 22 --roots 4 \
      > $OUT/bench_array_bfs.md 2> $OUT/bench_array_bfs.err; echo "bfs bench rc $?"
fi
echo "elapsed $((SECONDS - T0)) s"
if [ $((SECONDS - T0)) -lt ${BENCH_BEFORE2:-390} ]; then
  timeout ${AT:-60} python3 benchmarks/bench_apsp.py --backend gpu --sizes 1024 2048 4096 \
      --scipy-max-n 2048 --json $OUT/apsp.json > $OUT/bench_apsp.md 2> $OUT/bench_apsp.err
  echo "apsp bench rc $?"
fi
echo "elapsed $((SECONDS - T0)) s"
