"""``shortest_paths``: one entry point for the three algorithms on either backend, with the
memory check, the negative-cycle check and path reconstruction around them."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..backend.memory import format_bytes, require_memory
from ..errors import InputError
from . import cpu
from .matrix import Encoding, as_matrix

__all__ = ["ALGORITHMS", "BACKENDS", "APSPResult", "NegativeCycleError", "shortest_paths",
           "path", "estimate_bytes"]

ALGORITHMS = ("blocked", "min-plus", "floyd-warshall")
BACKENDS = ("cpu", "gpu")


class NegativeCycleError(InputError):
    """The graph has a cycle of negative weight: no shortest paths exist through it.
    ``vertex``: a vertex on such a cycle; ``cycle``: its vertices in order, when found."""

    def __init__(self, message, vertex, cycle=None):
        super().__init__(message)
        self.vertex = vertex
        self.cycle = cycle


@dataclass
class APSPResult:
    """Distances (``unreachable(dtype)`` where there is no path), predecessors when asked
    for (int32, -1 on the diagonal and where there is no path), and how they were computed.
    ``seconds`` times the algorithm alone: not the conversion of the input, and on the GPU
    not the copies to the device and back (``copy_seconds``), as BFS times its searches."""
    dist: np.ndarray
    pred: np.ndarray | None
    algorithm: str
    backend: str
    seconds: float
    products: int | None = None  # min-plus: the squarings done
    copy_seconds: float = 0.0  # gpu: host -> device and back
    thread_tile: tuple | None = None  # gpu blocked: elements per thread (along j, along i)

    @property
    def n(self) -> int:
        return self.dist.shape[0]

    @property
    def ops_per_second(self) -> float:
        """Min-plus operations per second, counted as the paper does: 2 n^3 / time."""
        return 2.0 * self.n ** 3 / self.seconds if self.seconds > 0 else float("inf")


def _padded(n: int, algorithm: str, tile: int, backend: str = "cpu") -> tuple[int, int]:
    """(tile side, padded size): the tiled algorithms, and every GPU kernel, need n a
    multiple of the tile."""
    if backend == "gpu":
        from .gpu import PAD

        return PAD, PAD * math.ceil(n / PAD)
    if algorithm == "floyd-warshall":
        return 0, n
    b = min(tile, 4 * math.ceil(n / 4))
    return b, b * math.ceil(n / b)


def estimate_bytes(n: int, dtype, algorithm: str = "blocked", predecessors: bool = False,
                   tile: int = cpu.TILE, backend: str = "cpu") -> int:
    """Peak bytes of a run on n vertices besides the caller's input: the padded working
    matrix, a second one for min-plus (the product is not in place), the result when padding
    forces a copy, and the int32 predecessor matrices."""
    _, size = _padded(n, algorithm, tile, backend)
    item = np.dtype(dtype).itemsize
    mats = 2 if algorithm == "min-plus" else 1
    total = mats * size * size * item + (n * n * item if size != n else 0)
    if predecessors:
        total += mats * size * size * 4
    return total


def _initial_pred(D: np.ndarray, big) -> np.ndarray:
    """P[i, j] = i where an edge i -> j exists (i != j), else -1."""
    size = D.shape[0]
    P = np.where(D < big, np.arange(size, dtype=np.int32)[:, None], np.int32(-1))
    P = P.astype(np.int32, copy=False)
    np.fill_diagonal(P, -1)
    return P


def _run(D, P, algorithm, backend, enc, b, pred, n, thread_tile=None):
    """Run one algorithm on the internal matrix; returns (D, P, products, seconds, copy
    seconds): the GPU's kernels are timed apart from its copies."""
    if backend == "gpu":
        from . import gpu

        return gpu.run(D, P, algorithm, enc.floor, enc.clamp, pred, n, thread_tile)
    t0 = time.perf_counter()
    products = None
    if algorithm == "floyd-warshall":
        cpu.floyd_warshall(D, P, enc.floor, enc.clamp, pred)
    elif algorithm == "min-plus":
        products = max(1, math.ceil(math.log2(n - 1))) if n > 2 else 1
        D, P, products = cpu.min_plus(D, P, b, enc.floor, enc.clamp, pred, products)
    else:
        cpu.blocked(D, P, b, enc.floor, enc.clamp, pred)
    return D, P, products, time.perf_counter() - t0, 0.0


