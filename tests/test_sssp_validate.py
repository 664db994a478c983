"""The kernel-3 validator against a pure-Python float32 Dijkstra and against mutations: every
broken result is rejected naming its rule, and the reference's float32 arithmetic is used."""
import heapq

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.graph import EdgeList
from pygraph500.validate import SSSP_RULES, count_component_edges, validate_sssp


def dijkstra32(edges: EdgeList, root: int):
    """Textbook Dijkstra on the tuples, sums in float32; parents set on strict decrease."""
    n = edges.num_vertices
    adj = [[] for _ in range(n)]
    for u, v, w in zip(edges.src.tolist(), edges.dst.tolist(), edges.weight.tolist()):
        if u != v:
            adj[u].append((v, np.float32(w)))
            adj[v].append((u, np.float32(w)))
    dist = np.full(n, np.inf, np.float32)
    parent = np.full(n, -1, np.int64)
    dist[root], parent[root] = 0, root
    heap = [(np.float32(0), root)]
    done = np.zeros(n, bool)
    while heap:
        d, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = True
        for v, w in adj[u]:
            nd = np.float32(dist[u] + w)
            if nd < dist[v]:
                dist[v], parent[v] = nd, u
                heapq.heappush(heap, (nd, v))
    return parent, dist


@pytest.fixture(scope="module")
def case():
    e = kronecker(8, 16, (2, 3), weights=True)
    root = 17
    parent, dist = dijkstra32(e, root)
    return e, root, parent, dist


def test_oracle_result_is_valid(case):
    e, root, parent, dist = case
    r = validate_sssp(e, parent, dist, root)
    assert r.valid, r.message
    assert r.nedge == count_component_edges(e, parent)
    assert r.num_visited == int((parent >= 0).sum())
    assert r.max_distance == float(dist[np.isfinite(dist)].max())
    # -1 marks unreached as well as inf (the reference's convention)
    assert validate_sssp(e, parent, np.where(parent < 0, -1, dist).astype(np.float32), root).valid


def _tree_vertex(parent, root, dist, deep=True):
    reached = np.flatnonzero((parent >= 0) & (np.arange(parent.size) != root))
    return int(reached[np.argmax(dist[reached])] if deep else reached[0])


def _mutations(e, root, parent, dist):
    """(name, parent, dist, expected rule) for each kind of broken result."""
    n = e.num_vertices
    v = _tree_vertex(parent, root, dist)
    out = []
    p, d = parent.copy(), dist.copy()
    d[v] = np.nextafter(d[v], np.float32(np.inf))
    out.append(("distance one ulp too long", p, d, "tree-edge-distance"))
    p, d = parent.copy(), dist.copy()
    d[v] = np.nextafter(d[v], np.float32(0))
    out.append(("distance one ulp too short", p, d, "tree-edge-distance"))
    # parent on a path, but not a shortest one: a neighbour u of x (not its parent) whose
    # float32 sum is larger than d[x]; x a leaf of the tree, so no child's distance moves
    leaves = set(np.flatnonzero(parent >= 0).tolist()) - set(parent[parent >= 0].tolist())
    for x, u, w in zip(e.src.tolist(), e.dst.tolist(), e.weight.tolist()):
        if x in leaves and u != parent[x] and u != x and parent[u] >= 0 \
                and np.float32(dist[u] + np.float32(w)) > dist[x]:
            p, d = parent.copy(), dist.copy()
            p[x] = u
            out.append(("parent not on a shortest path", p, d, "tree-edge-distance"))
            p2, d2 = parent.copy(), dist.copy()
            p2[x], d2[x] = u, np.float32(dist[u] + np.float32(w))  # consistent, too long
            out.append(("distance longer than an edge allows", p2, d2, "edge-distances"))
            break
    nbrs = np.concatenate([e.dst[e.src == v], e.src[e.dst == v]])
    unreached = np.flatnonzero(parent < 0)
    if unreached.size:
        p, d = parent.copy(), dist.copy()
        d[unreached[0]] = np.float32(1.5)
        out.append(("unreached vertex with a distance", p, d, "unreached-distance"))
    p, d = parent.copy(), dist.copy()
    p[v], d[v] = -1, np.inf
    out.append(("reached vertex missing", p, d, "component"))
    p, d = parent.copy(), dist.copy()
    d[v] = np.nan
    out.append(("NaN distance", p, d, "distance-range"))
    p, d = parent.copy(), dist.copy()
    d[root] = np.float32(0.5)
    out.append(("root distance", p, d, "root-distance"))
    p, d = parent.copy(), dist.copy()
    p[root] = v
    out.append(("root's parent", p, d, "root-self-parent"))
    p, d = parent.copy(), dist.copy()
    p[v] = n
    out.append(("parent out of range", p, d, "parent-range"))
    p, d = parent.copy(), dist.copy()
    p[v] = unreached[0] if unreached.size else v
    out.append(("parent unreached" if unreached.size else "self parent", p, d,
                "parent-visited" if unreached.size else "no-cycles"))
    p, d = parent.copy(), dist.copy()
    nonedge = next(u for u in range(n) if parent[u] >= 0 and u != v and u not in set(nbrs.tolist()))
    p[v] = nonedge
    out.append(("tree edge not in the graph", p, d, "tree-edge-in-graph"))
    return out


