"""Round trips between CSRGraph and scipy.sparse / networkx keep the weights (issue 40, item 7).

networkx and scipy are the oracles. float32 is the package's weight type: a float32 value
comes back exactly, any other rounded to float32. Where several entries join one pair of
vertices (parallel edges, both directions, duplicate COO entries) kernel 1 keeps the
smallest, and the round trip gives that one.
"""
import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

from pygraph500 import EdgeList, build_csr
from pygraph500.errors import InputError
from pygraph500.graph import from_networkx, from_scipy

# float32 values, non-negative and finite: what a weight round-trips exactly as
WEIGHTS = st.floats(0, 2.0**100, width=32, allow_nan=False, allow_infinity=False)


@st.composite
def weighted_tuples(draw):
    """(n, [(u, v, w)]): a small graph with self-loops and repeated pairs likely."""
    n = draw(st.integers(1, 8))
    ends = st.integers(0, n - 1)
    return n, draw(st.lists(st.tuples(ends, ends, WEIGHTS), max_size=24))


def smallest_per_pair(tuples) -> dict:
    """The oracle of kernel 1: {(low, high): smallest weight}, self-loops left out."""
    out = {}
    for u, v, w in tuples:
        if u != v:
            key = (min(u, v), max(u, v))
            out[key] = min(w, out.get(key, w))
    return out


def edge_weights(g: nx.Graph, attr="weight") -> dict:
    return {(min(u, v), max(u, v)): w for u, v, w in g.edges(data=attr)}


def stored(a) -> dict:
    """Every stored entry of a scipy matrix, explicit zeros included (``!=`` would hide them)."""
    c = a.tocoo()
    return {(int(i), int(j)): float(w) for i, j, w in zip(c.row, c.col, c.data)}


def both_ways(pairs: dict) -> dict:
    return {**pairs, **{(j, i): w for (i, j), w in pairs.items()}}


# ---- networkx ------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph=weighted_tuples(), directed=st.booleans())
def test_networkx_round_trip_keeps_the_smallest_weight(graph, directed):
    n, tuples = graph
    m = nx.MultiDiGraph() if directed else nx.MultiGraph()
    m.add_nodes_from(range(n))
    m.add_weighted_edges_from(tuples)
    g = from_networkx(m, weight="weight")
    back = g.to_networkx()
    assert type(back) is nx.Graph and list(back) == list(range(n))
    assert edge_weights(back) == smallest_per_pair(tuples)
    # networkx's own shortest paths take the smallest of parallel edges too
    undirected = nx.MultiGraph()
    undirected.add_nodes_from(range(n))
    undirected.add_weighted_edges_from(tuples)
    want = nx.single_source_dijkstra_path_length(undirected, 0)
    got = csgraph.dijkstra(g.to_scipy(), indices=0)
    assert set(np.flatnonzero(np.isfinite(got)).tolist()) == set(want)
    np.testing.assert_allclose([got[v] for v in sorted(want)],
                               [want[v] for v in sorted(want)], rtol=1e-12)


def test_networkx_weights_round_to_float32():
    g = nx.Graph()
    g.add_edge("a", "b", weight=0.5)   # a float32: exact
    g.add_edge("b", "c", weight=0.1)   # not one: the nearest float32 comes back
    g.add_edge("c", "d")               # no attribute: 1
    back = from_networkx(g, weight="weight").to_networkx(nodes=list(g))
    got = {frozenset((u, v)): w for u, v, w in back.edges(data="weight")}
    assert got[frozenset("ab")] == 0.5 and got[frozenset("cd")] == 1.0
    assert got[frozenset("bc")] == float(np.float32(0.1)) == 0.10000000149011612
    assert got[frozenset("bc")] != 0.1 and type(got[frozenset("bc")]) is float


