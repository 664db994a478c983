"""Memory planning: estimate what a run needs before allocating, refuse what will not fit."""
from __future__ import annotations

import psutil

from ..errors import ResourceError


def available_memory() -> int:
    """Bytes the system can give this process now (psutil's 'available')."""
    return int(psutil.virtual_memory().available)


def format_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n) < 1024 or unit == "PiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024
    return f"{n:.1f} PiB"


# The interpreter with numpy, scipy and numba's compiled code loaded (measured: ~0.19 GiB).
BASELINE_BYTES = 256 << 20


def estimate_run_bytes(num_vertices: int, num_edges: int, weighted: bool = False,
                       validation: str = "tuples", threads: int | None = None) -> int:
    """Peak bytes of an embedded run, phase by phase, before anything is allocated.

    ``validation="tuples"``: the edge list (2 x int64 per tuple) stays alive for validation;
    kernel 1 holds the symmetric int32 neighbour array plus per-vertex tables; BFS and
    validation add a few 8-byte arrays over the vertices. Deliberately generous: 0.82 / 2.5
    GiB at SCALE 20 / 22, where the measured peaks are 0.60 / 1.90 GiB.
    ``validation="csr"``: no edge list; the peak is the larger of kernel 1 (its unsorted
    neighbour array, ``threads`` rows of degree counts, indptr, the tuple counts and one
    generated piece) and the searches (the CSR and its tuple counts, plus the larger of a
    search's state and a validation's: parent, queues and bitmaps, or parent, four
    pointer-jumping arrays and the levels).
    ``weighted`` (kernel 3): the tuples' float32 weights, kernel 1's int64 keys, the CSR's
    float32 weights and its rows sorted by weight (``CSRGraph.by_weight``).
    """
    n, m = num_vertices, num_edges
    entries = 2 * m  # adjacency entries before duplicates are dropped (an upper bound)
    if validation == "csr":
        if threads is None:
            import numba

            threads = numba.get_num_threads()
        count_item = 4 if entries < 2**31 else 8
        rows = max(1, min(threads, max(64 << 20, 4 * m) // max(1, n * count_item)))
        per_vertex = 8 * (n + 1) + count_item * n  # indptr, tuple counts
        entry = 4 + (12 if weighted else 0)  # int32 neighbour; int64 key + the split's copies
        piece = 20 * min(1 << 22, max(1 << 16, m >> 6))  # generator.tuples.piece_size's
        kernel1 = entries * entry + rows * n * count_item + per_vertex + piece
        csr = entries * (16 if weighted else 4) + per_vertex  # weighted: + rows by weight
        search = (8 + 16) * n + n // 2 + (24 * n if weighted else 0)
        validation_bytes = (8 + 32 + 8) * n
        return BASELINE_BYTES + max(kernel1, csr + max(search, validation_bytes))
    edge_list = 16 * m
    csr = 2 * m * 4 * 2 + 8 * (n + 1)
    per_vertex = 8 * 8 * n
    if weighted:  # kernel 3: a float32 per tuple, int64 keys while building, float32 weights
        edge_list += 4 * m
        csr += 2 * m * (8 + 4 + 8)
    return BASELINE_BYTES + edge_list + csr + per_vertex


def require_memory(needed: int, what: str) -> None:
    """ResourceError when ``needed`` bytes exceed what is available, naming both numbers."""
    have = available_memory()
    if needed > have:
        raise ResourceError(
            f"{what} needs about {format_bytes(needed)} of memory; "
            f"{format_bytes(have)} is available"
        )
