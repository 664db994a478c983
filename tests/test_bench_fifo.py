"""The bare FIFO BFS of benchmarks/bench_fifo.py (the floor our thin-graph searches are set
against) is scipy's breadth_first_order: the same visit order and predecessors on the same
CSR, so the benchmark compares like with like."""
import importlib.util
import os

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order

from pygraph500 import EdgeList, build_csr, kronecker

_PATH = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "bench_fifo.py")


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_fifo", _PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _graphs():
    rng = np.random.default_rng(3)
    src = np.arange(99, dtype=np.int64)
    side = 12
    ids = np.arange(side * side, dtype=np.int64).reshape(side, side)
    yield "path", EdgeList(src, src + 1, 100)
    yield "grid", EdgeList(np.concatenate((ids[:, :-1].ravel(), ids[:-1, :].ravel())),
                           np.concatenate((ids[:, 1:].ravel(), ids[1:, :].ravel())), side * side)
    yield "kronecker", kronecker(9, 8)
    yield "two parts", EdgeList(rng.integers(0, 50, 300), rng.integers(0, 50, 300), 120)


@pytest.mark.parametrize("name,edges", list(_graphs()), ids=[g[0] for g in _graphs()])
def test_fifo_bfs_is_scipys_breadth_first_order(bench, name, edges):
    g = build_csr(edges)
    n = g.num_vertices
    a = sp.csr_matrix((np.ones(g.indices.shape[0]), g.indices, g.indptr), shape=(n, n))
    for root in (0, n // 3, n - 1):
        order, pred = breadth_first_order(a, root, directed=True, return_predecessors=True)
        parent, visited = bench.fifo_bfs(g.indptr, g.indices, root)
        np.testing.assert_array_equal(visited, order)
        want = pred.astype(np.int64)
        want[want < 0] = -1
        want[root] = root
        np.testing.assert_array_equal(parent, want)


def test_bench_fifo_runs(bench, capsys):
    bench.main(["--graphs", "path", "grid", "--path", "2000", "--grid", "30", "--repeats", "2",
                "--serial-work", "64"])
    out = capsys.readouterr().out
    for row in ("| scipy |", "| fifo |", "| ours: direction-optimizing |",
                "| ours: direction-optimizing, SERIAL_WORK=64 |"):
        assert out.count(row) == 2
