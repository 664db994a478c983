"""pygraph500.bfs in the ecosystem's style: every kind of graph in, Graph500 or scipy
conventions out; distances checked against networkx, trees against the graph itself."""
import doctest
import os
import pathlib
import warnings

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order, dijkstra, shortest_path

import pygraph500
from pygraph500 import EdgeList, InputError, build_csr
from pygraph500.graph import from_networkx, from_scipy
from pygraph500.bfs import ALGORITHMS

GRAPHS = {
    "karate": nx.karate_club_graph,
    "lesmis": nx.les_miserables_graph,
    "florentine": nx.florentine_families_graph,
    "grid": lambda: nx.grid_2d_graph(15, 11),
    "path": lambda: nx.path_graph(1500),
    "two-parts": lambda: nx.disjoint_union(nx.cycle_graph(7), nx.star_graph(5)),
}


def check_tree(adj: sp.csr_array, pred, dist, root):
    """Graph500 rules on our own: root its own parent, parents are neighbours one level up."""
    reached = np.flatnonzero(dist >= 0)
    assert pred[root] == root and dist[root] == 0
    np.testing.assert_array_equal(pred < 0, dist < 0)
    others = reached[reached != root]
    p = pred[others]
    assert np.all(dist[p] == dist[others] - 1)
    assert np.all(np.asarray(adj[others, p]).ravel() != 0)


@pytest.mark.parametrize("name", list(GRAPHS))
def test_every_input_kind_matches_networkx(name):
    G = GRAPHS[name]()
    nodes = list(G)
    a = nx.to_scipy_sparse_array(G, nodelist=nodes, format="csr")
    coo = a.tocoo()
    csr = from_networkx(G)
    for k in sorted({0, len(nodes) // 3, len(nodes) - 1}):
        expect = np.full(len(nodes), -1)
        for v, d in nx.single_source_shortest_path_length(G, nodes[k]).items():
            expect[nodes.index(v)] = d
        inputs = [(G, nodes[k]), (a, k), ((coo.row, coo.col), k), (csr, k),
                  (EdgeList(coo.row.astype(np.int64), coo.col.astype(np.int64), len(nodes)), k)]
        for graph, source in inputs:
            dist, pred = pygraph500.bfs(graph, source)
            assert pred.dtype == np.int64 and dist.dtype == np.int64
            np.testing.assert_array_equal(dist, expect)
            check_tree(a, pred, dist, k)


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS) + ["auto"])
def test_every_algorithm_same_distances(algorithm):
    G = nx.grid_2d_graph(20, 20)
    a = nx.to_scipy_sparse_array(G, format="csr")
    dist, pred = pygraph500.bfs(a, 5, algorithm=algorithm)
    expect = shortest_path(a, unweighted=True, indices=5, directed=False)
    np.testing.assert_array_equal(dist, expect.astype(np.int64))
    check_tree(a, pred, dist, 5)


def test_scipy_compatible_conventions():
    a = sp.csr_array(([1, 1, 1], ([0, 1, 3], [1, 2, 4])), shape=(6, 6))
    dist, pred = pygraph500.bfs(a, 0, scipy_compatible=True)
    _, spred = breadth_first_order(a, 0, directed=False, return_predecessors=True)
    np.testing.assert_array_equal(pred, spred)  # a path: the tree is unique
    assert pred[0] == -9999 and pred[3] == -9999
    np.testing.assert_array_equal(dist, shortest_path(a, unweighted=True, indices=0, directed=False))
    assert dist.dtype == np.float64 and np.isinf(dist[5])
    g500 = pygraph500.bfs(a, 0)
    np.testing.assert_array_equal(g500.predecessors, [0, 0, 1, -1, -1, -1])
    np.testing.assert_array_equal(g500.distances, [0, 1, 2, -1, -1, -1])


