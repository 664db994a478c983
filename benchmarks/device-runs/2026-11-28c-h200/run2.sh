#!/bin/bash
# Session 7, second command: (1) four ranks on the one GPU at SCALE 20 with every block-size
# variant of max and sum warmed (bincount's max compiled 1.5-1.9 s inside timed searches);
# (2) issue 43 item 2 on the device: the 1D exchange pipelined (each peer's block pruned on
# its own CUDA stream while the one before it is read back and sent) against one alltoallv,
# four ranks, SCALE 20 and 22, every tree validated.
FINAL=$OUT; export OUT=/tmp/r15; mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T0=$SECONDS; LIMIT=${LIMIT:-320}
step() {
  local name=$1 cap=$2; shift 2
  local left=$((LIMIT - (SECONDS - T0))); local t=$((cap < left ? cap : left))
  if [ $t -lt 10 ]; then echo "$name: skipped (deadline)" >> $OUT/log.txt; return; fi
  local s=$SECONDS
  timeout -k 5 $t "$@" > $OUT/$name.txt 2>&1; local rc=$?
  echo "$name: rc $rc, $((SECONDS - s)) s (cap $t), at $((SECONDS - T0)) s" >> $OUT/log.txt
  tar czf $FINAL/r15.tgz -C /tmp r15
}
{ nvidia-smi -L; uptime; git log --oneline -1; } > $OUT/env.txt 2>&1
R="mpiexec -n 4 python3 -m pygraph500 run --backend gpu"
step off20 120 $R --scale 20 --roots 16 --json $OUT/off20.json
step on20 50 $R --scale 20 --roots 16 --pipeline --json $OUT/on20.json
step on22 60 $R --scale 22 --roots 16 --pipeline --json $OUT/on22.json
step off22 60 $R --scale 22 --roots 16 --json $OUT/off22.json
step on20b 40 $R --scale 20 --roots 16 --pipeline --json $OUT/on20b.json
echo "done at $((SECONDS - T0)) s" >> $OUT/log.txt
tar czf $FINAL/r15.tgz -C /tmp r15
cat $OUT/log.txt; grep -H "max_time\|median_time\|harmonic_mean_TEPS" $OUT/*.txt
