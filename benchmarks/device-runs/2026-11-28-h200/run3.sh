#!/bin/bash
# After the fixes: the blocked APSP per thread tile (compiled per tile), and the hybrid's auto
# lambda against the CPU alone with a CuPy side at SCALE 20.
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl
timeout 100 python3 benchmarks/bench_apsp.py --backend gpu --algorithms blocked --dtypes float32 \
    --sizes 8192 --thread-tiles 1x1 2x2 4x2 --scipy-max-n 0 > $OUT/apsp.txt 2>&1
echo "apsp rc $?" >> $OUT/log.txt
for lam in auto 1048576; do
  echo "== lambda $lam" >> $OUT/hybrid.txt
  timeout 50 python3 -m pygraph500 run -a hybrid --backend gpu --scale 20 --roots 8 --lambda $lam -q \
      2>&1 | grep -E "harmonic_mean_TEPS|median_time|mean_time|rror" >> $OUT/hybrid.txt
done
echo "hybrid done" >> $OUT/log.txt