def test_directed_by_the_inputs_nature_and_by_choice():
    """A DiGraph and a scipy matrix are directed by default (as networkx and csgraph take
    them), edge arrays undirected (Graph500's); directed=False follows edges both ways."""
    D = nx.DiGraph([(0, 1), (2, 1), (3, 2)])
    np.testing.assert_array_equal(pygraph500.bfs(D, 0).distances, [0, 1, -1, -1])
    np.testing.assert_array_equal(pygraph500.bfs(D, 3).distances, [-1, 2, 1, 0])
    np.testing.assert_array_equal(pygraph500.bfs(D, 0, directed=False).distances, [0, 1, 2, 3])
    a = nx.to_scipy_sparse_array(D, format="csr")
    np.testing.assert_array_equal(pygraph500.bfs(a, 0).distances, [0, 1, -1, -1])
    np.testing.assert_array_equal(pygraph500.bfs(a, 0, directed=False).distances, [0, 1, 2, 3])
    edges = (np.array([0, 2, 3]), np.array([1, 1, 2]))
    np.testing.assert_array_equal(pygraph500.bfs(edges, 0).distances, [0, 1, 2, 3])
    np.testing.assert_array_equal(pygraph500.bfs(edges, 0, directed=True).distances,
                                  [0, 1, -1, -1])
    with pytest.raises(InputError, match="bottomup searches undirected graphs only; "
                                         "directed: direction-optimizing, topdown-queue"):
        pygraph500.bfs(D, 0, algorithm="bottomup")
    with pytest.raises(InputError, match="delta-stepping searches undirected graphs only"):
        pygraph500.sssp(D, 0, algorithm="delta-stepping")


_DIRECTED_BFS = sorted(ALGORITHMS.directed_names()) + ["auto"]


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 60), st.integers(0, 240), st.integers(0, 2**32 - 1))
def test_directed_searches_equal_scipys(n, m, seed):
    """Every algorithm whose record says directed, and both SSSP ones, against csgraph's
    directed=True on random digraphs (duplicates and self-loops included)."""
    from pygraph500.sssp import ALGORITHMS as SSSP

    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(1, 100, m).astype(np.float64) / 4  # exact in float32
    root = int(rng.integers(0, n))
    ones = sp.csr_array((np.ones(m), (src, dst)), shape=(n, n))
    want = shortest_path(ones, unweighted=True, directed=True, indices=root)
    for algorithm in _DIRECTED_BFS:
        dist, pred = pygraph500.bfs(ones, root, algorithm=algorithm)
        np.testing.assert_array_equal(np.where(dist < 0, np.inf, dist), want)
        for v in np.flatnonzero((pred >= 0) & (np.arange(n) != root)):
            assert ones[pred[v], v] and dist[pred[v]] == dist[v] - 1, algorithm
    keep = src != dst  # csgraph sums duplicates: give it each pair's smallest weight
    order = np.lexsort((w[keep], src[keep] * n + dst[keep]))
    s_, d_, w_ = src[keep][order], dst[keep][order], w[keep][order]
    first = np.ones(len(s_), bool)
    first[1:] = (s_[1:] != s_[:-1]) | (d_[1:] != d_[:-1])
    weighted = sp.csr_array((w_[first], (s_[first], d_[first])), shape=(n, n))
    want = dijkstra(weighted, directed=True, indices=root)
    for algorithm in SSSP.directed_names():
        edges = EdgeList(src.astype(np.int64), dst.astype(np.int64), n, w.astype(np.float32))
        dist, pred = pygraph500.sssp(edges, root, directed=True, algorithm=algorithm)
        np.testing.assert_array_equal(dist, want)


def test_a_source_beyond_the_ids_is_refused():
    """It made the arrays that long, silently (an EdgeList with num_vertices has isolated
    vertices, when they are wanted)."""
    with pytest.raises(InputError, match=r"source 6 is not a vertex \(0..2\)"):
        pygraph500.bfs((np.array([0, 1]), np.array([1, 2])), 6)
    dist, pred = pygraph500.bfs(EdgeList(np.array([0, 1]), np.array([1, 2]), 7), 6)
    assert pred.shape == (7,) and pred[6] == 6 and dist[6] == 0 and np.all(dist[:6] == -1)


