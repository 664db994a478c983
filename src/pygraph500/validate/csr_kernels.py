"""The compiled passes of validation against kernel 1's CSR (``on_csr``).

Work is cut into ranges of vertices holding about equal numbers of adjacency entries
(``row_bounds``); every pass returns its first offender in vertex order (then neighbour
order), whatever the thread count. One pass over the rows checks every rule left once the
parent pointers are known, and finds the tree edge of ``u`` in ``u``'s own row as it goes by.

Which edges it reads. Any edge between two vertices at levels L and L + 1 (both reached,
levels at most one apart) keeps the rules, whichever two vertices it joins; so when the rows
of those two levels (the core) hold most adjacency entries, as on a Graph500 tree (96-99.7%
in two levels), the core rows are not read at all and every other row (the rim: other levels,
unreached vertices) checks all its entries: every edge has a rim end or joins two core
vertices. That reads only the rim's entries, at random, against one per edge for judging
every edge from its smaller end (for trees without such a pair: grids, paths); and the rows
at level L + 2 (most of the rim's entries when the core is levels 2 and 3) read a
neighbour's level only where a sieve of one bit for each 8 vertices says that one of them
may be at level L or less (``bfs_pass``).
A broken tree is judged again from the smaller ends, for the first offender in vertex order.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..primitives.hints import prefetch

__all__ = ["row_bounds", "to_graph_labels", "pack_levels", "level_sample", "bfs_pass",
           "sssp_pass", "reached_tuple_sum", "NIBBLE_TOP", "PLAIN", "NIBBLES"]

_NCH = 512  # ranges per pass (first-offender reductions stay deterministic)


def row_bounds(indptr: np.ndarray) -> np.ndarray:
    """Vertex ranges [b[k], b[k + 1]) of about equal adjacency entries plus vertices."""
    n = indptr.shape[0] - 1
    return _row_bounds(indptr, max(1, min(_NCH, n)))


@njit(cache=True)
def _row_bounds(indptr, nch):
    n = indptr.shape[0] - 1
    work = indptr[n] + n  # entries before v plus v itself increases with v: binary search it
    b = np.empty(nch + 1, np.int64)
    for k in range(nch + 1):
        target = (k * work) // nch
        lo = 0
        hi = n
        while lo < hi:
            mid = (lo + hi) >> 1
            if indptr[mid] + mid < target:
                lo = mid + 1
            else:
                hi = mid
        b[k] = lo
    b[0] = 0
    b[nch] = n
    return b


@njit(cache=True, parallel=True)
def to_graph_labels(parent, level, original_label, new_label, pg, lg):
    """pg, lg: the parent array and levels in a relabelled graph's own labels."""
    for x in prange(pg.shape[0]):
        v = original_label[x]
        p = parent[v]
        pg[x] = new_label[p] if p >= 0 else -1
        lg[x] = level[v]


@njit(cache=True, parallel=True)
def reached_tuple_sum(parent, tuple_degree):
    """Tuples at the reached vertices (each tuple inside a component counted from both
    ends): twice the TEPS numerator when no tuple leaves the component."""
    n = parent.shape[0]
    total = 0
    for v in prange(n):
        if parent[v] != -1:
            total += tuple_degree[v]
    return total


NIBBLE_TOP = 14  # levels up to this are packed two a byte (15 marks an unreached vertex)

# Where bfs_pass reads a vertex's level at random: PLAIN from the level array, NIBBLES from
# ``pack_levels``' four bits a vertex (an eighth of the bytes). ``on_csr.level_table`` chooses.
PLAIN = 0
NIBBLES = 1


@njit(cache=True, parallel=True)
def pack_levels(depth, nib, shallow, top):
    """nib: the levels (-1 unreached, else at most NIBBLE_TOP) four bits each, vertex v in
    the low half of byte v // 2 when v is even; and, unless ``shallow`` is empty, bit
    (v // 8) % 8 of its byte v // 64 set when one of those 8 vertices is reached at level
    ``top`` or less (see ``bfs_pass``)."""
    n = depth.shape[0]
    for b in prange((n + 63) >> 6):
        bits = 0
        for i in range(32 * b, min(32 * b + 32, nib.shape[0])):
            lo = np.int64(depth[2 * i])
            hi = np.int64(depth[2 * i + 1]) if 2 * i + 1 < n else np.int64(-1)
            nib[i] = np.uint8((lo & 15) | ((hi & 15) << 4))
            if (lo >= 0 and lo <= top) or (hi >= 0 and hi <= top):
                bits |= 1 << ((i >> 2) & 7)
        if shallow.shape[0]:
            shallow[b] = bits


