"""Validation against kernel 1's CSR (validate_csr, validate_sssp_csr) gives the tuple
validators' verdicts: the same rule on every broken result (but a tree edge given only by a
heavier duplicate, which the CSR cannot see: ``validate.on_csr``), the same offending vertex
for the vertex rules, a real offender for the edge rules, and the same TEPS numerator, on
graphs with self-loops and duplicates (whose duplicate weights differ for kernel 3),
relabelled or not.
Oracles: the tuple validators (themselves checked against brute force in test_validate.py and
test_sssp_validate.py), scipy's BFS trees and depths, a float32 Dijkstra."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pygraph500.bfs import ALGORITHMS
from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.graph import CSRGraph, EdgeList, build_csr
from pygraph500.validate import (count_component_edges, count_component_edges_csr,
                                 validate, validate_csr, validate_sssp, validate_sssp_csr)
from pygraph500.validate import csr_kernels as ck
from pygraph500.validate import on_csr

from test_sssp_validate import _mutations, dijkstra32
from test_validate import HAND, HAND_PARENT, brute_rules, scipy_depth, scipy_parent

VERTEX_RULES = ("parent-length", "parent-range", "root-self-parent", "parent-visited",
                "no-cycles", "tree-edge-in-graph", "tree-edge-levels")


def same_verdict(e, graph, parent, root, relabelled=False):
    a = validate(e, parent, root)
    b = validate_csr(graph, parent, root)
    assert (a.valid, a.rule) == (b.valid, b.rule), (a.message, b.message)
    assert b.message.startswith(b.rule + ":" if b.rule else "valid")
    if a.valid:
        assert b.nedge == a.nedge == count_component_edges_csr(graph, parent)
        assert b.num_visited == a.num_visited and b.max_depth == a.max_depth
        np.testing.assert_array_equal(b.depth, a.depth)
    elif a.rule in VERTEX_RULES and not relabelled:
        assert b.vertex == a.vertex, (a.message, b.message)
    elif a.rule in ("edge-levels", "component"):  # the edge named breaks the rule
        u, v = b.edge
        assert u < v or relabelled
        assert b.edge_index is None and "#" not in b.message
        du, dv = b.depth[u], b.depth[v]
        if a.rule == "edge-levels":
            assert du >= 0 and dv >= 0 and abs(du - dv) > 1
        else:
            assert (du >= 0) != (dv >= 0)
        pairs = {(int(x), int(y)) for x, y in zip(e.src, e.dst)}
        assert (u, v) in pairs or (v, u) in pairs
    return b


def test_hand_graph_every_rule():
    g = build_csr(HAND)
    r = same_verdict(HAND, g, HAND_PARENT, 0)
    assert r.valid and r.nedge == 8  # duplicates counted, the self-loop not
    for root in range(10):
        same_verdict(HAND, g, scipy_parent(HAND, root), root)
    broken = {
        "parent-range": {1: 10}, "root-self-parent": {0: 1}, "parent-visited": {4: 5},
        "no-cycles": {3: 4, 4: 3}, "tree-edge-in-graph": {4: 0}, "edge-levels": {2: 3},
        "component": {4: -1},
    }
    for rule, changes in broken.items():
        p = HAND_PARENT.copy()
        for v, x in changes.items():
            p[v] = x
        assert same_verdict(HAND, g, p, 0).rule == rule


@pytest.fixture(params=[0.0, None, 2.0], ids=["core-always", "default", "core-never"])
def level_modes(request, monkeypatch):
    """Validation with the core rows skipped whenever anything is reached (whatever the
    share of the two levels), as chosen, or never."""
    if request.param is not None:
        monkeypatch.setattr(on_csr, "CORE_SHARE", request.param)
    return request.param


def test_level_table_modes():
    """A Graph500 tree: four bits a vertex, its two largest levels by entries as the core,
    and a bit for each 8 vertices set when one of them is at the core's lower level L or
    less; a path: no core, four bits a vertex when shallow, the levels themselves when
    deep."""
    e = kronecker(12, 16, (2, 3))
    g = build_csr(e)
    lev = scipy_depth(e, int(e.src[0])).astype(np.int8)
    mode, nib, core, shallow = on_csr.level_table(lev, g.indptr)
    assert mode == ck.NIBBLES
    np.testing.assert_array_equal((nib[np.arange(lev.shape[0]) >> 1]
                                   >> (4 * (np.arange(lev.shape[0]) & 1))) & 15, lev & 15)
    deg = g.degree()
    by_level = np.bincount(lev[lev >= 0], weights=deg[lev >= 0])
    pairs = by_level[:-1] + by_level[1:]
    assert core == int(np.argmax(pairs)) and pairs[core] >= 0.9 * by_level.sum()
    groups = ((lev >= 0) & (lev <= core)).reshape(-1, 8).any(axis=1)
    np.testing.assert_array_equal(np.unpackbits(shallow, bitorder="little").astype(bool),
                                  groups)
    assert 0 < groups.sum() < groups.shape[0]
    chain = np.arange(301, dtype=np.int64)  # a path's rows: one entry each
    assert on_csr.level_table(np.arange(-1, 13, dtype=np.int8), chain[:15])[::2] == (
        ck.NIBBLES, -1)
    assert on_csr.level_table(np.arange(-1, 299, dtype=np.int16), chain)[::2] == (ck.PLAIN, -1)


def test_core_rows_skipped_finds_an_offender_iff_there_is_one():
    """Skipping the rows of any two consecutive levels L, L + 1 (not only the largest) and
    judging every entry of the others finds a broken edge exactly when judging every edge
    from its smaller end does: on the levels of valid trees and with one or two vertices'
    levels changed (to unreached, or to any level), for every choice of the two levels, with
    the levels read four bits a vertex or from the level array, and the rows at level
    L + 2 reading every neighbour's level or only those behind a set bit of the sieve."""
    e = kronecker(9, 8, (5, 7))
    g = build_csr(e)
    n = e.num_vertices
    rng = np.random.default_rng(3)
    bounds = ck.row_bounds(g.indptr)
    none = np.empty(0, np.uint8)
    checked = broken = 0
    for root in [int(x) for x in rng.choice(np.flatnonzero(g.degree() > 0), 4)]:
        parent = scipy_parent(e, root)
        depth = scipy_depth(e, root).astype(np.int8)
        for t in range(40):
            lev = depth.copy()
            for v in rng.choice(np.flatnonzero(g.degree() > 0), t % 3):
                lev[v] = rng.integers(-1, depth.max() + 3)
            mode, table, _, _ = on_csr.level_table(lev, g.indptr)
            csr = (g.indptr, g.indices)
            full = ck.bfs_pass(csr, lev, (mode, table, -1, none), parent, root,
                               g.tuple_degree, bounds)
            bad = min(full[1], full[3]) < n
            broken += bad
            for low in range(int(lev.max()) + 1):
                sieve = np.empty((n + 63) // 64, np.uint8)
                ck.pack_levels(lev, np.empty_like(table), sieve, low)
                for (m, tab), sh in itertools.product([(mode, table), (ck.PLAIN, none)],
                                                      [none, sieve]):
                    got = ck.bfs_pass(csr, lev, (m, tab, low, sh), parent, root,
                                      g.tuple_degree, bounds)
                    assert (min(got[1], got[3]) < n) == bad, (root, t, low, m, sh.shape)
                    assert got[0] == full[0] and got[5:] == full[5:]
                    checked += 1
    assert 20 < broken < 150 and checked > 1000  # both kinds of level arrays were seen


@pytest.mark.parametrize("sort", [None, "degree"])
@pytest.mark.parametrize("scale", [9, 12])
def test_kronecker_trees_and_random_mutations(scale, sort, level_modes):
    e = kronecker(scale, 8, (5, 7))
    g = build_csr(e, sort)
    rng = np.random.default_rng(scale)
    n = e.num_vertices
    roots = [int(x) for x in rng.choice(np.flatnonzero(g.degree() > 0), 3)] + [0]
    for root in roots:
        parent = scipy_parent(e, root)
        assert same_verdict(e, g, parent, root, sort is not None).valid
        for t in range(60):
            p = parent.copy()
            reached = np.flatnonzero(p >= 0)
            v = int(rng.choice(reached)) if t % 3 else int(rng.integers(n))
            p[v] = [lambda: int(rng.integers(n)), lambda: -1,
                    lambda: int(rng.choice(reached))][t % 3]()
            same_verdict(e, g, p, root, sort is not None)


def test_compiled_search_trees_threads(threads):
    e = kronecker(14, 16, (2, 3))
    g = build_csr(e)
    for root in (int(e.src[0]), int(e.dst[7])):
        parent = ALGORITHMS["direction-optimizing"](g, root).parent
        r = same_verdict(e, g, parent, root)
        assert r.valid and r.nedge == count_component_edges(e, parent)
        np.testing.assert_array_equal(r.depth, scipy_depth(e, root))


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 24), st.data())
def test_property_verdicts_equal_on_any_parent_array(n, data):
    m = data.draw(st.integers(0, 3 * n))
    src = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
    dst = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m)), np.int64)
    e = EdgeList(src, dst, n)
    root = data.draw(st.integers(0, n - 1))
    parent = scipy_parent(e, root)
    if data.draw(st.booleans()):  # anything at all, or one change of a valid tree
        parent = np.array(data.draw(st.lists(st.integers(-1, n - 1), min_size=n, max_size=n)))
    else:
        v = data.draw(st.integers(0, n - 1))
        parent[v] = data.draw(st.integers(-1, n))
    g = build_csr(e)
    old = on_csr.CORE_SHARE
    on_csr.CORE_SHARE = data.draw(st.sampled_from([0.0, old, 2.0]))  # always, chosen, never
    try:
        r = same_verdict(e, g, parent, root)
    finally:
        on_csr.CORE_SHARE = old
    assert r.rule == brute_rules(e, parent, root)[0]


