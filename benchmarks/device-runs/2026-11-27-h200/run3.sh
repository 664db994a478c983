#!/bin/bash
# Third command: the gpu MPI test again (its PYTHONPATH now keeps the carried NumPy) and the
# SCALE 24 array BFS table in full (run 1's step hit its 110 s cap on an empty numba cache).
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
(timeout 80 python3 -m pytest -q -p no:cacheprovider tests/mpi/test_mpi.py -k one_gpu_per_rank 2>&1 | tail -5) > $OUT/pytest_mpi.txt
timeout 200 python3 benchmarks/bench_array_bfs.py --backend gpu --scales 24 --roots 8 --algorithms sort-unique direction-optimizing --compare-forms > $OUT/bfs24.md 2> $OUT/bfs24.err
