"""What this machine offers pygraph500: versions, threads, MPI and GPU availability."""
from __future__ import annotations

import os
import platform


def mpi_cuda_support() -> int | None:
    """MPIX_Query_cuda_support() of the loaded MPI library (1: device buffers may be handed
    to it), or None where it has no such query (or no MPI is loaded)."""
    import ctypes

    candidates = [None]  # the process's global symbols first
    try:
        with open("/proc/self/maps") as maps:
            candidates += sorted({line.split()[-1] for line in maps
                                  if "libmpi" in line.rsplit("/", 1)[-1]})
    except OSError:
        pass
    for path in candidates:
        try:
            query = ctypes.CDLL(path).MPIX_Query_cuda_support
        except (OSError, AttributeError):
            continue
        query.restype = ctypes.c_int
        query.argtypes = []
        return int(query())
    return None


def mpi_library(MPI) -> str:
    """The first line of the MPI library's own description, spaces collapsed (Open MPI's
    ends in a NUL, which must not reach a report)."""
    return " ".join(MPI.Get_library_version().replace("\0", " ").splitlines()[0].split())


def _mpi() -> str:
    try:
        from mpi4py import MPI  # noqa: PLC0415
    except Exception as exc:  # ImportError, or a broken MPI library
        return f"not usable ({type(exc).__name__}: install the 'mpi' extra)"
    cuda = {None: "unknown (no MPIX_Query_cuda_support)", 0: "no", 1: "yes"}.get(
        mpi_cuda_support(), "yes")
    return (f"mpi4py {__import__('mpi4py').__version__}, "
            f"{mpi_library(MPI)}; CUDA-aware: {cuda}")


def _gpu() -> str:
    from .arrays import get_backend, gpu_status

    cupy, status = gpu_status()
    return get_backend("gpu").device if cupy is not None else f"not usable: {status}"


def system_info() -> dict[str, str]:
    """Key -> one-line description, for `graph500 info` and the JSON parameters."""
    import numba
    import numpy
    import scipy

    from .. import __version__
    from .memory import available_memory, format_bytes

    return {
        "pygraph500": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "scipy": scipy.__version__,
        "cpu": platform.processor() or platform.machine(),
        "cores": str(os.cpu_count()),
        "threads": f"{numba.get_num_threads()} (numba; set with --threads or NUMBA_NUM_THREADS)",
        "memory available": format_bytes(available_memory()),
        "mpi": _mpi(),
        "gpu": _gpu(),
    }