def test_edges_as_rows_lists_and_dataframes():
    """(N, 2) arrays and lists of (u, v) are rows (a list of two pairs was read as two
    columns); a DataFrame by its column names; other shapes refused in one line."""
    G = nx.gnm_random_graph(30, 60, seed=2)
    rows = np.array(G.edges())
    want = nx.single_source_shortest_path_length(G, 0)
    want = [want.get(v, -1) for v in range(rows.max() + 1)]
    for graph in (rows, rows.tolist(), [tuple(r) for r in rows], (rows[:, 0], rows[:, 1])):
        assert pygraph500.bfs(graph, 0).distances.tolist() == want
    assert pygraph500.bfs([(0, 5), (1, 2)], 0).distances.tolist() == [0, -1, -1, -1, -1, 1]
    for bad in ([[0, 1, 2, 3], [1, 2, 3, 4]], np.zeros((4, 5), int), [(0.5, 1)]):
        with pytest.raises(InputError) as e:
            pygraph500.bfs(bad, 0)
        assert "\n" not in str(e.value)
    with pytest.raises(InputError, match="sssp needs a weighted graph"):
        pygraph500.sssp(rows, 0)
    w = np.arange(1, len(rows) + 1, dtype=float)
    n = rows.max() + 1
    ref = dijkstra(sp.coo_array((w, (rows[:, 0], rows[:, 1])), shape=(n, n)).tocsr(),
                   directed=False, indices=0)
    np.testing.assert_array_equal(
        pygraph500.sssp(np.column_stack([rows, w]), 0, dtype=np.float64).distances, ref)
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"weight": w, "dst": rows[:, 1], "src": rows[:, 0]})
    assert pygraph500.bfs(df, 0).distances.tolist() == want
    np.testing.assert_array_equal(pygraph500.sssp(df, 0, dtype=np.float64).distances, ref)
    unnamed = pd.DataFrame(rows)
    assert pygraph500.bfs(unnamed, 0).distances.tolist() == want


def test_sparse_ids_are_compacted_and_come_back_labelled():
    """Two edges with an id of 10**12 were OOM-killed; sparse ids are now compacted as the
    file readers compact them (the result carries the user's ids), and kept ids too large
    for memory are refused in one line before any work."""
    from pygraph500.errors import ResourceError

    r = pygraph500.bfs((np.array([0, 10**12]), np.array([10**12, 5])), 5)
    assert r.distances.shape == (3,) and r.labels.tolist() == [0, 5, 10**12]
    assert r.as_dicts() == ({5: 0, 10**12: 1, 0: 2}, {5: 5, 10**12: 5, 0: 10**12})
    with pytest.raises(InputError, match="vertex 6 is not a vertex"):
        pygraph500.bfs((np.array([0, 10**12]), np.array([10**12, 5])), 6)
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": [0, 10**12], "b": [10**12, 5]})
    with pytest.raises(ResourceError, match="vertex ids 0..1000000000000"):
        pygraph500.from_pandas(df, "a", "b", relabel=False)


def test_string_ids_of_a_dataframe(tmp_path):
    """cuGraph and networkx take string ids: from_pandas numbers them in sorted order, a
    search takes and gives them back, equal to networkx's (exact float64 SSSP); a file
    format (integer ids) refuses such a graph in one line, an unknown id is refused, and
    ids mixing strings and integers are refused."""
    pd = pytest.importorskip("pandas")
    G = nx.les_miserables_graph()
    df = nx.to_pandas_edgelist(G)
    g = pygraph500.from_pandas(df, "source", "target", "weight")
    assert g.named and g.labels.tolist() == sorted(G)
    for root in ("Valjean", "Napoleon"):
        dist, pred = pygraph500.bfs(g, root).as_dicts()
        assert dist == nx.single_source_shortest_path_length(G, root)
        assert all(pred[v] in G[v] and dist[pred[v]] == dist[v] - 1 for v in pred if v != root)
        dist, _ = pygraph500.sssp(g, root, dtype=np.float64).as_dicts()
        assert dist == nx.single_source_dijkstra_path_length(G, root)
    assert pygraph500.bfs(df, "Valjean").as_dicts()[0]["Javert"] == 1
    assert g.user_ids(np.array([0, -1])).tolist() == [sorted(G)[0], None]
    with pytest.raises(InputError, match="vertex 'nobody' is not a vertex"):
        pygraph500.bfs(g, "nobody")
    with pytest.raises(InputError, match="ids are strings; the snap format holds integer"):
        pygraph500.write_graph(g, str(tmp_path / "x.txt"))
    assert not (tmp_path / "x.txt").exists()
    with pytest.raises(InputError, match="of integer ids or of string ids"):
        pygraph500.from_pandas(pd.DataFrame({"a": ["x", 1], "b": ["y", "z"]}), "a", "b")


