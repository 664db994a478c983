"""Vertex sorting (kernel 1 option): same graph under new labels, answers in original labels."""
import numpy as np
import pytest

from pygraph500 import ALGORITHMS, build_csr, kronecker, validate
from pygraph500.benchmark import RunConfig, choose_roots, run_benchmark
from pygraph500.errors import InputError
from pygraph500.graph.relabel import degree_in_original_labels, search_in_original_labels


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
