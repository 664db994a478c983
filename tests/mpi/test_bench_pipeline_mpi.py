"""benchmarks/bench_pipeline_mpi.py under a real mpiexec: a row per algorithm whose on/off
ratio is the ratio of its two medians."""
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
    rows = [line.split() for line in done.stdout.splitlines()
            if line and not line.startswith(("#", "algorithm"))]
    assert [r[0] for r in rows] == ["direction-optimizing", "topdown-queue"], done.stdout
    for _, on, off, ratio in rows:
        assert float(on) > 0 and float(off) > 0
        assert abs(float(on) / float(off) - float(ratio)) < 1e-3 + 1e-3 * float(ratio)
