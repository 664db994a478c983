"""What the compiled SSSP algorithms share: the packed per-vertex state word, the checks of a
search's input, and the per-phase log.

The state word
--------------
Each vertex's tentative distance and parent are ONE int64 word, ``bits(distance) << 32 |
parent`` (``bits``: the float32's bit pattern; the root's parent is itself, an unreached
vertex holds ``+inf`` and parent field ``0xFFFFFFFF``). Non-negative float32 bit patterns order
as the numbers do, so comparing the high halves compares distances. A relaxation computes
``nd = float32(d[u] + w)`` and installs ``bits(nd) << 32 | u`` by compare-and-swap only while
``nd`` is STRICTLY below the distance in the word. Distance and parent therefore change
together, atomically, and only downwards, which gives the two Graph500 rules:

- ``distance[v] == float32(distance[parent[v]] + w)`` with the parent's FINAL distance: the
  algorithms relax a vertex's edges again after every lowering of its distance, with the value
  read then; a later, smaller parent distance D' either lowers ``v`` (installing the equality
  anew) or gives ``float32(D' + w) == distance[v]`` (rounding is monotone, the old value was
  ``float32(D + w)`` with D >= D').
- the parents form a tree (no cycle, even with zero weights and ``float32(d + w) == d``):
  ``distance[v] >= distance[parent]`` along every parent edge; where equal, the parent held its
  final distance when ``v`` read it, so the parent's final word was written before ``v``'s. A
  cycle would need each of its words written before the next one's.

Weights are non-negative (kernel 1 refuses others). A path whose float32 length overflows to
``inf`` is never installed (``inf`` is not below ``inf``): such vertices read as unreached.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..bfs.types import LevelTable, check_root
from ..errors import InputError
from ..primitives import clock_ns
from ..primitives.bits import LOW32, bits_f32

__all__ = ["prefetch", "word_distance", "INF_BITS", "UNREACHED_WORD",
           "check_search", "init_state", "finish_state", "new_phase_log", "log_row", "log_grow",
           "log_close", "phase_table"]

INF_BITS = np.int64(0x7F800000)  # +inf as float32 bits
UNREACHED_WORD = np.int64((0x7F800000 << 32) | 0xFFFFFFFF)


@intrinsic
def prefetch(typingctx, arr, idx):
    """Hint the CPU to fetch the cache line of ``arr[idx]`` (for reading, kept in all cache
    levels); no effect on any result, and an index past the end is harmless. The searches
    prefetch the adjacency lists of the frontier vertices a few places ahead: a list start is
    a cache miss the hardware prefetchers cannot foresee (halves the time per edge of a
    Kronecker graph whose CSR is far larger than the caches)."""
    if not isinstance(arr, types.Array) or arr.ndim != 1 or not isinstance(idx, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        i = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [i], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(arr, idx), codegen


@njit(inline="always")
def word_distance(word):
    """The float32 distance held in a state word."""
    return bits_f32(np.int32(word >> 32))


def check_search(graph, root) -> int:
    """The root as an int; InputError (one line) for an unweighted graph or a bad root."""
    if getattr(graph, "weights", None) is None:
        raise InputError("SSSP needs a weighted graph: build it from an EdgeList with weights "
                         "(e.g. kronecker(..., weights=True))")
    return check_root(graph, root)


def init_state(n: int, root: int) -> np.ndarray:
    """The state words of a new search: every vertex unreached but the root (0, itself)."""
    state = np.full(n, UNREACHED_WORD, np.int64)
    state[root] = root
    return state


@njit(cache=True, parallel=True)
def _unpack(state, parent, dist, nthreads):
    n = state.shape[0]
    for t in prange(nthreads):
        for v in range((n * t) // nthreads, (n * (t + 1)) // nthreads):
            word = state[v]
            dist[v] = word_distance(word)
            parent[v] = -1 if (word >> 32) == INF_BITS else (word & LOW32)


def finish_state(state: np.ndarray, nthreads: int):
    """(parent int64, distance float32) of the final state words."""
    n = state.shape[0]
    parent = np.empty(n, np.int64)
    dist = np.empty(n, np.float32)
    _unpack(state, parent, dist, nthreads if n >= 1 << 16 else 1)
    return parent, dist


# ---- the phase log ----------------------------------------------------------------------------
# rows (frontier, edges relaxed, distances lowered, bucket, 1 for a pull); batches (end phase,
# nanoseconds):
# phases with less work than a grain are timed together (a clock read costs more than a phase of
# a path), and ``phase_table`` splits a batch's time in proportion to its phases' work. The
# drivers keep the row and batch counts in locals and write rows inline (a compiled call costs
# a reference-count update per array argument); these helpers run once per batch or growth.

def new_phase_log(rows: int = 256):
    """(rows, batches) with room for ``rows`` phases; ``log_grow`` doubles them."""
    return np.empty((rows, 5), np.int64), np.empty((rows, 2), np.int64)


@njit(inline="always")
def log_row(rows, nrow, frontier, edges, lowered, bucket, pull):
    """Write phase ``nrow`` of the log (the room made by ``log_grow``)."""
    rows[nrow, 0] = frontier
    rows[nrow, 1] = edges
    rows[nrow, 2] = lowered
    rows[nrow, 3] = bucket
    rows[nrow, 4] = pull


@njit(cache=True)
def log_grow(rows, batches, nrow, nb):
    """The log's arrays with room for one more row and three more batches: the same arrays,
    or copies twice as large."""
    if nrow + 1 > rows.shape[0]:
        grown = np.empty((2 * rows.shape[0], rows.shape[1]), np.int64)
        grown[:nrow] = rows[:nrow]
        rows = grown
    if nb + 3 > batches.shape[0]:
        grown_b = np.empty((2 * batches.shape[0], 2), np.int64)
        grown_b[:nb] = batches[:nb]
        batches = grown_b
    return rows, batches


@njit(cache=True)
def log_close(batches, nb, nrow, t_last):
    """Close the open batch (phases up to ``nrow``) at the clock's now, when it holds any
    phase. Returns (batches written, the clock)."""
    if nrow == (batches[nb - 1, 0] if nb > 0 else 0):
        return nb, t_last
    t = clock_ns()
    batches[nb, 0] = nrow
    batches[nb, 1] = t - t_last
    return nb + 1, t


def phase_table(rows, batches, nrow: int, nb: int) -> LevelTable:
    """The LevelTable of a finished search's log (every phase inside a closed batch), the
    bucket and pull columns as ``extra``."""
    n, nb = int(nrow), int(nb)
    rows = rows[:n]
    work = (rows[:, 0] + rows[:, 1]).astype(np.float64)
    times = np.zeros(n)
    if n and nb:
        ends = batches[:nb, 0]
        starts = np.concatenate(([0], ends[:-1]))
        counts = ends - starts
        bid = np.repeat(np.arange(nb), counts)
        bwork = np.add.reduceat(work, starts)
        share = np.divide(work, bwork[bid], out=1.0 / counts[bid].astype(np.float64),
                          where=bwork[bid] > 0)
        times = batches[:nb, 1][bid] * 1e-9 * share
    return LevelTable(rows[:, 0], rows[:, 1], rows[:, 2], time=times,
                      extra={"bucket": rows[:, 3].copy(), "pull": rows[:, 4].copy()})