@pytest.mark.parametrize("n", [14, 15, 16, 300])  # levels packed four bits a vertex up to 14
def test_paths_deep_and_shallow(n, level_modes):
    rng = np.random.default_rng(n)
    labels = rng.permutation(n)
    e = EdgeList(labels[:-1].astype(np.int64), labels[1:].astype(np.int64), n)
    g = build_csr(e)
    root = int(labels[0])
    parent = scipy_parent(e, root)
    assert same_verdict(e, g, parent, root).max_depth == n - 1
    p = parent.copy()
    p[labels[-1]] = labels[-3]  # skips a level: not an edge
    assert same_verdict(e, g, p, root).rule == "tree-edge-in-graph"
    p = parent.copy()
    p[labels[n // 2:]] = -1  # the far half left out
    assert same_verdict(e, g, p, root).rule == "component"


def test_relabelled_graph_reports_input_labels():
    e = kronecker(10, 16, (2, 3))
    g = build_csr(e, "degree")
    root = int(e.src[3])
    parent = scipy_parent(e, root)
    leaf = int(np.flatnonzero((parent >= 0) & (np.arange(e.num_vertices) != root))[-1])
    p = parent.copy()
    p[leaf] = -1 if p[leaf] != -1 else root
    r = validate_csr(g, p, root)
    assert r.rule == "component" and leaf in r.edge
    assert count_component_edges_csr(g, parent) == count_component_edges(e, parent)


def test_needs_kernel1_tuple_counts_and_checks_input():
    g = build_csr(HAND)
    bare = CSRGraph(g.indptr, g.indices, g.num_vertices, g.num_input_edges)
    with pytest.raises(InputError, match="tuple"):
        validate_csr(bare, HAND_PARENT, 0)
    with pytest.raises(InputError):
        validate_csr(g, HAND_PARENT, 10)
    with pytest.raises(InputError):
        validate_csr(g, HAND_PARENT.astype(float), 0)
    with pytest.raises(InputError):
        count_component_edges_csr(g, HAND_PARENT[:4])
    assert validate_csr(g, HAND_PARENT[:9], 0).rule == "parent-length"


# -------------------------------------------------------------------------------- kernel 3

def weighted_with_duplicates(scale, seed):
    """Kronecker tuples with weights, plus every tenth tuple again with another weight (and
    reversed), so the CSR's lightest-of-duplicates rule is exercised."""
    e = kronecker(scale, 8, seed, weights=True)
    rng = np.random.default_rng(scale)
    k = np.arange(0, e.num_edges, 10)
    w2 = rng.random(k.size).astype(np.float32)
    return EdgeList(np.concatenate([e.src, e.dst[k]]), np.concatenate([e.dst, e.src[k]]),
                    e.num_vertices, np.concatenate([e.weight, w2]))


@pytest.mark.parametrize("sort", [None, "degree"])
def test_sssp_every_mutation_same_rule(sort):
    e = weighted_with_duplicates(8, (2, 3))
    g = build_csr(e, sort)
    root = int(np.argmax(np.bincount(e.src, minlength=e.num_vertices)))
    parent, dist = dijkstra32(e, root)
    a = validate_sssp(e, parent, dist, root)
    b = validate_sssp_csr(g, parent, dist, root)
    assert a.valid and b.valid and a.nedge == b.nedge and a.max_distance == b.max_distance
    for name, p, d, rule in _mutations(e, root, parent, dist):
        a = validate_sssp(e, p, d, root)
        b = validate_sssp_csr(g, p, d, root)
        assert (a.rule, b.rule) == (rule, rule), (name, a.message, b.message)


def test_sssp_tree_edge_given_only_by_a_heavier_twin():
    """Vertex 2's distance 1.0 comes from the tuple (1, 2, 0.5) only: the tuples accept the
    tree edge and fail the triangle rule on (1, 2, 0.0); the CSR, holding 0.0 alone, fails
    the tree edge. Invalid both ways; with distance 0.5 valid both ways."""
    e = EdgeList(np.array([0, 1, 1]), np.array([1, 2, 2]), 3,
                 np.array([0.5, 0.0, 0.5], np.float32))
    g = build_csr(e)
    parent = np.array([0, 0, 1])
    dist = np.array([0.0, 0.5, 1.0], np.float32)
    a, b = validate_sssp(e, parent, dist, 0), validate_sssp_csr(g, parent, dist, 0)
    assert (a.valid, a.rule, a.edge_index) == (False, "edge-distances", 1)
    assert (b.valid, b.rule, b.vertex) == (False, "tree-edge-distance", 2)
    assert _only_a_heavier_twin_gives_it(e, parent, dist, 2)
    dist[2] = 0.5
    assert validate_sssp(e, parent, dist, 0).valid and validate_sssp_csr(g, parent, dist, 0).valid


def _only_a_heavier_twin_gives_it(e, parent, dist, v) -> bool:
    """Whether v's distance comes from a tuple joining it to its parent but not from the
    lightest such tuple (the weight the CSR keeps)."""
    p = parent[v]
    twins = ((e.src == p) & (e.dst == v)) | ((e.src == v) & (e.dst == p))
    gives = dist[v] == (dist[p] + e.weight[twins]).astype(np.float32)
    lightest = dist[p] + e.weight[twins].min()
    return bool(gives.any()) and dist[v] != np.float32(lightest)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 30), st.integers(0, 80), st.integers(0, 2**32 - 1))
