"""All-pairs shortest paths on a GPU: paper 004's three CUDA designs as numba.cuda kernels.

- ``floyd-warshall``: the naive GPU version, one thread per (i, j) and one launch per k.
- ``min-plus``: EXTEND-SHORTEST-PATHS, L <- min(L, L (x) L), tiled through shared memory
  like a matrix multiplication (TILE x TILE threads, one output element each).
- ``blocked``: Katz-Kider's three phases per diagonal tile, every tile staged in shared
  memory: phase 1 one thread block, phase 2 a (tiles, 2) grid for the primary tile's row
  and column (one kernel for both), phase 3 a (tiles, tiles) grid for the rest. Its tile
  side is ``blocked_side``: 2 TILE (64) where two such tiles fit in a block's shared memory
  (4-byte dtypes), else TILE; each pass over the matrix then does twice the work per byte
  moved. Each thread computes ``thread_tile`` = (rx, ry) elements of a tile, rx along j and
  ry along i (``THREAD_TILES``; default ``DEFAULT_THREAD_TILE``, 4 x 4; the paper's best is
  4 x 2): the block has side/rx x side/ry threads, and in phase 3 a thread reads ry + rx
  shared values per k for its rx * ry updates (the paper's "2D blocking"). A thread's
  elements are strided by the block's width and height, so a warp still reads consecutive
  addresses.

Every kernel puts ``threadIdx.x`` along j (a row's consecutive elements): the 32 threads of a
warp read and write consecutive addresses of D and P (coalesced), and shared tiles are read
along their rows (no bank conflicts). Same internal encoding and predecessor rule as
``apsp.cpu``. In CI these kernels run under ``NUMBA_ENABLE_CUDASIM=1`` (numba's simulator, on
small matrices); on a device they run for real. The matrix must be a multiple of PAD on a side
(``solve`` pads it). ``run`` times the kernels apart from the copies to and from the device.
"""
from __future__ import annotations

import functools
import math
import os
import time

import numpy as np
from numba import cuda

from ..backend.cuda_launch import hush_small_grids
from ..backend.memory import format_bytes
from ..errors import InputError, ResourceError

__all__ = ["TILE", "PAD", "THREAD_TILES", "DEFAULT_THREAD_TILE", "available", "blocked_side",
           "blocked_kernels", "require_device_memory", "thread_tile", "run"]

# Threads per block side: 32 x 32 = 1024, the CUDA maximum. Fixed when the kernels compile
# (shared arrays need a constant shape); tests under the simulator lower it to keep it fast.
TILE = int(os.environ.get("PYGRAPH500_CUDA_TILE", "32"))
hush_small_grids()  # phase 1 is one block by design
# The elements one thread of the blocked kernels may compute: rx along j, ry along i, each a
# power of two up to 8.
THREAD_TILES = ((1, 1), (2, 1), (1, 2), (2, 2), (4, 1), (4, 2), (2, 4), (4, 4), (8, 4), (4, 8),
                (8, 8))
MAX_THREADS = 1024  # a CUDA block's limit
SHARED_BYTES = 48 * 1024  # a block's static shared memory
PAD = 2 * TILE  # every matrix side is a multiple of this (of blocked's tile side too)
# The fastest measured on an H200 at n = 8192 (RESULTS.md, 2026-11-28): 16 elements a thread,
# 256 threads a block on 64 x 64 tiles; smaller tiles (the simulator's) fall back to one.
DEFAULT_THREAD_TILE = (4, 4) if TILE % 4 == 0 else (1, 1)