def test_a_graph_file_is_built_once(monkeypatch):
    """Searching one GraphFile (from_pandas, read_graph) many times ran kernel 1 on every
    call; now once per kind of graph asked (undirected, float64 weights, directed), and the
    answers stay scipy's."""
    import pygraph500.api as api
    from pygraph500.io import GraphFile

    rng = np.random.default_rng(8)
    src, dst = rng.integers(0, 40, 120), rng.integers(0, 40, 120)
    w = rng.integers(1, 100, 120).astype(float)
    g = GraphFile(EdgeList(src, dst, 40, w.astype(np.float32)), weights=w)
    builds = []
    for name in ("build_csr", "directed_csr"):
        real = getattr(api, name)
        monkeypatch.setattr(api, name, lambda *a, real=real, name=name, **k: (
            builds.append(name), real(*a, **k))[1])
    both = sp.coo_array((np.r_[w, w], (np.r_[src, dst], np.r_[dst, src])), shape=(40, 40))
    a = sp.csr_array(both)
    a.sum_duplicates()
    one_way = sp.coo_array((w, (src, dst)), shape=(40, 40)).tocsr()
    for root in (0, 3, 7):
        np.testing.assert_array_equal(
            pygraph500.bfs(g, root).distances,
            _hops(dijkstra(a, directed=False, unweighted=True, indices=root)))
        np.testing.assert_array_equal(
            pygraph500.sssp(g, root, dtype=np.float64).distances,
            dijkstra(_smallest(src, dst, w, 40), directed=False, indices=root))
        np.testing.assert_array_equal(
            pygraph500.bfs(g, root, directed=True).distances,
            _hops(dijkstra(one_way, directed=True, unweighted=True, indices=root)))
    # kernel 1 once; the float64 weights' pairing and the directed graph one each
    assert sorted(builds) == ["build_csr", "directed_csr", "directed_csr"], builds


def _hops(d):
    return np.where(np.isinf(d), -1, d).astype(np.int64)


def _smallest(src, dst, w, n):
    """The undirected matrix keeping each pair's smallest weight (kernel 1's rule)."""
    best = {}
    for u, v, x in zip(src.tolist(), dst.tolist(), w.tolist()):
        if u != v:
            k = (min(u, v), max(u, v))
            best[k] = min(best.get(k, np.inf), x)
    rows = [k[0] for k in best] + [k[1] for k in best]
    cols = [k[1] for k in best] + [k[0] for k in best]
    return sp.csr_array((list(best.values()) * 2, (rows, cols)), shape=(n, n))