def test_networkx_multigraph_and_both_directions_keep_the_smallest():
    m = nx.MultiGraph()
    m.add_edge(0, 1, weight=3.0)
    m.add_edge(0, 1, weight=2.0)
    m.add_edge(1, 2, weight=7.0)
    assert edge_weights(from_networkx(m, weight="weight").to_networkx()) == {(0, 1): 2.0,
                                                                            (1, 2): 7.0}
    d = nx.DiGraph([(0, 1, {"weight": 2.0}), (1, 0, {"weight": 3.0})])
    assert edge_weights(from_networkx(d, weight="weight").to_networkx()) == {(0, 1): 2.0}


def test_networkx_weighted_self_loop_is_dropped():
    """A self-loop's weight once made a negative entry (networkx's symmetrised diagonal)."""
    g = nx.Graph([(0, 1, {"weight": 3.0}), (1, 1, {"weight": 2.0})])
    back = from_networkx(g, weight="weight").to_networkx()
    assert edge_weights(back) == {(0, 1): 3.0}


def test_to_networkx_weight_attribute():
    w = np.array([0.25, 4.0], dtype=np.float32)
    g = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3, w))
    assert edge_weights(g.to_networkx()) == {(0, 1): 0.25, (1, 2): 4.0}
    assert edge_weights(g.to_networkx(weight="cost"), "cost") == {(0, 1): 0.25, (1, 2): 4.0}
    assert all(d == {} for *_, d in g.to_networkx(weight=None).edges(data=True))
    plain = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3))
    assert all(d == {} for *_, d in plain.to_networkx().edges(data=True))
    # the unweighted way in: weights ignored
    assert from_networkx(g.to_networkx()).weights is None


def test_from_networkx_refusals():
    with pytest.raises(InputError, match=r"edge \('a', 'b'\) has weight -1.0"):
        from_networkx(nx.Graph([("a", "b", {"weight": -1})]), weight="weight")
    with pytest.raises(InputError, match="must be a number"):
        from_networkx(nx.Graph([("a", "b", {"weight": "x"})]), weight="weight")
    with pytest.raises(InputError, match="does not fit float32"):
        from_networkx(nx.Graph([("a", "b", {"weight": 1e39})]), weight="weight")
    with pytest.raises(InputError, match="listed twice"):
        from_networkx(nx.path_graph(3), [0, 0, 1])
    with pytest.raises(InputError, match="not in the networkx graph"):
        from_networkx(nx.path_graph(3), [0, 5])
    # a subset of the nodes: the edges among them
    g = from_networkx(nx.path_graph(4), [3, 2, 0])
    assert g.num_vertices == 3 and g.indices.tolist() == [1, 0]


# ---- scipy ---------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph=weighted_tuples())
def test_scipy_round_trip_keeps_the_smallest_weight(graph):
    n, tuples = graph
    r, c, w = (list(x) for x in zip(*tuples)) if tuples else ([], [], [])
    a = sp.coo_array((np.array(w, np.float32), (r, c)), shape=(n, n))  # duplicates stay
    b = from_scipy(a, weighted=True).to_scipy()
    assert b.dtype == np.float32 and b.shape == (n, n)
    assert stored(b) == both_ways(smallest_per_pair(tuples))
    assert stored(from_scipy(b, weighted=True).to_scipy()) == stored(b)
    # scipy's oracle: the matrix of the smallest weights, one entry per direction
    pairs = both_ways(smallest_per_pair(tuples))
    want = sp.csr_array((list(pairs.values()), tuple(zip(*pairs)) or ([], [])), shape=(n, n))
    np.testing.assert_array_equal(csgraph.dijkstra(b, indices=0),
                                  csgraph.dijkstra(want, indices=0))


