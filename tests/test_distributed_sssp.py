"""Distributed kernel 3 without mpiexec: P = 1, 2, 3 ranks as threads (ThreadComm).

Oracles: the reference's weight vector, the embedded weighted kernel 1, scipy's Dijkstra (in
float64 on the float32 weights: distances agree to float32 rounding) and the embedded
kernel-3 validator (itself checked against a float32 Dijkstra and mutations): every
distributed result must pass it, and the distributed validator must give the same report as
the embedded one on the gathered arrays, for good results and for broken ones.
"""
import numpy as np
import pytest
from scipy.sparse.csgraph import dijkstra

from pygraph500 import build_csr, kronecker
import pygraph500.distributed.sssp as dsssp
from pygraph500.distributed import (SSSP_FIELDS, DistSSSPSearcher, SerialComm, ThreadComm,
                                    build_dist, count_component_edges_dist, default_delta,
                                    generate_local, validate_sssp_dist)
from pygraph500.errors import InputError
from pygraph500.validate.shortest_paths import validate_sssp

from conftest import load_reference_weighted

SIZES = [1, 2, 3]
REPORT_FIELDS = ("valid", "rule", "message", "vertex", "edge", "edge_index", "nedge",
                 "num_visited", "max_distance")


def gather(comm, local, n, dtype):
    """The global array from every rank's local one (rank r holds vertices r, r + P, ...)."""
    allv, counts = comm.allgatherv(local)
    out = np.empty(n, dtype=dtype)
    off = 0
    for r in range(comm.size):
        out[r::comm.size] = allv[off:off + counts[r]]
        off += counts[r]
    return out


def report(rep):
    return tuple(getattr(rep, k) for k in REPORT_FIELDS)


@pytest.fixture(scope="module", params=[8, 10, 11], ids=lambda s: f"scale{s}")
def weighted(request):
    return _weighted_case(request.param)


@pytest.fixture(scope="module")
def weighted10():
    return _weighted_case(10)


def _weighted_case(scale):
    edges = kronecker(scale, weights=True)
    csr = build_csr(edges)
    deg = csr.degree()
    roots = [int(np.argmax(deg)), int(np.flatnonzero(deg == 1)[0]) if (deg == 1).any() else 0,
             int(np.flatnonzero(deg == 0)[0])]  # a hub, a leaf, an isolated vertex
    return scale, edges, csr, roots


def _search_all(comm, scale, roots, delta=None):
    edges = generate_local(comm, scale, weights=True)
    graph = build_dist(comm, edges)
    searcher = DistSSSPSearcher(comm, graph, delta)
    n = graph.num_vertices
    out = []
    for root in roots:
        res = searcher.search(root)
        mine = validate_sssp_dist(comm, graph.part, edges, res.parent, res.distance, root)
        nedge = count_component_edges_dist(comm, graph.part, edges, res.parent)
        out.append((gather(comm, res.parent, n, np.int64), gather(comm, res.distance, n,
                                                                   np.float32),
                    report(mine), nedge, res.levels, searcher.delta))
    return out


# ---- weighted generation and kernel 1 -------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_weighted_generation_is_the_reference(size):
    ref, weight = load_reference_weighted("scale8-ef16-seed2-3")

    def body(comm):
        e = generate_local(comm, 8, 16, (2, 3), weights=True)
        assert e.weighted and e.weight.dtype == np.float32 and len(e.weight) == len(e)
        return (np.column_stack([comm.allgatherv(e.src)[0], comm.allgatherv(e.dst)[0]]),
                comm.allgatherv(e.weight)[0])

    for edges, w in ThreadComm.run(size, body):
        np.testing.assert_array_equal(edges, ref)
        np.testing.assert_array_equal(w.view(np.int32), weight.view(np.int32))


def test_unweighted_generation_and_build_have_no_weights():
    comm = SerialComm()
    e = generate_local(comm, 6)
    assert e.weight is None and not e.weighted
    g = build_dist(comm, e)
    assert g.weights is None and not g.weighted
    with pytest.raises(InputError, match="weighted graph"):
        DistSSSPSearcher(comm, g)


@pytest.mark.parametrize("size", SIZES)
def test_weighted_kernel1_gives_the_embedded_rows(size):
    csr = build_csr(kronecker(10, weights=True))

    def body(comm):
        g = build_dist(comm, generate_local(comm, 10, weights=True), compact_columns=True)
        return g.part.global_ids(), g.indptr, g.indices, g.weights, g.column

    for ids, indptr, indices, weights, column in ThreadComm.run(size, body):
        assert weights.dtype == np.float32 and weights.shape == indices.shape
        for k, v in enumerate(ids.tolist()):
            a, b = csr.indptr[v], csr.indptr[v + 1]
            np.testing.assert_array_equal(indices[indptr[k]:indptr[k + 1]], csr.indices[a:b])
            np.testing.assert_array_equal(weights[indptr[k]:indptr[k + 1]], csr.weights[a:b])
        np.testing.assert_array_equal(column, np.searchsorted(np.unique(indices), indices))


