"""How a rank's device arrays reach the other ranks (thesis 4.4, in its modern form).

The thesis moved GPU buffers between nodes over GPUDirect / APEnet; today's form of that is
a CUDA-aware MPI, which takes device pointers in its calls. ``DeviceExchange`` hands the
device arrays to MPI directly when the MPI is CUDA-aware, and otherwise stages them through
host memory (device -> host, MPI, host -> device). ``describe()`` says which, and why, for the
run's output.

``cuda_aware(comm)`` decides:

- ``PYGRAPH500_CUDA_AWARE=1`` or ``0`` says so explicitly (an MPI that is CUDA-aware but has no
  query, such as Cray MPICH with ``MPICH_GPU_SUPPORT_ENABLED=1``; or to compare the two);
- otherwise the MPI library is asked: ``MPIX_Query_cuda_support()`` (Open MPI and MPICH have
  it; it reports what the library can do at run time);
- ranks in one process (``ThreadComm``, ``SerialComm``) never go through MPI: direct.
"""
from __future__ import annotations

import os

from ..backend.info import mpi_cuda_support
from ..errors import InputError
from .comm import MPIComm

__all__ = ["CUDA_AWARE", "cuda_aware", "DeviceExchange"]

CUDA_AWARE = "PYGRAPH500_CUDA_AWARE"


def cuda_aware(comm) -> tuple[bool, str]:
    """(whether device buffers may be handed to ``comm`` directly, why)."""
    forced = os.environ.get(CUDA_AWARE)
    if forced is not None:
        if forced not in ("0", "1"):
            raise InputError(f"{CUDA_AWARE} must be 0 or 1, got {forced!r}")
        return forced == "1", f"{CUDA_AWARE}={forced}"
    if not isinstance(getattr(comm, "inner", comm), MPIComm):  # an EmulatedComm's own
        return True, f"{type(comm).__name__}: the ranks share one process, no MPI in between"
    answer = mpi_cuda_support()
    if answer is None:
        return False, (f"{comm.library} has no MPIX_Query_cuda_support; set {CUDA_AWARE}=1 "
                       f"if it is CUDA-aware")
    return bool(answer), f"MPIX_Query_cuda_support() = {answer} ({comm.library})"


class DeviceExchange:
    """``alltoallv`` and ``allgather`` of device arrays over ``comm``: direct or staged
    through host memory (see the module docstring). Results are device arrays."""

    def __init__(self, comm, backend, direct: bool | None = None):
        self.comm = comm
        self.backend = backend
        if direct is None:
            direct, why = cuda_aware(comm)
        else:
            why = "chosen by the caller"
        self.direct = direct
        self.why = why
        self._host_recv = None

    def describe(self) -> str:
        if self.direct:
            return f"device buffers handed to MPI directly ({self.why})"
        return f"staged through host memory: device -> host -> MPI -> device ({self.why})"

    def alltoallv(self, send, sendcounts, displs):
        """(rows received, on the device; their counts per source rank, on the host)."""
        be = self.backend
        be.synchronize()  # MPI reads the buffer without knowing the device's stream
        if self.direct:
            return self.comm.alltoallv(send, sendcounts, displs=displs)
        recv, counts = self.comm.alltoallv(be.to_host(send), sendcounts, displs=displs,
                                           out=self._host_recv)
        if recv.base is None:  # a new host buffer (the kept one was too small): keep it
            self._host_recv = recv
        return be.to_device(recv), counts

    def allgather(self, array):
        """Every rank's ``array`` (same shape on all), stacked by rank, on the device."""
        be = self.backend
        be.synchronize()
        if self.direct:
            return self.comm.allgather(array)
        return be.to_device(self.comm.allgather(be.to_host(array)))
