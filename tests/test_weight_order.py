"""Kernel 1's rows by weight (``CSRGraph.by_weight``, what delta-stepping reads): every row the
same entries as the graph's, in increasing order of weight, ties by neighbour, against
NumPy's lexsort row by row; built with the graph by kernel 1, on first use otherwise."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.graph import EdgeList, build_csr
from pygraph500.graph.types import CSRGraph
from pygraph500.graph.weights import by_weight


def _check(g, nbr, wt):
    """Row by row: the oracle's order (lexsort by weight, then neighbour)."""
    assert nbr.dtype == g.indices.dtype and wt.dtype == np.float32
    assert nbr.shape == g.indices.shape and wt.shape == g.weights.shape
    for u in range(g.num_vertices):
        a, b = g.indptr[u], g.indptr[u + 1]
        order = np.lexsort((g.indices[a:b], g.weights[a:b]))
        np.testing.assert_array_equal(nbr[a:b], g.indices[a:b][order])
        np.testing.assert_array_equal(wt[a:b], g.weights[a:b][order])


def _star(weights):
    """Vertex 0 joined to 1..k with ``weights`` (one row of k entries)."""
    k = len(weights)
    return build_csr(EdgeList(np.zeros(k, np.int64), np.arange(1, k + 1), k + 1,
                              np.asarray(weights, np.float32)))


def test_kronecker_rows(threads):
    g = build_csr(kronecker(10, 16, seed=(3, 4), weights=True))
    assert "by_weight" in g.__dict__  # kernel 1 made them with the graph
    _check(g, *g.by_weight)


@pytest.mark.parametrize("weights", [
    [0.5] * 40,  # all equal: one bucket
    [0.0] * 20 + [1e-45] * 5 + [3e38] * 20,  # zeros, the least subnormal, the largest
    [np.inf, 1.0, 0.0] * 15,  # inf (its bucket computation must not fail)
    list(np.linspace(1.0, 0.0, 200)),  # reversed
    [1e-38 * (i % 7) for i in range(100)],  # tiny spread, many ties
])
def test_long_rows(weights):
    g = _star(weights)
    _check(g, *by_weight(g.indptr, g.indices, g.weights))


@given(st.integers(1, 40), st.integers(0, 300), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_random_rows(n, m, seed):
    """Repeated weights (ties) and spread ones, rows short and long."""
    rng = np.random.default_rng(seed)
    few = rng.choice(np.array([0.0, 1e-45, 0.25, 0.5, 1.0, 3e38], np.float32), m)
    w = np.where(rng.random(m) < 0.5, few, rng.random(m, dtype=np.float32))
    g = build_csr(EdgeList(rng.integers(0, n, m), rng.integers(0, n, m), n, w))
    _check(g, *g.by_weight)


def test_made_on_first_use_for_other_graphs():
    g = build_csr(kronecker(8, 16, weights=True))
    bare = CSRGraph(indptr=g.indptr, indices=g.indices, num_vertices=g.num_vertices,
                    num_input_edges=g.num_input_edges, weights=g.weights)
    assert "by_weight" not in bare.__dict__
    nbr, wt = bare.by_weight
    assert bare.by_weight[0] is nbr  # computed once
    np.testing.assert_array_equal(nbr, g.by_weight[0])
    np.testing.assert_array_equal(wt, g.by_weight[1])


def test_unweighted_graph_has_none():
    g = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3))
    with pytest.raises(InputError, match="no weights"):
        g.by_weight