def test_weighted_kernel1_in_many_rounds_and_bad_weights(monkeypatch):
    import pygraph500.distributed.build as dbuild

    csr = build_csr(kronecker(8, weights=True))
    monkeypatch.setattr(dbuild, "BUILD_CHUNK", 300)

    def body(comm):
        g = build_dist(comm, generate_local(comm, 8, weights=True))
        return g.part.global_ids(), g.indptr, g.weights

    for ids, indptr, weights in ThreadComm.run(3, body):
        for k, v in enumerate(ids.tolist()):
            np.testing.assert_array_equal(weights[indptr[k]:indptr[k + 1]],
                                          csr.weights[csr.indptr[v]:csr.indptr[v + 1]])
    comm = SerialComm()
    e = generate_local(comm, 6, weights=True)
    w = e.weight.copy()
    w[5] = -0.25
    bad = type(e)(e.src, e.dst, e.start, e.num_edges, e.num_vertices, w)
    with pytest.raises(InputError, match="edge tuple 5 has weight -0.25"):
        build_dist(comm, bad)


# ---- the search ------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_sssp_valid_and_shortest(size, weighted):
    scale, edges, csr, roots = weighted
    runs = ThreadComm.run(size, _search_all, scale, roots)
    matrix = csr.to_scipy(weighted=True)
    for root, (parent, dist, mine, nedge, _, _) in zip(roots, runs[0]):
        theirs = validate_sssp(edges, parent, dist, root)
        assert theirs.valid, theirs.message
        assert mine == report(theirs)
        assert nedge == theirs.nedge
        want = dijkstra(matrix, indices=root)
        reached = np.isfinite(want)
        np.testing.assert_array_equal(parent >= 0, reached)
        np.testing.assert_array_equal(np.isfinite(dist), reached)
        np.testing.assert_allclose(dist[reached], want[reached], rtol=1e-5, atol=1e-6)
        assert parent[root] == root and dist[root] == 0
    for other in runs[1:]:  # every rank got the same verdicts
        assert [r[2] for r in other] == [r[2] for r in runs[0]]


def test_same_distances_for_every_rank_and_thread_count():
    """Every phase applies the least of the same candidates: distances and phases do not
    depend on P or on the threads (a phase of SCALE 13 has entries enough to run parallel)."""
    import numba

    runs = {}
    for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
        old = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            for size in SIZES:
                runs[size, threads] = ThreadComm.run(size, _search_all, 13, [0, 9])[0]
        finally:
            numba.set_num_threads(old)
    first = runs[1, 1]
    for key, other in runs.items():
        for a, b in zip(first, other):
            np.testing.assert_array_equal(a[1].view(np.int32), b[1].view(np.int32), str(key))
            assert len(a[4]["frontier"]) == len(b[4]["frontier"])
            assert a[2] == b[2]


def test_int64_message_rows(monkeypatch):
    """Above 2**31 vertices the rows are int64 and the candidate travels as a float64 holding
    the float32 exactly: forced here on a small graph, the same distances."""
    want = ThreadComm.run(2, _search_all, 10, [0])[0][0]
    monkeypatch.setattr(dsssp, "vertex_dtype", lambda n: np.int64)
    got = ThreadComm.run(2, _search_all, 10, [0])[0][0]
    np.testing.assert_array_equal(got[1].view(np.int32), want[1].view(np.int32))
    np.testing.assert_array_equal(got[0], want[0])
    assert (got[4]["sent_bytes"] == got[4]["sent"] * 24).all()


