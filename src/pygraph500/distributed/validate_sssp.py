"""Distributed kernel-3 validation: the rules of ``validate.rules.SSSP_RULES`` checked where
the data lives, with the embedded ``validate_sssp``'s rule order, messages and first
offender (the smallest vertex label or global edge index), in the same float32 arithmetic.

- parent-length, distance-length, parent-range, root-self-parent, root-distance,
  distance-range, unreached-distance: on the owners of the vertices.
- parent-visited and no-cycles: as ``validate_dist`` (a ``fetch`` of the parents' parents;
  pointer jumping).
- the tuple rules: every rank sends its tuples ``(u, v)`` to the owners of u and of v, which
  mark a vertex's tree edge found when the other end is its parent and answer with the
  vertex's distance (-1 unreached) and whether the other end is its parent. The rank holding
  the tuple then has ``d(u)``, ``d(v)`` and ``w``: it checks edge-distances and component,
  counts nedge, and tells the owners (a third exchange, one byte per query) which of their
  parent tuples give their distance, ``d(v) == float32(d(parent) + w)`` (tree-edge-distance).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import InputError
from ..validate import ValidationReport, rules
from ..validate.shortest_paths import as_distances
from .generate import LocalEdges
from .partition import Partition1D, fetch, owner_split, vertex_dtype
from .validate import (EDGE_CHUNK, cycle_report, edge_rounds, first_over_ranks, pointer_jump,
                       route_tuples, value_at)

__all__ = ["validate_sssp_dist"]

_INT64_MAX = np.iinfo(np.int64).max


def _float_at(comm, part: Partition1D, array: np.ndarray, v: int) -> float:
    """``float(array[v // P])`` from the owner of v, bit for bit, known to every rank."""
    owner = part.owner(v)
    mine = float(array[v // part.size]) if owner == part.rank else None
    return comm.bcast(mine, root=owner)


def _first_vertex(comm, part: Partition1D, bad: np.ndarray, value) -> tuple[int, object]:
    """The smallest global vertex where ``bad`` holds (N: none) and ``value(local id)``."""
    gid = part.global_ids()
    k = int(gid[bad].min()) if bad.any() else part.num_vertices
    return first_over_ranks(comm, k, value(k // part.size) if k < part.num_vertices else None)


def validate_sssp_dist(comm, part: Partition1D, edges: LocalEdges, parent, distance,
                       root: int) -> ValidationReport:
    """Check this rank's part of a kernel-3 result (``parent``: int over the local vertices,
    global ids, -1 unreached; ``distance``: float32, inf or -1 unreached) against the rank's
    weighted tuples (collective). The same report on every rank, equal to ``validate_sssp``
    on the gathered arrays (a no-cycles report as ``validate_dist`` gives it)."""
    n = part.num_vertices
    if edges.weight is None:
        raise InputError("validating shortest paths needs the edge weights")
    root = rules.check_root(root, n)
    parent_in = rules.check_parent_array(parent)
    dist = as_distances(distance)
    nl = part.num_local
    total = int(comm.allreduce(int(parent_in.shape[0])))
    if not comm.allreduce(int(parent_in.shape[0] == nl), "min"):
        return rules.parent_length(total, n)
    total = int(comm.allreduce(int(dist.shape[0])))
    if not comm.allreduce(int(dist.shape[0] == nl), "min"):
        return rules.distance_length(total, n)
    if parent_in.dtype.kind == "u" and parent_in.dtype.itemsize == 8:
        k, p = _first_vertex(comm, part, parent_in > _INT64_MAX, lambda i: int(parent_in[i]))
        if k < n:
            return rules.parent_range(k, p, n)
    parent = np.ascontiguousarray(parent_in, dtype=np.int64)

    reached = parent != -1
    in_range = (parent >= 0) & (parent < n)
    kw = dict(num_visited=int(comm.allreduce(int(in_range.sum()))))
    k, p = _first_vertex(comm, part, reached & ~in_range, lambda i: int(parent[i]))
    if k < n:
        return rules.parent_range(k, p, n, **kw)
    proot = value_at(comm, part, parent, root)
    if proot != root:
        return rules.root_self_parent(root, proot, **kw)
    droot = _float_at(comm, part, dist, root)
    if droot != 0:
        return rules.root_distance(root, droot, **kw)
    with np.errstate(invalid="ignore"):
        bad_r = reached & ~((dist >= 0) & (dist < np.inf))
        bad_u = ~reached & ~((dist == -1) | (dist == np.inf))
    k, d = _first_vertex(comm, part, bad_r, lambda i: float(dist[i]))
    if k < n:
        return rules.distance_range(k, d, **kw)
    k, d = _first_vertex(comm, part, bad_u, lambda i: float(dist[i]))
    if k < n:
        return rules.unreached_distance(k, d, **kw)
    pp = fetch(comm, np.where(reached, parent, -1), lambda loc, _: parent[loc])
    k, p = _first_vertex(comm, part, reached & (pp == -1), lambda i: int(parent[i]))
    if k < n:
        return rules.parent_visited(k, p, **kw)
    _, anc, start = pointer_jump(comm, part, parent, reached, root)
    if start < n:
        return cycle_report(comm, part, parent, anc, start, root, kw["num_visited"])

    d = np.where(reached, dist, np.float32(-1)).astype(np.float32)
    top = float(d.max()) if d.size else 0.0
    kw["max_distance"] = float(comm.allreduce(max(top, 0.0), "max"))
    found = np.zeros(nl, dtype=np.uint8)
    confirmed = np.zeros(nl, dtype=np.uint8)
    nedge, bad_tri, bad_comp = _edge_pass(comm, part, edges, parent, d, found, confirmed)

    not_root = part.global_ids() != root
    k, p = _first_vertex(comm, part, reached & not_root & (found == 0), lambda i: int(parent[i]))
    if k < n:
        return rules.tree_edge_in_graph(k, p, **kw)
    k, p = _first_vertex(comm, part, reached & not_root & (confirmed == 0),
                         lambda i: int(parent[i]))
    if k < n:
        dk = _float_at(comm, part, dist, k)
        return rules.tree_edge_distance(k, p, dk, _float_at(comm, part, dist, p), **kw)
    i, info = bad_tri
    if info is not None:
        return rules.edge_distances(i, *info, **kw)
    i, info = bad_comp
    if info is not None:
        u, v, _, du, dv = info
        return rules.component(i, u, v, du, dv, what="distance", **kw)
    return rules.sssp_valid_report(root, kw["num_visited"], kw["max_distance"], nedge)


@njit(cache=True)
def _serve(got, parent, fp, d, found, answer):
    """On the owner: answer each query (local id, other end) with the vertex's distance (-1
    unreached) and 1 when the other end is its parent (then its tree edge is found). fp: the
    parents' low bytes, so the parent array is read only on a likely match."""
    for k in range(got.shape[0]):
        loc = got[k, 0]
        other = got[k, 1]
        answer[k, 0] = d[loc]
        answer[k, 1] = 0
        if fp[loc] == (other & 0xFF) and parent[loc] == other:
            found[loc] = 1
            answer[k, 1] = 1


@njit(cache=True)
def _check(tuples, a, b, slot, back, conf, bad_tri, bad_comp):
    """The tuple rules of ``tuples`` (src, dst, weight) [a, b) from their ends' answers:
    (nedge, first edge-distances tuple, first component tuple; -1 none, else offsets from 0);
    conf[q] = 1 when query q joins its vertex to its parent and gives the vertex its
    distance."""
    src, dst, w = tuples
    ne = 0
    for i in range(a, b):
        qu = slot[2 * (i - a)]
        qv = slot[2 * (i - a) + 1]
        du = back[qu, 0]
        dv = back[qv, 0]
        if du < 0 or dv < 0:
            if (du >= 0 or dv >= 0) and bad_comp < 0:
                bad_comp = i
            continue
        if src[i] == dst[i]:
            continue
        ne += 1
        x = w[i]
        su = du + x  # float32 + float32: float32, as the reference's C
        sv = dv + x
        if (dv > su or du > sv) and bad_tri < 0:
            bad_tri = i
        if back[qv, 1] != 0 and dv == su:
            conf[qv] = 1
        if back[qu, 1] != 0 and du == sv:
            conf[qu] = 1
    return ne, bad_tri, bad_comp


@njit(cache=True)
def _confirm(got, flags, confirmed):
    for k in range(got.shape[0]):
        if flags[k]:
            confirmed[got[k, 0]] = 1


def _edge_pass(comm, part, edges: LocalEdges, parent, d, found, confirmed):
    """(nedge, first edge-distances offender, first component offender), offenders as
    (global edge index, details or None), the same on all ranks."""
    n = part.num_vertices
    size = comm.size
    src = np.ascontiguousarray(edges.src, dtype=np.int64)
    dst = np.ascontiguousarray(edges.dst, dtype=np.int64)
    w = np.ascontiguousarray(edges.weight, dtype=np.float32)
    m = src.shape[0]
    outside = (src < 0) | (src >= n) | (dst < 0) | (dst >= n)
    i = int(np.argmax(outside)) if outside.any() else -1
    key, info = first_over_ranks(comm, edges.start + i if i >= 0 else edges.num_edges,
                       (int(src[i]), int(dst[i])) if i >= 0 else None)
    if info is not None:
        raise rules.edge_outside(key, *info, n)
    fp = (parent & 0xFF).astype(np.uint8)
    split = owner_split(size)
    chunk = min(EDGE_CHUNK, max(1, m))
    send = np.empty((2 * chunk, 2), dtype=vertex_dtype(n))
    slot = np.empty(2 * chunk, dtype=np.int64)
    conf = np.empty(2 * chunk, dtype=np.uint8)
    counts = np.empty(size, dtype=np.int64)
    nedge = 0
    bad_tri = bad_comp = -1
    for r in range(edge_rounds(comm, m)):
        a, b = min(m, r * EDGE_CHUNK), min(m, (r + 1) * EDGE_CHUNK)
        k = int(route_tuples(src, dst, a, b, split, counts, send, slot))
        got, got_counts = comm.alltoallv(send[:k], counts)
        answer = np.empty((got.shape[0], 2), dtype=np.float32)
        _serve(got, parent, fp, d, found, answer)
        back, _ = comm.alltoallv(answer, got_counts)
        conf[:k] = 0
        ne, bad_tri, bad_comp = _check((src, dst, w), a, b, slot, back, conf, bad_tri,
                                       bad_comp)
        nedge += int(ne)
        flags, _ = comm.alltoallv(conf[:k], counts)
        _confirm(got, flags, confirmed)
    nedge = int(comm.allreduce(nedge))
    # the offenders' ends' distances from their owners (one fetch, every rank takes part)
    firsts = (bad_tri, bad_comp)
    ends = np.array([x for i in firsts for x in ((src[i], dst[i]) if i >= 0 else (-1, -1))],
                    dtype=np.int64)
    dends = fetch(comm, ends, lambda loc, _: d[loc])
    out = []
    for j, i in enumerate(firsts):
        if i < 0:
            out.append(first_over_ranks(comm, edges.num_edges, None))
            continue
        info = (int(src[i]), int(dst[i]), float(w[i]), float(dends[2 * j]),
                float(dends[2 * j + 1]))
        out.append(first_over_ranks(comm, edges.start + i, info))
    return nedge, out[0], out[1]
