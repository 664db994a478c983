"""Communicators: the one interface all distributed code is written against.

``Comm`` (DESIGN.md): ``rank``, ``size``, ``alltoallv``, ``allgather``, ``allreduce``,
``bcast``, ``barrier``, plus ``allgatherv`` (arrays), ``abort`` and the node-local rank and
size (``local_rank``, ``local_size``: which GPU a rank uses, how many cores it may take).

- ``SerialComm``: size 1, no MPI needed; the distributed code runs embedded on it.
- ``MPIComm``: mpi4py over ``MPI.COMM_WORLD`` (or any communicator); array methods use the
  buffer interface (no pickling), small Python objects go through pickle.
- ``ThreadComm`` (``distributed.thread_comm``): P ranks as P threads of one process
  (``ThreadComm.run(P, fn)``), so the multi-rank logic is unit-tested without ``mpiexec``.

``world(force)`` picks the communicator of a ``graph500 run``: MPIComm when the process was
started by a launcher (mpiexec / mpirun / srun set their variables), None for an embedded run
(no MPI initialised), SerialComm when ``force`` asks for the distributed engine without MPI.

``abort_on_error(comm)`` wraps rank code: an exception on any rank prints that rank's one-line
message and aborts every rank (``MPI_Abort``), so a failure never leaves the others waiting in
a collective.
"""
from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager

import numpy as np

from ..errors import Graph500Error, InputError
from ..process import (command_ending, interrupted_line, launched_rank, launched_size,
                       let_rank0_speak, remove_temporaries, signal_received)

__all__ = ["Comm", "SerialComm", "MPIComm", "KeptBuffers", "world", "launched_rank",
           "launched_size", "yield_core", "abort_on_error", "collective_check", "REDUCE_OPS"]

REDUCE_OPS = ("sum", "max", "min")
# A rank waiting for a packet polls this many times, then yields its core: processes that
# outnumber the cores (mpiexec -n 4 on 2) would otherwise spin while the sender waits for one.
POLLS_BEFORE_YIELD = 64
ABORT_GRACE = 1.0  # seconds between a failing rank's message and MPI_Abort

def yield_core() -> None:
    """A waiting rank gives its core to the ranks it waits for (they may share it)."""
    os.sched_yield()


class KeptBuffers(dict):
    """Named arrays a searcher keeps from search to search (its message and frontier
    buffers), so that a search allocates nothing once the largest level has been seen."""

    def rows(self, name: str, rows: int, dtype, width: int | None = None) -> np.ndarray:
        """The kept buffer ``name`` with at least ``rows`` rows (grown by 1.5x when too
        small; its contents are not kept when it grows)."""
        b = self.get(name)
        if b is None or b.shape[0] < rows:
            cap = max(rows, 1024 if b is None else int(b.shape[0] * 1.5))
            b = np.empty((cap,) if width is None else (cap, width), dtype=dtype)
            self[name] = b
        return b


