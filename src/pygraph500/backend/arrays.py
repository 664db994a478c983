"""The array backend: NumPy on the CPU, CuPy on a GPU, behind one small object.

Array-level algorithms (kernel 1 and the BFS of ``pygraph500.bfs.array``) take an
``ArrayBackend`` and use its ``xp`` module only, so the very same code runs on NumPy (in CI,
everywhere) and on CuPy (where a CUDA device is). CuPy is imported here and nowhere else.

- ``get_backend("cpu" | "gpu" | "auto")``: ``gpu`` without a usable CuPy device is an
  InputError saying so (the CLI prints it on one line, exit 2); ``auto`` takes the GPU when
  there is one and otherwise the CPU, recording why in ``note``.
- ``ArrayBackend.to_device`` / ``to_host``; ``synchronize`` before reading a clock (CuPy
  kernels run asynchronously); ``memory()`` the device's (free, total) bytes.
- ``get_backend("gpu", local_rank=r)``: the GPU of node-local rank r (device r % count),
  one GPU per MPI process.
- ``PYGRAPH500_GPU_STANDIN=K`` (tests only; see DESIGN.md, "Verifying GPU code without a
  GPU"): ``gpu`` is NumPy standing in for K devices, so the device paths (one device per rank,
  device buffers handed to MPI or staged) run in CI; every output names it as a stand-in.
- ``get_backend("numpy-checked")``: the device path on NumPy with every host synchronisation
  and allocation counted (``checked.py``); ``ArrayBackend.checks`` holds the counters.
- ``mark()`` / ``seconds(a, b)``: points on the device's timeline (CUDA events on a GPU) and
  the time between them, read after the search: phase times without synchronising.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, ResourceError
from .checked import Checks, CheckedNumPy
from .memory import format_bytes, require_memory

__all__ = ["BACKENDS", "DEVICE_BACKENDS", "ArrayBackend", "checked_backend", "get_backend",
           "gpu_status"]

BACKENDS = ("cpu", "gpu", "auto", "numpy-checked")
DEVICE_BACKENDS = ("gpu", "numpy-checked")  # the names that take the device path
GPU_STANDIN = "PYGRAPH500_GPU_STANDIN"


def gpu_status():
    """(cupy module or None, one line saying what the GPU side offers)."""
    try:
        import cupy
    except Exception as exc:  # not installed, or a broken CUDA install
        return None, f"CuPy not usable ({type(exc).__name__}: install the 'gpu' extra)"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        return None, f"no CUDA device ({type(exc).__name__}: {exc})"
    if count == 0:
        return None, "no CUDA device"
    return cupy, f"{count} CUDA device(s)"


class HostStream:
    """The stream of host arrays: entering it changes nothing, nothing is left to wait for."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def synchronize(self) -> None:
        return None


HOST_STREAM = HostStream()


@dataclass
class ArrayBackend:
    """``name`` 'cpu' or 'gpu'; ``xp`` numpy or cupy (numpy also for the GPU stand-in);
    ``device`` a one-line description; ``note``: why ``auto`` chose what it chose (empty
    otherwise); ``device_id``: the GPU's index on its node (None on the CPU); ``checks``:
    the counters of ``numpy-checked`` (None otherwise)."""
    name: str
    xp: object
    device: str
    note: str = ""
    device_id: int | None = None
    checks: Checks | None = None

    @property
    def is_gpu(self) -> bool:
        """Whether searches take the device path (a GPU, a stand-in, or numpy-checked)."""
        return self.name in DEVICE_BACKENDS

    @property
    def on_device(self) -> bool:
        """Whether arrays live in device memory (CuPy; numpy-checked stands in for it)."""
        return self.xp is not np

    @property
    def on_cuda(self) -> bool:
        """Whether arrays are CUDA arrays that numba.cuda kernels can take (CuPy's)."""
        return self.on_device and self.checks is None

    def to_device(self, a, dtype=None):
        return self.xp.asarray(a, dtype=dtype)

    def to_host(self, a) -> np.ndarray:
        """``a`` as a NumPy array (copied from the device when it is a device array)."""
        return np.asarray(a) if isinstance(a, np.ndarray) or not self.on_device else a.get()

    def synchronize(self) -> None:
        if self.checks is not None:
            self.checks.sync("synchronize()")
        elif self.on_device:
            self.xp.cuda.Device().synchronize()

    def stream(self):
        """A new stream for work that may overlap other work (a non-blocking CUDA stream on a
        GPU; elsewhere ``HOST_STREAM``, on which work runs in order, at once). ``with
        stream:`` issues work on it; ``stream.synchronize()`` waits for that work alone."""
        if self.on_cuda:
            return self.xp.cuda.Stream(non_blocking=True)
        return HOST_STREAM

    def mark(self):
        """A point on the device's timeline, taken without waiting for the device: a recorded
        CUDA event on a GPU, the host clock elsewhere."""
        if self.on_device and self.checks is None:
            event = self.xp.cuda.Event()
            event.record()
            return event
        return time.perf_counter()

    def seconds(self, a, b) -> float:
        """Seconds between two marks (on a GPU: waits for ``b``; read after the search)."""
        if isinstance(a, float):
            return b - a
        b.synchronize()
        return self.xp.cuda.get_elapsed_time(a, b) / 1e3

    def memory(self) -> tuple[int, int] | None:
        """(free, total) bytes of the device; None on the CPU (and numpy-checked)."""
        if not self.on_device or self.checks is not None:
            return None
        free, total = self.xp.cuda.runtime.memGetInfo()
        return int(free), int(total)

    def require(self, needed: int, what: str) -> None:
        """ResourceError (both numbers) when ``needed`` bytes will not fit where the arrays
        live: the device's free memory, or the host's."""
        mem = self.memory()
        if mem is None:
            require_memory(needed, what)
        elif needed > mem[0]:
            raise ResourceError(f"{what} needs about {format_bytes(needed)} of GPU memory; "
                                f"{format_bytes(mem[0])} of {format_bytes(mem[1])} is free")


