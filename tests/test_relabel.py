"""Vertex sorting (kernel 1 option): same graph under new labels, answers in original labels."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pygraph500 import ALGORITHMS, build_csr, kronecker, validate
from pygraph500.benchmark import RunConfig, choose_roots, run_benchmark
from pygraph500.errors import InputError
from pygraph500.graph.relabel import (compact_ids, degree_in_original_labels, lookup_labels,
                                      search_in_original_labels)


@pytest.fixture(scope="module")
def graphs():
    edges = kronecker(11, 16, (4, 5))
    return edges, build_csr(edges), build_csr(edges, "degree")


def test_relabelled_graph_is_the_same_graph(graphs):
    edges, g0, g1 = graphs
    assert g1.relabelled and not g0.relabelled
    orig, new = g1.original_label, g1.new_label
    np.testing.assert_array_equal(orig[new], np.arange(g0.num_vertices))  # a permutation
    for v in range(g0.num_vertices):  # neighbours of v, mapped back, are v's neighbours
        i = new[v]
        back = np.sort(orig[g1.indices[g1.indptr[i]:g1.indptr[i + 1]]])
        np.testing.assert_array_equal(back, g0.neighbours(v))
    for i in range(g1.num_vertices):  # lists stay sorted and duplicate-free
        row = g1.neighbours(i)
        assert np.all(np.diff(row) > 0)


def test_new_labels_follow_decreasing_tuple_degree(graphs):
    edges, _, g1 = graphs
    keep = edges.src != edges.dst
    tuple_degree = np.bincount(np.concatenate([edges.src[keep], edges.dst[keep]]),
                               minlength=edges.num_vertices)
    d = tuple_degree[g1.original_label]
    assert np.all(np.diff(d) <= 0)
    ties = np.flatnonzero(np.diff(d) == 0)
    assert np.all(g1.original_label[ties] < g1.original_label[ties + 1])  # stable


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_searches_answer_in_original_labels(graphs, name):
    edges, g0, g1 = graphs
    roots = choose_roots(degree_in_original_labels(g1) > 0, (4, 5), 8)
    np.testing.assert_array_equal(roots, choose_roots(g0.degree() > 0, (4, 5), 8))
    for root in roots.tolist():
        result = search_in_original_labels(ALGORITHMS[name], g1, root)
        report = validate(edges, result.parent, root)
        assert report.valid, report.message
        assert result.root == root
        if result.depth is not None:
            np.testing.assert_array_equal(result.depth, report.depth)


def test_run_with_sorting_matches_unsorted_run():
    a = run_benchmark(RunConfig.of(scale=10, num_roots=8))
    b = run_benchmark(RunConfig.of(scale=10, num_roots=8, sort_vertices="degree"))
    assert a.valid and b.valid
    np.testing.assert_array_equal(a.roots, b.roots)
    assert [r.nedge for r in a.runs] == [r.nedge for r in b.runs]


def test_unknown_sort_is_input_error(graphs):
    with pytest.raises(InputError):
        build_csr(graphs[0], "random")
    with pytest.raises(InputError):
        run_benchmark(RunConfig.of(scale=5, sort_vertices="random"))


@settings(max_examples=60, deadline=None)
@given(ids=st.lists(st.one_of(st.integers(0, 2**20), st.integers(0, 2**62)), min_size=2,
                    max_size=3000),
       extra=st.lists(st.integers(-2**63, 2**63 - 1), max_size=40), many=st.booleans())
def test_compacted_ids_and_lookups_equal_numpys(ids, extra, many):
    """compact_ids / lookup_labels (a sort and a mask; bucketed binary searches for many
    ids, one search over all for a few) against np.unique and np.searchsorted: sparse,
    clustered and huge ids, ids that are absent, negative or past the last label."""
    ids = np.array(ids * (4 if many else 1), np.int64)
    src, dst = ids[::2].copy(), ids[1::2].copy()
    if src.size != dst.size:
        src = src[:dst.size]
    want = np.unique(np.concatenate((src, dst)))
    s, d = src.copy(), dst.copy()
    labels = compact_ids(s, d)
    np.testing.assert_array_equal(labels, want)
    np.testing.assert_array_equal(labels[s], src)
    np.testing.assert_array_equal(labels[d], dst)
    probe = np.concatenate((ids, np.array(extra, np.int64)))
    at = np.searchsorted(want, probe)
    found = (at < want.size) & (want[np.minimum(at, want.size - 1)] == probe)
    np.testing.assert_array_equal(lookup_labels(labels, probe), np.where(found, at, -1))
