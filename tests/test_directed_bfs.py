"""direction-optimizing on directed graphs: top-down over out-edges, bottom-up over in-edges
(``CSRGraph.in_edges``), Beamer's switch counting the unvisited vertices' in-edges. Checked
against scipy's directed distances, the graph's own edges (every parent an in-neighbour one
level up) and a brute-force canonical tree, on random digraphs and a Kronecker digraph,
for 1 and 2 threads, with levels left to the switch, forced bottom-up and forced top-down."""
from __future__ import annotations

import functools

import numba
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from scipy.sparse.csgraph import shortest_path

import pygraph500
from pygraph500.backend import memory
from pygraph500.bfs import ALGORITHMS, check_levels, steps
from pygraph500.bfs.direction_optimizing import TOP_DOWN_EDGE_COST
from pygraph500.errors import InputError, ResourceError
from pygraph500.generator import kronecker
from pygraph500.graph import EdgeList, build_csr, directed_csr

SEARCH = ALGORITHMS["direction-optimizing"]
THREADS = [1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1]
# (alpha, beta) of the searches: the switch as shipped; bottom-up from the first level on
# (and back when the frontier shrinks); bottom-up to the end; top-down only
SWITCHES = [(15.0, 18.0), (1e12, 18.0), (1e12, 1e12), (1e-12, 18.0)]


def oracle(g, root):
    """(scipy's distances, -1 where unreached; the canonical parents by brute force: the
    smallest in-neighbour one level up) of the directed graph ``g``."""
    n = g.num_vertices
    a = sp.csr_array((np.ones(g.indices.shape[0]), g.indices, g.indptr), shape=(n, n))
    dist = shortest_path(a, unweighted=True, directed=True, indices=root)
    depth = np.where(np.isinf(dist), -1, dist).astype(np.int64)
    src = np.repeat(np.arange(n), np.diff(g.indptr))
    dst = g.indices.astype(np.int64)
    up = (depth[dst] > 0) & (depth[src] == depth[dst] - 1)  # src one level above dst
    parent = np.full(n, np.iinfo(np.int64).max)
    np.minimum.at(parent, dst[up], src[up])
    parent[depth < 0] = -1
    parent[root] = root
    return depth, parent


def check_search(g, root, depth, canonical):
    """Every search of ``SWITCHES``, default and deterministic: scipy's
    distances, parents that are in-neighbours one level up, the canonical tree when asked,
    a level table that keeps the contract. Returns the directions the levels took."""
    edges = set(zip(np.repeat(np.arange(g.num_vertices), np.diff(g.indptr)).tolist(),
                    g.indices.tolist()))
    directions = set()
    for alpha, beta in SWITCHES:
        for det in (False, True):
            res = SEARCH(g, root, alpha=alpha, beta=beta, deterministic=det)
            np.testing.assert_array_equal(res.depth, depth)
            reached = np.flatnonzero(res.parent >= 0)
            assert np.array_equal(reached, np.flatnonzero(depth >= 0))
            assert res.parent[root] == root
            for v in reached[reached != root].tolist():
                p = int(res.parent[v])
                assert (p, v) in edges and depth[p] == depth[v] - 1, (alpha, beta, det, v, p)
            if det:
                np.testing.assert_array_equal(res.parent, canonical)
            check_levels(res)
            directions |= set(res.levels.direction)
    return directions


@functools.lru_cache(maxsize=None)
def kronecker_digraph(scale):
    e = kronecker(scale, 16, (2, 3))
    return directed_csr(e.src, e.dst, e.num_vertices)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 90), st.integers(0, 500), st.integers(0, 2**32 - 1), st.booleans())
def test_random_digraphs(n, m, seed, parallel):
    """Random digraphs (duplicates and self-loops in the input), random roots, 1 and 2
    threads; ``parallel``: every top-down level over all threads (steps.SERIAL_WORK = 0)."""
    rng = np.random.default_rng(seed)
    g = directed_csr(rng.integers(0, n, m), rng.integers(0, n, m), n)
    root = int(rng.integers(0, n))
    depth, canonical = oracle(g, root)
    old_threads, old_work = numba.get_num_threads(), steps.SERIAL_WORK
    try:
        steps.SERIAL_WORK = 0 if parallel else old_work
        for t in THREADS:
            numba.set_num_threads(t)
            check_search(g, root, depth, canonical)
    finally:
        numba.set_num_threads(old_threads)
        steps.SERIAL_WORK = old_work