class Comm:
    """The communicator contract. Arrays are numpy arrays, C-contiguous; a 2-D array is a
    sequence of rows (counts are in rows). ``alltoallv`` and ``allgather`` also take device
    arrays (CuPy): what they return is allocated where the input lives, and MPIComm hands
    the device buffers to MPI (only right when the MPI is CUDA-aware: see dist/device.py)."""

    rank: int = 0
    size: int = 1
    local_rank: int = 0
    local_size: int = 1
    library: str = ""

    def alltoallv(self, send: np.ndarray, sendcounts, out: np.ndarray | None = None,
                  displs=None):
        """Personalised all-to-all: rows ``send[displs[j]:displs[j] + sendcounts[j]]`` go to
        rank j (``displs`` default: the blocks follow each other in rank order). Exchanges the
        counts first, then the data. Returns ``(recv, recvcounts)``: rows from rank 0, then
        rank 1, ... ``out``: a buffer to receive into when large enough (``recv`` is then a
        view of it)."""
        raise NotImplementedError

    def allgather(self, obj):
        """A small Python object from every rank, as a list indexed by rank; a numpy array
        (the same shape and dtype on every rank) goes through the buffer interface and comes
        back stacked, shape ``(size, *shape)``."""
        raise NotImplementedError

    def allgatherv(self, array: np.ndarray):
        """Every rank's array concatenated in rank order, and the per-rank row counts."""
        raise NotImplementedError

    def allreduce(self, value, op: str = "sum"):
        """Reduce a number or an array over all ranks: op is 'sum', 'max' or 'min'."""
        raise NotImplementedError

    def bcast(self, obj, root: int = 0):
        raise NotImplementedError

    def barrier(self) -> None:
        raise NotImplementedError

    def abort(self, code: int = 1):
        """End every rank now with exit status ``code``."""
        raise NotImplementedError

    def split(self, color: int, key: int = 0) -> "Comm":
        """The communicator of the ranks that pass the same ``color`` (collective), ranked
        by ``key``: a processor-row or processor-column of a 2D mesh."""
        raise NotImplementedError

    def isend(self, packet: np.ndarray, dest: int, tag: int = 0):
        """Start sending the bytes of ``packet`` (uint8, C-contiguous) to rank ``dest``; the
        returned request's ``wait()`` waits for completion (the caller keeps ``packet``
        unchanged until then). Point-to-point: the 2D fold's packets."""
        raise NotImplementedError

    def recv_packet(self, tag: int = 0, block: bool = True):
        """``(source, bytes)`` of one packet sent with ``tag`` from any rank, in the order each
        source sent them; None when ``block`` is False and none has arrived."""
        raise NotImplementedError


def check_op(op: str) -> None:
    """Refuse a reduction no Comm knows: every implementation checks ``op`` alike."""
    if op not in REDUCE_OPS:
        raise ValueError(f"unknown reduction {op!r}; one of {REDUCE_OPS}")


def send_counts(sendcounts, size: int) -> np.ndarray:
    """``alltoallv``'s send counts as int64, one per rank (shared by every Comm)."""
    c = np.ascontiguousarray(sendcounts, dtype=np.int64).reshape(-1)
    if c.shape[0] != size:
        raise ValueError(f"alltoallv: {c.shape[0]} send counts for {size} ranks")
    return c


def displacements(displs, counts: np.ndarray) -> np.ndarray:
    """``alltoallv``'s send offsets: as given, else the blocks in rank order (every Comm)."""
    if displs is not None:
        return np.ascontiguousarray(displs, dtype=np.int64).reshape(-1)
    d = np.zeros(counts.shape[0], dtype=np.int64)
    np.cumsum(counts[:-1], out=d[1:])
    return d


def array_module(a):
    """numpy, or the module of a device array (cupy, already imported by its owner)."""
    return np if isinstance(a, np.ndarray) else sys.modules[type(a).__module__.partition(".")[0]]


def is_array(obj) -> bool:
    """Whether ``allgather`` stacks ``obj`` as an array (host or device) or lists it."""
    return isinstance(obj, np.ndarray) or hasattr(obj, "__cuda_array_interface__")


def recv_buffer(out, rows: int, like) -> np.ndarray:
    """The caller's ``out`` when it fits ``rows`` rows like ``like``, else a new array."""
    shape = (rows,) + like.shape[1:]
    if (out is not None and out.dtype == like.dtype and out.shape[1:] == like.shape[1:]
            and out.shape[0] >= rows):
        return out[:rows]
    return array_module(like).empty(shape, dtype=like.dtype)


class SerialComm(Comm):
    """One rank, no MPI: every collective is the identity."""

    library = "serial (no MPI)"

    def __init__(self):
        self._box: list = []  # packets sent to this rank, not yet received

    def alltoallv(self, send, sendcounts, out=None, displs=None):
        c = send_counts(sendcounts, 1)
        d = int(displacements(displs, c)[0])
        if out is None:  # nothing moves: the block itself (callers never write to it)
            return send[d:d + int(c[0])], c.copy()
        recv = recv_buffer(out, int(c[0]), send)
        recv[...] = send[d:d + int(c[0])]
        return recv, c.copy()

    def allgather(self, obj):
        return obj[None].copy() if is_array(obj) else [obj]

    def allgatherv(self, array):
        a = np.ascontiguousarray(array)
        return a.copy(), np.array([a.shape[0]], dtype=np.int64)

    def allreduce(self, value, op="sum"):
        check_op(op)
        return value.copy() if isinstance(value, np.ndarray) else value

    def bcast(self, obj, root=0):
        return obj

    def barrier(self):
        pass

    def abort(self, code=1):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)

    def split(self, color, key=0):
        return self

    def isend(self, packet, dest, tag=0):
        if dest != 0:
            raise ValueError(f"isend to rank {dest} of 1")
        self._box.append((tag, packet.copy()))
        return DONE

    def recv_packet(self, tag=0, block=True):
        for i, (t, packet) in enumerate(self._box):
            if t == tag:
                del self._box[i]
                return 0, packet
        if block:
            raise RuntimeError("recv_packet would wait for ever: nothing was sent to this rank")
        return None