def test_from_pandas_names_the_columns_and_keeps_the_users_ids():
    """cuGraph's and networkx's from_pandas_edgelist: columns by name, the ids as given
    (sparse ones compacted), float64 weights kept; results equal networkx's in its ids."""
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(5)
    G = nx.gnm_random_graph(60, 150, seed=3)
    ids = rng.choice(10**15, 60, replace=False)
    H = nx.relabel_nodes(G, {v: int(ids[v]) for v in G})
    for u, v in H.edges():
        H[u][v]["cost"] = float(rng.integers(1, 10**6)) + 0.25
    df = pd.DataFrame([(u, v, d["cost"], "x") for u, v, d in H.edges(data=True)],
                      columns=["tag_from", "tag_to", "cost", "note"])
    df = df[["note", "cost", "tag_to", "tag_from"]]  # not in the order guessed by default
    g = pygraph500.from_pandas(df, source="tag_from", target="tag_to", weight="cost")
    root = int(ids[0])
    dist, pred = pygraph500.bfs(g, root).as_dicts()
    assert dist == nx.single_source_shortest_path_length(H, root)
    assert all(pred[v] in H[v] for v in pred if v != root) and pred[root] == root
    dist, _ = pygraph500.sssp(g, root, dtype=np.float64).as_dicts()
    want = nx.single_source_dijkstra_path_length(H, root, weight="cost")
    assert dist == want  # exact: float64 sums of the weights as given
    frame = pygraph500.sssp(g, root).as_frame()
    assert set(frame["vertex"]) == set(H) and frame["vertex"].dtype == object
    d = pygraph500.from_pandas(df, "tag_from", "tag_to", directed=True)
    one_way = pygraph500.bfs(d, root).as_dicts()[0]
    assert one_way == nx.single_source_shortest_path_length(
        nx.DiGraph([(u, v) for u, v in zip(df["tag_from"], df["tag_to"])]), root)
    for bad, match in (({"source": "nope"}, r"source column 'nope' is not in the DataFrame "
                         r"\(columns: note, cost, tag_to, tag_from\)"),
                       ({"source": "tag_from", "target": "note"}, "integer"),
                       ({"relabel": "yes"}, "relabel must be")):
        with pytest.raises(InputError, match=match):
            pygraph500.from_pandas(df, **{"source": "tag_from", "target": "tag_to", **bad})
    with pytest.raises(InputError, match=r"below 2\*\*63"):
        pygraph500.from_pandas(pd.DataFrame({"s": np.array([2**63 + 5], np.uint64),
                                             "t": np.array([1], np.uint64)}), "s", "t")
    with pytest.raises(InputError, match="takes a pandas DataFrame"):
        pygraph500.from_pandas(np.zeros((3, 2), int))


def test_conversions_roundtrip():
    G = nx.les_miserables_graph()
    nodes = sorted(G)
    g = from_networkx(G, nodes)
    assert g.num_vertices == G.number_of_nodes() and g.num_directed_edges == 2 * G.number_of_edges()
    back = g.to_networkx(nodes=nodes)
    assert nx.utils.graphs_equal(nx.Graph(back.edges()), nx.Graph(G.edges()))
    a = g.to_scipy()
    assert isinstance(a, sp.csr_array) and a.shape == (77, 77) and (a != a.T).nnz == 0
    g2 = from_scipy(a)
    np.testing.assert_array_equal(g2.indptr, g.indptr)
    np.testing.assert_array_equal(g2.indices, g.indices)
    # explicit zeros are edges, as in scipy.sparse.csgraph; self-loops and duplicates go
    m = sp.coo_array((np.array([0.0, 1, 1, 1]), (np.array([0, 1, 1, 2]), np.array([1, 1, 2, 1]))),
                     shape=(3, 3))
    g3 = from_scipy(m)
    assert g3.indptr.tolist() == [0, 1, 3, 4] and g3.indices.tolist() == [1, 0, 2, 1]
    assert build_csr(EdgeList(np.array([0]), np.array([1]), 2)).to_networkx().number_of_edges() == 1


def test_bad_calls():
    a = sp.eye_array(3, k=1, format="csr")
    with pytest.raises(InputError, match="not a vertex"):
        pygraph500.bfs(a, 3)
    with pytest.raises(InputError, match="not a node"):
        pygraph500.bfs(nx.path_graph(3), "x")
    with pytest.raises(InputError, match="square"):
        pygraph500.bfs(sp.csr_array((2, 3)), 0)
    with pytest.raises(InputError, match="graph must be"):
        pygraph500.bfs({"a": 1}, 0)
    for path in ("g.csv", pathlib.Path("g.csv")):  # a path: read_graph reads files
        for search in (pygraph500.bfs, pygraph500.sssp):
            with pytest.raises(InputError, match=r"got \w+: a file\? pygraph500.read_graph"):
                search(path, 0)
    with pytest.raises(InputError, match="unknown BFS algorithm"):
        pygraph500.bfs(a, 0, algorithm="dfs")
    with pytest.raises(InputError, match="non-negative"):
        pygraph500.bfs((np.array([-1]), np.array([2])), 2)


