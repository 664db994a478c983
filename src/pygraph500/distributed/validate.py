"""Distributed validation: the Graph500 rules of ``validate/``, each checked where the data
lives, with the same rule names, the same order and the same first offender (the smallest
vertex label or global edge index).

- parent-length, parent-range, root-self-parent: on the owners of the vertices.
- parent-visited: every reached vertex asks the owner of its parent whether that parent is
  reached (``partition.fetch``).
- no-cycles: depths by pointer jumping, O(log depth) rounds, each asking the owners of the
  current ancestors for theirs; what has not reached the root after ``N`` hops is on or
  behind a cycle.
- tree-edge-in-graph, edge-levels, component and the TEPS numerator: every rank sends its own
  edge tuples ``(u, v)`` to the owners of ``u`` and of ``v`` (in chunks); an owner marks its
  vertex's tree edge as found when the other endpoint is its parent, and answers with the
  vertex's depth, so the rank holding the tuple checks the level rules.
- tree-edge-levels holds by construction (depths come from the parent pointers, as in the
  embedded validator when no depth claim is given).

``check_parents`` (the parent rules) and ``edge_verdict`` (the report from the tuples' results)
are shared with the 2D validator (``validate2d``), which differs only in how tuples meet the
depths and parents of their ends.

The verdict (valid, rule, offending vertex or edge) equals ``validate(edges, parent, root)``
on the gathered parent array, except that a no-cycles report names the smallest vertex on the
cycle only when the cycle is at most ``CYCLE_WALK`` long (the walk is one collective step per
vertex).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..validate import ValidationReport, rules
from .generate import LocalEdges
from .partition import Partition1D, fetch, owner_split, vertex_dtype

__all__ = ["validate_dist", "count_component_edges_dist", "check_parents", "edge_verdict",
           "ParentFacts", "CYCLE_WALK", "EDGE_CHUNK"]

CYCLE_WALK = 4096   # longest parent cycle walked to name its smallest vertex
EDGE_CHUNK = 1 << 20  # tuples per exchange round of the edge pass


def first_over_ranks(comm, key: int, info):
    """The smallest key over all ranks and the info that came with it (collective): how every
    distributed validator (1D, 2D, SSSP) agrees on the first offender."""
    best = min(comm.allgather((int(key), info)), key=lambda t: t[0])
    return best


def value_at(comm, part: Partition1D, array: np.ndarray, v: int) -> int:
    """``array[v // P]`` on the owner of global vertex v, known to every rank (the BFS and SSSP
    validators' single lookups)."""
    mine = int(array[v // part.size]) if part.owner(v) == part.rank else 0
    return int(comm.allreduce(mine))


def edge_rounds(comm, m: int) -> int:
    """Rounds of ``EDGE_CHUNK`` tuples every rank joins, so the edge passes' collectives match."""
    return int(comm.allreduce(-(-m // EDGE_CHUNK), "max"))


def validate_dist(comm, part: Partition1D, edges: LocalEdges, parent,
                  root: int) -> ValidationReport:
    """Check the distributed parent array (this rank's ``parent`` over its local vertices,
    global ids, -1 unreached) against the rank's edge tuples (collective). Returns the same
    report on every rank; ``depth`` is not gathered (None)."""
    facts = check_parents(comm, part, parent, root)
    if isinstance(facts, ValidationReport):
        return facts
    found = np.zeros(part.num_local, dtype=np.uint8)
    nedge, nself, bad_level, bad_comp = _edge_pass(comm, part, edges, facts, found)
    return edge_verdict(comm, part, facts, root, found, nedge, nself, bad_level, bad_comp)


@dataclass(frozen=True)
class ParentFacts:
    """What the parent rules leave on the owners for the edge rules (this rank's vertices):
    the parents as int64, their depths (-1 unreached), and the global counts of the report."""

    parent: np.ndarray
    depth: np.ndarray
    num_visited: int
    max_depth: int

    def narrow_depth(self) -> np.ndarray:
        """The depths in the narrowest signed dtype holding ``max_depth``: the same dtype on
        every rank, and small where they are read at random or gathered."""
        ddt = next(dt for dt in (np.int8, np.int16, np.int32, np.int64)
                   if self.max_depth <= np.iinfo(dt).max)
        return self.depth.astype(ddt)


def check_parents(comm, part: Partition1D, parent, root: int) -> ValidationReport | ParentFacts:
    """The parent rules (length, range, root, parent-visited, no-cycles), O(N/P) per rank on
    the owners (collective): the report of the first one broken, the same on every rank, or
    the facts the edge rules need. Shared by the 1D and the 2D (``validate2d``) validators."""
    n = part.num_vertices
    none = n  # "no offender" for vertex keys
    root = rules.check_root(root, n)
    parent = rules.check_parent_array(parent)
    total = int(comm.allreduce(int(parent.shape[0])))
    if not comm.allreduce(int(parent.shape[0] == part.num_local), "min"):
        return rules.parent_length(total, n)
    parent = np.ascontiguousarray(parent, dtype=np.int64)
    gid = part.global_ids()

    bad = (parent != -1) & ((parent < 0) | (parent >= n))
    in_range = (parent >= 0) & (parent < n)
    num_visited = int(comm.allreduce(int(in_range.sum())))
    k = int(gid[bad].min()) if bad.any() else none
    k, p = first_over_ranks(comm, k, int(parent[k // part.size]) if k < none else None)
    if k < none:
        return rules.parent_range(k, p, n, num_visited=num_visited)
    proot = value_at(comm, part, parent, root)
    if proot != root:
        return rules.root_self_parent(root, proot, num_visited=num_visited)

    reached = parent != -1
    pp = fetch(comm, np.where(reached, parent, -1), lambda loc, _: parent[loc])
    bad = reached & (pp == -1)
    k = int(gid[bad].min()) if bad.any() else none
    k, p = first_over_ranks(comm, k, int(parent[k // part.size]) if k < none else None)
    if k < none:
        return rules.parent_visited(k, p, num_visited=num_visited)

    depth, anc, start = pointer_jump(comm, part, parent, reached, root)
    if start < none:
        return cycle_report(comm, part, parent, anc, start, root, num_visited)
    max_depth = int(comm.allreduce(int(depth.max()) if depth.size else -1, "max"))
    return ParentFacts(parent, depth, num_visited, max_depth)


def edge_verdict(comm, part: Partition1D, facts: ParentFacts, root: int, found, nedge: int,
                 nself: int, bad_level, bad_comp) -> ValidationReport:
    """The report once the tuples were checked (collective): tree-edge-in-graph from this
    rank's ``found`` flags (its vertices), then edge-levels and component from the agreed
    first offenders ``(global edge index, (u, v, level u, level v) or None)``."""
    gid = part.global_ids()
    parent = facts.parent
    common = dict(num_visited=facts.num_visited, max_depth=facts.max_depth)
    bad = (parent != -1) & (gid != root) & (found == 0)
    n = part.num_vertices
    k = int(gid[bad].min()) if bad.any() else n
    k, p = first_over_ranks(comm, k, int(parent[k // part.size]) if k < n else None)
    if k < n:
        return rules.tree_edge_in_graph(k, p, **common)
    (i, info) = bad_level
    if info is not None:
        return rules.edge_levels(i, *info, **common)
    (i, info) = bad_comp
    if info is not None:
        return rules.component(i, *info, **common)
    return rules.valid_report(root, facts.num_visited, facts.max_depth, nedge,
                              num_self_loops=nself)


def pointer_jump(comm, part, parent, reached, root):
    """Depths (-1 unreached) by pointer jumping, the final ancestors, and the smallest reached
    vertex whose pointers never reach the root (N when there is none). The no-cycles rule of
    the BFS and SSSP validators."""
    n = part.num_vertices
    anc = parent.copy()
    dist = np.where(reached, 1, -1).astype(np.int64)
    if part.owner(root) == part.rank:
        anc[root // part.size] = root
        dist[root // part.size] = 0
    steps = 1
    active = 1
    while active and steps < n:
        act = reached & (anc != root)
        ids = np.where(act, anc, -1)
        got = fetch(comm, ids, lambda loc, _: np.column_stack((anc[loc], dist[loc])))
        anc = np.where(act, got[:, 0], anc)
        dist = np.where(act, dist + got[:, 1], dist)
        active = int(comm.allreduce(int((act & (anc != root)).sum())))
        steps *= 2
    unrooted = reached & (anc != root)
    gid = part.global_ids()
    start = int(gid[unrooted].min()) if unrooted.any() else n
    start = int(comm.allreduce(start, "min"))
    return np.where(reached & ~unrooted, dist, -1), anc, start


def cycle_report(comm, part, parent, anc, start, root, num_visited):
    """The no-cycles report from ``pointer_jump``'s ancestors, as the embedded validator words it
    (the BFS and SSSP validators)."""
    c = value_at(comm, part, anc, start)  # N hops above start: on the cycle
    low, length, x = c, 1, value_at(comm, part, parent, c)
    while x != c and length < CYCLE_WALK:
        low = min(low, x)
        length += 1
        x = value_at(comm, part, parent, x)
    if x == c:
        text = rules.cycle_text(length, low, value_at(comm, part, parent, low))
    else:
        low = start
        text = f"they enter a cycle longer than {CYCLE_WALK}"
    return rules.no_cycles(start, root, text, low, num_visited=num_visited)


@njit(cache=True)
def route_tuples(src, dst, a, b, split, counts, send, slot):
    """Queries of tuples [a, b): (local id of u, v) to the owner of u and (local id of v, u) to
    the owner of v, grouped by owner into send; slot[2k] / slot[2k + 1] is where the answer
    about u / v of tuple a + k will be (answers come back in the order of send). ``split``:
    (size, pow2, shift, mask), ``owner_local``'s arguments after the vertex. The BFS and
    SSSP validators' edge passes."""
    size, pow2, shift, mask = split
    counts[:] = 0
    for i in range(a, b):
        if pow2:
            counts[src[i] & mask] += 1
            counts[dst[i] & mask] += 1
        else:
            counts[src[i] % size] += 1
            counts[dst[i] % size] += 1
    pos = np.empty(size, np.int64)
    acc = 0
    for r in range(size):
        pos[r] = acc
        acc += counts[r]
    for i in range(a, b):
        u = src[i]
        v = dst[i]
        o = u & mask if pow2 else u % size
        send[pos[o], 0] = u >> shift if pow2 else u // size
        send[pos[o], 1] = v
        slot[2 * (i - a)] = pos[o]
        pos[o] += 1
        o = v & mask if pow2 else v % size
        send[pos[o], 0] = v >> shift if pow2 else v // size
        send[pos[o], 1] = u
        slot[2 * (i - a) + 1] = pos[o]
        pos[o] += 1
    return acc


@njit(cache=True)
def _serve_tuples(got, parent, fp, depth, found, answer):
    """On the owner: mark a vertex's tree edge found when the tuple's other end is its parent;
    answer with the vertex's depth (-1 unreached). fp: low byte of each parent, so that the
    large parent array is read only on a likely match (as the embedded validator does)."""
    for k in range(got.shape[0]):
        loc = got[k, 0]
        other = got[k, 1]
        if fp[loc] == (other & 0xFF) and found[loc] == 0 and parent[loc] == other:
            found[loc] = 1
        answer[k] = depth[loc]


@njit(cache=True)
def _check_tuples(src, dst, a, b, slot, back, first_level, first_comp):
    """The level rules of tuples [a, b) from their ends' depths: (nedge, nself, first
    edge-levels tuple, first component tuple), offsets from a, ``b - a`` when none."""
    nedge = 0
    nself = 0
    bad_level = first_level
    bad_comp = first_comp
    for i in range(a, b):
        du = back[slot[2 * (i - a)]]
        dv = back[slot[2 * (i - a) + 1]]
        if du < 0 or dv < 0:
            if (du >= 0 or dv >= 0) and bad_comp < 0:
                bad_comp = i
            continue
        if src[i] == dst[i]:
            nself += 1
            continue
        nedge += 1
        if (du - dv > 1 or dv - du > 1) and bad_level < 0:
            bad_level = i
    return nedge, nself, bad_level, bad_comp


def _edge_pass(comm, part, edges: LocalEdges, facts: ParentFacts, found):
    """The tuples' rules: (nedge, nself, first edge-levels offender, first component offender),
    offenders as (global edge index, (u, v, level u, level v) or None), the same on all ranks."""
    n = part.num_vertices
    size = comm.size
    src = np.ascontiguousarray(edges.src, dtype=np.int64)
    dst = np.ascontiguousarray(edges.dst, dtype=np.int64)
    m = src.shape[0]
    out_of_range = (src < 0) | (src >= n) | (dst < 0) | (dst >= n)
    if out_of_range.any():
        i = int(np.argmax(out_of_range))
        raise rules.edge_outside(edges.start + i, int(src[i]), int(dst[i]), n)
    itype = vertex_dtype(n)
    parent, depth = facts.parent, facts.depth
    narrow = facts.narrow_depth()
    ddt = narrow.dtype
    fp = (parent & 0xFF).astype(np.uint8)
    split = owner_split(size)
    chunk = min(EDGE_CHUNK, max(1, m))
    send = np.empty((2 * chunk, 2), dtype=itype)
    slot = np.empty(2 * chunk, dtype=np.int64)
    counts = np.empty(size, dtype=np.int64)
    recv_buf = answer = back_buf = None
    nedge = nself = 0
    bad_level = bad_comp = -1
    for r in range(edge_rounds(comm, m)):
        a, b = min(m, r * EDGE_CHUNK), min(m, (r + 1) * EDGE_CHUNK)
        k = int(route_tuples(src, dst, a, b, split, counts, send, slot))
        got, got_counts = comm.alltoallv(send[:k], counts, out=recv_buf)
        recv_buf = got if recv_buf is None or got.shape[0] > recv_buf.shape[0] else recv_buf
        if answer is None or answer.shape[0] < got.shape[0]:
            answer = np.empty(max(got.shape[0], 2 * chunk), dtype=ddt)
        _serve_tuples(got, parent, fp, narrow, found, answer)
        back, _ = comm.alltoallv(answer[:got.shape[0]], got_counts, out=back_buf)
        back_buf = back if back_buf is None or back.shape[0] > back_buf.shape[0] else back_buf
        ne, ns, bad_level, bad_comp = _check_tuples(src, dst, a, b, slot, back, bad_level,
                                                    bad_comp)
        nedge += int(ne)
        nself += int(ns)
    nedge = int(comm.allreduce(nedge))
    nself = int(comm.allreduce(nself))
    offenders = []
    for i in (bad_level, bad_comp):
        if i < 0:
            offenders.append(first_over_ranks(comm, edges.num_edges, None))
            continue
        u, v = int(src[i]), int(dst[i])
        offenders.append(first_over_ranks(comm, edges.start + i, (u, v, i)))
    out = []
    for key, info in offenders:  # the owners of the winners' ends give their depths
        if info is None:
            out.append((key, None))
            continue
        u, v, _ = info
        out.append((key, (u, v, value_at(comm, part, depth, u), value_at(comm, part, depth, v))))
    return nedge, nself, out[0], out[1]


def count_component_edges_dist(comm, part: Partition1D, edges: LocalEdges, parent) -> int:
    """The TEPS numerator without validating (``validate.count_component_edges``, distributed):
    tuples with both ends reached, duplicates counted, self-loops not."""
    reached = (np.asarray(parent) != -1).astype(np.int64)
    src = np.ascontiguousarray(edges.src, dtype=np.int64)
    dst = np.ascontiguousarray(edges.dst, dtype=np.int64)
    m = src.shape[0]
    count = 0
    for r in range(edge_rounds(comm, m)):
        a, b = min(m, r * EDGE_CHUNK), min(m, (r + 1) * EDGE_CHUNK)
        u, v = src[a:b], dst[a:b]
        got = fetch(comm, np.concatenate((u, v)), lambda loc, _: reached[loc])
        count += int(((got[:b - a] & got[b - a:]) & (u != v)).sum())
    return int(comm.allreduce(count))
