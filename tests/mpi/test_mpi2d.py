"""`graph500 run --partition 2d` under a real ``mpiexec -n P`` (paper 001's R x C mesh; up to
six processes oversubscribed on a small machine): every tree valid, the embedded run's roots
and edge counts, the official block once, raw packets costing more bytes than VLQ ones, bad
meshes reported once, a failing rank ending the whole job promptly.

Oracle: the embedded `graph500 run` (one process, no MPI) on the same graph. Needs mpi4py and
an ``mpiexec`` (the ``mpi`` extra), as test_mpi.py.
"""
import json
import subprocess
import sys
import time

import pytest

pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install '.[mpi]'): the "
                                     "multi-process tests need it")

from test_mpi import _env, _official, graph500_mpi  # noqa: E402 - after the skip

pytestmark = pytest.mark.mpi

SCALE = "10"
ROOTS = 4
TIMEOUT = 300
FAIL_WITHIN = 60  # seconds for a job with a failed rank to end

# One process compiles (or loads) every kernel of the 2D engine, fold packets included (two
# ThreadComm ranks on a 1 x 2 mesh), before P processes start together.
_WARM = """
from pygraph500.benchmark import RunConfig
from pygraph500.benchmark.distributed2d import Distributed2DEngine
from pygraph500.benchmark.loop import run_engine
from pygraph500.distributed import ThreadComm

def rank(comm):
    config = RunConfig.of(scale=8, num_roots=2, partition="2d", threads=1)
    return run_engine(Distributed2DEngine(config, comm), config).valid

assert ThreadComm.run(2, rank) == [True, True]
"""


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    """The embedded run's document (and the 2D kernels compiled once, before any mpiexec)."""
    p = subprocess.run([sys.executable, "-c", _WARM], capture_output=True, text=True,
                       env=_env(), timeout=TIMEOUT)
    assert p.returncode == 0, p.stderr
    out = tmp_path_factory.mktemp("embedded") / "r.json"
    p = subprocess.run([sys.executable, "-m", "pygraph500", "run", "--scale", SCALE, "--roots",
                        str(ROOTS), "--json", str(out), "--quiet"], capture_output=True,
                       text=True, env=_env(), timeout=TIMEOUT)
    assert p.returncode == 0, p.stderr
    doc = json.loads(out.read_text())
    assert doc["valid"] and len(doc["roots"]) == ROOTS
    return doc


@pytest.fixture(scope="module")
def run2d(embedded, tmp_path_factory):
    """``run2d(n, *extra)``: (process, JSON document) of `mpiexec -n n graph500 run --partition
    2d ...`, each distinct command run once per module."""
    done = {}
    where = tmp_path_factory.mktemp("runs")

    def run(n, *extra):
        key = (n, *extra)
        if key not in done:
            out = where / f"r{len(done)}.json"
            p = graph500_mpi(n, "run", "--scale", SCALE, "--partition", "2d", "--roots",
                             str(ROOTS), "--json", str(out), "-t", "1", *extra,
                             timeout=TIMEOUT)
            assert p.returncode == 0, p.stderr
            done[key] = p, json.loads(out.read_text())
        return done[key]

    return run


@pytest.mark.parametrize("n,grid,mesh", [
    (2, None, (1, 2)), (2, "2x1", (2, 1)), (4, None, (2, 2)), (6, None, (2, 3)),
    (3, None, (1, 3)),
], ids=["1x2", "2x1", "2x2", "2x3", "1x3"])
def test_mesh_runs_like_the_embedded_run(n, grid, mesh, run2d, embedded):
    p, doc = run2d(n, *(["--grid", grid] if grid else []))
    assert p.stdout.count("SCALE:") == 1  # the official block, from one process
    off = _official(p.stdout)
    assert off["num_mpi_processes"] == str(n) and off["NBFS"] == str(ROOTS)
    assert doc["valid"] and all(r["valid"] for r in doc["runs"]) and len(doc["runs"]) == ROOTS
    assert doc["roots"] == embedded["roots"]
    assert [r["nedge"] for r in doc["runs"]] == [r["nedge"] for r in embedded["runs"]]
    rows, cols = mesh
    params = doc["parameters"]
    assert params["partition"] == "2d" and params["grid"] == [rows, cols]
    assert params["num_mpi_processes"] == n and params["compress"] == "vlq"
    per_rank = doc["distributed"]["per_rank"]
    assert per_rank["mesh_row"] == [r % rows for r in range(n)]
    assert per_rank["mesh_col"] == [r // rows for r in range(n)]
    for run, emb in zip(doc["runs"], embedded["runs"]):
        assert [lv["frontier"] for lv in run["levels"]] == [lv["frontier"] for lv in emb["levels"]]
        folded = sum(lv["fold_bytes_raw"] for lv in run["levels"])
        assert (folded > 0) == (cols > 1)  # pairs cross processor-columns only


def test_raw_packets_cost_more_bytes(run2d):
    _, vlq = run2d(4)
    p, raw = run2d(4, "--compress", "none")
    assert p.stdout.count("SCALE:") == 1 and raw["valid"]
    assert raw["parameters"]["compress"] == "none" and raw["roots"] == vlq["roots"]
    total = {}
    for name, doc in (("vlq", vlq), ("none", raw)):
        total[name] = 0
        for run in doc["runs"]:
            total[name] += sum(lv["fold_bytes"] for lv in run["levels"])
    for a, b in zip(vlq["runs"], raw["runs"]):
        assert a["nedge"] == b["nedge"]
        assert ([(lv["frontier"], lv["discovered"]) for lv in a["levels"]]
                == [(lv["frontier"], lv["discovered"]) for lv in b["levels"]])
    assert 0 < total["vlq"] < total["none"], total


@pytest.mark.parametrize("mode", ["raise", "kill"])
def test_a_failing_rank_ends_the_2d_job(mode, embedded):
    env = _env(PYGRAPH500_FAIL_RANK="1", PYGRAPH500_FAIL_PHASE="search",
               PYGRAPH500_FAIL_MODE=mode)
    t0 = time.monotonic()
    p = graph500_mpi(4, "run", "--scale", SCALE, "--partition", "2d", "--roots", str(ROOTS),
                     "-t", "1", "--quiet", env=env, timeout=120)
    elapsed = time.monotonic() - t0
    assert p.returncode != 0
    assert elapsed < FAIL_WITHIN, elapsed
    assert "SCALE:" not in p.stdout and "Traceback" not in p.stderr
    ours = [l for l in (p.stdout + p.stderr).splitlines() if l.startswith("graph500:")]
    if mode == "raise":
        assert ours == ["graph500: error on rank 1 of 4: RuntimeError: injected failure in "
                        "search (PYGRAPH500_FAIL_RANK=1)"], p.stderr
    else:  # SIGKILL leaves the rank no last word; no other rank is blamed
        assert ours == [], p.stderr


def test_a_mesh_of_the_wrong_size_is_one_line(embedded):
    p = graph500_mpi(4, "run", "--partition", "2d", "--grid", "3x2", timeout=120)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stdout == "" and "Traceback" not in p.stderr
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert lines == ["graph500: error: --grid 3x2 is a mesh of 6 processes, but 4 are "
                     "running"], p.stderr
