"""Kernel 1 on the array backend (thesis section 4.2.2, Fig. 4.1): the same CSRGraph as
``build_csr``, made with whole-array operations so that it runs on NumPy or, with CuPy, on
the GPU (the arrays of the result then live on the device).

Both directions of every tuple (self-loops dropped) become one 64-bit key ``u * N + v``.
One sort of the keys does the thesis's sort by source (and orders each list); dropping
every key equal to the one before it does the dedup; the sources' counts, prefix-summed,
are the offsets.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from .types import CSRGraph, EdgeList, index_dtype

__all__ = ["build_csr_array", "estimate_build_bytes"]


def estimate_build_bytes(num_vertices: int, num_edges: int) -> int:
    """Peak bytes of ``build_csr_array`` where the arrays live: the tuples (2 x int64), the
    keys of both directions (int64, twice: sort and unique), the result."""
    return 16 * num_edges + 2 * 16 * num_edges + 4 * 2 * num_edges + 8 * (num_vertices + 1)


def build_csr_array(edges: EdgeList, backend) -> CSRGraph:
    """Kernel 1 with ``backend.xp``; rows sorted, no self-loops, no duplicates: equal to
    ``build_csr(edges)`` (with arrays of ``backend.xp``). InputError for a label outside
    ``[0, num_vertices)``."""
    xp = backend.xp
    n = int(edges.num_vertices)
    m = edges.num_edges
    if n >= 2**31:
        raise InputError(f"the array backend keys need N < 2**31, got {n}")
    backend.require(estimate_build_bytes(n, m), f"kernel 1 of {m} tuples on the {backend.name}")
    u = backend.to_device(edges.src, dtype=np.int64)
    v = backend.to_device(edges.dst, dtype=np.int64)
    if m:
        lo = int(xp.minimum(u.min(), v.min()))
        hi = int(xp.maximum(u.max(), v.max()))
        if lo < 0 or hi >= n:
            bad = int(xp.flatnonzero((u < 0) | (u >= n) | (v < 0) | (v >= n))[0])
            raise InputError(f"edge tuple {bad} = ({int(u[bad])}, {int(v[bad])}) has a label "
                             f"outside [0, {n})")
    keep = u != v
    u, v = u[keep], v[keep]
    keys = xp.concatenate([u * n + v, v * n + u])
    del u, v, keep
    keys = xp.sort(keys)  # by source, then neighbour
    if keys.shape[0]:  # drop duplicates (np.unique is ~60x slower than this on int64 keys)
        first = xp.empty(keys.shape[0], dtype=bool)
        first[0] = True
        xp.not_equal(keys[1:], keys[:-1], out=first[1:])
        keys = keys[first]
    src = keys // n
    indices = (keys - src * n).astype(index_dtype(n))
    del keys
    indptr = xp.zeros(n + 1, dtype=np.int64)
    xp.cumsum(xp.bincount(src, minlength=n), out=indptr[1:])
    return CSRGraph(indptr=indptr, indices=indices, num_vertices=n, num_input_edges=int(m))
