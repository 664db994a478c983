"""Validation against the CSR kernel 1 built, as the Graph500 reference validates when built
with ``-DREUSE_CSR_FOR_VALIDATION`` (its official Makefile's setting): the same rules, the
same order and messages as ``bfs_tree.validate`` / ``shortest_paths.validate_sssp``, with
the graph's edges standing in for the tuples.

Why the verdicts are the tuples' verdicts: the CSR holds every non-loop tuple's edge, both
ways, and nothing else. A self-loop breaks no rule and a duplicate repeats its twin's check;
for kernel 3 the CSR keeps the lightest weight of duplicates, and a result that passes the
triangle rule on the lightest passes it on the others. A tree edge given only by a heavier
twin (``d(v) == float32(d(parent) + w)`` for it, not for the lightest) is the one case the
CSR cannot tell: float32 addition being monotonic, ``d(v)`` then exceeds ``d(parent)`` plus
the lightest weight, so the result is invalid either way, but the tuples name
``edge-distances`` (the lightest twin breaks the triangle rule) where the CSR names
``tree-edge-distance``. The TEPS numerator, tuples with both ends reached (duplicates
counted, self-loops not), is half the sum of kernel 1's ``tuple_degree`` over the reached
vertices once no edge leaves the component. Offending edges are named ``(u, v)`` with
``u < v``, the first in vertex order, with no tuple index.

What it saves: the tuples (a SCALE 26 run never holds them) and, per validation, most random
reads: the tuples cost two per tuple, the CSR one per edge, judged from its smaller end, and
on a Graph500 tree only the entries of the rows outside its two largest levels, since an edge
between those two levels cannot break a rule (``csr_kernels``). A relabelled graph
(``sort_vertices``) is checked in its own labels and reported in the input's.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from . import csr_kernels as ck
from . import rules
from .bfs_tree import narrow, pointer_rules, threads_for
from .rules import ValidationReport
from .shortest_paths import as_distances
from .shortest_paths import pointer_rules as sssp_pointer_rules

__all__ = ["validate_csr", "validate_sssp_csr", "count_component_edges_csr", "level_table"]


def _tuple_degree(graph):
    if graph.tuple_degree is None:
        raise InputError("validation against the CSR needs the tuple counts kernel 1 records "
                         "(graph.tuple_degree); validate against the tuples instead")
    return graph.tuple_degree


def count_component_edges_csr(graph, parent) -> int:
    """The TEPS numerator from the CSR without validating (equals ``validate_csr(...).nedge``
    for a valid tree): half the tuple counts of the reached vertices."""
    parent = np.asarray(parent)
    if parent.ndim != 1 or parent.shape[0] != graph.num_vertices:
        raise InputError(f"parent: expected {graph.num_vertices} entries, got shape "
                         f"{parent.shape}")
    td = _tuple_degree(graph)
    if graph.relabelled:
        td = td[graph.new_label]  # in the parent array's labels
    with threads_for(graph.num_vertices):
        return int(ck.reached_tuple_sum(np.ascontiguousarray(parent), td)) // 2


def _in_graph_labels(graph, parent, values):
    """(parent, values) in the graph's own labels (a relabelled graph's), else as given."""
    if not graph.relabelled:
        return parent, values
    pg = np.empty_like(parent)
    vg = np.empty_like(values)
    ck.to_graph_labels(parent, values, graph.original_label, graph.new_label, pg, vg)
    return pg, vg


def _name(graph, x):
    """A graph label as the input's label (for messages)."""
    x = int(x)
    return int(graph.original_label[x]) if graph.relabelled else x


CORE_SHARE = 2 / 3  # the least share of the sampled adjacency entries in the core: the rim's
# rows then hold at most a third of them, each read, where the smaller ends read half


def core_levels(lev, indptr, share: float) -> int:
    """L, for the two consecutive levels L, L + 1 whose rows hold the most adjacency entries
    of the reached vertices of a sample, when they hold at least ``share`` of them; else -1
    (or when nothing is reached)."""
    counts = ck.level_sample(lev, indptr)
    pairs = counts[:-2] + counts[1:-1]  # levels L and L + 1, L <= 61
    low = int(np.argmax(pairs))
    total = counts.sum()
    return low if total and pairs[low] >= share * total else -1


