"""High-diameter graphs (paths, cycles, chains, trees, grids) against scipy's distances, from
several roots, with 1 and 2 threads and in the deterministic mode: the chain step of
``steps.thin_frontier`` (a degree-2 vertex tests only its non-parent neighbour), the serial
level kernel of ``steps.queue_topdown`` and the end of a search (``steps.search_state``:
vertices not reached marked by no thread, one, or all)."""
from __future__ import annotations

import importlib

import numba
import numpy as np
import pytest
import scipy.sparse as sp

from pygraph500.bfs import ALGORITHMS, steps
from pygraph500.bfs.direction_optimizing import bfs_direction_optimizing
from pygraph500.graph import EdgeList, build_csr
from pygraph500.primitives.hints import hold, prefetch

from test_bfs import check_result, grid_edges

search_state = importlib.import_module("pygraph500.bfs.steps.search_state")

# The algorithms whose serial levels and chain walks these graphs exercise.
QUEUE_ALGORITHMS = ("direction-optimizing", "topdown-queue", "topdown-bitmap")


def relabelled(rng, n, src, dst):
    """The same graph under a random permutation of the labels: a chain's neighbours are
    then anywhere, above or below the vertex (the chain step's x + y - parent wraps)."""
    perm = rng.permutation(n)
    return perm[np.asarray(src)], perm[np.asarray(dst)]


def shapes(rng):
    """name -> (n, src, dst): chains in every arrangement the chain step meets."""
    g = {}
    n = 301
    a = np.arange(n)
    g["path"] = (n, a[:-1], a[1:])
    g["path-relabelled"] = (n, *relabelled(rng, n, a[:-1], a[1:]))
    # numbered in order but for a few swapped labels: the walk on the labels
    # (``thin_frontier._run_in_order``) stops at each and the general step goes on
    kinked = a.copy()
    kinked[[100, 101]] = kinked[[101, 100]]
    kinked[[200, 205]] = kinked[[205, 200]]
    kinked[[280, 300]] = kinked[[300, 280]]
    g["path-kinked"] = (n, kinked[:-1], kinked[1:])
    g["cycle-odd"] = (n, a, np.roll(a, -1))  # the two walks meet at an edge
    g["cycle-even"] = (n - 1, a[:-1], np.roll(a[:-1], -1))  # ... at a vertex
    g["cycle-relabelled"] = (n, *relabelled(rng, n, a, np.roll(a, -1)))
    # a chain into a cycle (a lollipop) and two cycles sharing a vertex (a figure eight)
    g["lollipop"] = (n, np.concatenate([a[:200], a[200:-1], [n - 1]]),
                     np.concatenate([a[1:201], a[201:], [200]]))
    g["figure-eight"] = (n, np.concatenate([a[:150], a[150:-1], [n - 1, 0]]),
                         np.concatenate([np.append(a[1:150], 0), a[151:], [0, 150]]))
    # a random tree (each vertex joins one before it: long chains and forks)
    parent = np.array([int(rng.integers(max(0, v - 3), v)) for v in range(1, n)])
    g["tree"] = (n, parent, a[1:])
    # a caterpillar: a spine of degree-3 vertices (the general step on a thin frontier)
    g["caterpillar"] = (2 * 150, np.concatenate([a[:149], a[:150]]),
                        np.concatenate([a[1:150], a[150:300]]))
    g["grid"] = (40 * 25, *grid_edges(40, 25))
    g["grid-relabelled"] = (40 * 25, *relabelled(rng, 40 * 25, *grid_edges(40, 25)))
    # paths with vertices no search reaches: the end marks them
    g["path+isolated"] = (n + 50, a[:-1], a[1:])
    return g


GRAPHS = shapes(np.random.default_rng(17))
_BUILT = {}


def graph(name):
    if name not in _BUILT:
        n, src, dst = GRAPHS[name]
        g = build_csr(EdgeList(np.asarray(src, np.int64), np.asarray(dst, np.int64), n))
        a = sp.csr_matrix((np.ones(g.indices.size), g.indices, g.indptr), shape=(n, n))
        _BUILT[name] = (g, a)
    return _BUILT[name]


