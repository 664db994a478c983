"""Kernel 1 (build_csr) against an independent oracle: scipy.sparse COO -> CSR."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pygraph500.errors import InputError
from pygraph500.graph import CSRGraph, EdgeList, build_csr, index_dtype
from pygraph500.graph import build as build_module

from conftest import rmat_like

def oracle(src, dst, n):
    """indptr, indices of the symmetrised, self-loop-free, deduplicated, sorted graph."""
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    keep = src != dst
    rows = np.concatenate([src[keep], dst[keep]])
    cols = np.concatenate([dst[keep], src[keep]])
    a = sp.coo_matrix((np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(n, n)).tocsr()
    a.sum_duplicates()
    a.sort_indices()
    return a.indptr.astype(np.int64), a.indices.astype(np.int64)


def check_against_oracle(src, dst, n):
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    g = build_csr(EdgeList(src, dst, n))
    indptr, indices = oracle(src, dst, n)
    assert isinstance(g, CSRGraph)
    assert g.num_vertices == n
    assert g.num_input_edges == len(src)
    assert g.indptr.dtype == np.int64 and g.indptr.shape == (n + 1,)
    assert g.indices.dtype == index_dtype(n)
    np.testing.assert_array_equal(g.indptr, indptr)
    np.testing.assert_array_equal(g.indices, indices)
    return g


def random_edges(rng, n, m, skew=False):
    if skew:  # R-MAT-like: a few hubs and many low-degree vertices
        src, dst = rmat_like(rng, max(1, int(np.ceil(np.log2(n)))), m)
        return src % n, dst % n
    return rng.integers(0, n, m), rng.integers(0, n, m)


@pytest.mark.parametrize(
    "n,m,skew,seed",
    [(10, 30, False, 0), (100, 50, False, 1), (1000, 20000, True, 2), (257, 5000, False, 3),
     (5000, 200_000, True, 4)],  # the last one is cut into several chunks per thread count
)
def test_random_graphs_match_oracle(threads, n, m, skew, seed):
    rng = np.random.default_rng(seed)
    src, dst = random_edges(rng, n, m, skew)
    check_against_oracle(src, dst, n)


def test_self_loops_only():
    g = check_against_oracle([0, 1, 2, 2], [0, 1, 2, 2], 4)
    assert g.num_directed_edges == 0
    assert g.num_input_edges == 4
    np.testing.assert_array_equal(g.indptr, np.zeros(5))


def test_duplicates_in_both_orientations():
    g = check_against_oracle([0, 1, 0, 0, 2], [1, 0, 1, 2, 0], 3)
    np.testing.assert_array_equal(g.neighbours(0), [1, 2])
    np.testing.assert_array_equal(g.neighbours(1), [0])
    np.testing.assert_array_equal(g.neighbours(2), [0])


def test_isolated_vertices_and_sorted_lists():
    g = check_against_oracle([7, 7, 7, 3], [5, 1, 3, 1], 10)
    np.testing.assert_array_equal(g.neighbours(7), [1, 3, 5])
    np.testing.assert_array_equal(g.degree(), [0, 2, 0, 2, 0, 1, 0, 3, 0, 0])


def test_single_vertex_and_empty():
    g = check_against_oracle([0], [0], 1)
    assert g.indptr.tolist() == [0, 0]
    g = check_against_oracle([], [], 1)
    assert g.indptr.tolist() == [0, 0] and g.indices.size == 0
    g = check_against_oracle([], [], 0)
    assert g.indptr.tolist() == [0]


def test_input_not_modified_and_other_int_dtypes():
    src = np.array([3, 1, 2, 2], dtype=np.int32)
    dst = np.array([0, 3, 2, 1], dtype=np.uint16)
    s0, d0 = src.copy(), dst.copy()
    g = build_csr(EdgeList(src, dst, 4))
    np.testing.assert_array_equal(src, s0)
    np.testing.assert_array_equal(dst, d0)
    indptr, indices = oracle(src, dst, 4)
    np.testing.assert_array_equal(g.indptr, indptr)
    np.testing.assert_array_equal(g.indices, indices)


def test_int64_indices_path(monkeypatch):
    """N >= 2**31 cannot be built in a test; force the int64 index type instead."""
    monkeypatch.setattr(build_module, "index_dtype", lambda n: np.int64)
    rng = np.random.default_rng(5)
    src, dst = random_edges(rng, 300, 3000, skew=True)
    g = build_csr(EdgeList(src, dst, 300))
    assert g.indices.dtype == np.int64
    indptr, indices = oracle(src, dst, 300)
    np.testing.assert_array_equal(g.indptr, indptr)
    np.testing.assert_array_equal(g.indices, indices)


def test_index_dtype_rule():
    assert index_dtype(1) == np.int32
    assert index_dtype(2**31 - 1) == np.int32
    assert index_dtype(2**31) == np.int64


@pytest.mark.parametrize(
    "src,dst,n,where",
    [([0, 5], [1, 0], 5, "edge tuple 1"), ([0, -1], [1, 2], 5, "edge tuple 1"),
     ([2], [9], 3, "edge tuple 0"), ([0], [0], 0, "edge tuple 0")],
)
def test_out_of_range_labels(src, dst, n, where):
    with pytest.raises(InputError, match=where):
        build_csr(EdgeList(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), n))


def test_non_integer_labels():
    with pytest.raises(InputError, match="integers"):
        build_csr(EdgeList(np.array([0.0, 1.0]), np.array([1.0, 0.0]), 2))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(1, 40),
    data=st.data(),
)
def test_property_random_small_edge_lists(n, data):
    m = data.draw(st.integers(0, 120))
    src = data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    g = check_against_oracle(src, dst, n)
    # Properties stated by the contract, independently of the oracle.
    deg = np.diff(g.indptr)
    for v in range(n):
        nb = g.neighbours(v)
        assert np.all(np.diff(nb) > 0)  # sorted, no duplicates
        assert v not in nb  # no self-loops
        for u in nb:
            assert v in g.neighbours(u)  # symmetric
    assert deg.sum() == g.num_directed_edges


@pytest.mark.parametrize("length", [17, 33, 64, 65])
def test_every_row_sort_path(threads, length):
    """Rows around the insertion / bucket / radix limits, with random labels (the bucket pass
    spreads them), clustered labels (one bucket: the bucket pass steps aside), descending
    labels and duplicates, in a graph whose labels need 20 bits."""
    rng = np.random.default_rng(length)
    n = 1 << 20
    hubs = np.array([3, 70_000, 500_000, 1_000_000])
    rows = [rng.integers(0, n, length),                      # random, spread
            np.arange(200, 200 + length)[::-1],              # clustered, descending
            rng.integers(900_000, 900_000 + length // 2, length),  # clustered, duplicates
            np.full(length, 42)]                             # one neighbour, repeated
    src = np.concatenate([np.full(length, h) for h in hubs])
    dst = np.concatenate(rows)
    check_against_oracle(src, dst, n)


@pytest.mark.parametrize("weighted", [False, True])
def test_phases_timed_without_changing_the_graph(weighted):
    """build_csr(phases=...) (bench_kernels.py --phases) names every step and builds the
    oracle's graph; the steps' seconds add up to no more than the whole build."""
    import time

    rng = np.random.default_rng(7)
    src, dst = random_edges(rng, 3000, 60_000, skew=True)
    w = rng.random(src.shape[0]).astype(np.float32) if weighted else None
    phases = {}
    t0 = time.perf_counter()
    g = build_csr(EdgeList(src, dst, 3000, weight=w), phases=phases)
    total = time.perf_counter() - t0
    indptr, indices = oracle(src, dst, 3000)
    np.testing.assert_array_equal(g.indptr, indptr)
    np.testing.assert_array_equal(g.indices, indices)
    steps = ["count", "offsets", "scatter", "sort + dedup", "compaction"]
    assert list(phases) == steps + (["split"] if weighted else [])
    assert all(s >= 0 for s in phases.values()) and sum(phases.values()) <= total
