"""benchmarks/bench_pipeline_mpi.py under a real mpiexec: a row per partition and algorithm
whose on/off ratio is the ratio of its two medians."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.mpi

_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks",
                     "bench_pipeline_mpi.py")


def test_pipeline_on_and_off_in_the_same_processes():
    pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install '.[mpi]')")
    done = subprocess.run([sys.executable, _PATH, "--scale", "9", "--roots", "2", "--rounds",
                           "1"], capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    names = ["direction-optimizing", "topdown-queue"]
    rows = [r for r in map(str.split, done.stdout.splitlines())
            if len(r) > 1 and r[1] in names]
    assert [r[:2] for r in rows] == [[p, a] for p in ("1d", "2d") for a in names], \
        (done.stdout, done.stderr)
    half = 5e-4  # every figure is printed to three decimals
    for _, _, *figures in rows:
        on, off, ratio = map(float, figures)
        assert on > 0 and off > 0
        assert (on - half) / (off + half) - half <= ratio <= (on + half) / (off - half) + half