class _Done:
    """A request that completed when it was made."""

    def wait(self) -> None:
        pass


DONE = _Done()  # the request of a send that completed at once (every Comm without MPI)


class _MPIRequest:
    """An mpi4py request and the buffer it reads (kept alive until it completes)."""

    __slots__ = ("req", "buf")

    def __init__(self, req, buf):
        self.req, self.buf = req, buf

    def wait(self) -> None:
        self.req.Wait()


class MPIComm(Comm):
    """mpi4py behind the Comm contract (``MPI.COMM_WORLD`` by default)."""

    def __init__(self, comm=None):
        from mpi4py import MPI

        from ..backend.info import mpi_library

        self._MPI = MPI
        self._comm = MPI.COMM_WORLD if comm is None else comm
        self.rank = self._comm.Get_rank()
        self.size = self._comm.Get_size()
        node = self._comm.Split_type(MPI.COMM_TYPE_SHARED, key=self.rank)
        self.local_rank = node.Get_rank()
        self.local_size = node.Get_size()
        node.Free()
        self.library = mpi_library(MPI)
        self._ops = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN}

    def alltoallv(self, send, sendcounts, out=None, displs=None):
        send = array_module(send).ascontiguousarray(send)
        sc = send_counts(sendcounts, self.size)
        rc = np.empty(self.size, dtype=np.int64)
        self._comm.Alltoall(sc, rc)
        recv = recv_buffer(out, int(rc.sum()), send)
        width = int(np.prod(send.shape[1:], dtype=np.int64))
        sd = displacements(displs, sc)
        rd = np.zeros(self.size, dtype=np.int64)
        np.cumsum(rc[:-1], out=rd[1:])
        self._comm.Alltoallv([send, (sc * width, sd * width)], [recv, (rc * width, rd * width)])
        return recv, rc

    def allgather(self, obj):
        if is_array(obj):
            xp = array_module(obj)
            a = xp.ascontiguousarray(obj)
            out = xp.empty((self.size,) + a.shape, dtype=a.dtype)
            self._comm.Allgather(a, out)
            return out
        return self._comm.allgather(obj)

    def allgatherv(self, array):
        a = np.ascontiguousarray(array)
        counts = np.array(self._comm.allgather(int(a.shape[0])), dtype=np.int64)
        width = int(np.prod(a.shape[1:], dtype=np.int64))
        out = np.empty((int(counts.sum()),) + a.shape[1:], dtype=a.dtype)
        displ = np.zeros(self.size, dtype=np.int64)
        np.cumsum(counts[:-1], out=displ[1:])
        self._comm.Allgatherv(a, [out, (counts * width, displ * width)])
        return out, counts

    def allreduce(self, value, op="sum"):
        check_op(op)
        if isinstance(value, np.ndarray):
            a = np.ascontiguousarray(value)
            out = np.empty_like(a)
            self._comm.Allreduce(a, out, op=self._ops[op])
            return out
        if isinstance(value, (bool, np.bool_)):
            return bool(self.allreduce(np.array([int(value)], np.int64), op)[0])
        if isinstance(value, (int, np.integer)):
            return int(self.allreduce(np.array([value], np.int64), op)[0])
        return float(self.allreduce(np.array([value], np.float64), op)[0])

    def bcast(self, obj, root=0):
        return self._comm.bcast(obj, root=root)

    def barrier(self):
        self._comm.Barrier()

    def abort(self, code=1):
        sys.stdout.flush()
        sys.stderr.flush()
        self._comm.Abort(code)
        os._exit(code)  # MPI_Abort may return before the launcher ends this process

    def split(self, color, key=0):
        return MPIComm(self._comm.Split(int(color), int(key)))

    def isend(self, packet, dest, tag=0):
        buf = np.ascontiguousarray(packet, dtype=np.uint8)
        return _MPIRequest(self._comm.Isend([buf, self._MPI.BYTE], dest=int(dest), tag=tag), buf)

    def recv_packet(self, tag=0, block=True):
        MPI = self._MPI
        status = MPI.Status()
        polls = 0
        while not self._comm.Iprobe(MPI.ANY_SOURCE, tag, status):
            if not block:
                return None
            polls += 1
            if polls >= POLLS_BEFORE_YIELD:
                yield_core()
                polls = 0
        source = status.Get_source()
        buf = np.empty(status.Get_count(MPI.BYTE), dtype=np.uint8)
        self._comm.Recv([buf, MPI.BYTE], source=source, tag=tag)
        return source, buf