@pytest.mark.parametrize("name, function", [("bfs", "pygraph500.api.bfs"),
                                            ("sssp", "pygraph500.api.sssp"),
                                            ("validate", "pygraph500.validate.validate")])
def test_no_function_shadows_its_package(name, function):
    """``pygraph500.bfs`` is the package and, called, the function: ``import pygraph500.bfs
    as m`` gives the package (it gave the function), and the call still works."""
    import importlib
    import inspect
    import sys

    m = importlib.import_module(f"pygraph500.{name}")
    exec(f"import pygraph500.{name} as m2", globals())
    assert m2 is m is getattr(pygraph500, name) is sys.modules[f"pygraph500.{name}"]  # noqa: F821
    module, _, attr = function.rpartition(".")
    fn = getattr(importlib.import_module(module), attr)
    assert callable(m) and m.called is fn
    assert inspect.signature(m) == inspect.signature(fn)
    if name == "bfs":
        assert m.ALGORITHMS is ALGORITHMS
        importlib.import_module("pygraph500.bfs.array")  # the import path keeps working
        assert m(nx.path_graph(3), 0).distances.tolist() == [0, 1, 2]


@pytest.mark.parametrize("module", ["pygraph500.api", "pygraph500.graph.interop",
                                    "pygraph500.graph.types", "pygraph500.io.graph_file"])
def test_docstring_examples_run(module):
    import importlib

    mod = importlib.import_module(module)
    failed, attempted = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0


def test_bfs_and_sssp_return_one_convention():
    """Both return a SearchResult: named fields, unpacked (distances, predecessors) as
    scipy's dijkstra(..., return_predecessors=True); indexing it is an error, not a vertex."""
    a = sp.csr_array(([1.0, 2.0], ([0, 1], [1, 2])), shape=(4, 4))
    for result in (pygraph500.bfs(a, 0), pygraph500.sssp(a, 0)):
        assert isinstance(result, pygraph500.SearchResult)
        dist, pred = result
        assert dist is result.distances and pred is result.predecessors
        assert pred.tolist() == [0, 0, 1, -1] and pred.dtype == np.int64
        with pytest.raises(TypeError, match="not indexed"):
            result[0]
    sd, sp_ = dijkstra(a, directed=False, indices=0, return_predecessors=True)
    d, p = pygraph500.sssp(a, 0, scipy_compatible=True)
    np.testing.assert_array_equal(d, sd)
    np.testing.assert_array_equal(p, sp_)
    d, p = pygraph500.bfs(a, 0, scipy_compatible=True)
    np.testing.assert_array_equal(d, [0, 1, 2, np.inf])


def test_sssp_in_float64_is_exact_where_float32_is_not():
    """A 200-vertex path of weights 1,000,001: scipy's 199000199, which float32 sums miss."""
    n = 200
    a = np.arange(n - 1)
    m = sp.csr_array((np.full(n - 1, 1_000_001.0), (a, a + 1)), shape=(n, n))
    want = dijkstra(m, directed=False, indices=0)
    assert want[-1] == 199_000_199
    for kwargs in ({"scipy_compatible": True}, {"dtype": np.float64}):
        d, _ = pygraph500.sssp(m, 0, **kwargs)
        assert d.dtype == np.float64
        np.testing.assert_array_equal(d, want)
    d32, _ = pygraph500.sssp(m, 0)
    assert d32.dtype == np.float32 and d32[-1] != want[-1]  # Graph500's float32, as specified
    with pytest.raises(InputError, match="computes in float32 only; float64: dijkstra"):
        pygraph500.sssp(m, 0, dtype=np.float64, algorithm="delta-stepping")


