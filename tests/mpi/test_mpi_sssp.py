"""Distributed kernel 3 under a real ``mpiexec -n 2`` (and -n 1 to compare): valid results,
the distributed validator agreeing with the embedded one on good and broken results, every
rank running the same phases. Needs mpi4py and an ``mpiexec`` (the ``mpi`` extra)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install '.[mpi]'): the "
                                     "multi-process tests need it")

pytestmark = pytest.mark.mpi

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..", "src")
CHECK = os.path.join(HERE, "check_sssp.py")
MPIEXEC = shutil.which("mpiexec", path=os.path.dirname(sys.executable) + os.pathsep
                       + os.environ.get("PATH", ""))
TIMEOUT = 300


def _run(n):
    assert MPIEXEC, "mpi4py is installed but no mpiexec was found (the mpich wheel provides one)"
    env = dict(os.environ, PYTHONPATH=SRC)
    env.pop("PYGRAPH500_TRACEBACK", None)
    p = subprocess.run([MPIEXEC, "-n", str(n), sys.executable, CHECK, "10", "2"],
                       capture_output=True, text=True, env=env, timeout=TIMEOUT,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    lines = [line for line in p.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, p.stdout  # rank 0 only
    return json.loads(lines[0])


def test_sssp_under_mpiexec():
    one = _run(1)  # also fills numba's cache before two processes start together
    two = _run(2)
    assert two["size"] == 2 and one["delta"] == two["delta"]
    for a, b in zip(one["searches"], two["searches"]):
        assert a["root"] == b["root"]
        for s in (a, b):
            assert s["embedded"][0] is True, s["embedded"]
            assert s["dist"] == s["embedded"]
            assert s["nedge"] == s["embedded"][5]
            assert s["embedded_bad"][1] == "tree-edge-distance"
            assert s["dist_bad"] == s["embedded_bad"]
            assert len(set(s["phases"])) == 1  # every rank ran the same phases
        assert abs(a["distance_sum"] - b["distance_sum"]) <= 1e-5 * a["distance_sum"]