def test_every_mutation_is_rejected_with_its_rule(case):
    e, root, parent, dist = case
    muts = _mutations(e, root, parent, dist)
    assert {m[3] for m in muts} >= {"tree-edge-distance", "edge-distances", "unreached-distance",
                                    "component", "distance-range", "root-distance",
                                    "root-self-parent", "parent-range", "tree-edge-in-graph"}
    for name, p, d, rule in muts:
        r = validate_sssp(e, p, d, root)
        assert not r.valid, name
        assert r.rule == rule, (name, r.message)
        assert r.message.startswith(rule) and rule in SSSP_RULES


def test_zero_weight_cycle_is_caught():
    """fl(d + 0) == d: two vertices pointing at each other pass every distance test; the
    reference would accept them, no-cycles does not."""
    e = EdgeList(np.array([0, 1, 2]), np.array([1, 2, 3]), 4,
                 np.array([0.5, 0.0, 0.25], np.float32))
    parent, dist = dijkstra32(e, 0)
    assert validate_sssp(e, parent, dist, 0).valid
    p = parent.copy()
    p[1], p[2] = 2, 1  # 1 <-> 2 over the zero-weight edge, distances unchanged
    r = validate_sssp(e, p, dist, 0)
    assert r.rule == "no-cycles"


def test_float32_sums_not_float64():
    """d(v) == float32(d(u) + w) exactly: a float64 sum is refused when it differs."""
    w = np.float32(0.1)
    e = EdgeList(np.array([0, 1]), np.array([1, 2]), 3, np.array([0.3, w], np.float32))
    parent, dist = dijkstra32(e, 0)
    assert validate_sssp(e, parent, dist, 0).valid
    d64 = np.float64(dist[1]) + np.float64(w)
    assert np.float32(d64) == dist[2]  # both round to the same float32 here; now break it:
    bad = dist.copy()
    bad[2] = np.nextafter(dist[2], np.float32(1))
    assert validate_sssp(e, parent, bad, 0).rule == "tree-edge-distance"


def test_input_errors():
    e = kronecker(5, 4, (1, 2), weights=True)
    parent, dist = dijkstra32(e, int(e.src[0]))
    with pytest.raises(InputError):
        validate_sssp(EdgeList(e.src, e.dst, e.num_vertices), parent, dist, int(e.src[0]))
    with pytest.raises(InputError):
        validate_sssp(e, parent, np.zeros(dist.shape, np.int32), int(e.src[0]))
    with pytest.raises(InputError):  # float64 that is not a float32 value
        validate_sssp(e, parent, dist.astype(np.float64) + 1e-12, int(e.src[0]))
    assert validate_sssp(e, parent, dist.astype(np.float64), int(e.src[0])).valid
    assert validate_sssp(e, parent[:-1], dist, int(e.src[0])).rule == "parent-length"
    assert validate_sssp(e, parent, dist[:-1], int(e.src[0])).rule == "distance-length"


@given(st.integers(2, 30), st.integers(0, 80), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_random_graphs_oracle_valid_and_one_change_caught(n, m, seed):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    w = rng.choice(np.array([0.0, 0.1, 0.5, 1.0, 1e-9, 3.0], np.float32), m)
    e = EdgeList(src, dst, n, w)
    root = int(rng.integers(0, n))
    parent, dist = dijkstra32(e, root)
    r = validate_sssp(e, parent, dist, root)
    assert r.valid, r.message
    reached = np.flatnonzero((parent >= 0) & (np.arange(n) != root))
    if reached.size:
        v = int(rng.choice(reached))
        bad = dist.copy()
        bad[v] = np.float32(dist[v] + 1)
        assert not validate_sssp(e, parent, bad, root).valid
