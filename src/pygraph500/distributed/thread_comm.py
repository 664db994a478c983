"""``ThreadComm``: P ranks as P threads of one process, behind the ``Comm`` contract
(``distributed.comm``), so the multi-rank logic is unit-tested without ``mpiexec``. Not for
speed: every collective is two barriers around a shared slot list."""
from __future__ import annotations

import queue
import threading

import numpy as np

from .comm import (DONE, Comm, array_module, check_op, displacements, is_array, recv_buffer,
                   send_counts)
from .network import emulated

__all__ = ["ThreadComm"]


class _Shared:
    """What the P threads of one ThreadComm share: exchange slots, a barrier, a mailbox per
    rank (point-to-point packets) and the groups split from it (broken with it)."""

    def __init__(self, size: int, timeout: float):
        self.slots = [None] * size
        self.barrier = threading.Barrier(size, timeout=timeout)
        self.timeout = timeout
        self.boxes = [queue.Queue() for _ in range(size)]
        self.lock = threading.Lock()
        self.children: dict = {}

    def abort(self) -> None:
        self.barrier.abort()
        for box in self.boxes:
            box.put(None)  # wakes a rank waiting for a packet
        with self.lock:
            children = list(self.children.values())
        for child in children:
            child.abort()


class ThreadComm(Comm):
    """P ranks as P threads of this process, for tests. ``ThreadComm.run(P, fn, *args)`` calls
    ``fn(comm, *args)`` on every rank and returns the results by rank; an exception on one
    rank breaks every rank's next collective and is re-raised by ``run``."""

    library = "threads (test communicator)"

    def __init__(self, rank: int, shared: _Shared):
        self.rank = rank
        self.size = len(shared.slots)
        self.local_rank = rank
        self.local_size = self.size
        self._sh = shared
        self._splits = 0
        self._pending: list = []  # packets received with another tag

    @classmethod
    def run(cls, size: int, fn, *args, timeout: float = 120.0):
        shared = _Shared(size, timeout)
        results = [None] * size
        errors = [None] * size

        def body(r):
            try:
                results[r] = fn(emulated(cls(r, shared)), *args)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                errors[r] = exc
                shared.abort()

        threads = [threading.Thread(target=body, args=(r,)) for r in range(size)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        first = next((e for e in errors if e is not None and
                      not isinstance(e, threading.BrokenBarrierError)), None)
        if first is None:
            first = next((e for e in errors if e is not None), None)
        if first is not None:
            raise first
        return results

    def _exchange(self, value, combine=list):
        """``combine(every rank's value, by rank)``, computed between two barriers: no rank
        reuses its buffers (or the slots) before every rank has read them."""
        self._sh.slots[self.rank] = value
        self._sh.barrier.wait()
        try:
            return combine(list(self._sh.slots))
        finally:
            self._sh.barrier.wait()

    def alltoallv(self, send, sendcounts, out=None, displs=None):
        xp = array_module(send)
        send = xp.ascontiguousarray(send)
        sc = send_counts(sendcounts, self.size)
        me = self.rank

        def receive(everyone):
            parts = [s[d[me]:d[me] + c[me]] for s, d, c in everyone]
            rc = np.array([p.shape[0] for p in parts], dtype=np.int64)
            recv = recv_buffer(out, int(rc.sum()), send)
            if recv.shape[0]:
                xp.concatenate(parts, out=recv)
            return recv, rc

        return self._exchange((send, displacements(displs, sc), sc), receive)

    def allgather(self, obj):
        if is_array(obj):
            return self._exchange(obj, array_module(obj).stack)
        return self._exchange(obj)

    def allgatherv(self, array):
        parts = self._exchange(np.ascontiguousarray(array), lambda v: [p.copy() for p in v])
        return np.concatenate(parts), np.array([p.shape[0] for p in parts], dtype=np.int64)

    def allreduce(self, value, op="sum"):
        check_op(op)
        if isinstance(value, np.ndarray):
            stack = self._exchange(value, np.stack)
            return {"sum": stack.sum, "max": stack.max, "min": stack.min}[op](axis=0)
        return {"sum": sum, "max": max, "min": min}[op](self._exchange(value))

    def bcast(self, obj, root=0):
        return self._exchange(obj)[root]

    def barrier(self):
        self._exchange(None)

    def abort(self, code=1):
        raise SystemExit(code)

    def split(self, color, key=0):
        everyone = self._exchange((int(color), int(key), self.rank))
        members = sorted((k, r) for c, k, r in everyone if c == color)
        self._splits += 1
        with self._sh.lock:
            sub = self._sh.children.setdefault((self._splits, int(color)),
                                               _Shared(len(members), self._sh.timeout))
        return ThreadComm(members.index((int(key), self.rank)), sub)

    def isend(self, packet, dest, tag=0):
        self._sh.boxes[int(dest)].put((tag, self.rank, np.array(packet, dtype=np.uint8)))
        return DONE

    def recv_packet(self, tag=0, block=True):
        for i, (t, source, packet) in enumerate(self._pending):
            if t == tag:
                del self._pending[i]
                return source, packet
        box = self._sh.boxes[self.rank]
        while True:
            try:
                item = box.get(block=block, timeout=self._sh.timeout if block else None)
            except queue.Empty:
                if block:
                    raise TimeoutError(f"rank {self.rank}: no packet in "
                                       f"{self._sh.timeout} s") from None
                return None
            if item is None:
                raise threading.BrokenBarrierError("another rank failed")
            t, source, packet = item
            if t == tag:
                return source, packet
            self._pending.append(item)
