"""Kernel 1 over tuples made piece by piece (generator.KroneckerTuples): the pieces are the
reference generator's tuples, and the CSR built from them (reading them twice) is the one
built from the whole list held in memory, tuple counts included."""
from __future__ import annotations

import numpy as np
import pytest

from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.generator.tuples import KroneckerTuples
from pygraph500.graph import EdgeList, build_csr
from pygraph500.graph.build import count_tuples, place_tuples

from conftest import REFERENCE_CASES, load_reference


def tuple_counts(e: EdgeList) -> np.ndarray:
    """The oracle: tuples at each vertex, self-loops out, duplicates in."""
    keep = e.src != e.dst
    return np.bincount(np.concatenate([e.src[keep], e.dst[keep]]), minlength=e.num_vertices)


@pytest.mark.parametrize("name, scale, ef, seed", REFERENCE_CASES)
@pytest.mark.parametrize("piece", [1, 7, 1000, 1 << 20])
def test_pieces_are_the_reference_tuples(name, scale, ef, seed, piece):
    ref, _ = load_reference(name)
    t = KroneckerTuples(scale, ef, seed, piece=piece)
    starts, src, dst = [], [], []
    for start, s, d, w in t.chunks():
        assert w is None and s.shape == d.shape and s.size <= piece
        starts.append(start)
        src.append(s.copy())
        dst.append(d.copy())
    assert starts == list(range(0, len(t), piece))
    np.testing.assert_array_equal(np.concatenate(src), ref[:, 0])
    np.testing.assert_array_equal(np.concatenate(dst), ref[:, 1])
    assert t.generation_seconds > 0 and len(t) == t.num_edges == ref.shape[0]


def test_weighted_pieces_and_endpoint_only_pass():
    e = kronecker(9, 8, (4, 9), weights=True)
    t = KroneckerTuples(9, 8, (4, 9), weights=True, piece=300)
    w = np.concatenate([wt.copy() for _, _, _, wt in t.chunks()])
    np.testing.assert_array_equal(w, e.weight)
    ends = np.concatenate([s.copy() for _, s, _, wt in t.chunks(weights=False) if wt is None])
    np.testing.assert_array_equal(ends, e.src)
    assert t.edge_list().weighted


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("sort", [None, "degree"])
@pytest.mark.parametrize("piece", [333, 4096, 1 << 20])
def test_csr_from_pieces_equals_csr_from_the_list(weights, sort, piece, threads):
    e = kronecker(12, 16, (2, 3), weights=weights)
    whole = build_csr(e, sort)
    pieces = build_csr(KroneckerTuples(12, 16, (2, 3), weights=weights, piece=piece), sort)
    np.testing.assert_array_equal(pieces.indptr, whole.indptr)
    np.testing.assert_array_equal(pieces.indices, whole.indices)
    if weights:
        np.testing.assert_array_equal(pieces.weights, whole.weights)
    if sort:
        np.testing.assert_array_equal(pieces.original_label, whole.original_label)
    counts = tuple_counts(e)
    if sort:
        counts = counts[whole.original_label]
    np.testing.assert_array_equal(whole.tuple_degree, counts)
    np.testing.assert_array_equal(pieces.tuple_degree, counts)
    assert whole.tuple_degree.dtype == np.int32


def test_two_passes_split_generation_from_kernel1():
    t = KroneckerTuples(11, 16, (2, 3), piece=5000)
    counted = count_tuples(t)
    first = t.generation_seconds
    graph = place_tuples(t, counted)
    assert 0 < first < t.generation_seconds  # the second pass made them again
    assert counted.counts is None  # consumed
    np.testing.assert_array_equal(graph.indices, build_csr(kronecker(11)).indices)


class TwoPieces:
    """A tuple source of two pieces, the second with a label out of range."""
    num_vertices, num_edges, weighted = 4, 6, False

    def chunks(self, weights=True):
        yield 0, np.array([0, 1, 2]), np.array([1, 2, 3]), None
        yield 3, np.array([3, 3, 0]), np.array([0, 9, 2]), None


def test_bad_label_named_by_its_index_in_the_whole_list():
    with pytest.raises(InputError, match=r"edge tuple 4 = \(3, 9\)"):
        build_csr(TwoPieces())