def expected_directions(g, depth, examined, alpha=15.0, beta=18.0, cost=TOP_DOWN_EDGE_COST):
    """The direction of each level by the switch's definition (``direction_optimizing``),
    from the oracle's levels: top-down -> bottom-up when the frontier grows and its
    out-degree sum * alpha exceeds the in-degree sum of the vertices not yet visited;
    bottom-up -> top-down by Beamer's test, or when the frontier's out-edges, at
    ``cost`` (TOP_DOWN_EDGE_COST) each, are fewer than the last bottom-up level's
    ``examined`` edges and the first test fails."""
    in_degree = np.bincount(g.indices, minlength=g.num_vertices)
    out_degree = np.diff(g.indptr)
    n = g.num_vertices
    m_u = g.num_directed_edges
    prev, bottom_up, out = 0, False, []
    for level in range(depth.max() + 1):
        frontier = depth == level
        m_u -= in_degree[frontier].sum()
        nf, m_f = int(frontier.sum()), int(out_degree[frontier].sum())
        forward = nf > prev and m_u > 0 and m_f * alpha > m_u
        if bottom_up:
            back = (nf <= n / beta and (nf < prev or not (m_u > 0 and m_f * alpha > m_u))
                    or m_f * cost < examined[level - 1] and not forward)
            bottom_up = not back
        else:
            bottom_up = forward
        out.append("bottom-up" if bottom_up else "top-down")
        prev = nf
    return out


@pytest.mark.parametrize("parallel", [False, True])
def test_kronecker_digraph(threads, monkeypatch, parallel):
    """A Kronecker digraph (the Graph500 tuples as directed edges), SCALE 14, from roots of
    small and large reach (the largest out-degree's): every level's direction is the one
    the switch's definition gives on in-degrees (the digraph's way back top-down decides
    some), and the levels forced bottom-up or top-down find the same depths and canonical
    parents."""
    if parallel:
        monkeypatch.setattr(steps, "SERIAL_WORK", 0)
    g = kronecker_digraph(14)
    out_degree = np.diff(g.indptr)
    rng = np.random.default_rng(14)
    roots = [int(v) for v in rng.permutation(g.num_vertices) if out_degree[v] > 0][:10]
    roots.append(int(np.argmax(out_degree)))
    directions = set()
    switched = came_back = 0
    for i, root in enumerate(roots):
        depth, canonical = oracle(g, root)
        if i < 4 or i == len(roots) - 1:
            directions |= check_search(g, root, depth, canonical)
        levels = SEARCH(g, root).levels
        want = expected_directions(g, depth, levels.edges_examined)
        assert list(levels.direction) == want, (root, list(levels.direction), want)
        switched += "bottom-up" in want
        came_back += want != expected_directions(g, depth, levels.edges_examined,
                                                 cost=np.inf)
    assert switched and came_back and directions == {"top-down", "bottom-up"}


