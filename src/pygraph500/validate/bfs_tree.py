"""The embedded validator: ``validate(edges, parent, root)`` checks a BFS parent array against
the Graph500 rules of ``rules`` in their order and reports the first one broken.

Depths come from the parent pointers (pointer jumping, as the reference
``makedepthmapforbfs``), unless the caller passes the BFS's own ``depth`` claim. Cost: a few
parallel passes over the vertices (O(N log depth) for depths) and one over the edge tuples.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING

import numba
import numpy as np

from ..errors import InputError
from . import rules, tree_kernels
from .rules import ValidationReport

if TYPE_CHECKING:  # only for annotations: validate needs .src, .dst, .num_vertices
    from ..graph.types import EdgeList

__all__ = ["validate", "check", "count_component_edges"]

# Below this many vertices + tuples the kernels run on one thread: waking a pool costs more
# than the work (with the OpenMP layer and its default wait policy, milliseconds per region).
PARALLEL_MIN = 1 << 17


def check(edges: "EdgeList", parent, root: int, depth=None) -> ValidationReport:
    """``validate`` that raises ValidationError (with ``.report``) when the tree is invalid."""
    return validate(edges, parent, root, depth=depth).raise_if_invalid()


def narrow(level: np.ndarray) -> np.ndarray:
    """The level array in the narrowest signed dtype that holds it (fewer cache misses; both
    validators' level reads)."""
    if level.dtype == np.int8:  # already (pointer_rules' depths, mostly): no pass for the max
        return level
    top = int(level.max()) if level.size else 0
    for dt in (np.int8, np.int16, np.int32):
        if top <= np.iinfo(dt).max:
            return level.astype(dt, copy=False)
    return level


def as_int64(a, what: str) -> np.ndarray:
    """A tuple or depth array as contiguous int64, InputError when it is not 1-D integers (the
    BFS and SSSP validators check their inputs alike)."""
    a = np.asarray(a)
    if a.ndim != 1:
        raise InputError(f"{what}: expected a 1-D array, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        raise InputError(f"{what}: expected an integer array, got dtype {a.dtype}")
    return np.ascontiguousarray(a, dtype=np.int64)


# The longest parent walk before depths are taken by pointer jumping instead (a cycle, or a
# tree as deep as a long path's).
WALK_CAP = 1 << 14


def compute_depth(parent: np.ndarray, root: int, depth: np.ndarray):
    """Finish the depths ``tree_kernels.start_depths`` began in ``depth`` (int8: a Graph500 tree's
    depths, an eighth of the bytes to write and read again of int64), once every parent is in
    range and the root is its own parent.

    Walks up to known depths (``tree_kernels.walk_depths``: about one random read per vertex,
    which also finds the reached vertices with an unreached parent), again in int64 when a
    depth does not fit, and, when a walk is too long, pointer jumping (O(N log depth)), which
    also finds the cycles. Returns (depth, N, -1, -1); or (None, v, -1, -1), v the first
    reached vertex whose parent is unreached; or (None, N, v, c), v the smallest reached
    vertex whose pointers never reach the root and c a vertex on the cycle they run into.
    The SSSP validator takes its hop counts the same way."""
    n = parent.shape[0]
    depth[root] = 0
    end, bad_visit = tree_kernels.walk_depths(parent, root, depth, WALK_CAP,
                                         np.iinfo(depth.dtype).max)
    if end == tree_kernels.DEEP:
        depth = np.empty(n, np.int64)
        tree_kernels.start_depths(parent, depth)
        depth[root] = 0
        end, bad_visit = tree_kernels.walk_depths(parent, root, depth, WALK_CAP,
                                             np.iinfo(np.int64).max)
    if end != tree_kernels.DONE:  # a walk stopped early: the unreached parents are not all found
        bad_visit = tree_kernels.first_unreached_parent(parent)
    if bad_visit < n:
        return None, int(bad_visit), -1, -1
    if end == tree_kernels.DONE:
        return depth, n, -1, -1
    del depth
    anc = np.empty(n, np.int64)
    dist = np.empty(n, np.int64)
    anc2 = np.empty(n, np.int64)
    dist2 = np.empty(n, np.int64)
    tree_kernels.init_jump(parent, root, anc, dist)
    steps = 1  # anc[v] is `steps` pointer hops above v (or the root)
    active = 1
    while active and steps < n:
        active = tree_kernels.jump_round(anc, dist, anc2, dist2, root)
        anc, anc2, dist, dist2 = anc2, anc, dist2, dist
        steps *= 2
    if active:
        # every unrooted vertex is >= N hops from where it started: anc[v] lies on a cycle
        v = tree_kernels.first_unrooted(anc, root)
        if v >= 0:
            return None, n, v, int(anc[v])
    return dist, n, -1, -1


def int64_parent(parent_in: np.ndarray, n: int):
    """(the parent array as contiguous int64, None), or (None, the parent-range report) when
    a uint64 parent would wrap negative as int64 (both validators)."""
    if parent_in.dtype.kind == "u" and parent_in.dtype.itemsize == 8 and n:
        big = parent_in > np.iinfo(np.int64).max  # would wrap negative as int64
        if big.any():
            v = int(np.argmax(big))
            return None, rules.parent_range(v, int(parent_in[v]), n)
    return np.ascontiguousarray(parent_in, dtype=np.int64), None


def cycle_report(parent, root: int, start: int, on_cycle: int, **kw) -> ValidationReport:
    """The no-cycles report: the pointers from ``start`` enter the cycle through
    ``on_cycle`` (what ``compute_depth`` found), named by its smallest vertex."""
    low, length = tree_kernels.cycle_info(parent, on_cycle)
    text = rules.cycle_text(length, int(low), int(parent[low]))
    return rules.no_cycles(start, root, text, low, **kw)


def count_component_edges(edges: "EdgeList", parent) -> int:
    """The TEPS numerator without validating: tuples with both ends reached (parent != -1),
    duplicates counted, self-loops not (TEPS_COUNTING_RULE). Equals ``validate(...).nedge``
    for a valid tree; one pass over the tuples."""
    n = int(edges.num_vertices)
    src = as_int64(edges.src, "edges.src")
    dst = as_int64(edges.dst, "edges.dst")
    parent = np.asarray(parent)
    if parent.ndim != 1 or parent.shape[0] != n:
        raise InputError(f"parent: expected {n} entries, got shape {parent.shape}")
    reached = (parent != -1).astype(np.uint8)
    with threads_for(n + src.shape[0]):
        count, bad = tree_kernels.count_pass(src, dst, reached)
    if bad < src.shape[0]:
        i = int(bad)
        raise rules.edge_outside(i, int(src[i]), int(dst[i]), n)
    return int(count)


@contextmanager
def threads_for(size: int):
    """One numba thread for an input below ``PARALLEL_MIN`` (every validator's passes)."""
    if size >= PARALLEL_MIN:
        yield
        return
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(old)


def validate(edges: "EdgeList", parent, root: int, depth=None) -> ValidationReport:
    """Check a BFS parent array against the Graph500 rules (see the module docstring).

    ``parent``: any integer dtype, -1 where not reached. ``depth`` (optional): the BFS's own
    level claim; when given, the level rules use it (masked to reached vertices) and
    ``root-depth`` / ``tree-edge-levels`` check it. Raises InputError for input that is not a
    BFS result at all (non-integer arrays, root or edge endpoints outside ``[0, N)``).
    """
    with threads_for(int(edges.num_vertices) + len(edges.src)):
        return _validate(edges, parent, root, depth)


def pointer_rules(parent, root: int, n: int):
    """The rules on the parent pointers alone, parent-length to no-cycles in RULES' order
    (both embedded validators): (parent as int64, number reached, depths from the pointers
    (int8 when they fit, else int64), None), or (None, 0, None, the report of the first rule
    broken)."""
    root = rules.check_root(root, n)
    parent_in = rules.check_parent_array(parent)
    if parent_in.shape[0] != n:
        return None, 0, None, rules.parent_length(parent_in.shape[0], n)
    parent, wrapped = int64_parent(parent_in, n)
    if wrapped is not None:
        return None, 0, None, wrapped
    depth = np.empty(n, np.int8)
    bad_range, num_visited = tree_kernels.start_depths(parent, depth)
    kw = dict(num_visited=int(num_visited))
    if bad_range < n:
        v = int(bad_range)
        return None, 0, None, rules.parent_range(v, int(parent[v]), n, **kw)
    if parent[root] != root:
        return None, 0, None, rules.root_self_parent(root, int(parent[root]), **kw)
    depth, bad_visit, start, on_cycle = compute_depth(parent, root, depth)
    if bad_visit < n:
        return None, 0, None, rules.parent_visited(bad_visit, int(parent[bad_visit]), **kw)
    if depth is None:
        return None, 0, None, cycle_report(parent, root, start, on_cycle, **kw)
    return parent, kw["num_visited"], depth, None


def _validate(edges, parent, root, depth) -> ValidationReport:
    n = int(edges.num_vertices)
    src = as_int64(edges.src, "edges.src")
    dst = as_int64(edges.dst, "edges.dst")
    parent, num_visited, tree_depth, report = pointer_rules(parent, root, n)
    if report is not None:
        return report

    if depth is None:
        level = tree_depth
    else:
        claim = as_int64(depth, "depth")
        if claim.shape[0] != n:
            raise InputError(f"depth: has {claim.shape[0]} entries, the graph has {n} vertices")
        level = np.where(parent >= 0, claim, -1)
        if claim[root] != 0:
            return rules.root_depth(root, int(claim[root]), num_visited=num_visited,
                                    depth=tree_depth)
        # a reached vertex with a negative claimed level would read as unreached below
        neg = (parent >= 0) & (claim < 0)
        if neg.any():
            v = int(np.argmax(neg))
            p = int(parent[v])
            return rules.tree_edge_levels(v, p, int(claim[v]), int(claim[p]),
                                          num_visited=num_visited, depth=tree_depth)
    if tree_depth[root] != 0:  # cannot happen with pointer-derived depths; kept as a guard
        return rules.root_depth(root, int(tree_depth[root]), num_visited=num_visited,
                                depth=tree_depth)

    found = np.zeros(n, np.uint8)
    fp = (parent & 0xFF).astype(np.uint8)
    m = src.shape[0]
    nedge, nself, bad_label, bad_level, bad_comp = tree_kernels.edge_pass(
        src, dst, narrow(level), fp, parent, found)
    if bad_label < m:
        i = int(bad_label)
        raise rules.edge_outside(i, int(src[i]), int(dst[i]), n)
    bad_tree, bad_tlevel, max_depth = tree_kernels.tree_pass(level, parent, found, root)
    common = dict(num_visited=num_visited, depth=tree_depth, max_depth=int(max_depth))
    if bad_tree < n:
        v = int(bad_tree)
        return rules.tree_edge_in_graph(v, int(parent[v]), **common)
    if bad_tlevel < n:
        v = int(bad_tlevel)
        p = int(parent[v])
        return rules.tree_edge_levels(v, p, int(level[v]), int(level[p]), **common)
    if bad_level < m:
        i = int(bad_level)
        u, v = int(src[i]), int(dst[i])
        return rules.edge_levels(i, u, v, int(level[u]), int(level[v]), **common)
    if bad_comp < m:
        i = int(bad_comp)
        u, v = int(src[i]), int(dst[i])
        return rules.component(i, u, v, int(level[u]), int(level[v]), **common)
    return rules.valid_report(root, num_visited, int(max_depth), int(nedge),
                              num_self_loops=int(nself), depth=tree_depth)
