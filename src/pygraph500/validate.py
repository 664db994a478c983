"""The Graph500 validation rules for a BFS parent array (spec section "Validation").

``validate(edges, parent, root)`` checks, in this order, and reports the FIRST rule broken
with one offending vertex or edge (the smallest vertex label / edge index, so the report is
deterministic whatever the thread count):

====================  ========================================================================
rule                  what it demands
====================  ========================================================================
parent-length         ``len(parent) == edges.num_vertices``
parent-range          every parent is -1 or in ``[0, N)``
root-self-parent      ``parent[root] == root``
parent-visited        a reached vertex's parent is itself reached (its parent is not -1)
no-cycles             parent pointers from every reached vertex lead to the root
root-depth            ``depth[root] == 0``
tree-edge-in-graph    for every reached ``v != root``, ``{v, parent[v]}`` is an input tuple
tree-edge-levels      along every tree edge the levels differ by exactly one
edge-levels           across every input edge with both ends reached, levels differ by <= 1
component             no input edge joins a reached and an unreached vertex
====================  ========================================================================

Depths are computed from the parent pointers (as the reference ``makedepthmapforbfs`` does),
so ``root-depth`` and ``tree-edge-levels`` hold by construction unless the caller passes the
BFS's own ``depth`` claim, which is then checked by those two rules and used for the level
rules. A vertex outside the root's component that was given a parent fails
``parent-visited``, ``no-cycles`` or ``tree-edge-in-graph`` (its chain must end at an unreached
vertex, loop, or cross a non-edge into the component); a component vertex left out fails
``component``. Self-loops never break a level rule.

The TEPS numerator ``nedge`` follows the Graph500 3.0.1 reference (see TEPS_COUNTING_RULE).
Cost: a few parallel passes over the vertices (O(N log depth) pointer jumping for depths) and
one parallel pass over the edge tuples.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np
from numba import njit, prange

from .errors import InputError, ValidationError

if TYPE_CHECKING:  # only for annotations: validate needs .src, .dst, .num_vertices
    from .graph.types import EdgeList

__all__ = ["validate", "check", "count_component_edges", "ValidationReport", "RULES",
           "TEPS_COUNTING_RULE"]

# The reference (src/validate.c) builds its own CSR from the tuples skipping v0 == v1, then
# for every half-edge whose ends are not both unreached adds 1 when v0 < v1: each non-loop
# tuple once, duplicates included. Its BFS side (get_edge_count_for_teps in bfs_reference.c)
# counts CSR entries with column <= v at reached v, again loop-free, and validation fails if
# the two disagree. The spec's text ("counting any multiple edges and self-loops") differs
# only in the self-loops; ValidationReport.num_self_loops gives that difference.
TEPS_COUNTING_RULE = (
    "nedge = input edge tuples with both endpoints reached by the BFS, duplicates counted, "
    "self-loops not counted (Graph500 3 reference src/validate.c)"
)

RULES = (
    "parent-length",
    "parent-range",
    "root-self-parent",
    "parent-visited",
    "no-cycles",
    "root-depth",
    "tree-edge-in-graph",
    "tree-edge-levels",
    "edge-levels",
    "component",
)

_NCHUNKS = 512  # work split for the deterministic "first offender" reductions
# Below this many vertices + tuples the kernels run on one thread: waking a pool costs more
# than the work (with the OpenMP layer and its default wait policy, milliseconds per region).
_PARALLEL_MIN = 1 << 17


@dataclass
class ValidationReport:
    """Outcome of ``validate``. ``nedge`` is 0 unless ``valid``.

    ``vertex`` / ``edge`` (``(u, v)``) / ``edge_index`` (position in the EdgeList) name one
    offender of ``rule``. ``depth`` (int64, -1 where unreached) is the depth map computed from
    the parent pointers, present once the no-cycles rule has passed. ``num_self_loops`` is the
    number of self-loop tuples at reached vertices: the spec's wording counts them, the
    reference does not (``nedge + num_self_loops`` is the spec's reading).
    """

    valid: bool
    rule: str | None
    message: str
    vertex: int | None = None
    edge: tuple[int, int] | None = None
    edge_index: int | None = None
    nedge: int = 0
    num_self_loops: int = 0
    num_visited: int = 0
    max_depth: int = -1
    depth: np.ndarray | None = None

    def raise_if_invalid(self) -> "ValidationReport":
        if not self.valid:
            err = ValidationError(self.message)
            err.report = self
            raise err
        return self


def check(edges: "EdgeList", parent, root: int, depth=None) -> ValidationReport:
    """``validate`` that raises ValidationError (with ``.report``) when the tree is invalid."""
    return validate(edges, parent, root, depth=depth).raise_if_invalid()


# --------------------------------------------------------------------------------------------
# kernels


@njit(cache=True, parallel=True)
def _parent_pass(parent):
    """First out-of-range parent, first reached vertex with an unreached parent, # reached."""
    n = parent.shape[0]
    nch = min(_NCHUNKS, max(n, 1))
    bad_range = np.full(nch, n, np.int64)
    bad_visit = np.full(nch, n, np.int64)
    counts = np.zeros(nch, np.int64)
    for c in prange(nch):
        lo = c * n // nch
        hi = (c + 1) * n // nch
        br = n
        bv = n
        cnt = 0
        for v in range(lo, hi):
            p = parent[v]
            if p == -1:
                continue
            if p < 0 or p >= n:
                if br == n:
                    br = v
                continue
            cnt += 1
            if parent[p] == -1 and bv == n:
                bv = v
        bad_range[c] = br
        bad_visit[c] = bv
        counts[c] = cnt
    return bad_range.min(), bad_visit.min(), counts.sum()


@njit(cache=True, parallel=True)
def _init_jump(parent, root, anc, dist):
    n = parent.shape[0]
    for v in prange(n):
        p = parent[v]
        anc[v] = p
        dist[v] = -1 if p == -1 else 1
    anc[root] = root
    dist[root] = 0


@njit(cache=True, parallel=True)
def _jump_round(anc, dist, anc2, dist2, root):
    """One pointer-jumping step (double-buffered); returns # reached vertices not yet at root."""
    n = anc.shape[0]
    active = 0
    for v in prange(n):
        a = anc[v]
        if a == -1 or a == root:
            anc2[v] = a
            dist2[v] = dist[v]
        else:
            aa = anc[a]
            anc2[v] = aa
            dist2[v] = dist[v] + dist[a]
            if aa != root:
                active += 1
    return active


@njit(cache=True)
def _first_unrooted(anc, root):
    for v in range(anc.shape[0]):
        if anc[v] != -1 and anc[v] != root:
            return v
    return -1


@njit(cache=True)
def _cycle_info(parent, start):
    """Smallest vertex and length of the parent cycle through ``start``."""
    best = start
    length = 1
    x = parent[start]
    while x != start:
        if x < best:
            best = x
        length += 1
        x = parent[x]
    return best, length


@njit(cache=True)
def _edge_chunk(src, dst, lev, fp, parent, found, lo, hi):
    """Serial body of _edge_pass over tuples [lo, hi)."""
    m = src.shape[0]
    n = lev.shape[0]
    ne = 0
    ns = 0
    bad_level = m
    bad_comp = m
    for i in range(lo, hi):
        u = src[i]
        v = dst[i]
        if u < 0 or u >= n or v < 0 or v >= n:
            return ne, ns, i, bad_level, bad_comp
        du = np.int64(lev[u])
        dv = np.int64(lev[v])
        if du < 0 or dv < 0:
            if (du >= 0 or dv >= 0) and bad_comp == m:
                bad_comp = i
            continue
        if u == v:
            ns += 1
            continue
        ne += 1
        diff = du - dv
        if (diff > 1 or diff < -1) and bad_level == m:
            bad_level = i
        # fp[x] = low byte of parent[x]: the 8 MB parent array is read only on a match
        if fp[u] == (v & 0xFF) and found[u] == 0 and parent[u] == v:
            found[u] = 1
        if fp[v] == (u & 0xFF) and found[v] == 0 and parent[v] == u:
            found[v] = 1
    return ne, ns, m, bad_level, bad_comp


@njit(cache=True, parallel=True)
def _edge_pass(src, dst, lev, fp, parent, found):
    """One pass over the tuples. lev: level, -1 where unreached (narrowest int dtype, so the
    randomly read arrays stay in cache); fp: low byte of each parent.

    Returns (nedge, nself, first bad-label edge, first edge-levels edge, first component edge)
    with M meaning "none". found[v] = 1 when some tuple is {v, parent[v]} (writes of 1 only,
    so concurrent writers cannot change the verdict).
    """
    m = src.shape[0]
    nch = min(_NCHUNKS, max(m, 1))
    out = np.empty((nch, 5), np.int64)
    for c in prange(nch):
        r = _edge_chunk(src, dst, lev, fp, parent, found, c * m // nch, (c + 1) * m // nch)
        out[c, 0] = r[0]
        out[c, 1] = r[1]
        out[c, 2] = r[2]
        out[c, 3] = r[3]
        out[c, 4] = r[4]
    return (out[:, 0].sum(), out[:, 1].sum(), out[:, 2].min(), out[:, 3].min(),
            out[:, 4].min())


@njit(cache=True, parallel=True)
def _tree_pass(level, parent, found, root):
    """First reached v != root whose tree edge is not an input tuple, first tree edge whose
    levels do not differ by exactly one (N means none), and the maximum level."""
    n = level.shape[0]
    nch = min(_NCHUNKS, max(n, 1))
    out = np.empty((nch, 3), np.int64)
    for c in prange(nch):
        be = n
        bl = n
        md = -1
        for v in range(c * n // nch, (c + 1) * n // nch):
            d = level[v]
            if d > md:
                md = d
            p = parent[v]
            if p == -1 or v == root:
                continue
            if found[v] == 0 and be == n:
                be = v
            if d != level[p] + 1 and bl == n:
                bl = v
        out[c, 0] = be
        out[c, 1] = bl
        out[c, 2] = md
    return out[:, 0].min(), out[:, 1].min(), out[:, 2].max()


@njit(cache=True, parallel=True)
def _count_pass(src, dst, reached):
    """(# non-self-loop tuples with both ends reached, first tuple with a label outside
    [0, N) or M)."""
    m = src.shape[0]
    n = reached.shape[0]
    nch = min(_NCHUNKS, max(m, 1))
    out = np.empty((nch, 2), np.int64)
    for c in prange(nch):
        cnt = 0
        bad = m
        for i in range(c * m // nch, (c + 1) * m // nch):
            u = src[i]
            v = dst[i]
            if u < 0 or u >= n or v < 0 or v >= n:
                bad = i
                break
            cnt += reached[u] & reached[v] & (u != v)
        out[c, 0] = cnt
        out[c, 1] = bad
    return out[:, 0].sum(), out[:, 1].min()


def _narrow(level: np.ndarray) -> np.ndarray:
    """The level array in the narrowest signed dtype that holds it (fewer cache misses)."""
    top = int(level.max()) if level.size else 0
    for dt in (np.int8, np.int16, np.int32):
        if top <= np.iinfo(dt).max:
            return level.astype(dt)
    return level


# --------------------------------------------------------------------------------------------
# driver


def _as_int64(a, what: str) -> np.ndarray:
    a = np.asarray(a)
    if a.ndim != 1:
        raise InputError(f"{what}: expected a 1-D array, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        raise InputError(f"{what}: expected an integer array, got dtype {a.dtype}")
    return np.ascontiguousarray(a, dtype=np.int64)


def _invalid(rule: str, message: str, **kw) -> ValidationReport:
    return ValidationReport(valid=False, rule=rule, message=f"{rule}: {message}", **kw)


def _compute_depth(parent: np.ndarray, root: int):
    """Depth by pointer jumping, O(N log depth); needs every reached vertex's parent reached.

    Returns (depth, -1, -1), or (None, v, c) where v is the smallest reached vertex whose
    pointers never reach the root and c a vertex on the cycle they run into."""
    n = parent.shape[0]
    anc = np.empty(n, np.int64)
    dist = np.empty(n, np.int64)
    anc2 = np.empty(n, np.int64)
    dist2 = np.empty(n, np.int64)
    _init_jump(parent, root, anc, dist)
    steps = 1  # anc[v] is `steps` pointer hops above v (or the root)
    active = 1
    while active and steps < n:
        active = _jump_round(anc, dist, anc2, dist2, root)
        anc, anc2, dist, dist2 = anc2, anc, dist2, dist
        steps *= 2
    if active:
        # every unrooted vertex is >= N hops from where it started: anc[v] lies on a cycle
        v = _first_unrooted(anc, root)
        if v >= 0:
            return None, v, int(anc[v])
    return dist, -1, -1


def count_component_edges(edges: "EdgeList", parent) -> int:
    """The TEPS numerator without validating: tuples with both ends reached (parent != -1),
    duplicates counted, self-loops not (TEPS_COUNTING_RULE). Equals ``validate(...).nedge``
    for a valid tree; one pass over the tuples."""
    n = int(edges.num_vertices)
    src = _as_int64(edges.src, "edges.src")
    dst = _as_int64(edges.dst, "edges.dst")
    parent = np.asarray(parent)
    if parent.ndim != 1 or parent.shape[0] != n:
        raise InputError(f"parent: expected {n} entries, got shape {parent.shape}")
    reached = (parent != -1).astype(np.uint8)
    with _threads_for(n + src.shape[0]):
        count, bad = _count_pass(src, dst, reached)
    if bad < src.shape[0]:
        i = int(bad)
        raise InputError(f"input edge #{i} ({int(src[i])}, {int(dst[i])}) has an endpoint "
                         f"outside [0, {n})")
    return int(count)


@contextmanager
def _threads_for(size: int):
    if size >= _PARALLEL_MIN:
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
    with _threads_for(int(edges.num_vertices) + len(edges.src)):
        return _validate(edges, parent, root, depth)


def _validate(edges, parent, root, depth) -> ValidationReport:
    n = int(edges.num_vertices)
    src = _as_int64(edges.src, "edges.src")
    dst = _as_int64(edges.dst, "edges.dst")
    root = int(root)
    if not 0 <= root < n:
        raise InputError(f"root {root} is outside [0, {n})")
    parent_in = np.asarray(parent)
    if parent_in.ndim != 1 or parent_in.dtype.kind not in "iu":
        raise InputError(
            f"parent: expected a 1-D integer array, got shape {parent_in.shape} dtype "
            f"{parent_in.dtype}")
    if parent_in.shape[0] != n:
        return _invalid("parent-length",
                        f"parent has {parent_in.shape[0]} entries, the graph has {n} vertices")
    if parent_in.dtype.kind == "u" and parent_in.dtype.itemsize == 8 and n:
        big = parent_in > np.iinfo(np.int64).max  # would wrap negative as int64
        if big.any():
            v = int(np.argmax(big))
            return _invalid("parent-range",
                            f"vertex {v} has parent {int(parent_in[v])}, outside {{-1}} and "
                            f"[0, {n})", vertex=v)
    parent = np.ascontiguousarray(parent_in, dtype=np.int64)

    bad_range, bad_visit, num_visited = _parent_pass(parent)
    num_visited = int(num_visited)
    if bad_range < n:
        v = int(bad_range)
        return _invalid("parent-range",
                        f"vertex {v} has parent {int(parent[v])}, outside {{-1}} and [0, {n})",
                        vertex=v, num_visited=num_visited)
    if parent[root] != root:
        return _invalid("root-self-parent",
                        f"root {root} has parent {int(parent[root])}, expected {root}",
                        vertex=root, num_visited=num_visited)
    if bad_visit < n:
        v = int(bad_visit)
        p = int(parent[v])
        return _invalid("parent-visited",
                        f"vertex {v} has parent {p}, but vertex {p} is unreached (parent -1)",
                        vertex=v, num_visited=num_visited)

    tree_depth, start, on_cycle = _compute_depth(parent, root)
    if tree_depth is None:
        low, length = _cycle_info(parent, on_cycle)
        return _invalid("no-cycles",
                        f"parent pointers from vertex {start} never reach root {root}: they "
                        f"enter a cycle of length {length} through vertex {int(low)} "
                        f"(parent {int(parent[low])})",
                        vertex=int(low), num_visited=num_visited)

    if depth is None:
        level = tree_depth
    else:
        claim = _as_int64(depth, "depth")
        if claim.shape[0] != n:
            raise InputError(f"depth: has {claim.shape[0]} entries, the graph has {n} vertices")
        level = np.where(parent >= 0, claim, -1)
        if claim[root] != 0:
            return _invalid("root-depth", f"root {root} has depth {int(claim[root])}, expected 0",
                            vertex=root, num_visited=num_visited, depth=tree_depth)
        # a reached vertex with a negative claimed level would read as unreached below
        neg = (parent >= 0) & (claim < 0)
        if neg.any():
            v = int(np.argmax(neg))
            p = int(parent[v])
            return _invalid("tree-edge-levels",
                            f"tree edge ({v}, parent {p}) has levels {int(claim[v])} and "
                            f"{int(claim[p])}; they must differ by exactly 1",
                            vertex=v, edge=(v, p), num_visited=num_visited, depth=tree_depth)
    if tree_depth[root] != 0:  # cannot happen with pointer-derived depths; kept as a guard
        return _invalid("root-depth", f"root {root} has depth {int(tree_depth[root])}, expected 0",
                        vertex=root, num_visited=num_visited, depth=tree_depth)

    found = np.zeros(n, np.uint8)
    fp = (parent & 0xFF).astype(np.uint8)
    m = src.shape[0]
    nedge, nself, bad_label, bad_level, bad_comp = _edge_pass(src, dst, _narrow(level), fp,
                                                              parent, found)
    if bad_label < m:
        i = int(bad_label)
        raise InputError(f"input edge #{i} ({int(src[i])}, {int(dst[i])}) has an endpoint "
                         f"outside [0, {n})")
    bad_tree, bad_tlevel, max_depth = _tree_pass(level, parent, found, root)
    common = dict(num_visited=num_visited, depth=tree_depth, max_depth=int(max_depth))
    if bad_tree < n:
        v = int(bad_tree)
        p = int(parent[v])
        return _invalid("tree-edge-in-graph",
                        f"tree edge ({v}, parent {p}) is not an input edge", vertex=v,
                        edge=(v, p), **common)
    if bad_tlevel < n:
        v = int(bad_tlevel)
        p = int(parent[v])
        return _invalid("tree-edge-levels",
                        f"tree edge ({v}, parent {p}) has levels {int(level[v])} and "
                        f"{int(level[p])}; they must differ by exactly 1",
                        vertex=v, edge=(v, p), **common)
    if bad_level < m:
        i = int(bad_level)
        u, v = int(src[i]), int(dst[i])
        return _invalid("edge-levels",
                        f"input edge #{i} ({u}, {v}) joins levels {int(level[u])} and "
                        f"{int(level[v])}; they differ by more than 1",
                        vertex=u, edge=(u, v), edge_index=i, **common)
    if bad_comp < m:
        i = int(bad_comp)
        u, v = int(src[i]), int(dst[i])
        inside, outside = (u, v) if level[u] >= 0 else (v, u)
        return _invalid("component",
                        f"input edge #{i} ({u}, {v}) joins reached vertex {inside} (level "
                        f"{int(level[inside])}) and unreached vertex {outside}",
                        vertex=outside, edge=(u, v), edge_index=i, **common)
    return ValidationReport(
        valid=True, rule=None,
        message=(f"valid: root {root}, {num_visited} vertices reached, max depth "
                 f"{int(max_depth)}, nedge {int(nedge)}"),
        nedge=int(nedge), num_self_loops=int(nself), num_visited=num_visited,
        max_depth=int(max_depth), depth=tree_depth)
