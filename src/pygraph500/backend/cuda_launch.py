"""Launching numba.cuda kernels beside CuPy: ``device_view`` hands a CuPy array to a kernel
without numba's stream synchronisation, ``hush_small_grids`` quiets numba-cuda's hint about
small grids. Used by the kernel modules: ``bfs.array.cuda_levels``, ``bfs.hybrid.warp``,
``apsp.gpu``."""
from __future__ import annotations

import warnings

__all__ = ["device_view", "hush_small_grids"]


def device_view(a):
    """``a`` for a kernel launch: a CuPy array as a numba device array without the
    synchronisation numba otherwise does, for every array argument of every launch, on the
    stream CuPy exports (a host wait each time); CuPy and numba launch on the same default
    stream, so the order of the work is kept without it. A ``numpy-checked`` array as the
    NumPy array inside it: a kernel's reads are the device's, not host synchronisations
    (under numba's simulator they would otherwise count one per element). Other arrays
    (NumPy under the simulator, numba's own device arrays) as they are."""
    from .checked import CheckedArray

    if isinstance(a, CheckedArray):
        return a.a
    if type(a).__module__.split(".")[0] != "cupy":
        return a
    from numba import cuda

    return cuda.as_cuda_array(a, sync=False)


def hush_small_grids() -> None:
    """Silence numba-cuda's "Grid size N will likely result in GPU under-utilization" (one
    line per distinct N): a BFS's first and last levels and APSP's one-block phase 1 are
    small by nature, and on the H200 they filled the log of every run."""
    warnings.filterwarnings("ignore", message=r"(?s).*Grid size \d+ will likely result in "
                                              r"GPU under-utilization")
