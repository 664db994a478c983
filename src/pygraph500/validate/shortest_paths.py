"""The embedded kernel-3 validator: ``validate_sssp(edges, parent, distance, root)`` checks a
shortest-path result against the rules of ``rules.SSSP_RULES`` in their order and reports
the first one broken (smallest vertex label or edge index, whatever the thread count).

Every check is against the input tuples and their weights, in float32 as the reference's
``validate_result`` computes: a reached vertex's distance must equal ``float32(d(parent) + w)``
for some input tuple joining it to its parent, and no input tuple may have one end farther
than ``float32(other end + w)``. Unreached vertices have parent -1 and distance -1 or inf.
Cost: the BFS validator's vertex passes (pointer jumping for cycles) and one parallel pass
over the tuples reading their weights.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit, prange

from ..errors import InputError
from . import rules, tree_kernels
from .bfs_tree import as_int64, compute_depth, cycle_report, int64_parent, threads_for
from .rules import ValidationReport

if TYPE_CHECKING:
    from ..graph.types import EdgeList

__all__ = ["validate_sssp", "check_sssp", "as_distances"]

_NCH = tree_kernels.NCHUNKS


@njit(cache=True, parallel=True)
def _vertex_pass(parent, dist, root):
    """First reached vertex with a bad distance (NaN, negative, inf), first unreached vertex
    whose distance is not -1 or inf (N: none), the largest reached distance."""
    n = parent.shape[0]
    nch = min(_NCH, max(n, 1))
    bad_r = np.full(nch, n, np.int64)
    bad_u = np.full(nch, n, np.int64)
    top = np.zeros(nch, np.float32)
    for c in prange(nch):
        br = n
        bu = n
        t = np.float32(0)
        for v in range(c * n // nch, (c + 1) * n // nch):
            d = dist[v]
            if parent[v] == -1:
                if not (d == -1 or d == np.inf) and bu == n:
                    bu = v
            elif not (d >= 0 and d < np.inf):
                if br == n:
                    br = v
            elif d > t:
                t = d
        bad_r[c] = br
        bad_u[c] = bu
        top[c] = t
    return bad_r.min(), bad_u.min(), top.max()


@njit(cache=True)
def _edge_chunk(src, dst, w, d, fp, parent, marks, span):
    """``_edge_pass`` on the tuples ``span`` = (lo, hi); ``marks`` = (found, confirmed)."""
    found, confirmed = marks
    lo, hi = span
    m = src.shape[0]
    n = d.shape[0]
    ne = 0
    bad_tri = m
    bad_comp = m
    for i in range(lo, hi):
        u = src[i]
        v = dst[i]
        if u < 0 or u >= n or v < 0 or v >= n:
            return ne, i, bad_tri, bad_comp
        du = d[u]
        dv = d[v]
        if du < 0 or dv < 0:  # -1: unreached
            if (du >= 0 or dv >= 0) and bad_comp == m:
                bad_comp = i
            continue
        if u == v:
            continue
        ne += 1
        x = w[i]
        su = du + x  # float32 + float32: float32, as the reference's C
        sv = dv + x
        if (dv > su or du > sv) and bad_tri == m:
            bad_tri = i
        if fp[v] == (u & 0xFF) and parent[v] == u:
            found[v] = 1
            if dv == su:
                confirmed[v] = 1
        if fp[u] == (v & 0xFF) and parent[u] == v:
            found[u] = 1
            if du == sv:
                confirmed[u] = 1
    return ne, m, bad_tri, bad_comp


@njit(cache=True, parallel=True)
def _edge_pass(src, dst, w, d, fp, parent, found, confirmed):
    """(nedge, first bad-label tuple, first edge-distances tuple, first component tuple),
    M meaning none; found[v] / confirmed[v] = 1 when a tuple joins v to its parent / also
    gives v its distance (writes of 1 only: concurrent writers cannot change the verdict)."""
    m = src.shape[0]
    nch = min(_NCH, max(m, 1))
    out = np.empty((nch, 4), np.int64)
    marks = (found, confirmed)
    for c in prange(nch):
        r = _edge_chunk(src, dst, w, d, fp, parent, marks, (c * m // nch, (c + 1) * m // nch))
        out[c, 0] = r[0]
        out[c, 1] = r[1]
        out[c, 2] = r[2]
        out[c, 3] = r[3]
    return out[:, 0].sum(), out[:, 1].min(), out[:, 2].min(), out[:, 3].min()


@njit(cache=True, parallel=True)
def _tree_pass(parent, found, confirmed, root):
    """First reached v != root with no tuple to its parent, first with no tuple giving its
    distance (N: none)."""
    n = parent.shape[0]
    nch = min(_NCH, max(n, 1))
    out = np.empty((nch, 2), np.int64)
    for c in prange(nch):
        be = n
        bd = n
        for v in range(c * n // nch, (c + 1) * n // nch):
            if parent[v] == -1 or v == root:
                continue
            if found[v] == 0 and be == n:
                be = v
            if confirmed[v] == 0 and bd == n:
                bd = v
        out[c, 0] = be
        out[c, 1] = bd
    return out[:, 0].min(), out[:, 1].min()


def as_distances(distance, what: str = "distance") -> np.ndarray:
    """``distance`` as a contiguous float32 array; InputError for anything else (a float64
    array must hold float32 values exactly: kernel 3's distances are float32)."""
    d = np.asarray(distance)
    if d.ndim != 1 or d.dtype.kind != "f":
        raise InputError(f"{what}: expected a 1-D float array, got shape {d.shape} dtype {d.dtype}")
    if d.dtype == np.float32:
        return np.ascontiguousarray(d)
    d32 = d.astype(np.float32)
    with np.errstate(invalid="ignore"):
        lost = (d32.astype(d.dtype) != d) & ~(np.isnan(d) & np.isnan(d32))
    if lost.any():
        i = int(np.argmax(lost))
        # str(): the value's own shortest digits (a long double's too), not a NumPy repr
        raise InputError(f"{what}[{i}] = {d[i]} is not a float32 value (kernel 3 distances "
                         "are float32)")
    return d32


def check_sssp(edges: "EdgeList", parent, distance, root: int) -> ValidationReport:
    """``validate_sssp`` that raises ValidationError (with ``.report``) when invalid."""
    return validate_sssp(edges, parent, distance, root).raise_if_invalid()


def validate_sssp(edges: "EdgeList", parent, distance, root: int) -> ValidationReport:
    """Check a kernel-3 result (parent array and float32 distances) against the weighted
    tuples of ``edges`` (see the module docstring). InputError for input that is not such a
    result at all (wrong dtypes, no weights, labels or root outside ``[0, N)``)."""
    if edges.weight is None:
        raise InputError("validating shortest paths needs the edge weights")
    with threads_for(int(edges.num_vertices) + len(edges.src)):
        return _validate(edges, parent, distance, root)


def pointer_rules(parent, dist, root: int, n: int):
    """The rules on the parent pointers and distances alone, parent-length to no-cycles in
    SSSP_RULES' order (both kernel-3 validators): (parent as int64, the report's fields so far
    (num_visited, max_distance), None), or (None, {}, the report of the first rule broken)."""
    root = rules.check_root(root, n)
    parent_in = rules.check_parent_array(parent)
    if parent_in.shape[0] != n:
        return None, {}, rules.parent_length(parent_in.shape[0], n)
    if dist.shape[0] != n:
        return None, {}, rules.distance_length(dist.shape[0], n)
    parent, wrapped = int64_parent(parent_in, n)
    if wrapped is not None:
        return None, {}, wrapped
    hops = np.empty(n, np.int8)
    bad_range, num_visited = tree_kernels.start_depths(parent, hops)
    kw = dict(num_visited=int(num_visited))
    if bad_range < n:
        v = int(bad_range)
        return None, {}, rules.parent_range(v, int(parent[v]), n, **kw)
    if parent[root] != root:
        return None, {}, rules.root_self_parent(root, int(parent[root]), **kw)
    if dist[root] != 0:
        return None, {}, rules.root_distance(root, float(dist[root]), **kw)
    bad_r, bad_u, top = _vertex_pass(parent, dist, root)
    if bad_r < n:
        return None, {}, rules.distance_range(int(bad_r), float(dist[bad_r]), **kw)
    if bad_u < n:
        return None, {}, rules.unreached_distance(int(bad_u), float(dist[bad_u]), **kw)
    hops, bad_visit, start, on_cycle = compute_depth(parent, root, hops)
    if bad_visit < n:
        return None, {}, rules.parent_visited(bad_visit, int(parent[bad_visit]), **kw)
    if hops is None:
        return None, {}, cycle_report(parent, root, start, on_cycle, **kw)
    return parent, dict(kw, max_distance=float(top)), None


def _validate(edges, parent, distance, root) -> ValidationReport:
    n = int(edges.num_vertices)
    src = as_int64(edges.src, "edges.src")
    dst = as_int64(edges.dst, "edges.dst")
    w = np.ascontiguousarray(edges.weight, dtype=np.float32)
    dist = as_distances(distance)
    parent, kw, report = pointer_rules(parent, dist, root, n)
    if report is not None:
        return report
    d = np.where(parent >= 0, dist, np.float32(-1))  # -1: unreached, one array read per end
    found = np.zeros(n, np.uint8)
    confirmed = np.zeros(n, np.uint8)
    fp = (parent & 0xFF).astype(np.uint8)
    m = src.shape[0]
    nedge, bad_label, bad_tri, bad_comp = _edge_pass(src, dst, w, d, fp, parent, found,
                                                     confirmed)
    if bad_label < m:
        i = int(bad_label)
        raise rules.edge_outside(i, int(src[i]), int(dst[i]), n)
    bad_tree, bad_dist = _tree_pass(parent, found, confirmed, root)
    if bad_tree < n:
        v = int(bad_tree)
        return rules.tree_edge_in_graph(v, int(parent[v]), **kw)
    if bad_dist < n:
        v = int(bad_dist)
        p = int(parent[v])
        return rules.tree_edge_distance(v, p, float(dist[v]), float(dist[p]), **kw)
    if bad_tri < m:
        i = int(bad_tri)
        u, v = int(src[i]), int(dst[i])
        return rules.edge_distances(i, u, v, float(w[i]), float(d[u]), float(d[v]), **kw)
    if bad_comp < m:
        i = int(bad_comp)
        u, v = int(src[i]), int(dst[i])
        return rules.component(i, u, v, float(d[u]), float(d[v]), what="distance", **kw)
    return rules.sssp_valid_report(root, kw["num_visited"], kw["max_distance"], int(nedge))
