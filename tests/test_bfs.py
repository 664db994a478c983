"""Every registered BFS algorithm against scipy.sparse.csgraph distances, plus tree validity."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

from pygraph500.benchmark import choose_roots
from pygraph500.bfs import ALGORITHMS, BFSResult, LevelTable, check_levels
from pygraph500.bfs import steps
from pygraph500.bfs.direction_optimizing import bfs_direction_optimizing
from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.graph import EdgeList, build_csr
from pygraph500.validate import validate

from conftest import rmat_like

# The traits the tests need, from the records (``descriptors.Algorithm``).
TOP_DOWN_ONLY = list(ALGORITHMS.names(lambda a: a.directions == ("top-down",)))
BOTTOM_UP_ONLY = list(ALGORITHMS.names(lambda a: a.directions == ("bottom-up",)))
# Quadratic on a long path (a bottom-up only search rescans every unvisited vertex at every
# level) or paying tens of microseconds of Python per level: run on a short path instead.
SLOW_ON_PATHS = set(ALGORITHMS.names(lambda a: a.python_levels or a.name in BOTTOM_UP_ONLY))
EVERY_EDGE_PER_LEVEL = set(ALGORITHMS.names(lambda a: a.examines_every_edge))

# ---- graphs ---------------------------------------------------------------------------------

def rmat_edges(rng, scale, m):
    src, dst = rmat_like(rng, scale, m)
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

def check_result(g, a, root, res, algo=None):
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
    assert isinstance(levels, LevelTable)
    check_levels(res)
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
        if algo in EVERY_EDGE_PER_LEVEL:
            assert lv.edges_examined == g.num_directed_edges
        elif lv.direction == "top-down":
            assert lv.edges_examined == deg[depth == lv.level].sum()
        else:
            assert 0 <= lv.edges_examined <= deg[(depth < 0) | (depth > lv.level)].sum()
    return levels


@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_algorithms_match_scipy(threads, algo, name):
    g, a = graph(name)
    for root in roots_for(g):
        check_result(g, a, root, ALGORITHMS[algo](g, root), algo)


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


@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
def test_kronecker_all_roots_validate(threads, algo):
    """A Graph500 Kronecker graph, every search key of the reference rule: each tree passes the
    Graph500 validation and its depths are the shortest-path distances."""
    g, a, edges, roots, dist = kronecker_case()
    fn = ALGORITHMS[algo]
    for root, d in zip(roots.tolist(), dist):
        res = fn(g, root)
        report = validate(edges, res.parent, root)
        assert report.valid, (algo, root, report.rule, report.message)
        np.testing.assert_array_equal(res.depth, d)
        assert sum(lv.discovered for lv in res.levels) + 1 == np.count_nonzero(d >= 0)


@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
def test_without_depth(threads, algo):
    """depth=False: no depth array; the tree still validates and the levels are the same."""
    g, a, edges, roots, dist = kronecker_case()
    fn = ALGORITHMS[algo]
    for root, d in list(zip(roots.tolist(), dist))[:8]:
        res = fn(g, root, depth=False)
        assert res.depth is None
        assert validate(edges, res.parent, root).valid
        np.testing.assert_array_equal(res.parent >= 0, d >= 0)
        np.testing.assert_array_equal(res.levels.frontier, np.bincount(d[d >= 0]))
    for name in ("path", "two-components+isolated", "single-vertex"):
        h, _ = graph(name)
        res = fn(h, 0, depth=False)
        assert res.depth is None and res.parent[0] == 0
        np.testing.assert_array_equal(res.parent, fn(h, 0).parent)  # unique trees here


_KRON = {}


def kronecker_case(scale=11):
    if scale not in _KRON:
        edges = kronecker(scale, edgefactor=16, seed=(2, 3))
        g = build_csr(edges)
        n = g.num_vertices
        a = sp.csr_matrix((np.ones(g.indices.size), g.indices, g.indptr), shape=(n, n))
        roots = choose_roots(g.degree() > 0)
        assert len(roots) == 64
        dist = shortest_path(a, method="D", unweighted=True, indices=roots)
        dist = np.where(np.isinf(dist), -1, dist).astype(np.int64)
        _KRON[scale] = (g, a, edges, roots, dist)
    return _KRON[scale]


@pytest.mark.parametrize("algo", TOP_DOWN_ONLY + BOTTOM_UP_ONLY)
@pytest.mark.parametrize("name", ["rmat-13", "grid", "two-components+isolated"])
def test_fixed_direction_algorithms(threads, algo, name):
    g, a = graph(name)
    want = "bottom-up" if algo in BOTTOM_UP_ONLY else "top-down"
    for root in roots_for(g):
        levels = check_result(g, a, root, ALGORITHMS[algo](g, root), algo)
        assert all(lv.direction == want for lv in levels)


@pytest.mark.parametrize("algo", ["bottomup", "spmv"])
@pytest.mark.parametrize("name", ["rmat-10", "grid", "dense-random"])
def test_smallest_parent(threads, algo, name):
    """bottomup stops at the first frontier neighbour of a sorted list, spmv's semiring takes
    the minimum: both give every vertex its smallest neighbour one level up."""
    g, a = graph(name)
    for root in roots_for(g):
        res = ALGORITHMS[algo](g, root)
        check_result(g, a, root, res, algo)
        depth = res.depth
        for v in np.flatnonzero(depth > 0).tolist():
            nb = g.neighbours(v)
            assert res.parent[v] == nb[depth[nb] == depth[v] - 1].min()


def test_direction_optimizing_switches_both_ways():
    g, a = graph("rmat-13")
    root = int(np.argmax(g.degree()))
    levels = check_result(g, a, root, bfs_direction_optimizing(g, root))
    dirs = [lv.direction for lv in levels]
    assert "bottom-up" in dirs and dirs[0] == "top-down"


@pytest.mark.parametrize("name", ["rmat-13", "rmat-10", "grid", "dense-random", "star"])
def test_parallel_top_down_steps(threads, monkeypatch, name):
    """Force the parallel top-down kernels on small graphs, with tiny flush buffers."""
    monkeypatch.setattr(steps, "SERIAL_WORK", 0)
    monkeypatch.setattr(steps, "BUF", 3)
    g, a = graph(name)
    for root in roots_for(g):
        levels = check_result(g, a, root, bfs_direction_optimizing(g, root, alpha=1e-12))
        assert all(lv.direction == "top-down" for lv in levels)
        check_result(g, a, root, bfs_direction_optimizing(g, root))
        for algo in ("topdown-queue", "topdown-bitmap"):
            check_result(g, a, root, ALGORITHMS[algo](g, root), algo)


@pytest.mark.parametrize("grain", [0, 1, 7, 1 << 62])
def test_level_times_by_batches(monkeypatch, grain):
    """Every grain of the level clock gives one non-negative time per level."""
    monkeypatch.setattr(steps, "TIME_GRAIN", grain)
    g, a = graph("rmat-13")
    for algo in sorted(ALGORITHMS):
        levels = check_result(g, a, 0, ALGORITHMS[algo](g, 0), algo)
        assert levels.time.shape == (len(levels),) and np.all(levels.time >= 0)


def test_high_diameter_path_is_fast_enough():
    """A long path: one serial kernel call runs thousands of levels; never bottom-up."""
    n = 20_000
    src, dst = path_edges(n)
    g = build_csr(EdgeList(src, dst, n))
    for algo in sorted(ALGORITHMS):
        m = n if algo not in SLOW_ON_PATHS else 500
        h = g if m == n else build_csr(EdgeList(*path_edges(m), m))
        for root in (0, m // 3):
            res = ALGORITHMS[algo](h, root)
            np.testing.assert_array_equal(res.depth, np.abs(np.arange(m) - root))
            np.testing.assert_array_equal(res.parent[root + 1:], np.arange(root, m - 1))
            np.testing.assert_array_equal(res.parent[:root], np.arange(1, root + 1))
            assert res.parent[root] == root
            assert len(res.levels) == max(root, m - 1 - root) + 1
            if algo != "bottomup":
                assert not np.any(res.levels.direction_code)


def test_direction_optimizing_stays_top_down_on_grids():
    g = build_csr(EdgeList(*(np.asarray(x, np.int64) for x in grid_edges(300, 300)), 90_000))
    for root in (0, 45_150):
        res = bfs_direction_optimizing(g, root)
        assert res.levels.direction == ["top-down"] * len(res.levels)


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


def thin_graph(rng, n):
    """Long chains meeting at forks, joins, triangles and leaves: frontiers of one or two
    vertices that grow, shrink and change their edge counts (the register walk of
    ``steps.thin_frontier`` and every way out of it)."""
    src, dst = [], []
    for v in range(1, n):
        if rng.random() < 0.9:
            u = v - 1                                # extend the chain
        else:
            u = int(rng.integers(0, v))              # a fork from anywhere before
        src.append(u)
        dst.append(v)
        if rng.random() < 0.03 and v > 2:            # a chord: a join or a triangle
            src.append(v)
            dst.append(int(rng.integers(max(0, v - 5), v)))
    return build_csr(EdgeList(np.array(src, np.int64), np.array(dst, np.int64), n))


@pytest.mark.parametrize("grain", [1, 5, 1 << 10])
@pytest.mark.parametrize("seed", range(4))
def test_thin_frontiers_match_scipy(seed, grain, monkeypatch):
    """Frontiers of one or two vertices kept in registers: depths, parents and every level's
    frontier, discoveries and edges equal what scipy's distances say, whatever the timing
    grain (it cuts the runs of levels) and the log's growth (it starts at 64 rows)."""
    monkeypatch.setattr(steps, "TIME_GRAIN", grain)
    rng = np.random.default_rng(seed)
    g = thin_graph(rng, 3000)
    a = sp.csr_matrix((np.ones(g.indices.size), g.indices, g.indptr), shape=(g.num_vertices,) * 2)
    for algo in ("topdown-queue", "direction-optimizing", "topdown-bitmap"):
        for root in (0, int(rng.integers(0, 3000)), 2999):
            check_result(g, a, root, ALGORITHMS[algo](g, root), algo)