@pytest.mark.parametrize("size", [1, 3])
def test_phase_statistics(size):
    def body(comm):
        return _search_all(comm, 9, [0, 5])

    runs = ThreadComm.run(size, body)
    for j in range(2):
        cols = [r[j][4] for r in runs]
        parent = runs[0][j][0]
        for c in cols:
            assert set(c) == set(SSSP_FIELDS)
            assert len({len(v) for v in c.values()}) == 1  # equal-length columns
        phases = len(cols[0]["frontier"])
        assert all(len(c["frontier"]) == phases for c in cols)  # the same phases everywhere
        for f in ("heavy", "bucket"):
            assert all((c[f] == cols[0][f]).all() for c in cols)
        total = {f: sum(c[f] for c in cols) for f in SSSP_FIELDS}
        np.testing.assert_array_equal(total["sent"], total["received"])
        # one triple per target and phase: no more than the candidates, than the entries
        assert (total["local"] + total["sent"] <= total["candidates"]).all()
        assert (total["candidates"] <= total["relaxations"]).all()
        assert (total["sent_bytes"] == total["sent"] * 12).all()
        assert (np.diff(cols[0]["bucket"]) >= 0).all() or phases == 0
        assert total["frontier"][0] == 1  # the root alone
        # every reached vertex but the root was lowered at least once; heavy phases settle
        assert total["lowered"].sum() >= int((parent >= 0).sum()) - 1
        assert (total["relaxations"] >= 0).all() and (total["time"] >= 0).all()
        for c in cols:
            assert (c["comp_time"] + c["comm_time"] <= c["time"] + 1e-6).all()


@pytest.mark.parametrize("delta", [1e-3, 0.3, 100.0])
def test_any_delta_gives_the_same_verdict(delta, weighted10):
    scale, edges, csr, roots = weighted10
    runs = ThreadComm.run(2, _search_all, scale, roots[:1], delta)
    parent, dist, mine, _, levels, got = runs[0][0]
    assert got == delta
    theirs = validate_sssp(edges, parent, dist, roots[0])
    assert theirs.valid and mine == report(theirs)
    want = dijkstra(csr.to_scipy(weighted=True), indices=roots[0])
    ok = np.isfinite(want)
    np.testing.assert_allclose(dist[ok], want[ok], rtol=1e-5, atol=1e-6)
    if delta == 100.0:  # one bucket: Bellman-Ford, every entry light
        assert (levels["bucket"] == 0).all()


def test_default_delta_is_the_same_on_every_rank_count():
    """DELTA_SCALE * mean weight / average degree over all ranks' entries, whatever P."""
    g = build_csr(kronecker(10, weights=True))
    want = dsssp.DELTA_SCALE * float(g.weights.mean(dtype=np.float64)) / (
        g.num_directed_edges / g.num_vertices)

    def body(comm):
        return default_delta(comm, build_dist(comm, generate_local(comm, 10, weights=True)))

    for size in SIZES:
        got = ThreadComm.run(size, body)
        assert len(set(got)) == 1 and got[0] == pytest.approx(want, rel=1e-6)


def test_bad_roots_and_deltas():
    comm = SerialComm()
    g = build_dist(comm, generate_local(comm, 6, weights=True))
    s = DistSSSPSearcher(comm, g)
    with pytest.raises(InputError, match="not a vertex"):
        s.search(64)
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(InputError, match="delta"):
            DistSSSPSearcher(comm, g, bad)


# ---- the validator on broken results ---------------------------------------------------------

def _leaf(parent, root, avoid=()):
    """A reached vertex other than the root that is nobody's parent."""
    kids = np.zeros(parent.shape[0], bool)
    kids[parent[parent >= 0]] = True
    for v in np.flatnonzero((parent >= 0) & ~kids):
        if v != root and v not in avoid:
            return int(v)
    raise AssertionError("no leaf")


def _other_tuple(edges, parent, dist, v):
    """A tuple (u, v, w) with u reached, u != parent[v], u != v, and the largest
    float32(d(u) + w) (so it does not give v its distance)."""
    best = None
    for i in np.flatnonzero((edges.src == v) | (edges.dst == v)):
        u = int(edges.dst[i] if edges.src[i] == v else edges.src[i])
        if u == v or u == parent[v] or parent[u] < 0:
            continue
        c = np.float32(dist[u] + edges.weight[i])
        if best is None or c > best[1]:
            best = (u, c)
    return best


