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


def estimate_run_bytes(num_vertices: int, num_edges: int, weighted: bool = False) -> int:
    """Peak bytes of an embedded run: edge list, CSR build, BFS and validation together.

    The edge list (2 x int64 per tuple) stays alive for validation; kernel 1 holds the
    symmetric int32 neighbour array plus per-vertex tables; BFS and validation add a few
    8-byte arrays over the vertices. Deliberately generous: it estimates 0.82 / 2.5 GiB at
    SCALE 20 / 22, where the measured peaks are 0.60 / 1.90 GiB (benchmarks/RESULTS.md).
    ``weighted`` (kernel 3): the tuples' float32 weights, kernel 1's int64 keys and the CSR's
    float32 weights; 1.1 GiB at SCALE 20, where both kernels peak at 1.0 GiB.
    """
    edge_list = 16 * num_edges
    csr = 2 * num_edges * 4 * 2 + 8 * (num_vertices + 1)
    per_vertex = 8 * 8 * num_vertices
    if weighted:  # kernel 3: a float32 per tuple, int64 keys while building, float32 weights
        edge_list += 4 * num_edges
        csr += 2 * num_edges * (8 + 4)
    return BASELINE_BYTES + edge_list + csr + per_vertex


def require_memory(needed: int, what: str) -> None:
    """ResourceError when ``needed`` bytes exceed what is available, naming both numbers."""
    have = available_memory()
    if needed > have:
        raise ResourceError(
            f"{what} needs about {format_bytes(needed)} of memory; "
            f"{format_bytes(have)} is available"
        )
