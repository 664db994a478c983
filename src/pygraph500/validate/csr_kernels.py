"""The compiled passes of validation against kernel 1's CSR (``on_csr``).

Work is cut into ranges of vertices holding about equal numbers of adjacency entries
(``row_bounds``); every pass returns its first offender in vertex order (then neighbour
order), whatever the thread count. An edge pass looks at each undirected edge once, from its
smaller end (rows are sorted, so the entries of ``u`` below ``u`` are skipped without reading
their ends' levels): the CSR's rows cost one random read per edge where the tuples cost two.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["row_bounds", "to_graph_labels", "find_in_row", "tree_pass", "edge_pass",
           "sssp_tree_pass", "sssp_edge_pass", "reached_tuple_sum"]

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


@njit(inline="always")
def find_in_row(indptr, indices, v, p):
    """Index of ``p`` in the sorted row of ``v``, or -1."""
    lo = indptr[v]
    hi = indptr[v + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if indices[mid] < p:
            lo = mid + 1
        else:
            hi = mid
    if lo < indptr[v + 1] and indices[lo] == p:
        return lo
    return -1


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


@njit(cache=True, parallel=True)
def tree_pass(indptr, indices, lev, parent, root, bounds):
    """(first reached v != root whose parent is not a neighbour, first whose level is not
    its parent's + 1 (N: none), the largest level)."""
    n = parent.shape[0]
    nch = bounds.shape[0] - 1
    out = np.empty((nch, 3), np.int64)
    for c in prange(nch):
        be = n
        bl = n
        top = -1
        for v in range(bounds[c], bounds[c + 1]):
            p = parent[v]
            if p == -1:
                continue
            d = np.int64(lev[v])
            top = max(top, d)
            if v == root:
                continue
            if be == n and find_in_row(indptr, indices, v, p) < 0:
                be = v
            if bl == n and d != np.int64(lev[p]) + 1:
                bl = v
        out[c, 0] = be
        out[c, 1] = bl
        out[c, 2] = top
    return out[:, 0].min(), out[:, 1].min(), out[:, 2].max()


@njit(cache=True, parallel=True)
def edge_pass(indptr, indices, lev, bounds):
    """First edge {u, v} (u < v, smallest u then v) whose levels differ by more than one, and
    first joining a reached and an unreached vertex (level -1): (u, v, u2, v2), N for none."""
    n = lev.shape[0]
    nch = bounds.shape[0] - 1
    out = np.full((nch, 4), n, np.int64)
    for c in prange(nch):
        lu_ = n
        lv_ = n
        cu = n
        cv = n
        for u in range(bounds[c], bounds[c + 1]):
            a = np.int64(lev[u])
            for k in range(indptr[u], indptr[u + 1]):
                v = np.int64(indices[k])
                if v <= u:
                    continue
                b = np.int64(lev[v])
                if a < 0 or b < 0:
                    if (a >= 0 or b >= 0) and cu == n:
                        cu = u
                        cv = v
                elif (a - b > 1 or b - a > 1) and lu_ == n:
                    lu_ = u
                    lv_ = v
            if lu_ < n and cu < n:
                break  # both rules broken in this range: nothing later can come first
        out[c, 0] = lu_
        out[c, 1] = lv_
        out[c, 2] = cu
        out[c, 3] = cv
    return _first_pair(out[:, 0], out[:, 1], n) + _first_pair(out[:, 2], out[:, 3], n)


@njit(cache=True)
def _first_pair(us, vs, n):
    """The (u, v) of the first range that has one (ranges are in vertex order)."""
    for c in range(us.shape[0]):
        if us[c] < n:
            return us[c], vs[c]
    return n, n


@njit(cache=True, parallel=True)
def sssp_tree_pass(indptr, indices, weights, d, parent, root, bounds):
    """(first reached v != root whose parent is not a neighbour, first whose distance is not
    float32(d(parent) + w) for the edge's weight (N: none)). d: -1 where unreached."""
    n = parent.shape[0]
    nch = bounds.shape[0] - 1
    out = np.empty((nch, 2), np.int64)
    for c in prange(nch):
        be = n
        bd = n
        for v in range(bounds[c], bounds[c + 1]):
            p = parent[v]
            if p == -1 or v == root:
                continue
            k = find_in_row(indptr, indices, v, p)
            if k < 0:
                if be == n:
                    be = v
            elif bd == n and d[v] != d[p] + weights[k]:  # float32 + float32: float32
                bd = v
        out[c, 0] = be
        out[c, 1] = bd
    return out[:, 0].min(), out[:, 1].min()


@njit(cache=True, parallel=True)
def sssp_edge_pass(indptr, indices, weights, d, bounds):
    """First edge {u, v} (u < v) breaking the triangle rule d(v) <= float32(d(u) + w) or
    d(u) <= float32(d(v) + w), and first joining a reached and an unreached vertex (d = -1):
    (u, v, u2, v2), N for none. The CSR keeps the lightest weight of duplicate tuples, the one
    that decides both rules."""
    n = d.shape[0]
    nch = bounds.shape[0] - 1
    out = np.full((nch, 4), n, np.int64)
    for c in prange(nch):
        tu = n
        tv = n
        cu = n
        cv = n
        for u in range(bounds[c], bounds[c + 1]):
            a = d[u]
            for k in range(indptr[u], indptr[u + 1]):
                v = np.int64(indices[k])
                if v <= u:
                    continue
                b = d[v]
                if a < 0 or b < 0:
                    if (a >= 0 or b >= 0) and cu == n:
                        cu = u
                        cv = v
                elif tu == n:
                    w = weights[k]
                    if b > a + w or a > b + w:
                        tu = u
                        tv = v
            if tu < n and cu < n:
                break
        out[c, 0] = tu
        out[c, 1] = tv
        out[c, 2] = cu
        out[c, 3] = cv
    return _first_pair(out[:, 0], out[:, 1], n) + _first_pair(out[:, 2], out[:, 3], n)