_WARM: set = set()


def _warm_up(algorithm, backend, enc, pred, thread_tile) -> None:
    """Compile (or load from numba's cache) the kernels of this combination on an 8 x 8
    matrix of the same dtype, once per process, so that the timed run is the work alone."""
    key = (algorithm, backend, enc.dtype.name, pred, thread_tile)
    if key in _WARM:
        return
    _WARM.add(key)
    b, size = _padded(8, algorithm, 8, backend)
    D = enc.encode(np.zeros((8, 8), dtype=enc.dtype), size)
    P = _initial_pred(D, enc.big) if pred else np.full((1, 1), -1, np.int32)
    _run(D, P, algorithm, backend, enc, b, pred, 8, thread_tile)


def shortest_paths(graph, *, algorithm: str = "blocked", backend: str = "cpu", dtype=None,
                   return_predecessors: bool = False, tile: int | None = None,
                   thread_tile=None) -> APSPResult:
    """All-pairs shortest paths of a weighted graph.

    ``graph``: a square ndarray (no edge = inf, or the integer dtype's maximum; the diagonal
    counts as min(0, its value)) or a scipy.sparse matrix (stored entries are edges).
    ``algorithm``: ``blocked`` (Floyd-Warshall in tiles, the fast one), ``min-plus``
    (repeated squaring) or ``floyd-warshall`` (the textbook loop). ``backend``: ``cpu``
    (numba) or ``gpu`` (numba.cuda). ``dtype``: int32, float32 or float64 (default: the
    input's when it is one of those, else float64). ``thread_tile``: the GPU blocked
    kernels' elements per thread, (rx, ry) or "RXxRY" (default 4x4,
    ``apsp.gpu.DEFAULT_THREAD_TILE``; the paper's best 4x2; ``apsp.gpu.THREAD_TILES``).
    Raises NegativeCycleError when a cycle of negative weight exists, ResourceError when the
    matrices will not fit.

    >>> import numpy as np
    >>> W = np.array([[0, 4, np.inf], [np.inf, 0, -1], [2, np.inf, 0]])
    >>> r = shortest_paths(W, return_predecessors=True)
    >>> r.dist.tolist(), path(r.pred, 0, 2)
    ([[0.0, 4.0, 3.0], [1.0, 0.0, -1.0], [2.0, 6.0, 0.0]], [0, 1, 2])
    """
    if algorithm not in ALGORITHMS:
        raise InputError(f"unknown APSP algorithm {algorithm!r}: choose one of "
                         f"{', '.join(ALGORITHMS)}")
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    tile = cpu.TILE if tile is None else int(tile)
    if tile < 4 or tile % 4:
        raise InputError(f"tile must be a positive multiple of 4, got {tile}")
    per_thread = None  # the GPU blocked kernels' elements per thread, given or default
    if backend == "gpu" and algorithm == "blocked":
        from . import gpu

        per_thread = gpu.thread_tile(thread_tile)
    elif thread_tile is not None:
        raise InputError(f"thread_tile applies to the GPU blocked algorithm, not to "
                         f"{algorithm} on the {backend}", "thread_tile")
    W = as_matrix(graph, dtype)
    n = W.shape[0]
    negative = bool((W < 0).any())
    enc = Encoding(W.dtype, negative)
    enc.check_range(W)
    b, size = _padded(n, algorithm, tile, backend)
    need = estimate_bytes(n, W.dtype, algorithm, return_predecessors, tile, backend)
    if backend == "gpu":
        from . import gpu

        gpu.require_device_memory(need, f"{algorithm} on {n} vertices")
    else:
        require_memory(need, f"{algorithm} on {n} vertices ({W.dtype.name}, "
                             f"{format_bytes(need)})")
    _warm_up(algorithm, backend, enc, return_predecessors, per_thread)
    D = enc.encode(W, size)
    P = _initial_pred(D, enc.big) if return_predecessors else np.full((1, 1), -1, np.int32)
    D, P, products, seconds, copy_seconds = _run(D, P, algorithm, backend, enc, b,
                                                 return_predecessors, n, per_thread)
    diag = np.diagonal(D)[:n]
    if (diag < 0).any():
        _negative_cycle(W, np.flatnonzero(diag < 0),
                        P[:n, :n] if return_predecessors else None)
    pred = None
    if return_predecessors:
        pred = P[:n, :n]
        if size != n:
            pred = np.ascontiguousarray(pred)
    return APSPResult(dist=enc.decode(D, n), pred=pred, algorithm=algorithm, backend=backend,
                      seconds=seconds, products=products, copy_seconds=copy_seconds,
                      thread_tile=per_thread)


