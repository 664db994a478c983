"""deterministic=True: every compiled CPU algorithm returns the canonical BFS tree (each vertex's
parent is its smallest neighbour one level up), for any thread count, any run, serial or
parallel levels, and any alpha/beta; checked against an oracle built independently (scipy's
unweighted shortest paths, then a brute-force minimum over the edges)."""
from __future__ import annotations

import functools

import numba
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

from pygraph500.benchmark import choose_roots
from pygraph500.bfs import ALGORITHMS, steps
from pygraph500.generator import erdos_renyi, kronecker
from pygraph500.graph import EdgeList, build_csr
from pygraph500.validate import validate

ALGOS = ["reference", "topdown-queue", "topdown-bitmap", "bottomup", "direction-optimizing",
         "spmv"]
# steps.SERIAL_WORK: as shipped, 0 (every top-down level parallel), huge (every one serial)
MODES = {"default": None, "parallel": 0, "serial": 1 << 21}  # 1 << 21: above any level here
REPEATS = 3


def canonical(graph, root):
    """(parent, depth) of the canonical BFS tree, by brute force over every edge."""
    n = graph.num_vertices
    a = sp.csr_matrix((np.ones(graph.indices.shape[0]), graph.indices, graph.indptr),
                      shape=(n, n))
    dist = shortest_path(a, unweighted=True, indices=root)
    depth = np.where(np.isinf(dist), -1, dist).astype(np.int64)
    rows = np.repeat(np.arange(n), np.diff(graph.indptr))
    cols = graph.indices.astype(np.int64)
    up = (depth[rows] > 0) & (depth[cols] == depth[rows] - 1)  # cols one level above rows
    parent = np.full(n, np.iinfo(np.int64).max)
    np.minimum.at(parent, rows[up], cols[up])
    parent[depth < 0] = -1
    parent[root] = root
    return parent, depth


def _grid(rows, cols):
    idx = np.arange(rows * cols).reshape(rows, cols)
    src = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    dst = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    return EdgeList(src, dst, rows * cols)


def _isolated():
    """A random graph on the first 600 of 1000 vertices, the rest isolated, labels shuffled."""
    rng = np.random.default_rng(5)
    perm = rng.permutation(1000)
    src, dst = rng.integers(0, 600, 2400), rng.integers(0, 600, 2400)
    return EdgeList(perm[src], perm[dst], 1000)


@functools.lru_cache(maxsize=None)
def cases():
    """[(name, edges, graph, root, canonical parent, canonical depth)]."""
    out = []

    def add(name, edges, roots):
        g = build_csr(edges)
        for r in roots:
            out.append((name, edges, g, int(r), *canonical(g, int(r))))

    for scale, k in ((10, 4), (12, 3), (14, 3)):
        edges = kronecker(scale, 16, (2, 3))
        add(f"kronecker{scale}", edges, choose_roots(build_csr(edges).degree() > 0)[:k])
    add("grid", _grid(23, 31), [0, 11 * 31 + 15])
    n = 300
    add("path", EdgeList(np.arange(n - 1), np.arange(1, n), n), [0, n // 2])
    # a cycle, labels shuffled: two frontier vertices walked in registers (thin_frontier)
    # meet at a vertex, the larger of them first on some roots
    perm = np.random.default_rng(3).permutation(n)
    add("cycle", EdgeList(perm, np.roll(perm, 1), n), [0, 1, 2, 3, 4, 5])
    add("gnm", erdos_renyi(3000, 9000), [0, 1234])
    add("dense", erdos_renyi(200, 6000, (7, 9)), [3])  # many parents per vertex
    iso = _isolated()
    deg = build_csr(iso).degree()
    add("isolated", iso, [int(np.argmax(deg)), int(np.argmin(deg))])  # an isolated root too
    return out


@pytest.fixture(params=list(MODES))
def mode(request, monkeypatch):
    if MODES[request.param] is not None:
        monkeypatch.setattr(steps, "SERIAL_WORK", MODES[request.param])
    return request.param


def check(fn, name, edges, graph, root, parent, depth, validate_it=True, **options):
    for run in range(REPEATS):
        res = fn(graph, root, deterministic=True, **options)
        bad = np.flatnonzero(res.parent != parent)
        assert bad.size == 0, (name, root, run, bad[:5], res.parent[bad[:5]], parent[bad[:5]])
        np.testing.assert_array_equal(res.depth, depth)
        if validate_it and run == 0:
            report = validate(edges, res.parent, root)
            assert report.valid, (name, root, report.rule, report.message)


@pytest.mark.parametrize("algo", ALGOS)
def test_canonical_tree(threads, mode, algo):
    """The canonical tree on every graph, from every root, on every run (REPEATS)."""
    fn = ALGORITHMS[algo]
    for name, edges, graph, root, parent, depth in cases():
        check(fn, name, edges, graph, root, parent, depth)


@pytest.mark.parametrize("algo", ["topdown-queue", "topdown-bitmap", "direction-optimizing"])
def test_parallel_levels_repeated(monkeypatch, algo):
    """Two threads racing on every top-down level, many times over: the claims differ from
    run to run, the trees must not."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 numba threads")
    monkeypatch.setattr(steps, "SERIAL_WORK", 0)
    old = numba.get_num_threads()
    numba.set_num_threads(2)
    try:
        fn = ALGORITHMS[algo]
        for name, edges, graph, root, parent, depth in cases():
            if name.startswith("kronecker") or name in ("gnm", "dense"):
                for _ in range(10):
                    res = fn(graph, root, depth=False, deterministic=True)
                    assert np.array_equal(res.parent, parent), (name, root)
    finally:
        numba.set_num_threads(old)


@pytest.mark.parametrize("alpha,beta", [(1e-9, 18.0), (1e9, 1e-9), (1e9, 1e9), (2.0, 1.0)])
@pytest.mark.parametrize("parallel", [False, True])
def test_direction_optimizing_alpha_beta(threads, monkeypatch, parallel, alpha, beta):
    """Whatever the switching (all top-down, bottom-up at once and back, bottom-up to the
    end, ...) the tree is the canonical one."""
    if parallel:
        monkeypatch.setattr(steps, "SERIAL_WORK", 0)
    fn = ALGORITHMS["direction-optimizing"]
    for name, edges, graph, root, parent, depth in cases():
        if name != "path":  # bottom-up along a path is quadratic, and no different
            check(fn, name, edges, graph, root, parent, depth, validate_it=False,
                  alpha=alpha, beta=beta)


@pytest.mark.parametrize("algo", ALGOS)
def test_depth_false(algo):
    """depth=False still means no depth in the result; the tree is the canonical one, and
    the default mode's result is unchanged in kind (a valid tree, depth as asked)."""
    name, edges, graph, root, parent, depth = cases()[0]
    res = ALGORITHMS[algo](graph, root, depth=False, deterministic=True)
    assert res.depth is None
    np.testing.assert_array_equal(res.parent, parent)
    res = ALGORITHMS[algo](graph, root, depth=False)
    assert res.depth is None and validate(edges, res.parent, root).valid


def test_auto_backend_is_deterministic():
    """backend="auto" with deterministic=True runs the CPU search (the GPU form has no
    deterministic mode)."""
    name, edges, graph, root, parent, depth = cases()[1]
    res = ALGORITHMS["direction-optimizing"](graph, root, backend="auto", deterministic=True)
    np.testing.assert_array_equal(res.parent, parent)