def mutations(edges, parent, dist, root):
    """Broken results (name, parent, distance); the rule each breaks is the embedded
    validator's verdict, not assumed here."""
    n = parent.shape[0]
    out = []
    v = _leaf(parent, root)
    d = dist.copy()
    d[v] = d[v] * np.float32(1.5) + np.float32(0.01)
    out.append(("wrong distance", parent, d))
    d = dist.copy()
    d[v] = d[v] * np.float32(0.5)
    out.append(("too short", parent, d))
    kids = np.zeros(n, bool)
    kids[parent[parent >= 0]] = True
    for w in np.flatnonzero((parent >= 0) & ~kids):  # leaves: a new parent closes no cycle
        other = _other_tuple(edges, parent, dist, int(w))
        if w == root or other is None or not other[1] > dist[w]:
            continue
        p = parent.copy()
        p[w] = other[0]
        out.append(("parent not on a shortest path", p, dist))
        d = dist.copy()
        d[w] = other[1]
        out.append(("longer path, consistent parent", p, d))
        break
    un = np.flatnonzero(parent < 0)
    if un.size:
        d = dist.copy()
        d[un[0]] = np.float32(0.5)
        out.append(("unreached with a distance", parent, d))
        d = dist.copy()
        d[un[-1]] = np.float32(-1)  # -1 is as good as inf for an unreached vertex
        out.append(("unreached at -1 (valid)", parent, d))
        p = parent.copy()
        p[un[0]] = v
        out.append(("unreached given a parent", p, dist))
    p, d = parent.copy(), dist.copy()
    p[v], d[v] = -1, np.inf
    out.append(("reached vertex missing", p, d))
    d = dist.copy()
    d[root] = np.float32(0.25)
    out.append(("root distance", parent, d))
    p = parent.copy()
    p[root] = v
    out.append(("root parent", p, dist))
    d = dist.copy()
    d[v] = np.nan
    out.append(("nan distance", parent, d))
    p = parent.copy()
    p[v] = n + 3
    out.append(("parent out of range", p, dist))
    w = _leaf(parent, root, avoid=(v,))
    p = parent.copy()
    p[v], p[w] = w, v
    out.append(("cycle", p, dist))
    d = dist.copy()
    d[[v, w]] += np.float32(0.125)
    out.append(("two wrong distances", parent, d))
    if un.size:
        p = parent.copy()
        p[w] = un[0]
        out.append(("parent unreached", p, dist))
    near = set(edges.dst[edges.src == w].tolist()) | set(edges.src[edges.dst == w].tolist())
    x = next(int(x) for x in np.flatnonzero(parent >= 0) if x != w and x not in near)
    p = parent.copy()
    p[w] = x
    out.append(("tree edge not in the graph", p, dist))
    return out


@pytest.mark.parametrize("size", SIZES)
def test_both_validators_reject_alike(size, weighted):
    scale, edges, _, roots = weighted
    root = roots[0]
    parent, dist = ThreadComm.run(1, _search_all, scale, [root])[0][0][:2]
    cases = mutations(edges, parent, dist, root)
    verdicts = {name: report(validate_sssp(edges, p, d, root)) for name, p, d in cases}
    rules = {name: v[1] for name, v in verdicts.items()}
    assert rules == {
        "wrong distance": "tree-edge-distance", "too short": "tree-edge-distance",
        "parent not on a shortest path": "tree-edge-distance",
        "longer path, consistent parent": "edge-distances",
        "unreached with a distance": "unreached-distance", "unreached at -1 (valid)": None,
        "unreached given a parent": "distance-range", "reached vertex missing": "component",
        "root distance": "root-distance", "root parent": "root-self-parent",
        "nan distance": "distance-range", "parent out of range": "parent-range",
        "cycle": "no-cycles", "two wrong distances": "tree-edge-distance",
        "parent unreached": "parent-visited", "tree edge not in the graph": "tree-edge-in-graph"}

    def body(comm):
        edges_local = generate_local(comm, scale, weights=True)
        part = build_dist(comm, edges_local).part
        r, s = comm.rank, comm.size
        return {name: report(validate_sssp_dist(comm, part, edges_local, p[r::s].copy(),
                                                d[r::s].copy(), root))
                for name, p, d in cases}

    for got in ThreadComm.run(size, body):
        assert got == verdicts


def test_validator_input_errors_and_lengths():
    comm = SerialComm()
    edges = generate_local(comm, 6, weights=True)
    g = build_dist(comm, edges)
    res = DistSSSPSearcher(comm, g).search(0)
    plain = generate_local(comm, 6)
    with pytest.raises(InputError, match="weights"):
        validate_sssp_dist(comm, g.part, plain, res.parent, res.distance, 0)
    with pytest.raises(InputError):
        validate_sssp_dist(comm, g.part, edges, res.parent, res.distance[None], 0)
    rep = validate_sssp_dist(comm, g.part, edges, res.parent[:-1], res.distance, 0)
    assert rep.rule == "parent-length"
    rep = validate_sssp_dist(comm, g.part, edges, res.parent, res.distance[:-1], 0)
    assert rep.rule == "distance-length"
    # float64 distances holding float32 values are accepted, as by the embedded validator
    rep = validate_sssp_dist(comm, g.part, edges, res.parent, res.distance.astype(np.float64), 0)
    assert rep.valid
    src = edges.src.copy()
    src[7] = 64
    bad = type(edges)(src, edges.dst, edges.start, edges.num_edges, 64, edges.weight)
    with pytest.raises(InputError, match="#7"):
        validate_sssp_dist(comm, g.part, bad, res.parent, res.distance, 0)