def test_sssp_float64_keeps_the_smallest_given_weight():
    """Weights float32 cannot hold, parallel edges and self-loops, from every input kind."""
    rng = np.random.default_rng(5)
    n, m = 40, 160
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.random(m) * 10 + 0.1  # float64 values, most not float32-representable
    dense = np.full((n, n), np.inf)
    for u, v, x in zip(src, dst, w):
        if u != v:
            dense[u, v] = dense[v, u] = min(dense[u, v], x)
    ref = dijkstra(np.where(np.isinf(dense), 0, dense), directed=False, indices=0)
    G = nx.MultiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(src.tolist(), dst.tolist(), w.tolist()))
    m_ = sp.coo_array((w, (src, dst)), shape=(n, n))
    for graph in ((src, dst, w), G, m_):
        d, p = pygraph500.sssp(graph, 0, dtype=np.float64, directed=False)
        np.testing.assert_allclose(d, ref, rtol=0, atol=0)
        reached = np.flatnonzero(np.isfinite(d))
        for v in reached[reached != 0]:
            assert d[v] == d[p[v]] + dense[p[v], v]


def test_threads_per_call_and_the_shared_machine_guard(monkeypatch):
    """threads= runs the call on that many threads and restores numba's count; the first call
    of a process on a busy machine bounds OpenMP's spin and says so once, as the CLI does."""
    import numba

    from pygraph500 import api
    from pygraph500.backend import threads as th

    monkeypatch.setattr(api._Process, "told_reconverted", True)  # (this test converts G often)
    G = nx.grid_2d_graph(30, 30)
    before = numba.get_num_threads()
    one = pygraph500.bfs(G, (0, 0), threads=1, algorithm="direction-optimizing")
    assert numba.get_num_threads() == before
    np.testing.assert_array_equal(one.distances, pygraph500.bfs(G, (0, 0)).distances)
    with pytest.raises(InputError, match="thread"):
        pygraph500.sssp(sp.eye_array(3, k=1, format="csr"), 0, threads=0)
    monkeypatch.setattr(api._Process, "shared_checked", False)
    monkeypatch.setattr(th, "_runnable_others", lambda: 8.0)
    for v in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME"):
        monkeypatch.delenv(v, raising=False)
    with pytest.warns(RuntimeWarning, match="other processes were running"):
        pygraph500.bfs(G, (0, 0))
    assert os.environ["GOMP_SPINCOUNT"] == th.BOUNDED_SPIN
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pygraph500.bfs(G, (0, 0))  # once per process


def test_the_first_call_says_it_compiles(tmp_path):
    """On an empty numba cache the first call says on stderr that it compiles, one line
    before and one after; the next process, which loads the kernels, says nothing."""
    import subprocess
    import sys

    code = "import networkx as nx, pygraph500 as pg; print(pg.bfs(nx.path_graph(5), 0).distances)"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                           timeout=600) for _ in range(2)]
    assert all(r.returncode == 0 and r.stdout.strip() == "[0 1 2 3 4]" for r in runs)
    first = [l for l in runs[0].stderr.splitlines() if l.startswith("pygraph500:")]
    assert len(first) == 2 and "compiling the kernels of bfs-reference" in first[0]
    assert first[1].startswith("pygraph500: compiled in ")
    assert "compil" not in runs[1].stderr