def test_sssp_property_random_graphs_and_changes(n, m, seed):
    """Random weighted multigraphs and random changes to a correct result: the CSR validator
    gives the tuples' verdict and names the same rule but in one case: a tree edge given
    only by a heavier duplicate of the lightest tuple (which then breaks the triangle rule
    on the tuples)."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.choice(np.array([0, 0.25, 0.5, 1, 1e-8, 3], np.float32), m)
    e = EdgeList(src.astype(np.int64), dst.astype(np.int64), n, w)
    g = build_csr(e)
    root = int(rng.integers(n))
    parent, dist = dijkstra32(e, root)
    for _ in range(3):
        a = validate_sssp(e, parent, dist, root)
        b = validate_sssp_csr(g, parent, dist, root)
        assert a.valid == b.valid, (a.message, b.message)
        if a.rule != b.rule:  # the one case the CSR cannot tell (validate.on_csr)
            assert (a.rule, b.rule) == ("edge-distances", "tree-edge-distance")
            assert _only_a_heavier_twin_gives_it(e, parent, dist, b.vertex)
        if a.valid:
            assert a.nedge == b.nedge
        parent, dist = parent.copy(), dist.copy()
        v = int(rng.integers(n))
        if rng.random() < 0.5:
            parent[v] = int(rng.integers(-1, n))
        else:
            dist[v] = np.float32(dist[v] * rng.choice([0.5, 1.0, 2.0]) + rng.choice([0, 1e-7]))


# ------------------------------------------------------------------------------ in the run

def test_run_validates_on_the_csr_with_the_tuples_verdicts():
    from pygraph500.benchmark import RunConfig, run_benchmark

    runs = {v: run_benchmark(RunConfig.of(scale=10, num_roots=8, kernel="both", validation=v))
            for v in ("csr", "tuples")}
    a, b = runs["csr"], runs["tuples"]
    assert a.valid and b.valid and a.validation == "csr" and b.validation == "tuples"
    assert a.roots.tolist() == b.roots.tolist()
    for kernel in ("runs", "sssp_runs"):
        assert [r.nedge for r in getattr(a, kernel)] == [r.nedge for r in getattr(b, kernel)]
    assert a.generation_time > 0 and a.construction_time > 0
    assert run_benchmark(RunConfig.of(scale=10, num_roots=2)).validation == "csr"  # the default
    off = run_benchmark(RunConfig.of(scale=10, num_roots=2, validate=False))
    assert off.validation is None and [r.nedge for r in off.runs] == [r.nedge for r in a.runs[:2]]


def test_memory_estimate_scale26_fits_only_without_the_tuples():
    from pygraph500.backend.memory import estimate_run_bytes

    n, m = 1 << 26, 16 << 26
    csr = estimate_run_bytes(n, m, validation="csr", threads=2)
    assert 2 * m * 4 < csr < 22 * 2**30  # at least the neighbour array; fits the toy class
    assert estimate_run_bytes(n, m, validation="tuples") > 30 * 2**30
    # kernel 3 needs the weights and kernel 1's int64 keys on top
    assert estimate_run_bytes(n, m, True, "csr", 2) > csr
