"""The cold run's parallel warm-up (benchmark.compile_ahead): how the parts are grouped, and
the tiny inputs each part makes without compiled code."""
import itertools

import networkx as nx
import numpy as np
import pytest

from pygraph500.benchmark import RunConfig
from pygraph500.benchmark.compile_ahead import (TINY_ROOT, balance, compile_ahead,
                                                tiny_bfs_tree, tiny_edges)
from pygraph500.benchmark.embedded import EmbeddedEngine


def _best_max(costs, groups):
    """Brute force: the smallest possible cost of the heaviest group."""
    names = list(costs)
    best = float("inf")
    for assign in itertools.product(range(groups), repeat=len(names)):
        loads = [0.0] * groups
        for name, g in zip(names, assign):
            loads[g] += costs[name]
        best = min(best, max(loads))
    return best


@pytest.mark.parametrize("costs", [
    {"search": 18.0, "generator": 5.5, "kernel 1 and checks": 14.0},
    {"search": 25.0, "generator": 9.0, "kernel 1": 6.0, "validation": 10.0},
    {"a": 1.0, "b": 1.0, "c": 1.0},
    {"a": 5.0, "b": 4.0, "c": 3.0, "d": 3.0, "e": 3.0},
    {"only": 2.0},
])
@pytest.mark.parametrize("groups", [1, 2, 3, 4, 8])
def test_balance_covers_every_part_once_heaviest_group_first(costs, groups):
    got = balance(costs, groups)
    assert sorted(n for g in got for n in g) == sorted(costs)
    assert 1 <= len(got) <= min(groups, len(costs))
    heaviest = max(costs, key=costs.get)
    assert heaviest in got[0]
    worst = max(sum(costs[n] for n in g) for g in got)
    # greedy (longest first) is within 4/3 of the best split (Graham's bound)
    assert worst <= _best_max(costs, min(groups, len(costs))) * 4 / 3 + 1e-9


def test_balance_of_the_embedded_parts_on_two_cores_puts_the_search_alone():
    parts = EmbeddedEngine(RunConfig.of(scale=6)).warm_up_parts()
    assert balance(parts, 2)[0] == ["search"]


@pytest.mark.parametrize("weighted", [False, True])
def test_tiny_edges_look_like_the_generators(weighted):
    from pygraph500 import kronecker

    tiny, gen = tiny_edges(weighted), kronecker(4, 1, weights=weighted)
    assert tiny.src.dtype == gen.src.dtype and tiny.dst.dtype == gen.dst.dtype
    assert tiny.num_vertices == 16 and (tiny.src == tiny.dst).any()  # a self-loop
    if weighted:
        assert tiny.weight.dtype == gen.weight.dtype
        assert ((tiny.weight >= 0) & (tiny.weight < 1)).all()


def test_tiny_bfs_tree_is_a_bfs_tree_by_networkx():
    edges = tiny_edges()
    g = nx.Graph()
    g.add_nodes_from(range(edges.num_vertices))
    g.add_edges_from(zip(edges.src.tolist(), edges.dst.tolist()))
    level = nx.single_source_shortest_path_length(g, TINY_ROOT)
    parent = tiny_bfs_tree(edges)
    assert parent.dtype == np.int64 and parent[TINY_ROOT] == TINY_ROOT
    for v in range(edges.num_vertices):
        if v not in level:
            assert parent[v] == -1
        elif v != TINY_ROOT:
            assert g.has_edge(v, parent[v]) and level[parent[v]] == level[v] - 1


def test_tiny_search_graph_equals_kernel1s():
    """The search part's CSR (NumPy) is kernel 1's: same arrays, same dtypes."""
    from pygraph500 import build_csr
    from pygraph500.backend.arrays import get_backend
    from pygraph500.graph.build_array import build_csr_array

    tiny = tiny_edges()
    a, b = build_csr_array(tiny, get_backend("cpu")), build_csr(tiny)
    for x, y in ((a.indptr, b.indptr), (a.indices, b.indices)):
        assert x.dtype == y.dtype and x.flags.c_contiguous and np.array_equal(x, y)


class _Recorder:
    """An engine whose parts note the process that ran them."""

    def __init__(self, parts):
        self.parts, self.ran, self.config = parts, [], None

    def warm_up_parts(self):
        return self.parts

    def warm_up_part(self, name):
        self.ran.append(name)


def test_compile_ahead_on_one_core_leaves_everything_to_the_warm_up(monkeypatch):
    import pygraph500.benchmark.compile_ahead as ca

    monkeypatch.setattr(ca, "usable_cores", lambda: 1)
    engine = _Recorder({"search": 2.0, "validation": 1.0})
    compile_ahead(engine)
    assert engine.ran == []


def test_compile_ahead_runs_the_first_group_here_and_survives_failing_workers(monkeypatch):
    """The heaviest group runs in this process; a worker that cannot even unpickle its job
    (a class defined in a test module it cannot import the same way) changes nothing."""
    import pygraph500.benchmark.compile_ahead as ca

    monkeypatch.setattr(ca, "usable_cores", lambda: 2)
    engine = _Recorder({"search": 3.0, "validation": 1.0, "generator": 1.0})
    compile_ahead(engine)
    assert engine.ran == ["search"]


def _package_overloads():
    """Every (function, signature) the package's numba dispatchers hold in this process."""
    import sys

    from numba.core.registry import CPUDispatcher

    held = set()
    for name, module in list(sys.modules.items()):
        if name.startswith("pygraph500") and module is not None:
            for attr in vars(module).values():
                if isinstance(attr, CPUDispatcher):
                    held.update((attr.py_func.__qualname__, sig) for sig in attr.signatures)
    return held


@pytest.mark.parametrize("options", [
    {}, {"kernel": "both"}, {"sort_vertices": "degree"}, {"validate": False},
    {"algorithm": "topdown-queue"}, {"validation": "tuples"},
])
def test_the_parts_hold_every_kernel_the_warm_up_needs(options):
    """After the parts (here, in this process), the engine's warm-up needs no kernel, nor
    signature, that they did not compile or load."""
    engine = EmbeddedEngine(RunConfig.of(scale=6, **options))
    for name in engine.warm_up_parts():
        engine.warm_up_part(name)
    before = _package_overloads()
    engine.warm_up()
    assert _package_overloads() - before == set()


@pytest.mark.parametrize("validation", ["csr", "tuples"])
def test_a_files_warm_up_holds_the_checks_of_deep_trees(tmp_path, validation):
    """``graph500 bfs FILE`` on a path: after the file engine's warm-up, searching it and
    validating its trees (levels past int16's range; from one end short parent walks, from
    the other pointer jumping) compiles nothing, which the one timed validation would
    otherwise include."""
    from pygraph500.benchmark.embedded import FileEngine

    n = 40_000
    path = tmp_path / "path.txt"
    a = np.arange(n - 1)
    np.savetxt(path, np.stack([a, a + 1], axis=1), fmt="%d")
    engine = FileEngine(RunConfig.of(input=str(path), validation=validation), root=0)
    engine.warm_up()
    engine.load()
    engine.fits()
    engine.build()
    before = _package_overloads()
    for root in (0, n - 1):
        verdict = engine.validate(engine.fetch(engine.search(root)), root)
        assert verdict.valid
    assert _package_overloads() - before == set()
