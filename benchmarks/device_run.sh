#!/bin/bash
# gpu-check on a lent device machine with no network whose image has CuPy and numba-cuda:
# what `make gpu-check` does, without installing. Its image's NumPy may be too new for
# numba-cuda 0.30.4 (NumPy 2.5 removed np.row_stack; pyproject's gpu extra pins numpy<2.5), so
# a NumPy 2.4 wheel carried in .whl/ (untracked) goes first on the path. Fetch it here first:
#   pip download numpy==2.4.6 --only-binary=:all: --python-version 3.12 \
#       --platform manylinux_2_17_x86_64 --no-deps -d .whl
# then run, e.g. (device tool, carrying .whl): bash benchmarks/device_run.sh tests targets run
# Steps as gpu_check.py's --only (default: tests targets run); the report goes to $OUT (or .).
# STEP caps each step's seconds (default 150).
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-.}
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/site .whl/*.whl || exit 1
fi
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ $# -gt 0 ] || set -- tests targets run
nvidia-smi -L
python3 benchmarks/gpu_check.py --only "$@" --step-timeout "${STEP:-150}" \
    --report "$OUT/gpu-check-report.txt"
