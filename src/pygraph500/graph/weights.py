"""Kernel 1's weights (kernel 3): each adjacency entry gets the smallest weight of the input
tuples joining its two vertices.

The weighted build (``build._scatter`` with weights) writes each entry as one int64 key ``neighbour << 32 | weight bits``
(weights are checked non-negative first, and non-negative float32 bit patterns order as the
numbers do), sorts and deduplicates the rows with kernel 1's own row sort, and then keeps
the first key of each neighbour: the smallest weight. Memory beyond kernel 1's: the keys are
int64 where the unweighted entries are int32, and the float32 weights.

Kernel 1 also keeps each row a second time in increasing order of weight (``by_weight``; ties
by neighbour): delta-stepping relaxes a vertex's edges a weight band at a time, each band
when the search reaches its distances (``sssp.delta_stepping``), which needs the band's
entries together. Another 8 bytes per adjacency entry.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from ..errors import InputError
from ..primitives.bits import LOW32, bits_f32

__all__ = ["check_weights", "split_keys", "by_weight"]


@njit(cache=True)
def _first_bad_weight(w):
    """(first negative or NaN weight or -1, whether a -0.0 is there)."""
    neg_zero = False
    for i in range(w.shape[0]):
        x = w[i]
        if not (x >= 0):  # negative or NaN
            return i, neg_zero
        if x == 0 and np.signbit(x):
            neg_zero = True
    return -1, neg_zero


def check_weights(weight, where: str = "edge tuple", first: int = 0) -> np.ndarray:
    """``weight`` as a contiguous float32 array; InputError naming the first negative or NaN
    one (shortest paths are undefined with negative weights: refused, never answered), as
    ``where`` number ``first + its index``. A -0.0 becomes 0.0 (in a copy): its sign bit
    would order it above every weight."""
    w = np.ascontiguousarray(weight, dtype=np.float32)
    bad, neg_zero = _first_bad_weight(w) if w.size else (-1, False)
    if bad >= 0:
        raise InputError(f"{where} {first + bad} has weight {float(w[bad])!r}: weights must be "
                         "non-negative numbers")
    return w + np.float32(0) if neg_zero else w


@njit(cache=True, parallel=True)
def _first_of_runs(indptr, keys, deg):
    for v in prange(indptr.shape[0] - 1):
        last = -1
        d = 0
        for i in range(indptr[v], indptr[v + 1]):
            nb = keys[i] >> 32
            if nb != last:
                d += 1
                last = nb
        deg[v] = d


@njit(cache=True, parallel=True)
def _write_split(indptr, keys, newptr, indices, wbits):
    for v in prange(indptr.shape[0] - 1):
        last = -1
        w = newptr[v]
        for i in range(indptr[v], indptr[v + 1]):
            nb = keys[i] >> 32
            if nb != last:  # rows are sorted by key: the first of a run has the least weight
                indices[w] = nb
                wbits[w] = np.int32(keys[i] & LOW32)
                w += 1
                last = nb


def split_keys(indptr: np.ndarray, keys: np.ndarray, itype):
    """(indptr, indices, float32 weights) from sorted, deduplicated key rows."""
    n = indptr.shape[0] - 1
    deg = np.empty(n, dtype=np.int64)
    _first_of_runs(indptr, keys, deg)
    newptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(deg, out=newptr[1:])
    m = int(newptr[-1])
    indices = np.empty(m, dtype=itype)
    wbits = np.empty(m, dtype=np.int32)
    _write_split(indptr, keys, newptr, indices, wbits)
    return newptr, indices, wbits.view(np.float32)


@njit(inline="always")
def insertion_sort(buf, lo, hi):
    """buf[lo:hi] sorted in place (short runs; kernel 1's rows in ``build`` use it too)."""
    for j in range(lo + 1, hi):
        x = buf[j]
        i = j - 1
        while i >= lo and buf[i] > x:
            buf[i + 1] = buf[i]
            i -= 1
        buf[i + 1] = x


@njit(inline="always")
def _bucket(wbits, lo, scale, k):
    """The bucket (0 .. k-1) of a weight in ``_sort_rows``: monotone in the weight."""
    if scale == 0.0:
        return np.int64(0)
    return min(k - 1, np.int64((np.float64(bits_f32(wbits)) - lo) * scale))


@njit(cache=True)
def _sort_rows(indptr, indices, wbits, rows, out_i, out_w, buf, cnt):
    """Rows ``v0 .. v1-1`` (``rows`` = (v0, v1)) sorted by (weight, neighbour) into
    ``out_i``/``out_w``. Keys are
    ``weight bits << 32 | neighbour`` (non-negative float32 bits order as the numbers). A long
    row is first distributed into as many buckets as entries, linear in the weight between the
    row's least and greatest (expected O(1) entries each for weights as evenly spread as
    Graph500's), then each bucket is sorted. ``buf``: int64 scratch twice as long as the
    longest row, ``cnt``: one entry more than it."""
    v0, v1 = rows
    for v in range(v0, v1):
        a = indptr[v]
        k = indptr[v + 1] - a
        if k <= 16:
            for j in range(k):
                buf[j] = (np.int64(wbits[a + j]) << 32) | np.int64(indices[a + j])
            insertion_sort(buf, 0, k)
            src = buf[:k]
        else:
            lo = np.float64(np.inf)
            hi = np.float64(-np.inf)
            for j in range(k):
                x = np.float64(bits_f32(wbits[a + j]))
                lo = min(lo, x)
                hi = max(hi, x)
            # one bucket when the weights are all equal or some are inf (then sorted whole)
            scale = k / (hi - lo) if lo < hi < np.inf else 0.0
            cnt[:k + 1] = 0
            for j in range(k):
                b = _bucket(wbits[a + j], lo, scale, k)
                cnt[b + 1] += 1
            for b in range(k):
                cnt[b + 1] += cnt[b]
            for j in range(k):  # stable: each bucket in neighbour order
                b = _bucket(wbits[a + j], lo, scale, k)
                buf[k + cnt[b]] = (np.int64(wbits[a + j]) << 32) | np.int64(indices[a + j])
                cnt[b] += 1
            src = buf[k:2 * k]
            start = 0
            for b in range(k):  # cnt[b] is now the end of bucket b
                end = cnt[b]
                if end - start > 32:
                    src[start:end].sort()
                elif end - start > 1:
                    insertion_sort(src, start, end)
                start = end
        for j in range(k):
            out_i[a + j] = src[j] & LOW32
            out_w[a + j] = np.int32(src[j] >> 32)


@njit(cache=True, parallel=True)
def _sort_all_rows(indptr, indices, wbits, bounds, out_i, out_w):
    nchunks = bounds.shape[0] - 1
    for c in prange(nchunks):
        v0, v1 = bounds[c], bounds[c + 1]
        longest = 0
        for v in range(v0, v1):
            longest = max(longest, indptr[v + 1] - indptr[v])
        _sort_rows(indptr, indices, wbits, (v0, v1), out_i, out_w,
                   np.empty(2 * longest, np.int64), np.empty(longest + 1, np.int64))


def by_weight(indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray):
    """(indices, float32 weights) with every row sorted by increasing weight, ties by
    neighbour: the same rows as ``indices``/``weights``, another order. InputError beyond
    2**31 vertices (as the weighted kernel 1)."""
    n = indptr.shape[0] - 1
    if n > 2**31:
        raise InputError(f"weighted graphs are limited to 2**31 vertices, got {n}")
    out_i = np.empty_like(indices)
    out_w = np.empty(weights.shape[0], dtype=np.int32)
    if n > 0 and indices.shape[0] > 0:
        total = int(indptr[-1])
        nchunks = max(1, min(n, 16 * numba.get_num_threads()))
        bounds = np.searchsorted(indptr, (np.arange(nchunks + 1) * total) // nchunks)
        bounds = bounds.astype(np.int64)
        bounds[0], bounds[-1] = 0, n
        _sort_all_rows(indptr, indices, np.ascontiguousarray(weights).view(np.int32), bounds,
                       out_i, out_w)
    return out_i, out_w.view(np.float32)
