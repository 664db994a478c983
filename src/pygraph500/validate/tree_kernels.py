"""The compiled passes over a parent array and the edge tuples: depths, roots and cycles
from the parent pointers (``bfs_tree.pointer_rules``, which ``on_csr`` shares; the hop counts
of ``shortest_paths``), and the tuples' and the tree's edges judged (``bfs_tree``). Each
returns the first offender of its rules (smallest vertex label or edge index, whatever the
thread count); the passes over kernel 1's CSR are ``csr_kernels``."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..primitives.hints import prefetch

__all__ = ["start_depths", "walk_depths", "DONE", "LONG", "DEEP", "first_unreached_parent",
           "init_jump", "jump_round", "first_unrooted", "cycle_info", "edge_pass", "tree_pass",
           "count_pass", "NCHUNKS"]

NCHUNKS = 512  # work split for the deterministic "first offender" reductions


@njit(cache=True, parallel=True)
def first_unreached_parent(parent):
    """The first reached vertex whose parent is unreached (N: none); every parent in range.
    Only where ``walk_depths`` stopped early (a cycle or a deep tree): else it finds them."""
    n = parent.shape[0]
    nch = min(NCHUNKS, max(n, 1))
    bad_visit = np.full(nch, n, np.int64)
    for c in prange(nch):
        for v in range(c * n // nch, (c + 1) * n // nch):
            p = parent[v]
            if p != -1 and parent[p] == -1:
                bad_visit[c] = v
                break
    return bad_visit.min()


UNKNOWN = -2  # a reached vertex whose depth walk_depths has not written yet


@njit(cache=True, parallel=True)
def start_depths(parent, depth):
    """The pointer rules' one sequential pass: depth[v] = -1 where unreached, else UNKNOWN;
    returns (first out-of-range parent, # reached vertices with a parent in range)."""
    n = parent.shape[0]
    nch = min(NCHUNKS, max(n, 1))
    bad_range = np.full(nch, n, np.int64)
    counts = np.zeros(nch, np.int64)
    top = np.uint64(n)
    for c in prange(nch):
        br = n
        cnt = 0
        for v in range(c * n // nch, (c + 1) * n // nch):
            # no branch on whether v is reached (half the vertices, in no order: 2-3.5x faster
            # at SCALE 25); p + 1 as unsigned is at most N just when p is in [-1, N)
            p = parent[v]
            depth[v] = UNKNOWN + (p == -1)
            fits = np.uint64(p + 1) <= top
            cnt += (p >= 0) & fits
            if not fits and br == n:
                br = v
        bad_range[c] = br
        counts[c] = cnt
    return bad_range.min(), counts.sum()


DONE, LONG, DEEP = 0, 1, 2  # how walk_depths ended


@njit(inline="always")
def _walk(parent, depth, v, cap, top):
    """v's walk up to a known depth, writing the depths on the way: (how it ended, whether
    v's own parent is unreached); a walk that meets an unreached vertex writes nothing."""
    x = v
    steps = 0
    while depth[x] == UNKNOWN and steps <= cap:
        x = parent[x]
        steps += 1
    if steps > cap:
        return LONG, False
    if depth[x] < 0:  # unreached
        return DONE, steps == 1
    d = np.int64(depth[x]) + steps
    if d > top:
        return DEEP, False
    y = v
    for _ in range(steps):
        depth[y] = d
        d -= 1
        y = parent[y]
    return DONE, False


WAITING = 16  # walks that climb past their parent, held back this many climbing walks while
# the parent's own parent is fetched (the walk 1.45x faster at SCALE 25, 0.95x at 20:
# bench_validation.py's pointer rules; 8 and 32 no better)


@njit(cache=True, parallel=True)
def walk_depths(parent, root, depth, cap, top):
    """Finish ``start_depths``' depths: every reached v walks up its parents to the nearest
    one whose depth is known and writes the depths along the way (one random read per
    vertex, where pointer jumping takes two per round; threads that meet write the same
    values). A walk that meets an unreached vertex writes nothing: it is the parent of the
    walk's last reached vertex, which finds it in its own walk's first step. A walk whose
    parent's depth is not known yet (6% of a Graph500 tree's vertices) would wait on a cache
    miss for the parent's parent: it is prefetched, and the walk taken up ``WAITING`` such
    walks later. Returns (how it ended, first reached vertex whose parent is unreached, N:
    none): DONE; or, with depth and that vertex unfinished, LONG when a walk passes ``cap``
    steps (a parent cycle, or a tree that deep: the caller jumps pointers) and DEEP when a
    depth is above ``top`` (what ``depth``'s dtype holds). Needs ``depth[root] == 0`` and
    every parent in range."""
    n = parent.shape[0]
    nch = min(NCHUNKS, max(n, 1))
    bad_visit = np.full(nch, n, np.int64)
    end = np.zeros(1, np.int64)
    for c in prange(nch):
        hi = (c + 1) * n // nch
        bv = n
        held = np.empty(WAITING, np.int64)  # a ring of the walks held back
        first = 0
        count = 0
        for v in range(c * n // nch, hi):
            prefetch(depth, max(parent[min(v + 32, hi - 1)], 0))  # a later walk's first read
            if depth[v] != UNKNOWN:
                continue
            if end[0] != DONE:
                break
            x = v
            p = parent[v]
            if depth[p] == UNKNOWN:  # reached, no depth yet: hold v, take the oldest
                prefetch(parent, p)
                if count < WAITING:
                    held[(first + count) % WAITING] = v
                    count += 1
                    continue
                x = held[first]
                held[first] = v
                first = (first + 1) % WAITING
                if depth[x] != UNKNOWN:
                    continue
            how, unreached_parent = _walk(parent, depth, x, cap, top)
            if how != DONE:
                end[0] = how
                break
            if unreached_parent and bv == n:  # never a held walk: their parents are reached
                bv = x
        for i in range(count):
            if end[0] != DONE:
                break
            how, _ = _walk(parent, depth, held[(first + i) % WAITING], cap, top)
            if how != DONE:
                end[0] = how
        bad_visit[c] = bv
    return end[0], bad_visit.min()


@njit(cache=True, parallel=True)
def init_jump(parent, root, anc, dist):
    n = parent.shape[0]
    for v in prange(n):
        p = parent[v]
        anc[v] = p
        dist[v] = -1 if p == -1 else 1
    anc[root] = root
    dist[root] = 0


@njit(cache=True, parallel=True)
def jump_round(anc, dist, anc2, dist2, root):
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
def first_unrooted(anc, root):
    for v in range(anc.shape[0]):
        if anc[v] != -1 and anc[v] != root:
            return v
    return -1


@njit(cache=True)
def cycle_info(parent, start):
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
    """Serial body of edge_pass over tuples [lo, hi)."""
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
def edge_pass(src, dst, lev, fp, parent, found):
    """One pass over the tuples. lev: level, -1 where unreached (narrowest int dtype, so the
    randomly read arrays stay in cache); fp: low byte of each parent.

    Returns (nedge, nself, first bad-label edge, first edge-levels edge, first component edge)
    with M meaning "none". found[v] = 1 when some tuple is {v, parent[v]} (writes of 1 only,
    so concurrent writers cannot change the verdict).
    """
    m = src.shape[0]
    nch = min(NCHUNKS, max(m, 1))
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
def tree_pass(level, parent, found, root):
    """First reached v != root whose tree edge is not an input tuple, first tree edge whose
    levels do not differ by exactly one (N means none), and the maximum level."""
    n = level.shape[0]
    nch = min(NCHUNKS, max(n, 1))
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
def count_pass(src, dst, reached):
    """(# non-self-loop tuples with both ends reached, first tuple with a label outside
    [0, N) or M)."""
    m = src.shape[0]
    n = reached.shape[0]
    nch = min(NCHUNKS, max(m, 1))
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
