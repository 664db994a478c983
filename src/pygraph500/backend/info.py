"""What this machine offers pygraph500: versions, threads, MPI and GPU availability; and what
a run ran on (``machine_info``), recorded in its JSON document."""
from __future__ import annotations

import os
import platform
import sys


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


def versions() -> dict[str, str]:
    """The versions every result records (``parameters.versions``); no GPU or MPI module is
    imported for them."""
    import numba
    import numpy
    import scipy

    from .. import __version__

    return {"pygraph500": __version__, "python": platform.python_version(),
            "numpy": numpy.__version__, "numba": numba.__version__, "scipy": scipy.__version__}


def system_info() -> dict[str, str]:
    """Key -> one-line description, for `graph500 info`."""
    import numba

    from .memory import available_memory, format_bytes

    return {
        **versions(),
        "cpu": platform.processor() or platform.machine(),
        "cores": str(os.cpu_count()),
        "threads": f"{numba.get_num_threads()} (numba; set with --threads or NUMBA_NUM_THREADS)",
        "memory available": format_bytes(available_memory()),
        "mpi": _mpi(),
        "gpu": _gpu(),
    }


def machine_info(backend: str = "cpu", distributed: bool = False) -> dict:
    """The machine a run ran on and the software beyond ``versions()``, for the run's JSON
    document (``machine``), gathered by the process that writes it (rank 0 of a distributed
    run: its node). ``backend``: the run's (``cpu``, ``gpu``, ``numpy-checked``). A GPU is
    described only when the run used one through CuPy, and MPI only for a distributed run
    that loaded it: nothing is imported for either, so a CPU run never loads CuPy."""
    import psutil

    model, sockets = cpu_model_and_sockets()
    return {
        "hostname": platform.node(),
        "os": _os_name(),
        "kernel": f"{platform.system()} {platform.release()} ({platform.machine()})",
        "cpu_model": model or platform.processor() or platform.machine(),
        "sockets": sockets,
        "physical_cores": psutil.cpu_count(logical=False),
        "logical_cores": psutil.cpu_count(logical=True),
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "accelerator": _accelerator(backend),
        "software": _run_software(backend, distributed),
    }


def cpu_model_and_sockets(path: str = "/proc/cpuinfo") -> tuple[str | None, int | None]:
    """The first "model name" of ``path`` and the number of distinct "physical id"s (the
    sockets); None for what it does not say (no such file, or an ARM kernel's format)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None, None
    models, sockets = [], set()
    for line in lines:
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            models.append(value.strip())
        elif key.strip() == "physical id":
            sockets.add(value.strip())
    return (models[0] if models else None), (len(sockets) or None)


def _os_name() -> str:
    try:
        return platform.freedesktop_os_release()["PRETTY_NAME"]
    except (OSError, KeyError):
        return platform.platform(terse=True)


def _uses_cupy(backend: str) -> bool:
    """Whether the run's arrays were CuPy's: the gpu backend, not NumPy standing in for it."""
    from .arrays import GPU_STANDIN

    return backend == "gpu" and not os.environ.get(GPU_STANDIN) and "cupy" in sys.modules


def _accelerator(backend: str) -> str:
    if backend == "cpu":
        return "none used"
    if not _uses_cupy(backend):
        return "none used (NumPy standing in for a GPU)"
    cupy = sys.modules["cupy"]
    try:
        dev = cupy.cuda.Device()
        props = cupy.cuda.runtime.getDeviceProperties(dev.id)
        name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        count = cupy.cuda.runtime.getDeviceCount()
        return (f"{name}, {props['totalGlobalMem'] / 2**30:.1f} GiB "
                f"(GPU {dev.id} of {count} on this node)")
    except Exception as exc:  # a device that answered the run but not this query
        return f"a CUDA GPU (not described: {type(exc).__name__})"


def _cuda_version(v: int) -> str:
    return f"{v // 1000}.{v % 1000 // 10}"


def _run_software(backend: str, distributed: bool) -> dict[str, str]:
    """llvmlite and its LLVM (numba's compiler); MPI and CuPy/CUDA where the run used them."""
    import llvmlite

    out = {"llvmlite": llvmlite.__version__}
    try:
        from llvmlite import binding

        out["llvm"] = ".".join(str(p) for p in binding.llvm_version_info)
    except (ImportError, AttributeError):
        pass
    mpi = sys.modules.get("mpi4py.MPI")
    if distributed:
        out["mpi"] = (f"mpi4py {sys.modules['mpi4py'].__version__}, {mpi_library(mpi)}"
                      if mpi is not None else "none (one process, no MPI launcher)")
    if _uses_cupy(backend):
        cupy = sys.modules["cupy"]
        out["cupy"] = cupy.__version__
        try:
            out["cuda_runtime"] = _cuda_version(cupy.cuda.runtime.runtimeGetVersion())
            out["cuda_driver"] = _cuda_version(cupy.cuda.runtime.driverGetVersion())
        except Exception:  # noqa: BLE001 - the versions only describe; the run is done
            pass
    return out