def _switch_case(chain):
    """A digraph where counting the unvisited vertices' out-edges (GAP's m_u) and their
    in-edges (ours) disagree on the switch. The root reaches a hub through a path of
    ``chain`` vertices (claimed one a level: the register walk of ``thin_frontier``), or,
    ``chain`` 0, through one of its 10 neighbours; the hub fans out to 30 vertices with 10
    leaves each. Never reached: sources with an edge to each vertex of the path (``chain``
    0: to each of the 30), about 4,000 edges, and a cluster of 100 vertices with 10 edges
    each among themselves. Returns (graph, the level at which the 30 are the frontier)."""
    hub = chain or 1
    src = [0] + list(range(1, chain)) if chain else [0] * 10
    dst = list(range(1, chain + 1)) if chain else list(range(1, 11))
    n = max(dst) + 1
    fans, leaves = list(range(n, n + 30)), np.arange(n + 30, n + 330)
    src += [hub] * 30 + np.repeat(fans, 10).tolist()
    dst += fans + leaves.tolist()
    n += 330
    targets = list(range(1, chain + 1)) if chain else fans
    count = -(-4000 // len(targets))
    src += np.repeat(np.arange(n, n + count), len(targets)).tolist()
    dst += targets * count
    n += count
    cluster = np.repeat(np.arange(100), 10)
    src += (n + cluster).tolist()
    dst += (n + (cluster + np.tile(np.arange(1, 11), 100)) % 100).tolist()
    n += 100
    return directed_csr(np.array(src), np.array(dst), n), hub + 1


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("chain", [0, 60])
def test_switch_counts_in_edges_of_the_unvisited(threads, monkeypatch, chain, parallel):
    """The level whose frontier is the hub's 30 out-neighbours goes bottom-up, the levels
    before it top-down: its m_f (300) * alpha (15) exceeds the unvisited vertices' in-edges
    (1,300), not their out-edges (about 5,000: the sources point into the reached part), so
    a switch counting out-edges would stay top-down. The vertices the sources point to are
    claimed by a serial level, a register walk (``chain``) or, ``parallel``, a parallel
    level: each takes its in-degree off m_u."""
    if parallel:
        monkeypatch.setattr(steps, "SERIAL_WORK", 0)
    g, fan_level = _switch_case(chain)
    in_degree = np.bincount(g.indices, minlength=g.num_vertices)
    out_degree = np.diff(g.indptr)
    depth, canonical = oracle(g, 0)
    unvisited = (depth < 0) | (depth > fan_level)  # when the 30 are the frontier
    m_f = out_degree[depth == fan_level].sum()
    assert in_degree[unvisited].sum() < m_f * 15 < out_degree[unvisited].sum()
    for det in (False, True):
        res = SEARCH(g, 0, deterministic=det)
        np.testing.assert_array_equal(res.depth, depth)
        directions = list(res.levels.direction)
        assert directions[fan_level] == "bottom-up", directions
        assert set(directions[:fan_level]) == {"top-down"}, directions
        if det:
            np.testing.assert_array_equal(res.parent, canonical)


def test_in_edges_are_the_transpose(monkeypatch):
    """``CSRGraph.in_edges``: scipy's transpose with sorted rows, built once and kept; an
    undirected graph's are its own arrays; refused (ResourceError) when they would not fit."""
    rng = np.random.default_rng(7)
    n, m = 300, 5000
    g = directed_csr(rng.integers(0, n, m), rng.integers(0, n, m), n)
    a = sp.csr_array((np.ones(g.indices.shape[0]), g.indices, g.indptr), shape=(n, n))
    t = sp.csr_array(a.T)
    t.sort_indices()
    indptr, indices = g.in_edges
    np.testing.assert_array_equal(indptr, t.indptr)
    np.testing.assert_array_equal(indices, t.indices)
    assert indices.dtype == g.indices.dtype and indptr.dtype == np.int64
    assert g.in_edges[1] is indices  # kept with the graph
    u = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3))
    assert u.in_edges[0] is u.indptr and u.in_edges[1] is u.indices
    fresh = directed_csr(np.array([0, 1]), np.array([1, 2]), 3)
    monkeypatch.setattr(memory, "available_memory", lambda: 0)
    with pytest.raises(ResourceError, match="in-edge lists of a directed graph"):
        fresh.in_edges


def test_the_gpu_form_refuses_a_digraph():
    """The array form follows undirected edges only: named outright, an InputError; auto
    runs the CPU form."""
    g = directed_csr(np.array([0, 1, 2]), np.array([1, 2, 0]), 4)
    with pytest.raises(InputError, match="directed graph is searched by the CPU form"):
        SEARCH(g, 0, backend="numpy-checked")
    np.testing.assert_array_equal(SEARCH(g, 0, backend="auto").depth, [0, 1, 2, -1])


def test_the_api_searches_digraphs_with_direction_optimizing(monkeypatch):
    """``pygraph500.bfs`` on a directed scipy matrix large enough for the parallel default
    runs direction-optimizing: scipy's distances and a tree of in-neighbours one level up,
    the canonical one when asked."""
    from pygraph500 import api

    asked = []
    monkeypatch.setattr(api, "get_algorithm",
                        lambda name: asked.append(name) or ALGORITHMS.get_algorithm(name))
    g = kronecker_digraph(12)
    n = g.num_vertices
    assert g.num_directed_edges >= api.AUTO_SMALL_EDGES
    a = sp.csr_array((np.ones(g.indices.shape[0]), g.indices, g.indptr), shape=(n, n))
    root = int(np.argmax(np.diff(g.indptr)))
    depth, canonical = oracle(g, root)
    for det in (False, True):
        dist, pred = pygraph500.bfs(a, root, deterministic=det)
        np.testing.assert_array_equal(dist, depth)
        others = np.flatnonzero(dist > 0)
        assert np.all(a[pred[others], others] != 0)
        assert np.all(dist[pred[others]] == dist[others] - 1)
        if det:
            np.testing.assert_array_equal(pred, canonical)
    assert asked == ["direction-optimizing"] * 2