def test_scipy_weights_round_to_float32_and_duplicates_keep_the_smallest():
    a = sp.coo_array((np.array([0.1, 0.5, 0.25]), ([0, 0, 1], [1, 1, 2])), shape=(3, 3))
    b = from_scipy(a, weighted=True).to_scipy()
    tenth = float(np.float32(0.1))   # the smaller duplicate, rounded to float32
    assert tenth != 0.1
    assert stored(b) == {(0, 1): tenth, (1, 0): tenth, (1, 2): 0.25, (2, 1): 0.25}
    # a CSR matrix that still holds duplicates (not canonical): the smallest too
    dup = sp.csr_array((np.array([4.0, 3.0]), np.array([1, 1]), np.array([0, 2, 2])),
                       shape=(2, 2))
    assert not dup.has_canonical_format
    assert stored(from_scipy(dup, weighted=True).to_scipy()) == {(0, 1): 3.0, (1, 0): 3.0}
    # scipy's own (data, (row, col)) -> CSR sums duplicates before we see them
    summed = sp.csr_array(([4.0, 3.0], ([0, 0], [1, 1])), shape=(2, 2))
    assert stored(from_scipy(summed, weighted=True).to_scipy()) == {(0, 1): 7.0, (1, 0): 7.0}
    # an asymmetric matrix: the smaller direction
    asym = sp.coo_array(([2.0, 5.0], ([0, 1], [1, 0])), shape=(2, 2))
    assert stored(from_scipy(asym, weighted=True).to_scipy()) == {(0, 1): 2.0, (1, 0): 2.0}
    with pytest.raises(InputError, match="does not fit float32"):
        from_scipy(sp.coo_array(([1e39], ([0], [1])), shape=(2, 2)), weighted=True)


def test_zero_weight_stays_an_edge():
    """csgraph takes a stored zero as an edge: the way out keeps it stored."""
    g = from_networkx(nx.Graph([(0, 1, {"weight": 0.0}), (1, 2, {"weight": 2.0})]),
                      weight="weight")
    a = g.to_scipy()
    assert a.nnz == 4 and stored(a)[(0, 1)] == 0.0
    assert csgraph.dijkstra(a, indices=0).tolist() == [0.0, 0.0, 2.0]
    assert edge_weights(g.to_networkx()) == {(0, 1): 0.0, (1, 2): 2.0}


def test_to_scipy_values_and_dtypes():
    w = np.array([0.25, 4.0], dtype=np.float32)
    g = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3, w))
    plain = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3))
    a = g.to_scipy()
    assert a.dtype == np.float32 and stored(a)[(1, 2)] == 4.0
    assert a.indices.dtype == np.int32 and a.indptr.dtype == np.int32   # csgraph's index type
    assert g.to_scipy(weighted=True).dtype == np.float32
    assert g.to_scipy(np.float64).dtype == np.float64 and g.to_scipy(np.float64)[1, 2] == 4.0
    ones = g.to_scipy(weighted=False)
    assert ones.dtype == np.float64 and set(ones.data.tolist()) == {1.0}
    assert plain.to_scipy().dtype == np.float64 and plain.to_scipy().sum() == 4
    assert plain.to_scipy(np.int8).dtype == np.int8    # the old default, still there
    with pytest.raises(InputError, match="no weights"):
        plain.to_scipy(weighted=True)
    # the matrix owns its arrays: changing it in place leaves the graph alone
    before = (g.indptr.copy(), g.indices.copy(), g.weights.copy())
    a.data[:] = 0
    a.eliminate_zeros()
    for x, y in zip(before, (g.indptr, g.indices, g.weights)):
        np.testing.assert_array_equal(x, y)


def test_to_scipy_agrees_with_networkx_on_a_real_graph():
    G = nx.les_miserables_graph()   # weighted: co-appearance counts
    nodes = sorted(G)
    g = from_networkx(G, nodes, weight="weight")
    want = nx.to_scipy_sparse_array(G, nodelist=nodes, weight="weight", format="csr")
    assert stored(g.to_scipy()) == stored(want)
    assert edge_weights(g.to_networkx(nodes=nodes)) == edge_weights(G)
    np.testing.assert_array_equal(csgraph.dijkstra(g.to_scipy(), indices=0),
                                  csgraph.dijkstra(want, indices=0))