_COUNTED = 64  # level_sample's bins: 0 .. 62, and 63 for every deeper level
_BLOCKS = 64  # level_sample reads this many runs of vertices spread over the array ...
_RUN = 4096  # ... of this many each


@njit(cache=True)
def level_sample(level, indptr):
    """The adjacency entries of the reached vertices by level 0 .. 62 (index 63: all deeper
    ones), in a sample of runs of consecutive vertices spread over the array (all of them
    when it is short): how many entries each level's rows hold, from a few hundred
    kilobytes read in order."""
    n = level.shape[0]
    counts = np.zeros(_COUNTED, np.int64)
    runs = min(_BLOCKS, (n + _RUN - 1) // _RUN)
    for b in range(runs):
        start = (n * b) // runs
        for v in range(start, min(start + _RUN, n)):
            x = np.int64(level[v])
            if x >= 0:
                counts[min(x, _COUNTED - 1)] += indptr[v + 1] - indptr[v]
    return counts


_AHEAD = 32  # entries ahead whose level's line is prefetched: the reads are independent, and
# a prefetch that stops at its row's end leaves short rows (most of them) with none in flight
ROWS_AHEAD = 16  # rows ahead whose middle entry's line is prefetched (where the tree edge's
# binary search starts: the pass 1.1-1.45x faster at SCALE 20 and 25, bench_validation.py)


@njit(inline="always")
def _first_above(indices, s, e, u):
    """The first k in [s, e) with indices[k] > u (a sorted row), else e. By hand: numba's
    ``np.searchsorted`` on the row's view made the pass 5-7 % slower (bench_validation.py)."""
    while s < e:
        m = (s + e) >> 1
        if indices[m] <= u:
            s = m + 1
        else:
            e = m
    return s


@njit(inline="always")
def _holds(indices, s, e, x):
    """Whether the sorted entries indices[s:e] hold x."""
    k = _first_above(indices, s, e, x - 1)
    return k < e and indices[k] == x


@njit(inline="always")
def _code(lev, table, mode, v, mark):
    """Vertex v's level, ``mark`` when unreached (above every level: ordered codes)."""
    if mode == NIBBLES:
        return np.int64((table[v >> 1] >> ((v & 1) << 2)) & 15)
    x = np.int64(lev[v])
    return x if x >= 0 else mark


@njit(cache=True, parallel=True)
def bfs_pass(graph, lev, levels, parent, root, tuple_degree, bounds):
    """Every rule left after the parent pointers (``graph`` = (indptr, indices); ``levels`` =
    (mode, table, core, shallow) as ``level_table`` gives them): row ``u`` holds ``parent[u]`` iff the tree
    edge is an edge (a binary search of the sorted row, no random read), and every edge's
    levels: with ``core`` = L >= 0, the rows at levels L and L + 1 skipped and every entry of
    the others judged (see the module docstring); with ``core`` = -1, each edge {u, v}
    judged once, from u < v. The levels are read at random from ``table`` as ``mode`` says,
    else from ``lev``. A tree edge's levels differ by one by construction (the levels are
    the parent walks' depths), so they are not read.

    The rows at level L + 2 (most of the rim's entries when the core is levels 2 and 3; the
    rim holds 0.5-3.3% of all entries at SCALE 25, in short rows) need only know that no
    neighbour is at level L or less: one deeper than L + 3, or unreached, is judged from its
    own rim row, and L + 1 .. L + 3 keep the rules. So, given ``shallow`` (``pack_levels``: a
    bit for each 8 vertices, set when one of them is at level L or less; 512 KiB where the
    four bits a vertex are 16 MiB at SCALE 25), they read a level only behind a set bit
    (0.3-5% of the bits at SCALE 25). That leaves the level reads 0.03-0.05 s of the pass's
    0.31-0.33 s at SCALE 25 (bench_validation.py).
    Returns (first v whose tree edge is not an edge, an edge-levels edge (u, v), a
    component edge (u, v), the largest level, the tuples at reached vertices); N: none. The
    edges are the first in vertex order, u < v, except with a core: there any offender (u
    may be above v), only to say that one exists."""
    indptr, indices = graph
    mode, table, core, shallow = levels
    n = parent.shape[0]
    nch = bounds.shape[0] - 1
    out = np.empty((nch, 7), np.int64)
    mark = np.int64(15) if mode == NIBBLES else np.int64(1) << 62  # an unreached vertex's
    last = max(indptr[n] - 1, 0)
    sieve = core >= 0 and shallow.shape[0] > 0
    for c in prange(nch):
        be = n
        lu_ = n
        lv_ = n
        cu = n
        cv = n
        top = -1
        tsum = 0
        for u in range(bounds[c], bounds[c + 1]):
            w = u + ROWS_AHEAD
            if w < bounds[c + 1]:
                prefetch(indices, (indptr[w] + indptr[w + 1]) >> 1)
            a = np.int64(lev[u])
            s = indptr[u]
            e = indptr[u + 1]
            pu = parent[u]
            if pu != -1:
                tsum += tuple_degree[u]
                top = max(top, a)
                if u != root and be == n and not _holds(indices, s, e, pu):
                    be = u
            if core < 0:
                start = _first_above(indices, s, e, u)  # below u: judged from their end
            elif a == core or a == core + 1:
                continue  # a core row: its edges are judged from their rim ends, if any
            else:
                start = s
            # the level codes of those neighbours (unreached: ``mark``): their least and
            # largest, with no branch; a row out of bounds is read again
            lo = mark
            hi = np.int64(-1)
            if a == core + 2 and sieve:  # only one at level L or less breaks a rule: the least
                for k in range(s, e):
                    v = np.int64(indices[k])
                    if (shallow[v >> 6] >> ((v >> 3) & 7)) & 1:
                        lo = min(lo, _code(lev, table, mode, v, mark))
            else:
                for k in range(start, e):
                    if mode == NIBBLES and core < 0:  # _AHEAD entries on, past the row's end
                        prefetch(table, np.int64(indices[min(k + _AHEAD, last)]) >> 1)
                    x = _code(lev, table, mode, np.int64(indices[k]), mark)
                    lo = min(lo, x)
                    hi = max(hi, x)
            if start < e and (lo < mark if a < 0 else (lo < a - 1 or hi > min(a + 1, mark - 1))):
                for k in range(start, e):  # rare: only in a broken tree
                    v = np.int64(indices[k])
                    b = np.int64(lev[v])
                    if a < 0 or b < 0:
                        if (a >= 0 or b >= 0) and cu == n:
                            cu = u
                            cv = v
                    elif (a - b > 1 or b - a > 1) and lu_ == n:
                        lu_ = u
                        lv_ = v
        out[c, 0] = be
        out[c, 1] = lu_
        out[c, 2] = lv_
        out[c, 3] = cu
        out[c, 4] = cv
        out[c, 5] = top
        out[c, 6] = tsum
    eu, ev = _first_pair(out[:, 1], out[:, 2], n)
    cu, cv = _first_pair(out[:, 3], out[:, 4], n)
    return out[:, 0].min(), eu, ev, cu, cv, out[:, 5].max(), out[:, 6].sum()


@njit(cache=True)
def _first_pair(us, vs, n):
    """The (u, v) of the first range that has one (ranges are in vertex order)."""
    for c in range(us.shape[0]):
        if us[c] < n:
            return us[c], vs[c]
    return n, n


@njit(cache=True, parallel=True)
def sssp_pass(indptr, indices, weights, d, parent, root, tuple_degree, bounds):
    """Kernel 3's rules left after the parent pointers, in one pass over the rows (as
    ``bfs_pass``); d: float32 distances, -1 where unreached. Returns (first v whose tree edge
    is not an edge, first whose distance is not float32(d(parent) + w), the first edge
    (u, v) breaking the triangle rule d(v) <= float32(d(u) + w) either way, the first
    component edge (u, v), the tuples at reached vertices); N: none. The CSR keeps the
    lightest weight of duplicate tuples, the one that decides these rules."""
    n = parent.shape[0]
    nch = bounds.shape[0] - 1
    out = np.empty((nch, 7), np.int64)
    for c in prange(nch):
        be = n
        bd = n
        tu = n
        tv = n
        cu = n
        cv = n
        tsum = 0
        for u in range(bounds[c], bounds[c + 1]):
            a = d[u]
            pu = parent[u]
            found = pu == -1 or u == root
            for k in range(indptr[u], indptr[u + 1]):
                v = np.int64(indices[k])
                w = weights[k]
                if v == pu:
                    found = True
                    if bd == n and a != d[pu] + w:  # float32 + float32: float32
                        bd = u
                if v <= u:
                    continue
                b = d[v]
                if a < 0 or b < 0:
                    if (a >= 0 or b >= 0) and cu == n:
                        cu = u
                        cv = v
                elif tu == n and (b > a + w or a > b + w):
                    tu = u
                    tv = v
            if pu == -1:
                continue
            tsum += tuple_degree[u]
            if not found and be == n:
                be = u
        out[c, 0] = be
        out[c, 1] = bd
        out[c, 2] = tu
        out[c, 3] = tv
        out[c, 4] = cu
        out[c, 5] = cv
        out[c, 6] = tsum
    eu, ev = _first_pair(out[:, 2], out[:, 3], n)
    cu, cv = _first_pair(out[:, 4], out[:, 5], n)
    return out[:, 0].min(), out[:, 1].min(), eu, ev, cu, cv, out[:, 6].sum()