def level_table(lev, indptr):
    """(mode, table, core, shallow): how ``bfs_pass`` reads the levels at random (four bits
    a vertex when every level fits, else ``lev`` itself), which two levels' rows it skips
    (``core_levels``: on a Kronecker graph's tree, 96-99.7% of the entries; -1: none) and,
    with four bits a vertex and a core, the bits saying where the levels up to the core's
    lower one are (``pack_levels``; else empty)."""
    core = core_levels(lev, indptr, CORE_SHARE)
    if lev.dtype == np.int8 and int(lev.max(initial=0)) <= ck.NIBBLE_TOP:
        nib = np.empty((lev.shape[0] + 1) // 2, np.uint8)
        shallow = np.empty((lev.shape[0] + 63) // 64 if core >= 0 else 0, np.uint8)
        ck.pack_levels(lev, nib, shallow, core)
        return ck.NIBBLES, nib, core, shallow
    return ck.PLAIN, np.empty(0, np.uint8), core, np.empty(0, np.uint8)


def validate_csr(graph, parent, root: int) -> ValidationReport:
    """Check a BFS parent array (in the input's labels) against ``graph``, the CSR kernel 1
    built from the tuples (see the module docstring): ``validate``'s rules and verdicts."""
    with threads_for(int(graph.num_vertices) + int(graph.indptr[-1])):
        return _validate(graph, parent, int(root))


def _validate(graph, parent, root) -> ValidationReport:
    td = _tuple_degree(graph)
    n = int(graph.num_vertices)
    parent, num_visited, depth, report = pointer_rules(parent, root, n)
    if report is not None:
        return report
    pg, lev = _in_graph_labels(graph, parent, narrow(depth))
    rg = int(graph.new_label[root]) if graph.relabelled else root
    bounds = ck.row_bounds(graph.indptr)
    mode, table, core, shallow = level_table(lev, graph.indptr)
    csr = (graph.indptr, graph.indices)
    bad_tree, lu, lv, cu, cv, max_depth, tsum = ck.bfs_pass(
        csr, lev, (mode, table, core, shallow), pg, rg, td, bounds)
    if core >= 0 and bad_tree == n and min(lu, cu) < n:  # the first offender, u < v
        bad_tree, lu, lv, cu, cv, max_depth, tsum = ck.bfs_pass(
            csr, lev, (mode, table, -1, shallow), pg, rg, td, bounds)
    common = dict(num_visited=num_visited, depth=depth, max_depth=int(max_depth))
    if bad_tree < n:
        v = _name(graph, bad_tree)
        return rules.tree_edge_in_graph(v, int(parent[v]), **common)
    if lu < n:
        u, v = _name(graph, lu), _name(graph, lv)
        return rules.edge_levels(None, u, v, int(depth[u]), int(depth[v]), **common)
    if cu < n:
        u, v = _name(graph, cu), _name(graph, cv)
        return rules.component(None, u, v, int(depth[u]), int(depth[v]), **common)
    return rules.valid_report(root, num_visited, int(max_depth), int(tsum) // 2, depth=depth)


def validate_sssp_csr(graph, parent, distance, root: int) -> ValidationReport:
    """Check a kernel-3 result (parent array and float32 distances, in the input's labels)
    against the weighted CSR kernel 1 built: ``validate_sssp``'s rules and verdicts."""
    if graph.weights is None:
        raise InputError("validating shortest paths needs the graph's weights")
    with threads_for(int(graph.num_vertices) + int(graph.indptr[-1])):
        return _validate_sssp(graph, parent, distance, int(root))


def _validate_sssp(graph, parent, distance, root) -> ValidationReport:
    td = _tuple_degree(graph)
    n = int(graph.num_vertices)
    dist = as_distances(distance)
    parent, kw, report = sssp_pointer_rules(parent, dist, root, n)
    if report is not None:
        return report
    d = np.where(parent >= 0, dist, np.float32(-1))  # -1: unreached, one array read per end
    pg, dg = _in_graph_labels(graph, parent, d)
    rg = int(graph.new_label[root]) if graph.relabelled else root
    bad_tree, bad_dist, tu, tv, cu, cv, tsum = ck.sssp_pass(
        graph.indptr, graph.indices, graph.weights, dg, pg, rg, td, ck.row_bounds(graph.indptr))
    if bad_tree < n:
        v = _name(graph, bad_tree)
        return rules.tree_edge_in_graph(v, int(parent[v]), **kw)
    if bad_dist < n:
        v = _name(graph, bad_dist)
        p = int(parent[v])
        return rules.tree_edge_distance(v, p, float(dist[v]), float(dist[p]), **kw)
    if tu < n:
        w = _edge_weight(graph, tu, tv)
        u, v = _name(graph, tu), _name(graph, tv)
        return rules.edge_distances(None, u, v, w, float(d[u]), float(d[v]), **kw)
    if cu < n:
        u, v = _name(graph, cu), _name(graph, cv)
        return rules.component(None, u, v, float(d[u]), float(d[v]), what="distance", **kw)
    return rules.sssp_valid_report(root, kw["num_visited"], kw["max_distance"], int(tsum) // 2)


def _edge_weight(graph, u, v) -> float:
    """The weight of edge {u, v} (graph labels) in the CSR."""
    row = graph.indices[graph.indptr[u]:graph.indptr[u + 1]]
    return float(graph.weights[graph.indptr[u] + int(np.searchsorted(row, v))])