def test_a_refused_input_says_nothing_of_compiling(tmp_path):
    """On an empty cache, an input no entry point takes is refused before the compile note:
    the one error line, not "compiling the kernels" first and then the error."""
    import subprocess
    import sys

    code = ("import pygraph500 as pg\ntry:\n    pg.bfs('g.csv', 0)\nexcept pg.InputError as e:"
            "\n    print(e)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)), timeout=600)
    assert r.returncode == 0 and r.stderr == "" and "read_graph(path)" in r.stdout


def test_sssp_of_a_file_read_without_weights_true_uses_its_weights(tmp_path):
    """``read_graph`` keeps a file's weight column as given (float64) unless asked for
    kernel 3's float32 ones (``weights=True``); sssp refused such a GraphFile as unweighted.
    Now it searches the file's weights: networkx's Dijkstra over the same file's smallest
    weight per pair (exact in float64), undirected and directed; BFS of it is unchanged."""
    rng = np.random.default_rng(7)
    src, dst = rng.integers(0, 60, 400), rng.integers(0, 60, 400)
    w = rng.integers(1, 1000, 400) / 7
    path = tmp_path / "w.csv"
    path.write_text("source,target,weight\n" + "".join(
        f"{a},{b},{x!r}\n" for a, b, x in zip(src.tolist(), dst.tolist(), w.tolist())))
    g = pygraph500.read_graph(str(path))
    assert g.edges.weight is None and g.weights is not None
    for directed in (False, True):
        G = nx.DiGraph() if directed else nx.Graph()
        for a, b, x in zip(src.tolist(), dst.tolist(), w.tolist()):
            if a != b and (not G.has_edge(a, b) or G[a][b]["weight"] > x):
                G.add_edge(a, b, weight=x)
        root = int(src[0])
        want = nx.single_source_dijkstra_path_length(G, root)
        wide = pygraph500.sssp(g, root, directed=directed, dtype=np.float64).distances
        assert {v: wide[v] for v in want} == want
        narrow = pygraph500.sssp(g, root, directed=directed).distances
        np.testing.assert_allclose([narrow[v] for v in want], list(want.values()), rtol=1e-6)
        assert np.isinf(np.delete(wide, list(want))).all()
    hops = nx.single_source_shortest_path_length(nx.Graph(list(zip(src.tolist(),
                                                                    dst.tolist()))), 0)
    bfs = pygraph500.bfs(g, 0).distances
    assert {v: int(bfs[v]) for v in hops} == hops
    unweighted = tmp_path / "u.csv"
    unweighted.write_text("0,1\n1,2\n")
    with pytest.raises(InputError, match="sssp needs a weighted graph"):
        pygraph500.sssp(pygraph500.read_graph(str(unweighted)), 0)


def test_a_networkx_graph_converted_again_is_said_once(monkeypatch):
    """Kernel 1 runs on every call with a networkx graph: the second call with the same
    object for the same kernel warns once per process how to convert it once (bfs then
    sssp are two different conversions); a CSRGraph never warns."""
    from pygraph500 import api

    monkeypatch.setattr(api._Process, "converted", None)
    monkeypatch.setattr(api._Process, "told_reconverted", False)
    monkeypatch.setattr(api._Process, "shared_checked", True)
    G = nx.path_graph(5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pygraph500.bfs(G, 0)
        g = from_networkx(G)
        pygraph500.bfs(g, 0)
        pygraph500.bfs(g, 0)
        pygraph500.sssp(G, 0)  # its first weighted conversion
    with pytest.warns(RuntimeWarning, match="converted again"):
        pygraph500.bfs(G, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pygraph500.sssp(G, 0)  # once per process


def test_answers_in_the_users_labels():
    """A networkx graph's node names come back: as_dicts (networkx's way) equals
    single_source_shortest_path_length, as_frame is cuGraph's (vertex, distance,
    predecessor), every predecessor a neighbour one level up."""
    G = nx.relabel_nodes(nx.les_miserables_graph(), lambda name: f"<{name}>")
    G.add_node("alone")
    src = "<Valjean>"
    result = pygraph500.bfs(G, src)
    dist, pred = result.as_dicts()
    assert dist == nx.single_source_shortest_path_length(G, src)
    assert pred[src] == src and all(G.has_edge(p, v) and dist[p] == dist[v] - 1
                                    for v, p in pred.items() if v != src)
    d, _ = pygraph500.sssp(G, src, dtype=np.float64).as_dicts()
    assert d == pytest.approx(nx.single_source_dijkstra_path_length(G, src))
    pd = pytest.importorskip("pandas")
    frame = result.as_frame()
    assert list(frame.columns) == ["vertex", "distance", "predecessor"]
    row = frame.set_index("vertex").loc["alone"]
    assert row.distance == -1 and pd.isna(row.predecessor)
    assert frame.set_index("vertex").loc[src, "predecessor"] == src