def _cycle_in_row(W, P, i):
    """Walk the predecessors of row ``i`` back from ``i`` n times (which ends on a cycle of
    that row's predecessor graph, if it has one); the cycle, when its weight in W is
    negative, else None."""
    n = W.shape[0]
    row = P[i]
    v = i
    for _ in range(n):
        if row[v] < 0:
            return None
        v = int(row[v])
    cyc = [v]
    u = int(row[v])
    while u != v and u >= 0 and len(cyc) <= n:
        cyc.append(u)
        u = int(row[u])
    if u != v:
        return None
    cyc.reverse()  # predecessors walk backwards
    weight = sum(float(W[cyc[k], cyc[(k + 1) % len(cyc)]]) for k in range(len(cyc)))
    return cyc if weight < 0 else None


def _negative_cycle(W, bad, P):
    """Raise NegativeCycleError: ``bad`` are the vertices whose diagonal went negative (each
    reaches a negative cycle and comes back). The cycle is looked for in their predecessor
    rows (computed again on the CPU when the run had none) and checked against W; the
    message names a vertex on it, or, should no row give it, the first vertex of ``bad``."""
    n = W.shape[0]
    if P is None:  # the error path: run again, with predecessors
        enc = Encoding(W.dtype, True)
        b, size = _padded(n, "blocked", cpu.TILE)
        D = enc.encode(W, size)
        P = _initial_pred(D, enc.big)
        cpu.blocked(D, P, b, enc.floor, enc.clamp, True)
    for i in bad:
        cycle = _cycle_in_row(W, P, int(i))
        if cycle is not None:
            weight = sum(float(W[cycle[k], cycle[(k + 1) % len(cycle)]])
                         for k in range(len(cycle)))
            shown = " -> ".join(map(str, cycle[:12])) + (" -> ..." if len(cycle) > 12 else "")
            raise NegativeCycleError(
                f"negative cycle through vertex {cycle[0]}: {shown} -> {cycle[0]} "
                f"(weight {weight:g}); shortest paths are undefined", cycle[0], cycle)
    i = int(bad[0])
    raise NegativeCycleError(
        f"negative cycle: vertex {i} reaches itself with negative weight; shortest paths "
        "are undefined", i)


def path(pred: np.ndarray, i: int, j: int) -> list[int]:
    """The vertices of a shortest path i -> j from a predecessor matrix ([i] when i == j,
    [] when j is unreachable from i).

    >>> import numpy as np
    >>> path(np.array([[-1, 0, 1], [-1, -1, 1], [-1, -1, -1]], np.int32), 0, 2)
    [0, 1, 2]
    """
    n = pred.shape[0]
    if not (0 <= i < n and 0 <= j < n):
        raise InputError(f"vertices {i}, {j} are outside 0..{n - 1}")
    if i == j:
        return [i]
    out = [j]
    v = j
    while v != i:
        v = int(pred[i, v])
        if v < 0 or len(out) > n:
            return []
        out.append(v)
    out.reverse()
    return out