def world(force: bool = False) -> Comm | None:
    """The communicator of this process: MPIComm when started by an MPI launcher, SerialComm
    when ``force`` (the distributed engine asked for without a launcher), else None.

    InputError when a launcher started several processes but mpi4py cannot be imported.
    """
    size = launched_size()
    if launched_rank() is not None or (size is not None and size > 1):
        try:
            return MPIComm()
        except ImportError as exc:
            if (size or 1) > 1:
                raise InputError(
                    f"started by an MPI launcher with {size} processes, but mpi4py cannot be "
                    f"imported ({exc}); install the 'mpi' extra: pip install 'pygraph500[mpi]'"
                ) from None
    return SerialComm() if force else None


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, Graph500Error):
        return str(exc)
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


@contextmanager
def abort_on_error(comm: Comm, prog: str = "graph500"):
    """Run rank code; on an exception remove this rank's temporaries, print one line (``prog:
    error on rank R of P: message``, or ``prog: interrupted on rank R of P (SIGNAL)``) and
    abort all ranks with status 2 for a Graph500Error (bad input, not enough memory, a file
    not written), 128 + the signal for an interrupt, 1 otherwise. PYGRAPH500_TRACEBACK=1 adds
    the traceback.

    Bad input is often found by every rank at once (a graph with no search key), and mpiexec
    passes a signal to every rank: a rank other than 0 waits before it speaks, so that when
    rank 0 has the same error its abort ends the job with one line, not P."""
    try:
        yield
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - every failure must end every rank
        command_ending()  # no signal may break the ending below
        remove_temporaries()
        # an interrupt may surface as another error (a library's, raised where it was cut)
        signum = getattr(exc, "signum", None) or signal_received() or (
            2 if isinstance(exc, KeyboardInterrupt) else None)
        interrupted = signum is not None
        code = 128 + signum if interrupted else 2 if isinstance(exc, Graph500Error) else 1
        if interrupted:
            let_rank0_speak()
        elif code != 1 and comm.rank != 0:
            time.sleep(2 * ABORT_GRACE)  # rank 0's abort comes after ABORT_GRACE
        where = f" on rank {comm.rank} of {comm.size}" if comm.size > 1 else ""
        if os.environ.get("PYGRAPH500_TRACEBACK"):
            import traceback

            traceback.print_exc()
        line = (interrupted_line(code - 128, prog) if interrupted
                else f"{prog}: error{where}: {_one_line(exc)}")
        print(line, file=sys.stderr, flush=True)
        if comm.size > 1:
            # MPI_Abort tears the launcher down at once; give it time to forward the line
            time.sleep(ABORT_GRACE)
        comm.abort(code)
        raise


def collective_check(comm: Comm, check) -> InputError | None:
    """Run ``check()`` on every rank; the first rank's Graph500Error as an InputError with its
    message and parameter (None when every rank passed), the same on all ranks, so bad
    parameters are reported once (by rank 0) and every rank exits alike. Other exceptions
    propagate."""
    try:
        check()
        mine = None
    except Graph500Error as exc:
        mine = (str(exc), getattr(exc, "param", None))
    errors = comm.allgather(mine)
    first = next((e for e in errors if e is not None), None)
    return None if first is None else InputError(*first)
