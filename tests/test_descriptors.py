"""The algorithm records (``descriptors``): each says what its function takes, refuses what it
does not, and the lists the rest of the package reads are derived from them."""
from __future__ import annotations

import inspect
import subprocess
import sys

import numpy as np
import pytest

from pygraph500.benchmark import GPU_ALGORITHMS, RunConfig
from pygraph500.bfs import ALGORITHMS, DETERMINISTIC_ALGORITHMS
from pygraph500.descriptors import Algorithm, Registry
from pygraph500.distributed import DIST_ALGORITHMS
from pygraph500.errors import InputError
from pygraph500.graph import EdgeList, build_csr
from pygraph500.sssp import ALGORITHMS as SSSP_ALGORITHMS

RECORDS = [*ALGORITHMS.values(), *SSSP_ALGORITHMS.values()]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: f"{r.kernel}-{r.name}")
def test_a_record_names_exactly_its_functions_options(rec):
    params = inspect.signature(rec.function).parameters.values()
    assert not [p for p in params if p.kind is p.VAR_KEYWORD], \
        f"{rec.name}: a function that swallows **options hides a misspelt option"
    keyword = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    assert sorted(keyword) == sorted(rec.option_help), rec.name
    assert all(rec.option_help.values()), f"{rec.name}: every option has its help"
    assert [o.name for o in rec.options] == keyword
    assert rec.summary and rec.kernel in ("bfs", "sssp")


def _path(n=6):
    a = np.arange(n - 1)
    return build_csr(EdgeList(a, a + 1, n))


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_an_option_not_taken_is_refused_in_one_line(name):
    with pytest.raises(InputError) as e:
        ALGORITHMS[name](_path(), 0, deterministc=True)
    msg = str(e.value)
    assert "\n" not in msg and name in msg and "'deterministc'" in msg


def test_sssp_refuses_an_option_not_taken_too():
    """(before anything else: the graph is not even weighted)"""
    with pytest.raises(InputError, match="SSSP algorithm dijkstra takes no option 'delta'"):
        SSSP_ALGORITHMS["dijkstra"](_path(), 0, delta=1.0)


def test_unknown_algorithm_names_the_known_ones():
    with pytest.raises(InputError, match="unknown BFS algorithm 'bfs-x'; known: bitmap-filter, bottomup"):
        ALGORITHMS.get_algorithm("bfs-x")


def test_the_lists_are_derived_from_the_records():
    assert set(DETERMINISTIC_ALGORITHMS) == {n for n, a in ALGORITHMS.items()
                                             if "deterministic" in a.option_help}
    assert set(GPU_ALGORITHMS) == {n for n, a in ALGORITHMS.items() if "gpu" in a.backends}
    # the distributed engine implements its own two; the records say which they are
    assert set(ALGORITHMS.names(lambda a: a.distributed)) == set(DIST_ALGORITHMS)
    assert ALGORITHMS["determinate"].prepare is not None
    assert [n for n, a in ALGORITHMS.items() if a.prepare] == ["determinate"]


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_declared_directions_are_the_ones_taken(name):
    """On a small Kronecker-like graph each algorithm's levels go only the ways it declares."""
    rng = np.random.default_rng(1)
    n = 1 << 9
    src, dst = rng.integers(0, n, 8 * n), rng.integers(0, n, 8 * n)
    g = build_csr(EdgeList(src, dst, n))
    root = int(np.argmax(g.degree()))
    levels = ALGORITHMS[name](g, root).levels
    assert set(levels.direction) <= set(ALGORITHMS[name].directions)
    if ALGORITHMS[name].examines_every_edge:
        assert np.all(levels.edges_examined == g.num_directed_edges)


def test_run_config_checks_read_the_records():
    with pytest.raises(InputError, match="runs on the CPU only"):
        RunConfig.of(scale=8, algorithm="topdown-bitmap", backend="numpy-checked").check()
    with pytest.raises(InputError, match="workers applies to algorithm determinate"):
        RunConfig.of(scale=8, algorithm="topdown-queue", workers=2).check()
    RunConfig.of(scale=8, algorithm="hybrid", backend="numpy-checked").check()


def test_a_new_algorithm_needs_only_its_record():
    """A registry made with one more record gives it to every derived list."""
    def bfs_new(graph, root, *, depth=True, deterministic=False):
        return ALGORITHMS["reference"](graph, root, depth=depth, deterministic=deterministic)

    rec = Algorithm("new", "bfs", bfs_new, "a test's algorithm", "",
                    {"depth": "d", "deterministic": "canonical"})
    reg = Registry("bfs", [*ALGORITHMS.values(), rec], default="direction-optimizing")
    assert "new" in reg.names(lambda a: a.deterministic)
    assert "| `new` | a test's algorithm |" in reg.table()
    assert reg["new"](_path(), 0).parent.tolist() == [0, 0, 1, 2, 3, 4]


def test_info_lists_every_algorithm():
    out = subprocess.run([sys.executable, "-m", "pygraph500", "info", "--algorithms"],
                         capture_output=True, text=True, check=True).stdout
    for name in [*ALGORITHMS, *SSSP_ALGORITHMS]:
        assert f"| `{name}`" in out
