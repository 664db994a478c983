#!/bin/bash
# Issue 45 on the tree of 2026-11-28 00:05: APSP per-thread tiles (paper 004), graph500 run
# --backend gpu --scale 22, the hybrid's lambda sweep with a CuPy array side at SCALE 20, the
# device tests. Each step capped; one line per step in log.txt.
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl
{ nvidia-smi -L; nproc; python3 -c "import numpy, numba, cupy, scipy; print('numpy', numpy.__version__, 'numba', numba.__version__, 'cupy', cupy.__version__, 'scipy', scipy.__version__)"; } > $OUT/env.txt 2>&1
t() { local cap=$1 name=$2; shift 2; local s=$(date +%s)
      timeout $cap "$@" > $OUT/$name.txt 2>&1; echo "$name rc $? $(( $(date +%s) - s )) s" >> $OUT/log.txt; }
t 100 apsp python3 benchmarks/bench_apsp.py --backend gpu --algorithms blocked --dtypes float32 \
    --sizes 4096 8192 --thread-tiles 1x1 2x2 4x2
t 110 run22 python3 -m pygraph500 run --backend gpu --scale 22 --json $OUT/run22.json
sweep() {
  for lam in auto 0 64 256 1024 4096 16384 1048576; do
    echo "== lambda $lam"
    python3 -m pygraph500 run -a hybrid --backend gpu --scale 20 --roots 8 --lambda $lam -q \
        | grep -E "harmonic_mean_TEPS|mean_time|median_time"
  done
}
t 170 hybrid sweep
t 130 pytest python3 -m pytest -q -x -m gpu -p no:cacheprovider
