"""Kernel 3 (SSSP): every registered algorithm against independent oracles.

Oracles: scipy.sparse.csgraph.dijkstra (float64; distances compared with a tolerance that
grows with the number of hops, float32 rounding accumulating along a path), and the Graph500
rules checked directly on the arrays, bit for bit: ``distance[v] == float32(distance[parent]
+ w)`` for every reached vertex, ``distance[v] <= float32(distance[u] + w)`` for every edge,
the parents a tree rooted at the root. The float32 distances themselves are unique (the least
fixpoint of ``d[v] = min float32(d[u] + w)`` is the minimum over paths of their float32
lengths), so all algorithms must agree exactly.
"""
import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import HealthCheck, given, settings, strategies as st

from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.graph import EdgeList, build_csr
from pygraph500.sssp import ALGORITHMS, DEFAULT_ALGORITHM, SSSPResult, get_algorithm
from pygraph500.sssp import delta_stepping

NAMES = sorted(ALGORITHMS)
EPS32 = np.finfo(np.float32).eps


# ---- graphs -------------------------------------------------------------------------------

def weighted(src, dst, w, n):
    return build_csr(EdgeList(np.asarray(src, np.int64), np.asarray(dst, np.int64), int(n),
                              np.asarray(w, np.float32)))


def grid(side, rng, zero_frac=0.0):
    ids = np.arange(side * side).reshape(side, side)
    src = np.concatenate((ids[:, :-1].ravel(), ids[:-1, :].ravel()))
    dst = np.concatenate((ids[:, 1:].ravel(), ids[1:, :].ravel()))
    w = rng.random(src.shape[0]).astype(np.float32)
    w[rng.random(w.shape[0]) < zero_frac] = 0
    return weighted(src, dst, w, side * side)


def path(n, rng):
    src = np.arange(n - 1)
    return weighted(src, src + 1, rng.random(n - 1).astype(np.float32), n)


def random_graph(rng, n, m, zero_frac=0.1):
    """Random tuples with duplicates (of different weights), self-loops, zeros and ones,
    and, with enough vertices, a second component and isolated vertices."""
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    w = rng.random(m).astype(np.float32)
    w[rng.random(m) < zero_frac] = 0.0
    w[rng.random(m) < 0.05] = 1.0
    dup = rng.integers(0, m, m // 4)  # the same pairs again (reversed), other weights
    loops = src[:3]  # ... and three self-loops
    w2 = rng.random(dup.shape[0]).astype(np.float32)
    return weighted(np.concatenate((src, dst[dup], loops)), np.concatenate((dst, src[dup], loops)),
                    np.concatenate((w, w2, np.ones(3, np.float32))), n + 5)  # 5 isolated


# ---- checks -------------------------------------------------------------------------------

def entry_weights(g, u, v):
    """The CSR weight of each edge (u[k], v[k]); asserts every one exists."""
    rows = np.repeat(np.arange(g.num_vertices, dtype=np.int64), np.diff(g.indptr))
    keys = rows * g.num_vertices + g.indices
    q = np.asarray(u, np.int64) * g.num_vertices + np.asarray(v, np.int64)
    k = np.searchsorted(keys, q)
    assert np.all(k < keys.shape[0]) and np.all(keys[np.minimum(k, keys.shape[0] - 1)] == q), \
        "a parent is not a neighbour"
    return g.weights[k]


def check_rules(g, res, root):
    """The Graph500 rules on the arrays, exactly; returns the reached mask."""
    n = g.num_vertices
    p, d = res.parent, res.distance
    assert isinstance(res, SSSPResult) and res.root == root
    assert p.dtype == np.int64 and p.shape == (n,)
    assert d.dtype == np.float32 and d.shape == (n,)
    reached = p >= 0
    assert p[root] == root and d[root] == 0
    assert np.all(p[~reached] == -1) and np.all(np.isinf(d[~reached]))
    assert np.all(np.isfinite(d[reached]))
    vs = np.flatnonzero(reached)
    vs = vs[vs != root]
    w = entry_weights(g, p[vs], vs)
    assert np.all(reached[p[vs]])
    assert np.array_equal(d[vs], (d[p[vs]] + w).astype(np.float32)), "distance != d[parent] + w"
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(g.indptr))
    both = reached[rows] & reached[g.indices]
    assert np.all(reached[g.indices][reached[rows]]), "an edge leaves the reached set"
    u, v = rows[both], g.indices[both]
    assert np.all(d[v] <= (d[u] + g.weights[both]).astype(np.float32)), "an edge is not tight"
    anc = np.where(reached, p, root)  # pointer jumping: every chain must end at the root
    for _ in range(int(np.ceil(np.log2(max(n, 2)))) + 1):
        anc = anc[anc]
    assert np.all(anc == root), "the parents hold a cycle"
    return reached


