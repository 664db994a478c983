#!/bin/bash
# First device session: the device tests and issue 16's targets (gpu_check), then the
# side-by-side GPU benchmarks at sizes that fit the lease. Everything lands in $OUT.
cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
T0=$SECONDS
{ date; nvidia-smi -L; nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv;
  which python3 mpiexec; nproc; uptime
  python3 -c "import numpy, numba, scipy; print(numpy.__version__, numba.__version__, scipy.__version__)"
  python3 -c "import cupy; print('cupy', cupy.__version__, cupy.cuda.runtime.runtimeGetVersion())"
  python3 -c "import numba_cuda; from numba import cuda; print('numba_cuda', numba_cuda.__version__, cuda.is_available()); cuda.detect()"
} > $OUT/env.txt 2>&1
cat $OUT/env.txt
python3 benchmarks/gpu_check.py --only tests targets --step-timeout ${STEP:-200} \
    --report $OUT/gpu-check-report.txt
echo "elapsed $((SECONDS - T0)) s"
if [ $((SECONDS - T0)) -lt ${BENCH_BEFORE:-330} ]; then
  timeout ${BT:-70} python3 benchmarks/bench_array_bfs.py --backend gpu --scales 18 20 22 --roots 4 \
      > $OUT/bench_array_bfs.md 2> $OUT/bench_array_bfs.err; echo "bfs bench rc $?"
fi
echo "elapsed $((SECONDS - T0)) s"
if [ $((SECONDS - T0)) -lt ${BENCH_BEFORE2:-420} ]; then
  timeout ${AT:-60} python3 benchmarks/bench_apsp.py --backend gpu --sizes 1024 2048 4096 \
      --scipy-max-n 2048 --json $OUT/apsp.json > $OUT/bench_apsp.md 2> $OUT/bench_apsp.err
  echo "apsp bench rc $?"
fi
echo "elapsed $((SECONDS - T0)) s"