# The reductions the device searches run on arrays of data-dependent sizes: (function, dtype).
# ``any`` and ``max`` are bincount's (it checks for negative values and finds the largest
# before counting).
WARM_REDUCTIONS = (("count_nonzero", np.bool_), ("any", np.bool_), ("max", np.int64),
                   ("sum", np.int64))


def warm_reductions(cupy) -> None:
    """Compile (or load from CuPy's disk cache) every variant of the reductions in
    ``WARM_REDUCTIONS`` before any search. CuPy builds a reduction with NVRTC once per CUDA
    block size, which it picks from the array's size (a power of two from 32 to 512: five
    variants among arrays under 2048 elements), so a level whose size picked a new one
    compiled inside a timed search: 1.5-3.7 s on an H200 with an empty cache (count_nonzero
    in the embedded search; bincount's any, two kernels, with four ranks on one GPU),
    10-15 ms loading a full one. An array of each power-of-two size up to 4096 takes every variant."""
    for name, dtype in WARM_REDUCTIONS:
        for k in range(13):
            getattr(cupy, name)(cupy.zeros(1 << k, dtype=dtype))
    cupy.cuda.Stream.null.synchronize()


def _gpu_backend(cupy, local_rank: int | None) -> ArrayBackend:
    if local_rank is not None:
        cupy.cuda.Device(local_rank % cupy.cuda.runtime.getDeviceCount()).use()
    dev = cupy.cuda.Device()
    props = cupy.cuda.runtime.getDeviceProperties(dev.id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    free, total = cupy.cuda.runtime.memGetInfo()
    desc = (f"GPU {dev.id}: {name}, {format_bytes(total)} ({format_bytes(free)} free), "
            f"CuPy {cupy.__version__}, CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}")
    warm_reductions(cupy)
    return ArrayBackend("gpu", cupy, desc, device_id=dev.id)


def _standin_backend(value: str, local_rank: int | None) -> ArrayBackend:
    try:
        count = int(value)
        assert count > 0
    except (ValueError, AssertionError):
        raise InputError(f"{GPU_STANDIN} must be a number of stand-in devices (> 0), got "
                         f"{value!r}") from None
    dev = (local_rank or 0) % count
    return ArrayBackend("gpu", np, f"NumPy standing in for GPU {dev} of {count} "
                                   f"({GPU_STANDIN}; no device is used)", device_id=dev)


def checked_backend(shuffle: int | None = None) -> ArrayBackend:
    """``numpy-checked``: NumPy standing in for a GPU, its host synchronisations and
    allocations counted (``checks``); ``shuffle``: a seed for random winners of duplicate
    writes (``checked.Checks``)."""
    checks = Checks(shuffle)
    return ArrayBackend("numpy-checked", CheckedNumPy(checks),
                        f"NumPy {np.__version__} standing in for a GPU, host synchronisations "
                        "and allocations counted per level (no device is used)", checks=checks)


def get_backend(name: str = "cpu", local_rank: int | None = None) -> ArrayBackend:
    """The backend called ``name`` (see the module docstring); ``local_rank``: the process's
    rank on its node, which picks its GPU."""
    if name not in BACKENDS:
        raise InputError(f"backend must be one of {', '.join(BACKENDS)}, got {name!r}",
                         "backend")
    cpu = f"CPU (compiled kernels: numba; array algorithms: NumPy {np.__version__})"
    if name == "cpu":
        return ArrayBackend("cpu", np, cpu)
    if name == "numpy-checked":
        return checked_backend()
    standin = os.environ.get(GPU_STANDIN)
    if standin:
        return _standin_backend(standin, local_rank)
    cupy, status = gpu_status()
    if cupy is not None:
        return _gpu_backend(cupy, local_rank)
    if name == "gpu":
        raise InputError(f"backend gpu: {status}; use backend cpu (or auto)", "backend")
    return ArrayBackend("cpu", np, cpu, note=f"--backend auto chose the CPU: {status}")