def thread_tile(value) -> tuple[int, int]:
    """(rx, ry) from ``value``: None (``DEFAULT_THREAD_TILE``), a pair, or text "RXxRY"
    ("4x2"); InputError unless it is one of THREAD_TILES, divides TILE and leaves at most
    MAX_THREADS threads a block."""
    if value is None:
        return DEFAULT_THREAD_TILE
    pair = value
    if isinstance(value, str):
        pair = value.lower().split("x")
    try:
        rx, ry = (int(v) for v in pair)
    except (TypeError, ValueError):
        rx = ry = 0
    if ((rx, ry) not in THREAD_TILES or TILE % rx or TILE % ry
            or (TILE // rx) * (TILE // ry) > MAX_THREADS):
        shown = "x".join(map(str, pair)) if isinstance(pair, (list, tuple)) else repr(value)
        raise InputError(f"thread tile {shown} is not one of "
                         f"{', '.join(f'{a}x{b}' for a, b in THREAD_TILES)} (elements per "
                         f"thread along j x along i, dividing the tile side {TILE}, at most "
                         f"{MAX_THREADS} threads a block)",
                         "thread_tile")
    return rx, ry


def blocked_side(itemsize: int, rx: int, ry: int) -> int:
    """blocked's tile side for elements of ``itemsize`` bytes and thread tile (rx, ry): PAD
    where its two shared tiles fit in SHARED_BYTES and its block has at most half of
    MAX_THREADS threads (2x2 on 64-wide tiles, 1024 threads, failed to launch on an H200),
    else TILE (which ``thread_tile`` guarantees)."""
    if (2 * PAD * PAD * itemsize <= SHARED_BYTES
            and (PAD // rx) * (PAD // ry) <= MAX_THREADS // 2):
        return PAD
    return TILE


def available() -> bool:
    try:
        return bool(cuda.is_available())
    except Exception:  # a driver that fails to load
        return False


def require_device_memory(needed: int, what: str) -> None:
    """InputError without a device; ResourceError when ``needed`` bytes exceed its free
    memory (both numbers named)."""
    if not available():
        raise InputError("backend 'gpu' asked for, but no CUDA device is usable here "
                         "(numba.cuda.is_available() is False); use --backend cpu")
    try:
        free, _total = cuda.current_context().get_memory_info()
    except Exception:  # the simulator has no memory figures
        return
    if needed > free:
        raise ResourceError(f"{what} needs about {format_bytes(needed)} of device memory; "
                            f"{format_bytes(free)} is free")


@cuda.jit(device=True, inline=True)
def _relax(d, p, ij, v, pv, bound, pred):
    """d[ij] = v (clamped: ``bound`` = (floor, clamp)) and p[ij] = pv when v improves d[ij]."""
    floor, clamp = bound
    if v < d[ij]:
        d[ij] = v if not clamp or v > floor else floor
        if pred:
            p[ij] = pv


@cuda.jit
def _fw_step(D, P, k, floor, clamp, pred):
    """One k of the naive Floyd-Warshall: thread (i, j) relaxes D[i, j] through k; x is j,
    so a warp reads D[i, j..j+31] and D[k, j..j+31] (coalesced) and D[i, k] (one broadcast)."""
    j, i = cuda.grid(2)
    n = D.shape[0]
    if i < n and j < n:
        _relax(D, P, (i, j), D[i, k] + D[k, j], P[k, j] if pred else 0, (floor, clamp), pred)


@cuda.jit
def _product(L, PL, out, pout, changed, floor, clamp, pred):
    """out[i, j] = min(out[i, j], min_k L[i, k] + L[k, j]), k in shared-memory tiles."""
    sa = cuda.shared.array((TILE, TILE), dtype=L.dtype)
    sb = cuda.shared.array((TILE, TILE), dtype=L.dtype)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    i = cuda.blockIdx.y * TILE + ty
    j = cuda.blockIdx.x * TILE + tx
    n = L.shape[0]
    best = out[i, j]
    bp = pout[i, j] if pred else 0
    for kt in range(0, n, TILE):
        sa[ty, tx] = L[i, kt + tx]
        sb[ty, tx] = L[kt + ty, j]
        cuda.syncthreads()
        for k in range(TILE):
            v = sa[ty, k] + sb[k, tx]
            if v < best:
                best = v if not clamp or v > floor else floor
                if pred:
                    bp = PL[kt + k, j]
        cuda.syncthreads()
    if best != out[i, j]:
        out[i, j] = best
        if pred:
            pout[i, j] = bp
        changed[0] = 1


@cuda.jit(device=True, inline=True)
def _cell(rx, c, a):
    """(x, y, e): the column and row inside the tile of a thread's element (a, c) (row a,
    column c of its ry x rx elements, strided by the block), and its index in local arrays."""
    return (cuda.threadIdx.x + c * cuda.blockDim.x, cuda.threadIdx.y + a * cuda.blockDim.y,
            a * rx + c)


@functools.cache
def blocked_kernels(rx: int, ry: int, pred: bool, clamp: bool, side: int = TILE):
    """blocked's two kernels for ``thread_tile`` (rx, ry), with or without predecessors and
    clamping, on tiles of ``side``, compiled apart for each: these are constants of the
    closures, so the loops over a thread's elements unroll, its arrays live in registers
    (with the tile passed at run time they were local memory: 12x slower on an H200 at
    n = 8192, RESULTS.md) and without predecessors phase 3's inner step is an add and a min.
    Returns (phases 1 and 2, phase 3), each called with (D, P, t0, floor)."""
    return (_phases12_kernel(rx, ry, pred, clamp, side),
            _phase3_kernel(rx, ry, pred, clamp, side))


def _phases12_kernel(rx: int, ry: int, pred: bool, clamp: bool, side: int):
    cells = rx * ry

    @cuda.jit
    def _phases12(D, P, t0, floor, primary):
        """``primary``: phase 1, one block closes the primary tile (t0, t0) in shared
        memory, k outer, both operands read from the tile as it is updated. Else phase 2:
        block (o, 0) does the row tile (t0, o) <- primary (x) itself, block (o, 1) the
        column tile (o, t0) <- itself (x) primary, with the closed primary tile staged
        beside it. Each thread does rx x ry elements (``_cell``); all of a k's candidates
        are found before any element of the tile changes."""
        o = t0 if primary else cuda.blockIdx.x * side
        if o == t0 and not primary:
            return
        prim = cuda.shared.array((side, side), dtype=D.dtype)
        cur = cuda.shared.array((side, side), dtype=D.dtype)
        vals = cuda.local.array(cells, dtype=D.dtype)
        pvs = cuda.local.array(cells, dtype=np.int32)
        row = cuda.blockIdx.y == 0
        bi = t0 if row else o  # the tile's first row and column
        bj = o if row else t0
        for a in range(ry):
            for c in range(rx):
                x, y, e = _cell(rx, c, a)
                prim[y, x] = D[t0 + y, t0 + x]
                cur[y, x] = D[bi + y, bj + x]
        cuda.syncthreads()
        for k in range(side):
            for a in range(ry):
                for c in range(rx):
                    x, y, e = _cell(rx, c, a)
                    if primary:
                        vals[e] = cur[y, k] + cur[k, x]
                    elif row:
                        vals[e] = prim[y, k] + cur[k, x]
                    else:
                        vals[e] = cur[y, k] + prim[k, x]
                    if pred:
                        pvs[e] = P[t0 + k, bj + x]
            cuda.syncthreads()
            for a in range(ry):
                for c in range(rx):
                    x, y, e = _cell(rx, c, a)
                    if vals[e] < cur[y, x]:
                        cur[y, x] = vals[e] if not clamp or vals[e] > floor else floor
                        if pred:
                            P[bi + y, bj + x] = pvs[e]
            cuda.syncthreads()
        for a in range(ry):
            for c in range(rx):
                x, y, e = _cell(rx, c, a)
                D[bi + y, bj + x] = cur[y, x]

    return _phases12


def _phase3_kernel(rx: int, ry: int, pred: bool, clamp: bool, side: int):
    cells = rx * ry

    @cuda.jit
    def _phase3(D, P, t0, floor):
        """Every tile off the primary row and column: X[i, j] <- min over k of
        X[i, t0 + k] + X[t0 + k, j], both operands (finished in phase 2) in shared memory.
        Per k a thread reads its ry values of column k and rx of row k once for its
        rx x ry updates; with predecessors it also keeps each element's best k. A clamped
        candidate is max(v, floor): the same minimum as clamping only the improving ones,
        the matrix never holding a value below the floor."""
        ci = cuda.blockIdx.y * side
        cj = cuda.blockIdx.x * side
        if ci == t0 or cj == t0:
            return
        a_s = cuda.shared.array((side, side), dtype=D.dtype)
        b_s = cuda.shared.array((side, side), dtype=D.dtype)
        best = cuda.local.array(cells, dtype=D.dtype)
        was = cuda.local.array(cells, dtype=D.dtype)
        bk = cuda.local.array(cells, dtype=np.int32)
        brow = cuda.local.array(rx, dtype=D.dtype)
        for a in range(ry):
            for c in range(rx):
                x, y, e = _cell(rx, c, a)
                a_s[y, x] = D[ci + y, t0 + x]
                b_s[y, x] = D[t0 + y, cj + x]
                best[e] = D[ci + y, cj + x]
                was[e] = best[e]
                bk[e] = -1
        cuda.syncthreads()
        for k in range(side):
            for c in range(rx):
                brow[c] = b_s[k, cuda.threadIdx.x + c * cuda.blockDim.x]
            for a in range(ry):
                left = a_s[cuda.threadIdx.y + a * cuda.blockDim.y, k]
                for c in range(rx):
                    v = left + brow[c]
                    if clamp:
                        v = max(v, floor)
                    e = a * rx + c
                    if pred:
                        if v < best[e]:
                            best[e] = v
                            bk[e] = k
                    else:
                        best[e] = min(best[e], v)
        for a in range(ry):
            for c in range(rx):
                x, y, e = _cell(rx, c, a)
                if best[e] < was[e]:
                    D[ci + y, cj + x] = best[e]
                    if pred:
                        P[ci + y, cj + x] = P[t0 + bk[e], cj + x]

    return _phase3


def run(D, P, algorithm, floor, clamp, pred, n, tile=DEFAULT_THREAD_TILE):
    """Run ``algorithm`` on the device (D, P host arrays in the internal encoding, D's side a
    multiple of PAD, ``n`` the vertices before padding; ``tile``: blocked's elements per
    thread, ``thread_tile``'s pair); returns (D, P, products, kernel seconds, copy seconds)
    with D and P on the host: the kernels timed apart from the copies host -> device and
    back, as the BFS times its searches."""
    if D.shape[0] % PAD:
        raise InputError(f"the GPU kernels need a matrix side that is a multiple of {PAD}")
    size = D.shape[0]
    nt = size // TILE
    floor = D.dtype.type(floor)
    t0 = time.perf_counter()
    dD = cuda.to_device(D)
    dP = cuda.to_device(P if pred else np.full((1, 1), -1, np.int32))
    if algorithm == "min-plus":  # the product's output and its flag, copied in with the rest
        out = cuda.to_device(D)
        pout = cuda.to_device(P if pred else np.full((1, 1), -1, np.int32))
        changed = cuda.to_device(np.zeros(1, np.int32))
    cuda.synchronize()
    t1 = time.perf_counter()
    products = None
    threads = (TILE, TILE)
    if algorithm == "floyd-warshall":
        for k in range(size):
            _fw_step[(nt, nt), threads](dD, dP, k, floor, clamp, pred)
    elif algorithm == "blocked":
        rx, ry = tile
        side = blocked_side(D.dtype.itemsize, rx, ry)
        nb = size // side
        block = (side // rx, side // ry)
        phases12, phase3 = blocked_kernels(rx, ry, bool(pred), bool(clamp), side)
        for diag in range(0, size, side):  # the primary tile's first row (not t0: a clock)
            phases12[1, block](dD, dP, diag, floor, True)
            phases12[(nb, 2), block](dD, dP, diag, floor, False)
            phase3[(nb, nb), block](dD, dP, diag, floor)
    else:
        total = max(1, math.ceil(math.log2(n - 1))) if n > 2 else 1
        products = 0
        for _ in range(total):
            changed[0] = 0
            _product[(nt, nt), threads](dD, dP, out, pout, changed, floor, clamp, pred)
            products += 1
            dD, out = out, dD
            dP, pout = pout, dP
            if not changed.copy_to_host()[0]:  # the one host read of a product: stop?
                break
            out.copy_to_device(dD)
            pout.copy_to_device(dP)
    cuda.synchronize()
    t2 = time.perf_counter()
    D, P = dD.copy_to_host(), (dP.copy_to_host() if pred else P)
    return D, P, products, t2 - t1, (t1 - t0) + (time.perf_counter() - t2)
