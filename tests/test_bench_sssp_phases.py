"""benchmarks/bench_sssp_phases.py: a search's log split at its first pull adds up to the
log's time, a variant's tunables are set for its rounds only, and the script's table."""
import os
import subprocess
import sys

import numpy as np
import pytest

from pygraph500 import build_csr, kronecker
from pygraph500.sssp import delta_stepping

_DIR = os.path.join(os.path.dirname(__file__), "..", "benchmarks")


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, _DIR)
    import bench_sssp_phases
    return bench_sssp_phases


def test_split_adds_up_and_variants_are_restored(bench):
    g = build_csr(kronecker(12, 16, weights=True))
    res = delta_stepping.sssp_delta_stepping(g, 1)
    parts = bench.split(res)
    assert np.isclose(parts.sum(), np.asarray(res.phases.time).sum())
    assert (np.asarray(res.phases.extra["pull"]) == 1).any() and parts[1] > 0
    before = delta_stepping.PULL_RATIO
    no_pull = bench.one_round(g, [1, 2], {"PULL_RATIO": 0.0})
    assert delta_stepping.PULL_RATIO == before
    assert no_pull[1] == 0 and no_pull[2] == 0 and no_pull[0] > 0 and no_pull[3] > 0
    # without a pull every entry of every reached row is relaxed, all "before the pull"
    deg = np.diff(g.indptr)
    reached_entries = np.mean([deg[np.isfinite(delta_stepping.sssp_delta_stepping(
        g, r).distance)].sum() for r in (1, 2)])
    assert no_pull[5] == 0 and no_pull[4] >= reached_entries > 0
    with_pull = bench.one_round(g, [1], {})
    assert with_pull[5] >= 1 and 0 < with_pull[4] < no_pull[4]
    with pytest.raises(Exception, match="not a tunable"):
        bench.parse_set("nbr=3")


def test_the_script_prints_a_row_per_variant():
    done = subprocess.run([sys.executable, os.path.join(_DIR, "bench_sssp_phases.py"),
                           "--scale", "10", "--roots", "2", "--rounds", "2", "--set",
                           "PULL_RATIO=0"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| variant |") and len(rows) == 3
    assert rows[1].startswith("| defaults |") and rows[2].startswith("| PULL_RATIO=0.0 |")
    assert rows[2].split("|")[3].strip() == "0.0"  # no pull
    assert rows[2].split("|")[-2].strip() == "0.00"  # no pull counted