def depths(parent, root):
    """Hops from the root in a parent tree (-1 or a negative value: unreached)."""
    depth = np.zeros(parent.shape[0], np.int64)
    cur = np.arange(parent.shape[0])
    active = (parent >= 0) & (cur != root)
    while active.any():
        depth[active] += 1
        cur[active] = parent[cur[active]]
        active &= cur != root
    return depth


def check_against_scipy(g, res, root):
    reached = check_rules(g, res, root)
    ref, pred, _ = csgraph.dijkstra(g.to_scipy(weighted=True), indices=root, min_only=True,
                                    return_predecessors=True)
    assert np.array_equal(reached, np.isfinite(ref))
    # float32 rounding (half an ulp per addition) grows with the hops of either path
    hops = np.maximum(depths(res.parent, root), depths(np.where(pred < 0, -1, pred), root))
    tol = 1e-6 + (hops[reached] + 2) * EPS32 * ref[reached]
    assert np.all(np.abs(res.distance[reached] - ref[reached]) <= tol)


def run_all(g, root, **options):
    """Every algorithm on (g, root); checked against scipy; all distances identical."""
    out = {}
    for name in NAMES:
        res = ALGORITHMS[name](g, root, **options.get(name, {}))
        check_against_scipy(g, res, root)
        out[name] = res
    first = out[NAMES[0]].distance
    for name in NAMES[1:]:
        assert np.array_equal(out[name].distance, first), name
    return out


# ---- the registry -------------------------------------------------------------------------

def test_registry():
    assert DEFAULT_ALGORITHM == "delta-stepping"
    assert {"delta-stepping", "dijkstra", "bellman-ford"} <= set(ALGORITHMS)
    assert get_algorithm("dijkstra") is ALGORITHMS["dijkstra"]
    with pytest.raises(InputError, match="known: bellman-ford, delta-stepping, dijkstra"):
        get_algorithm("bfs")


@pytest.mark.parametrize("name", NAMES)
def test_refuses_unweighted_graph_and_bad_root(name):
    fn = ALGORITHMS[name]
    g = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3))
    with pytest.raises(InputError, match="weighted"):
        fn(g, 0)
    gw = weighted([0, 1], [1, 2], [0.5, 0.5], 3)
    for bad in (-1, 3, "x", 1.5):
        with pytest.raises(InputError):
            fn(gw, bad)


# ---- graphs against scipy -----------------------------------------------------------------

