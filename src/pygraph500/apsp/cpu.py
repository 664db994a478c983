"""All-pairs shortest paths on the CPU: the three algorithms of paper 004, compiled with numba.

Every kernel works in place on a square C-contiguous distance matrix ``D`` in the internal
encoding of ``apsp.matrix`` (no edge = a large finite ``big`` for integers, ``inf`` for
floats; ``floor`` the lowest value kept, which stops a negative cycle from overflowing), and
optionally on a predecessor matrix ``P`` (int32: ``P[i, j]`` is the vertex before ``j`` on a
shortest path from ``i``, -1 where there is none), updated together with ``D``.

- ``floyd_warshall``: the textbook triple loop (k outer), the rows of each k in parallel.
- ``min_plus``: EXTEND-SHORTEST-PATHS by repeated squaring, ``L <- L (x) L`` ceil(log2(n-1))
  times; each product is blocked like a matrix multiplication (tiles in parallel).
- ``blocked``: Floyd-Warshall in three phases per diagonal tile (Venkataraman-Sahni,
  Katz-Kider): the primary tile closes itself, then the tiles of its row and column, then
  all others, in parallel over tiles.

One tile kernel does the work of the last two: ``X[c] = min(X[c], Y[a] (x) Z[b])`` over
b x b tiles, i-k-j order with k unrolled by four so that the j loop (contiguous, vectorised by
LLVM) loads and stores a row of the output once per four k. Phases 2 and 3 of ``blocked``
are such products once the primary tile is closed: a row tile R becomes P (x) R, a column
tile C becomes C (x) P, updated in place (the result is the same whichever of the old or new
values a product reads, because P (x) P = P).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["floyd_warshall", "min_plus", "blocked", "TILE"]

# Tile side of ``blocked`` and ``min_plus`` (a multiple of 4): three tiles of it fit in L2.
TILE = 128


@njit(inline="always")
def _lo(a, b):
    """min that compiles to one vector instruction (NaN never occurs here)."""
    return a if a < b else b


@njit(inline="always")
def _clamp(v, floor, clamp):
    return v if not clamp or v > floor else floor


@njit(inline="always")
def _u(i):
    """An index known to be >= 0, as uint64: numba then skips the negative-index wraparound,
    which inside the j loop would keep LLVM from vectorising it (4-6x slower)."""
    return np.uint64(i)


_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U3 = np.uint64(3)
_U4 = np.uint64(4)


@njit(cache=True)
def _tile(X, xc, Y, yc, Z, zc, b, bound):
    """X[ci:ci+b, cj:cj+b] = min(itself, Y[ai:ai+b, ak:ak+b] (x) Z[bk:bk+b, bj:bj+b]): each
    tile given by its top-left corner (``xc`` = (ci, cj), ``yc`` = (ai, ak), ``zc`` = (bk,
    bj)); ``bound`` = (floor, clamp)."""
    (ci, cj), (ai, ak), (bk, bj) = xc, yc, zc
    floor, clamp = bound
    ci, cj, ai, ak, bk, bj, b = _u(ci), _u(cj), _u(ai), _u(ak), _u(bk), _u(bj), _u(b)
    for i in range(b):
        x = X[ci + i]
        y = Y[ai + i]
        for k in range(_u(0), b, _U4):
            a0 = y[ak + k]
            a1 = y[ak + k + _U1]
            a2 = y[ak + k + _U2]
            a3 = y[ak + k + _U3]
            z0 = Z[bk + k]
            z1 = Z[bk + k + _U1]
            z2 = Z[bk + k + _U2]
            z3 = Z[bk + k + _U3]
            if clamp:
                for j in range(b):
                    v = _lo(_lo(a0 + z0[bj + j], a1 + z1[bj + j]),
                            _lo(a2 + z2[bj + j], a3 + z3[bj + j]))
                    v = _lo(x[cj + j], v)
                    x[cj + j] = v if v > floor else floor
            else:
                for j in range(b):
                    v = _lo(_lo(a0 + z0[bj + j], a1 + z1[bj + j]),
                            _lo(a2 + z2[bj + j], a3 + z3[bj + j]))
                    x[cj + j] = _lo(x[cj + j], v)


@njit(cache=True)
def _tile_pred(XP, xc, Y, yc, ZP, zc, b, bound):
    """``_tile`` that also carries predecessors (``XP`` = (X, PX), ``ZP`` = (Z, PZ)): where
    Y[i, k] + Z[k, j] improves X[i, j], PX[i, j] = PZ[k, j] (the vertex before j on the
    path k -> j)."""
    (X, PX), (Z, PZ), (ci, cj), (ai, ak), (bk, bj) = XP, ZP, xc, yc, zc
    floor, clamp = bound
    ci, cj, ai, ak, bk, bj, b = _u(ci), _u(cj), _u(ai), _u(ak), _u(bk), _u(bj), _u(b)
    for i in range(b):
        x = X[ci + i]
        px = PX[ci + i]
        y = Y[ai + i]
        for k in range(b):
            a = y[ak + k]
            z = Z[bk + k]
            pz = PZ[bk + k]
            for j in range(b):
                v = a + z[bj + j]
                if v < x[cj + j]:
                    x[cj + j] = _clamp(v, floor, clamp)
                    px[cj + j] = pz[bj + j]


@njit(cache=True)
def _close_tile(D, P, t0, b, floor, clamp, pred):
    """Floyd-Warshall inside the diagonal tile D[t0:t0+b, t0:t0+b] (phase 1), k outer."""
    t0, b = _u(t0), _u(b)
    for k in range(t0, t0 + b):
        dk = D[k]
        for i in range(t0, t0 + b):
            di = D[i]
            a = di[k]
            if pred:
                pi = P[i]
                pk = P[k]
                for j in range(t0, t0 + b):
                    v = a + dk[j]
                    if v < di[j]:
                        di[j] = _clamp(v, floor, clamp)
                        pi[j] = pk[j]
            else:
                for j in range(t0, t0 + b):
                    di[j] = _clamp(_lo(di[j], a + dk[j]), floor, clamp)


@njit(cache=True, parallel=True)
def floyd_warshall(D, P, floor, clamp, pred):
    """The textbook Floyd-Warshall (k outer), rows in parallel for each k. Row k does not
    change during step k unless D[k, k] < 0 (a negative cycle, reported afterwards)."""
    n = D.shape[0]
    for k in range(n):
        dk = D[k].copy()
        pk = P[k].copy() if pred else P[0]
        for i in prange(n):
            di = D[i]
            a = di[k]
            if pred:
                pi = P[i]
                for j in range(_u(n)):
                    v = a + dk[j]
                    if v < di[j]:
                        di[j] = _clamp(v, floor, clamp)
                        pi[j] = pk[j]
            else:
                for j in range(_u(n)):
                    di[j] = _clamp(_lo(di[j], a + dk[j]), floor, clamp)


@njit(cache=True, parallel=True)
def _product(L, PL, out, pout, b, floor, clamp, pred):
    """out = min(L, L (x) L) over b x b tiles (``out`` holds a copy of L), tiles of the output
    in parallel. Returns True when some entry changed."""
    n = L.shape[0]
    nt = n // b
    changed = np.zeros(nt * nt, np.bool_)
    for t in prange(nt * nt):
        ci = (t // nt) * b
        cj = (t % nt) * b
        for kb in range(nt):
            if pred:
                _tile_pred((out, pout), (ci, cj), L, (ci, kb * b), (L, PL), (kb * b, cj), b,
                           (floor, clamp))
            else:
                _tile(out, (ci, cj), L, (ci, kb * b), L, (kb * b, cj), b, (floor, clamp))
        for i in range(ci, ci + b):
            for j in range(cj, cj + b):
                if out[i, j] != L[i, j]:
                    changed[t] = True
                    break
            if changed[t]:
                break
    return changed.any()


def min_plus(D, P, b, floor, clamp, pred, products):
    """Repeated squaring: ``products`` times L <- min(L, L (x) L) (ceil(log2(n-1)) covers
    every path of up to n-1 edges). Stops early when a product changes nothing (L is then
    its own square: no longer path is shorter). Returns (D, P, products done)."""
    out = D.copy()
    pout = P.copy()
    done = 0
    for _ in range(products):
        changed = _product(D, P, out, pout, b, floor, clamp, pred)
        done += 1
        D, out = out, D
        if pred:
            P, pout = pout, P
        if not changed:
            break
        out[:] = D
        if pred:
            pout[:] = P
    return D, P, done


@njit(cache=True, parallel=True)
def _phase2(D, P, t0, b, floor, clamp, pred):
    """The tiles of the primary tile's row (R <- P (x) R) and column (C <- C (x) P)."""
    nt = D.shape[0] // b
    for t in prange(2 * nt):
        o = (t // 2) * b
        if o == t0:
            continue
        if t % 2 == 0:  # row tile (t0, o)
            if pred:
                _tile_pred((D, P), (t0, o), D, (t0, t0), (D, P), (t0, o), b, (floor, clamp))
            else:
                _tile(D, (t0, o), D, (t0, t0), D, (t0, o), b, (floor, clamp))
        else:  # column tile (o, t0)
            if pred:
                _tile_pred((D, P), (o, t0), D, (o, t0), (D, P), (t0, t0), b, (floor, clamp))
            else:
                _tile(D, (o, t0), D, (o, t0), D, (t0, t0), b, (floor, clamp))


@njit(cache=True, parallel=True)
def _phase3(D, P, t0, b, floor, clamp, pred):
    """Every other tile: X[i, j] <- min(X[i, j], X[i, t0] (x) X[t0, j])."""
    nt = D.shape[0] // b
    for t in prange(nt * nt):
        ci = (t // nt) * b
        cj = (t % nt) * b
        if ci == t0 or cj == t0:
            continue
        if pred:
            _tile_pred((D, P), (ci, cj), D, (ci, t0), (D, P), (t0, cj), b, (floor, clamp))
        else:
            _tile(D, (ci, cj), D, (ci, t0), D, (t0, cj), b, (floor, clamp))


def blocked(D, P, b, floor, clamp, pred):
    """Blocked Floyd-Warshall in place (n a multiple of ``b``): for each diagonal tile,
    phase 1 (close it), phase 2 (its row and column), phase 3 (the rest)."""
    n = D.shape[0]
    for t0 in range(0, n, b):
        _close_tile(D, P, t0, b, floor, clamp, pred)
        _phase2(D, P, t0, b, floor, clamp, pred)
        _phase3(D, P, t0, b, floor, clamp, pred)
    return D, P