def roots(g):
    n = g.num_vertices
    return sorted({0, 1, n // 4, n // 2, n - 1, int(np.argmax(g.degree()))})


@pytest.mark.parametrize("algo", QUEUE_ALGORITHMS)
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_chains_match_scipy(threads, algo, name):
    g, a = graph(name)
    for root in roots(g):
        check_result(g, a, root, ALGORITHMS[algo](g, root), algo)
        no_depth = ALGORITHMS[algo](g, root, depth=False)
        assert no_depth.depth is None
        np.testing.assert_array_equal(no_depth.parent >= 0,
                                      ALGORITHMS[algo](g, root).parent >= 0)


@pytest.mark.parametrize("grain", [1, 3, 1 << 10])
@pytest.mark.parametrize("name", ["path", "path-kinked", "path-relabelled", "cycle-odd",
                                  "cycle-even", "lollipop", "tree", "grid"])
def test_chains_any_timing_grain(monkeypatch, grain, name):
    """The walks stop where a timing batch closes and resume with the chain's state."""
    monkeypatch.setattr(steps, "TIME_GRAIN", grain)
    g, a = graph(name)
    for root in roots(g):
        check_result(g, a, root, bfs_direction_optimizing(g, root), "direction-optimizing")


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_chains_deterministic(threads, name):
    """deterministic=True: each vertex's parent is its smallest neighbour one level up."""
    g, a = graph(name)
    for root in roots(g):
        res = bfs_direction_optimizing(g, root, deterministic=True)
        check_result(g, a, root, res, "direction-optimizing")
        depth = res.depth
        for v in np.flatnonzero(depth > 0).tolist():
            nb = g.neighbours(v)
            assert res.parent[v] == nb[depth[nb] == depth[v] - 1].min()


UNREACHED = [0, 1, 2, search_state._SERIAL_UNREACHED, search_state._SERIAL_UNREACHED + 1]


@pytest.mark.parametrize("unreached", UNREACHED)
def test_unreached_vertices_marked(threads, unreached):
    """However many vertices a search does not reach (none: no marking; a few: this thread
    marks them; more than ``_SERIAL_UNREACHED``: all threads do), each gets -1 and the
    reached ones their tree, with and without depths."""
    n_path = 1000
    n = n_path + unreached
    src = np.arange(n_path - 1, dtype=np.int64)
    g = build_csr(EdgeList(src, src + 1, n))
    for algo in QUEUE_ALGORITHMS + ("bottomup",):
        res = ALGORITHMS[algo](g, 10)
        np.testing.assert_array_equal(res.depth[:n_path], np.abs(np.arange(n_path) - 10))
        assert np.all(res.parent[n_path:] == -1) and np.all(res.depth[n_path:] == -1)
        assert np.all(res.parent[:n_path] >= 0)
        res = ALGORITHMS[algo](g, 10, depth=False)
        assert np.all(res.parent[n_path:] == -1) and np.all(res.parent[:n_path] >= 0)


def test_count_reached():
    rng = np.random.default_rng(3)
    words = rng.integers(0, 2**63, 100, dtype=np.int64).astype(np.uint64) * np.uint64(2)
    expected = sum(bin(int(w)).count("1") for w in words)
    assert search_state.count_reached(words) == expected
    assert search_state.count_reached(np.zeros(0, np.uint64)) == 0


@numba.njit
def _prefetch_anywhere(a, idx):
    total = 0
    for i in idx:
        prefetch(a, i)  # a hint: any index, even past the end, reads nothing
        hold(a)
        total += 1
    return total + a[0]


def test_prefetch_and_hold_change_nothing():
    a = np.arange(10, dtype=np.int64)
    idx = np.array([0, 9, 10, 1 << 20, -5], dtype=np.int64)
    assert _prefetch_anywhere(a, idx) == 5
    np.testing.assert_array_equal(a, np.arange(10))