@pytest.mark.parametrize("scale", [8, 10, 12])
def test_kronecker(scale, threads):
    g = build_csr(kronecker(scale, 16, seed=(scale, 5), weights=True))
    roots = np.flatnonzero(g.degree() > 0)
    for root in (int(roots[0]), int(roots[len(roots) // 2]), int(np.argmax(g.degree()))):
        run_all(g, root)


def test_grid_and_path(threads):
    rng = np.random.default_rng(1)
    for g, roots in ((grid(40, rng), [0, 820, 1599]), (grid(30, rng, zero_frac=0.3), [0, 465]),
                     (path(3000, rng), [0, 1500, 2999])):
        for root in roots:
            run_all(g, root)


@pytest.mark.parametrize("seed", range(4))
def test_random_graphs(seed, threads):
    rng = np.random.default_rng(seed)
    g = random_graph(rng, 300, 900 if seed % 2 else 300)  # dense-ish and sparse (components)
    for root in (0, 7, g.num_vertices - 1):  # the last vertex is isolated
        out = run_all(g, root)
        if root == g.num_vertices - 1:
            assert out[NAMES[0]].num_reached == 1


def test_duplicates_keep_the_lightest_weight():
    # 0-1 twice (0.9 and 0.2), 1-2 once: 2 is at 0.2 + 0.3 through the lighter copy
    g = weighted([0, 1, 1], [1, 0, 2], [0.9, 0.2, 0.3], 3)
    for name in NAMES:
        res = ALGORITHMS[name](g, 0)
        assert res.distance.tolist() == [0.0, np.float32(0.2), np.float32(0.2) + np.float32(0.3)]
        assert res.parent.tolist() == [0, 0, 1]


@pytest.mark.parametrize("weight", [0.0, 1e-30, 1e-9])
def test_parents_form_a_tree_when_distances_tie(weight, threads, monkeypatch):
    """All weights 0 (every distance 0), or so small that float32(d + w) == d beyond the
    first hop: many equally short parents, and still no cycle."""
    monkeypatch.setattr(delta_stepping, "SERIAL_WORK", 0)  # the parallel kernels, too
    rng = np.random.default_rng(3)
    g = random_graph(rng, 400, 2000, zero_frac=0.0)
    g = weighted(*_pairs(g), np.full(_pairs(g)[0].shape[0], weight, np.float32), g.num_vertices)
    g2 = build_csr(kronecker(9, 16, weights=True))
    g2 = weighted(*_pairs(g2), np.full(_pairs(g2)[0].shape[0], weight, np.float32),
                  g2.num_vertices)
    for graph in (g, g2):
        root = int(np.argmax(graph.degree()))
        run_all(graph, root)


def _pairs(g):
    rows = np.repeat(np.arange(g.num_vertices, dtype=np.int64), np.diff(g.indptr))
    keep = rows < g.indices
    return rows[keep], g.indices[keep].astype(np.int64)


def test_subnormal_weights():
    """Weights of 1e-45 (the least float32) make default deltas below float32's resolution:
    every search must still reach everything (found by hypothesis)."""
    for w in ([0.0, 1e-45], [1e-45, 1e-45], [1e-45, 0.0]):
        g = weighted([0, 1], [1, 2], w, 3)
        for name in NAMES:
            res = ALGORITHMS[name](g, 0)
            assert res.num_reached == 3, name
            check_rules(g, res, 0)


# ---- delta-stepping: its options and its parallel paths ------------------------------------

def test_delta_stepping_deltas_and_parallel_paths(threads, monkeypatch):
    """Any delta gives the same distances: tiny (buckets far beyond the window of
    ``bins.RING``: the overflow is redistributed), huge, inf (one bucket); with the serial
    and parallel thresholds at 0, every phase takes the parallel kernels."""
    g = build_csr(kronecker(10, 16, seed=(4, 9), weights=True))
    root = int(np.argmax(g.degree()))
    want = ALGORITHMS["dijkstra"](g, root).distance
    for serial, take, deltas in (((1 << 13, 1 << 12, (1e-5, 1e-3, 0.05, 0.5, 4.0, np.inf, None)),
                                  (0, 0, (1e-3, 0.5, np.inf, None)))):
        monkeypatch.setattr(delta_stepping, "SERIAL_WORK", serial)
        monkeypatch.setattr(delta_stepping, "PARALLEL_TAKE", take)
        for delta in deltas:
            res = delta_stepping.sssp_delta_stepping(g, root, delta=delta)
            check_rules(g, res, root)
            assert np.array_equal(res.distance, want), delta
    for bad in (0, -1.0, "x", np.nan):
        with pytest.raises(InputError, match="delta"):
            delta_stepping.sssp_delta_stepping(g, root, delta=bad)


def test_delta_stepping_runs_and_look_ahead(threads, monkeypatch):
    """However a row is cut into runs (every row whole when its vertex is taken, runs of one
    entry, no look-ahead, a long one), the same distances; the parallel kernels too."""
    rng = np.random.default_rng(11)
    graphs = (build_csr(kronecker(10, 16, seed=(6, 2), weights=True)),
              random_graph(rng, 500, 3000), grid(30, rng, zero_frac=0.2))
    monkeypatch.setattr(delta_stepping, "SERIAL_WORK", 0)
    monkeypatch.setattr(delta_stepping, "PARALLEL_TAKE", 0)
    for g in graphs:
        root = int(np.argmax(g.degree()))
        want = ALGORITHMS["dijkstra"](g, root).distance
        for min_run, look, deltas in ((0, 1.0, (None, 1e-4)), (1, 0.0, (None,)),
                                      (1 << 30, 1.0, (None,)), (32, 8.0, (0.2,)),
                                      (3, 0.5, (None,))):
            monkeypatch.setattr(delta_stepping, "MIN_RUN", min_run)
            monkeypatch.setattr(delta_stepping, "LOOK_AHEAD", look)
            for delta in deltas:
                res = delta_stepping.sssp_delta_stepping(g, root, delta=delta)
                check_rules(g, res, root)
                assert np.array_equal(res.distance, want), (min_run, look, delta)


def test_heavy_entry_packing():
    """A heavy entry's first word: its rest's position and length, the row's end read from
    indptr when the rest is too long to say."""
    from numba import njit

    from pygraph500.sssp import delta_phases as dp

    @njit
    def roundtrip(e, end, indptr, u):
        return dp._unpack_rest(dp._pack_rest(e, end), indptr, u)

    indptr = np.array([0, 5, 1 << 40], np.int64)
    assert roundtrip(3, 5, indptr, 0) == (3, 5)
    assert roundtrip(5, 5, indptr, 0) == (5, 5)
    assert roundtrip(7, 7 + dp._REST_CAP - 1, indptr, 1) == (7, 7 + dp._REST_CAP - 1)
    assert roundtrip(7, 1 << 40, indptr, 1) == (7, 1 << 40)  # too long: from indptr
    assert roundtrip(dp.MAX_ENTRIES - 2, dp.MAX_ENTRIES - 1, indptr, 0) == (
        dp.MAX_ENTRIES - 2, dp.MAX_ENTRIES - 1)


def test_delta_stepping_phases(monkeypatch):
    g = build_csr(kronecker(10, 16, weights=True))
    root = int(np.argmax(g.degree()))
    deg = g.degree()
    monkeypatch.setattr(delta_stepping, "PULL_RATIO", 0)  # push only: every edge relaxed
    res = ALGORITHMS["delta-stepping"](g, root, delta=0.01)
    ph = res.phases
    assert len(ph) > 1
    bucket = ph.extra["bucket"]
    assert bucket[0] == 0 and np.all(np.diff(bucket) >= 0)  # buckets in increasing order
    assert np.all(ph.frontier > 0) and np.all(ph.time >= 0)
    assert ph.discovered.sum() >= res.num_reached - 1  # every reached vertex lowered at least once
    assert ph.frontier.sum() >= res.num_reached  # ... and relaxed at least once
    assert ph.edges_examined.sum() >= deg[res.parent >= 0].sum()
    assert not ph.extra["pull"].any()
    assert res.phases.as_dicts()[0]["bucket"] == 0


def test_delta_stepping_pull_reads_fewer_entries(monkeypatch):
    """On a Graph500 graph the default pulls once the hubs are settled: its log says so, and
    the search reads far fewer adjacency entries than the push-only one (each edge twice)."""
    g = build_csr(kronecker(12, 16, weights=True))
    root = int(np.argmax(g.degree()))
    res = ALGORITHMS["delta-stepping"](g, root)
    pull = res.phases.extra["pull"]
    assert set(np.unique(pull)) == {0, 1}
    first = int(np.argmax(pull))  # buckets in increasing order, in their width on each side
    bucket = res.phases.extra["bucket"]
    assert np.all(np.diff(bucket[:first]) >= 0) and np.all(np.diff(bucket[first:]) >= 0)
    assert res.phases.as_dicts()[int(np.argmax(pull))]["pull"] == 1
    monkeypatch.setattr(delta_stepping, "PULL_RATIO", 0)
    push = ALGORITHMS["delta-stepping"](g, root)
    assert np.array_equal(res.distance, push.distance)
    assert res.phases.edges_examined.sum() < 0.6 * push.phases.edges_examined.sum()


@pytest.mark.parametrize("widen", [1.0, 8.0])
@pytest.mark.parametrize("ratio", [1e-9, 8.0])
def test_delta_stepping_pull(threads, monkeypatch, ratio, widen):
    """A pull at every bucket boundary with rests pending (ratio 1e-9, rows cut into runs of
    one entry so that every row leaves a rest) or at the default's, with buckets of the same
    width after the first pull or 8 times wider (every live vertex put in them again): the
    same distances as Dijkstra and the Graph500 rules, on graphs with hubs and leaves (a pull
    settles the leaves on the spot), zero weights (ties across the pull), several components
    and isolated vertices, a grid and a path; serial and parallel kernels."""
    rng = np.random.default_rng(23)
    hub = np.zeros(300, np.int64)
    star = weighted(np.concatenate((hub, np.arange(1, 150))),
                    np.concatenate((np.arange(1, 301), np.arange(2, 151))),
                    rng.random(449).astype(np.float32), 310)  # leaves, a chain, isolated
    graphs = (build_csr(kronecker(10, 16, seed=(4, 9), weights=True)),
              random_graph(rng, 500, 3000, zero_frac=0.3), grid(30, rng, zero_frac=0.2),
              path(200, rng), star)
    monkeypatch.setattr(delta_stepping, "PULL_RATIO", ratio)
    monkeypatch.setattr(delta_stepping, "PULL_WIDEN", widen)
    if ratio < 1:
        monkeypatch.setattr(delta_stepping, "MIN_RUN", 1)
    for serial, take in ((1 << 12, 1 << 11), (0, 0)):
        monkeypatch.setattr(delta_stepping, "SERIAL_WORK", serial)
        monkeypatch.setattr(delta_stepping, "PARALLEL_TAKE", take)
        for g in graphs:
            root = int(np.argmax(g.degree()))
            want = ALGORITHMS["dijkstra"](g, root).distance
            for delta in (None, 1e-3, np.inf):
                res = delta_stepping.sssp_delta_stepping(g, root, delta=delta)
                check_rules(g, res, root)
                assert np.array_equal(res.distance, want), (serial, delta)
                if ratio < 1 and delta is None:
                    assert res.phases.extra["pull"].any()


def test_default_delta_scales_with_weights_and_degree():
    g = build_csr(kronecker(10, 16, weights=True))
    d = delta_stepping.default_delta(g)
    avg = g.indptr[-1] / g.num_vertices
    wmean = g.weights.mean()  # below 0.5: duplicates keep their lightest weight
    assert d == pytest.approx(delta_stepping.DELTA_SCALE * wmean / avg, rel=0.1)
    g10 = weighted(*_pairs(g), np.full(_pairs(g)[0].shape[0], 10.0, np.float32), g.num_vertices)
    assert delta_stepping.default_delta(g10) == pytest.approx(
        delta_stepping.DELTA_SCALE * 10.0 / avg)
    zero = weighted([0], [1], [0.0], 2)
    assert delta_stepping.default_delta(zero) == 1.0


# ---- Bellman-Ford: its options ----------------------------------------------------------------

def test_bellman_ford_options(monkeypatch):
    rng = np.random.default_rng(7)
    g = random_graph(rng, 500, 2000)
    want = ALGORITHMS["dijkstra"](g, 3).distance
    bf = ALGORITHMS["bellman-ford"]
    for scatter in ("auto", "at", "sort"):
        for delta in (None, 1e-3, 0.3, np.inf):  # inf: plain Bellman-Ford, no far pile
            res = bf(g, 3, scatter=scatter, delta=delta)
            check_rules(g, res, 3)
            assert np.array_equal(res.distance, want)
            pile = res.phases.extra["bucket"]
            assert np.all(np.diff(pile) >= 0) and (pile.max() == 0) == (delta == np.inf)
    with pytest.raises(InputError, match="delta"):
        bf(g, 3, delta=0)
    res = bf(g, 3, on_device=True)  # NumPy: the arrays are host arrays anyway
    assert np.array_equal(res.distance, want)
    with pytest.raises(InputError, match="scatter"):
        bf(g, 3, scatter="atomic")
    monkeypatch.setenv("PYGRAPH500_GPU_STANDIN", "1")  # NumPy standing in for the GPU path
    res = bf(g, 3, backend="gpu")
    assert np.array_equal(res.distance, want)


# ---- hypothesis: small random graphs ------------------------------------------------------------

@st.composite
def small_graphs(draw):
    n = draw(st.integers(1, 25))
    m = draw(st.integers(0, 60))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = draw(st.lists(st.sampled_from([0.0, 1e-45, 1e-8, 0.25, 0.5, 1.0])
                      | st.floats(0, 1, width=32),
                      min_size=m, max_size=m))
    root = draw(st.integers(0, n - 1))
    return weighted(src, dst, w, n), root


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_graphs(), st.sampled_from([None, 1e-3, 0.3, np.inf]), st.sampled_from([0, 1, 32]),
       st.sampled_from([0.0, 1e-9, 8.0]))
def test_small_random_graphs(case, delta, min_run, pull_ratio):
    g, root = case
    old = delta_stepping.MIN_RUN, delta_stepping.PULL_RATIO
    delta_stepping.MIN_RUN, delta_stepping.PULL_RATIO = min_run, pull_ratio
    try:
        run_all(g, root, **{"delta-stepping": {"delta": delta}})
    finally:
        delta_stepping.MIN_RUN, delta_stepping.PULL_RATIO = old
