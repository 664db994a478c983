"""Kernel 1's weights (kernel 3): each adjacency entry gets the smallest weight of the input
tuples joining its two vertices.

The weighted build (``build._scatter`` with weights) writes each entry as one int64 key ``neighbour << 32 | weight bits``
(weights are checked non-negative first, and non-negative float32 bit patterns order as the
numbers do), sorts and deduplicates the rows with kernel 1's own row sort, and then keeps
the first key of each neighbour: the smallest weight. Memory beyond kernel 1's: the keys are
int64 where the unweighted entries are int32, and the float32 weights.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..errors import InputError

__all__ = ["check_weights", "split_keys"]

_LOW32 = np.int64(0xFFFFFFFF)


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
                wbits[w] = np.int32(keys[i] & _LOW32)
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
