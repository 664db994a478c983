"""Weighted kernel 1 (kernel 3's graph): the smallest weight of the tuples joining two vertices
on both adjacency entries, against a dictionary oracle; the structure equals the unweighted
kernel 1's; bad weights refused."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.graph import EdgeList, build_csr


def _oracle(e: EdgeList) -> dict:
    best = {}
    for u, v, w in zip(e.src.tolist(), e.dst.tolist(), e.weight.tolist()):
        if u != v:
            for a, b in ((u, v), (v, u)):
                best[a, b] = min(best.get((a, b), np.inf), np.float32(w))
    return best


def _entries(g, labels=None) -> dict:
    out = {}
    for u in range(g.num_vertices):
        for k in range(g.indptr[u], g.indptr[u + 1]):
            a, b = u, int(g.indices[k])
            if labels is not None:
                a, b = int(labels[a]), int(labels[b])
            out[a, b] = g.weights[k]
    return out


@pytest.mark.parametrize("sort_vertices", [None, "degree"])
def test_kronecker_weighted_build_matches_oracle(threads, sort_vertices):
    e = kronecker(9, 16, (2, 3), weights=True)
    g = build_csr(e, sort_vertices)
    plain = build_csr(EdgeList(e.src, e.dst, e.num_vertices), sort_vertices)
    np.testing.assert_array_equal(g.indptr, plain.indptr)
    np.testing.assert_array_equal(g.indices, plain.indices)
    assert g.weights.dtype == np.float32 and g.weights.shape == g.indices.shape
    assert _entries(g, g.original_label) == _oracle(e)


@given(st.integers(1, 12), st.integers(0, 60), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_random_duplicates_keep_the_smallest_weight(n, m, seed):
    rng = np.random.default_rng(seed)
    w = rng.choice(np.array([0.0, -0.0, 1e-30, 0.5, 1.0, 7.0, 3e38], np.float32), m)
    e = EdgeList(rng.integers(0, n, m), rng.integers(0, n, m), n, w)
    g = build_csr(e)
    got = _entries(g)
    assert got == _oracle(e)
    assert not np.signbit(g.weights).any()  # -0.0 stored as 0.0


@pytest.mark.parametrize("bad", [-1.0, np.nan, -1e-30])
def test_negative_or_nan_weight_refused(bad):
    e = EdgeList(np.array([0, 1]), np.array([1, 2]), 3, np.array([0.5, bad], np.float32))
    with pytest.raises(InputError, match="edge tuple 1"):
        build_csr(e)
