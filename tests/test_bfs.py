"""Every registered BFS algorithm against scipy.sparse.csgraph distances, plus tree validity."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

from pygraph500.bfs import ALGORITHMS, BFSResult
from pygraph500.bfs import direction_optimizing as do_module
from pygraph500.bfs.direction_optimizing import bfs_direction_optimizing
from pygraph500.errors import InputError
from pygraph500.graph import EdgeList, build_csr

# ---- graphs ---------------------------------------------------------------------------------

def rmat_edges(rng, scale, m):
    src = np.zeros(m, dtype=np.int64)
    dst = np.zeros(m, dtype=np.int64)
    for _ in range(scale):
        r = rng.random(m)
        src = 2 * src + (r > 0.76)
        dst = 2 * dst + (((r > 0.57) & (r <= 0.76)) | (r > 0.95))
    perm = rng.permutation(1 << scale)  # scramble labels, as Graph500 does
    return perm[src], perm[dst]


def path_edges(n):
    a = np.arange(n - 1)
    return a, a + 1


def grid_edges(rows, cols):
    idx = np.arange(rows * cols).reshape(rows, cols)
    src = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    dst = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    return src, dst


def make_graphs():
    rng = np.random.default_rng(42)
    g = {}
    n = 400
    g["sparse-disconnected"] = (n, *(rng.integers(0, n, 300) for _ in range(2)))
    n = 300
    g["dense-random"] = (n, *(rng.integers(0, n, 3000) for _ in range(2)))
    g["rmat-10"] = (1 << 10, *rmat_edges(rng, 10, 16 << 10))
    g["rmat-13"] = (1 << 13, *rmat_edges(rng, 13, 16 << 13))
    g["path"] = (500, *path_edges(500))
    g["star"] = (101, np.zeros(100, dtype=np.int64), np.arange(1, 101))
    g["grid"] = (30 * 20, *grid_edges(30, 20))
    src, dst = path_edges(50)
    g["two-components+isolated"] = (
        120, np.concatenate([src, 60 + src[:40]]), np.concatenate([dst, 60 + dst[:40]]))
    g["single-vertex"] = (1, np.array([0]), np.array([0]))
    return g


GRAPHS = make_graphs()
_BUILT = {}


def graph(name):
    if name not in _BUILT:
        n, src, dst = GRAPHS[name]
        g = build_csr(EdgeList(np.asarray(src, np.int64), np.asarray(dst, np.int64), n))
        a = sp.csr_matrix((np.ones(g.indices.size), g.indices, g.indptr), shape=(n, n))
        _BUILT[name] = (g, a)
    return _BUILT[name]


def roots_for(g, k=3):
    deg = g.degree()
    rng = np.random.default_rng(g.num_vertices)
    roots = {0, int(np.argmax(deg))}
    roots.update(int(r) for r in rng.integers(0, g.num_vertices, k))
    isolated = np.flatnonzero(deg == 0)
    if isolated.size:
        roots.add(int(isolated[0]))
    return sorted(roots)


# ---- the checks -----------------------------------------------------------------------------

def check_result(g, a, root, res):
    n = g.num_vertices
    assert isinstance(res, BFSResult)
    assert res.root == root
    parent, depth = res.parent, res.depth
    assert parent.dtype == np.int64 and parent.shape == (n,)
    assert depth is not None and depth.shape == (n,)
    assert depth.dtype in (np.int32, np.int64)

    dist = shortest_path(a, method="D", unweighted=True, indices=root)
    expected = np.where(np.isinf(dist), -1, dist).astype(np.int64)
    np.testing.assert_array_equal(depth, expected)

    visited = depth >= 0
    np.testing.assert_array_equal(parent >= 0, visited)
    assert parent[root] == root
    others = np.flatnonzero(visited)
    others = others[others != root]
    p = parent[others]
    assert np.all(depth[p] == depth[others] - 1)
    # parent[v] is a neighbour of v (lists are sorted: binary search inside each row)
    for v, pv in zip(others.tolist(), p.tolist()):
        nb = g.neighbours(v)
        i = np.searchsorted(nb, pv)
        assert i < nb.size and nb[i] == pv, (v, pv)

    levels = res.levels
    assert [lv.level for lv in levels] == list(range(len(levels)))
    assert sum(lv.discovered for lv in levels) + 1 == visited.sum()
    assert levels[0].frontier == 1
    for lv, nxt in zip(levels, levels[1:]):
        assert nxt.frontier == lv.discovered
    deg = g.degree()
    for lv in levels:
        assert lv.direction in ("top-down", "bottom-up")
        assert lv.time >= 0.0
        assert lv.frontier == np.count_nonzero(depth == lv.level)
        assert lv.discovered == np.count_nonzero(depth == lv.level + 1)
        if lv.direction == "top-down":
            assert lv.edges_examined == deg[depth == lv.level].sum()
        else:
            assert 0 <= lv.edges_examined <= deg[(depth < 0) | (depth > lv.level)].sum()
    return levels


@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_algorithms_match_scipy(threads, algo, name):
    g, a = graph(name)
    for root in roots_for(g):
        check_result(g, a, root, ALGORITHMS[algo](g, root))


@pytest.mark.parametrize("name", ["rmat-10", "rmat-13", "grid", "sparse-disconnected", "star"])
def test_direction_optimizing_forced_directions(threads, name):
    g, a = graph(name)
    for root in roots_for(g):
        # alpha -> infinity: bottom-up as soon as the frontier grows (level 0 counts as growing)
        levels = check_result(g, a, root, bfs_direction_optimizing(g, root, alpha=1e12))
        if len(levels) > 2:
            assert levels[0].direction == "bottom-up"
        # alpha -> 0: top-down only
        levels = check_result(g, a, root, bfs_direction_optimizing(g, root, alpha=1e-12))
        assert all(lv.direction == "top-down" for lv in levels)
        # beta huge: stay bottom-up until the frontier is (nearly) empty; tiny: leave it as soon
        # as the frontier shrinks
        for beta in (1e12, 1e-9):
            levels = check_result(
                g, a, root, bfs_direction_optimizing(g, root, alpha=1e12, beta=beta))
            if beta == 1e12 and len(levels) > 1:  # N / beta < 1: never leaves bottom-up
                assert all(lv.direction == "bottom-up" for lv in levels)


def test_direction_optimizing_switches_both_ways():
    g, a = graph("rmat-13")
    root = int(np.argmax(g.degree()))
    levels = check_result(g, a, root, bfs_direction_optimizing(g, root))
    dirs = [lv.direction for lv in levels]
    assert "bottom-up" in dirs and dirs[0] == "top-down"


@pytest.mark.parametrize("name", ["rmat-13", "rmat-10", "grid", "dense-random"])
def test_direction_optimizing_parallel_top_down(threads, monkeypatch, name):
    """Force the parallel top-down kernel on small graphs, with tiny flush buffers."""
    monkeypatch.setattr(do_module, "SERIAL_WORK", 0)
    monkeypatch.setattr(do_module, "_BUF", 3)
    g, a = graph(name)
    for root in roots_for(g):
        levels = check_result(g, a, root, bfs_direction_optimizing(g, root, alpha=1e-12))
        assert all(lv.direction == "top-down" for lv in levels)
        check_result(g, a, root, bfs_direction_optimizing(g, root))


def test_high_diameter_path_is_fast_enough():
    """A long path: one serial kernel call runs thousands of levels."""
    n = 100_000
    src, dst = path_edges(n)
    g = build_csr(EdgeList(src, dst, n))
    for algo in sorted(ALGORITHMS):
        res = ALGORITHMS[algo](g, 0)
        np.testing.assert_array_equal(res.depth, np.arange(n))
        np.testing.assert_array_equal(res.parent[1:], np.arange(n - 1))
        assert len(res.levels) == n


@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
def test_bad_root(algo):
    g, _ = graph("path")
    for root in (-1, g.num_vertices, 1.5, "3"):
        with pytest.raises(InputError):
            ALGORITHMS[algo](g, root)
    res = ALGORITHMS[algo](g, np.int64(3))  # numpy integers are fine
    assert res.root == 3 and isinstance(res.root, int)


@pytest.mark.parametrize("value", [0, -1.0, float("nan"), "x"])
def test_bad_alpha_beta(value):
    g, _ = graph("path")
    with pytest.raises(InputError):
        bfs_direction_optimizing(g, 0, alpha=value)
    with pytest.raises(InputError):
        bfs_direction_optimizing(g, 0, beta=value)
