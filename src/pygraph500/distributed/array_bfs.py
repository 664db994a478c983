"""Distributed BFS on the array backend: the thesis's multi-GPU system (chapter 4, 4.4).

Every rank holds its local CSR on its own device (``get_backend("gpu", local_rank=...)``:
the GPU of its node-local rank) and runs Algorithm 4 with whole-array steps of
``primitives.arrays``, the same code on CuPy and, in CI, on NumPy standing in for the device:

1. **expand** (4.3.2 A-B): ``queue_offsets`` and ``gather`` make the next-level frontier
   (NLF, global neighbour ids) with its parent payload (the queued vertex's global id), one
   work item per entry; entries this rank owns and has visited are dropped on the spot.
2. **prune** by ``prune`` (as in ``distributed.search``): ``sort-unique`` sorts (owner,
   local id, parent) packed in one 64-bit key and keeps the first of each vertex, which also
   groups the entries by owner; ``none`` only groups them by owner (every copy is sent);
   ``bitmap`` drops the vertices this rank has sent before in the search (a per-vertex
   mask) and keeps one entry per vertex with ``claim`` (a scatter of tickets, no sort).
3. **exchange**: counts on the host, then the ``(local id at the owner, parent)`` rows with
   ``DeviceExchange.alltoallv``: device buffers handed to a CUDA-aware MPI, or staged through
   host memory.
4. **filter**: the own block and the received rows drop visited vertices; ``claim`` keeps
   one row per vertex, which sets its parent and joins the next queue.

``direction-optimizing`` runs bottom-up levels by the same switch as ``distributed.search``
(``distributed.level_loop.LevelLoop``): the ranks allgather their frontier masks (packed to
bits, through the same exchange) and each finds parents for its own unvisited vertices with
``bottom_up_step``. The statistics are ``distributed.LEVEL_FIELDS``, so reports and
``--levels`` are the CPU engine's.
"""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from ..primitives.arrays import bottom_up_step, claim, gather, queue_offsets
from .build import DistGraph
from .device import DeviceExchange
from .level_loop import LevelLoop
from .modes import DEFAULT_DIST_ALGORITHM, DEFAULT_PRUNE, check_modes
from .partition import Partition1D, vertex_dtype

__all__ = ["DistArraySearcher", "device_graph", "estimate_device_bytes"]


def estimate_device_bytes(part: Partition1D, entries: int, prune: str) -> int:
    """Peak device bytes of one rank's searches (``entries``: its adjacency entries): its
    CSR, per-vertex arrays (parent, tickets, queues, masks), the global frontier mask of a
    bottom-up level and, for ``bitmap``, a mask and tickets over every vertex; a level's NLF
    at its worst (every local adjacency entry: vertex, parent, owner, key and sort output,
    int64 each) and its messages (send and receive rows of two vertex ids)."""
    n, nl = part.num_vertices, part.num_local
    b = np.dtype(vertex_dtype(n)).itemsize
    per_vertex = 8 * (nl + 1) + b * entries + 4 * 8 * nl + 2 * part.max_local + n
    if prune == "bitmap":
        per_vertex += 9 * n
    return per_vertex + 5 * 8 * entries + 2 * 2 * b * entries


def device_graph(graph: DistGraph, backend) -> DistGraph:
    """The rank's graph with its CSR on the backend's device (neighbour ids keep their
    dtype, int32 below 2**31 vertices); ``column`` (compact labels of the compiled bitmap
    mode) is not carried."""
    return dataclasses.replace(graph, indptr=backend.to_device(graph.indptr, np.int64),
                               indices=backend.to_device(graph.indices),
                               column=None, num_columns=0)


class DistArraySearcher(LevelLoop):
    """Distributed searches of one device-resident DistGraph (``device_graph``) on
    ``backend`` (an ArrayBackend), moving arrays with ``exchange`` (a DeviceExchange)."""

    def __init__(self, comm, graph: DistGraph, backend, exchange: DeviceExchange | None = None,
                 prune: str = DEFAULT_PRUNE, algorithm: str = DEFAULT_DIST_ALGORITHM):
        check_modes(prune, algorithm)
        xp = backend.xp
        self.comm, self.graph, self.backend = comm, graph, backend
        self.exchange = exchange if exchange is not None else DeviceExchange(comm, backend)
        self.prune = prune
        self.hybrid = algorithm == "direction-optimizing"
        part = graph.part
        self.size, self.rank = comm.size, comm.rank
        self.n, self.nl, self.ml = part.num_vertices, part.num_local, part.max_local
        self.itype = vertex_dtype(self.n)
        self.tickets = xp.empty(self.nl, dtype=np.int64)
        self._parent = None
        if prune == "bitmap":
            self.sent = xp.zeros(self.n, dtype=bool)
            self.sent_tickets = xp.empty(self.n, dtype=np.int64)
        self.num_entries = int(comm.allreduce(graph.num_entries)) if self.hybrid else 0
        deg = graph.indptr[1:] - graph.indptr[:-1]
        self.linked = xp.flatnonzero(deg > 0)  # local vertices a bottom-up level may reach
        self.queue = xp.zeros(0, dtype=np.int64)
        self.front = None
        self.cand = None

    def _clock(self) -> float:
        self.backend.synchronize()
        return time.perf_counter()

    def _start(self, root: int):
        xp = self.backend.xp
        parent = xp.full(self.nl, -1, dtype=np.int64)
        self._parent, self.cand = parent, None
        if self.prune == "bitmap":
            self.sent[:] = False
        if self.graph.part.owner(root) != self.rank:
            self.queue = xp.zeros(0, dtype=np.int64)
            return parent, 0, 0
        loc = self.graph.part.local(root)
        parent[loc] = root
        self.queue = xp.full(1, loc, dtype=np.int64)
        return parent, 1, int(self.graph.indptr[loc + 1] - self.graph.indptr[loc])

    def _prune(self, v, p):
        """(owner of each kept entry, its local id there, its parent), grouped by owner."""
        xp, size = self.backend.xp, self.size
        if self.prune == "sort-unique":
            key = (v % size) * self.ml + v // size       # owner-major, < size * ml
            keys = xp.sort(key * self.n + p)
            key = keys // self.n
            first = xp.empty(key.shape[0], dtype=bool)
            first[:1] = True
            first[1:] = key[1:] != key[:-1]
            key = key[first]
            owner = key // self.ml
            return owner, key - owner * self.ml, keys[first] - key * self.n
        if self.prune == "bitmap":
            new = ~self.sent[v]
            v, p = claim(xp, v[new], p[new], self.sent_tickets)
            self.sent[v] = True
        order = xp.argsort(v % size, kind="stable")
        v, p = v[order], p[order]
        return v % size, v // size, p

    def _accept(self, parent, lid, par):
        """The new vertices among rows (local id, parent): each gets one parent."""
        new = parent[lid] < 0
        lid, par = claim(self.backend.xp, lid[new], par[new], self.tickets)
        parent[lid] = par
        return lid

    def _degree_sum(self, q) -> int:
        ip = self.graph.indptr
        return int((ip[q + 1] - ip[q]).sum()) if q.shape[0] else 0

    def _top_down_level(self, parent, qlen):
        xp, g = self.backend.xp, self.graph
        size, rank = self.size, self.rank
        t0 = self._clock()
        q = self.queue
        start, newoff, m = queue_offsets(xp, g.indptr, q)
        v, p = gather(xp, g.indices, q * size + rank, start, newoff, m)
        own = xp.flatnonzero(v % size == rank)
        keep = xp.ones(v.shape[0], dtype=bool)
        keep[own[parent[v[own] // size] >= 0]] = False
        owner, lid, par = self._prune(v[keep], p[keep])
        counts = self.backend.to_host(xp.bincount(owner, minlength=size)).astype(np.int64)
        displs = np.zeros(size, dtype=np.int64)
        np.cumsum(counts[:-1], out=displs[1:])
        send = xp.stack([lid, par], axis=1).astype(self.itype)
        pruned, local = int(counts.sum()), int(counts[rank])
        sendcounts = counts.copy()
        sendcounts[rank] = 0
        t1 = self._clock()
        recv, recvcounts = self.exchange.alltoallv(send, sendcounts, displs)
        t2 = self._clock()
        mine = send[displs[rank]:displs[rank] + local].astype(np.int64)
        got = recv.astype(np.int64)
        new_local = self._accept(parent, mine[:, 0], mine[:, 1])
        new_recv = self._accept(parent, got[:, 0], got[:, 1])
        self.queue = xp.concatenate([new_local, new_recv])
        nqlen = int(self.queue.shape[0])
        degsum = self._degree_sum(self.queue) if self.hybrid else 0
        t3 = self._clock()
        width = np.dtype(self.itype).itemsize * 2
        sent, received = pruned - local, int(recvcounts.sum())
        row = [0, qlen, m, pruned, local, sent, sent * width, received, received * width,
               int(new_local.shape[0]), nqlen - int(new_local.shape[0]),
               (t1 - t0) + (t3 - t2), t2 - t1, t3 - t0]
        return row, nqlen, degsum

    def _queue_to_frontier(self, qlen: int) -> None:
        xp = self.backend.xp
        self.front = xp.zeros(self.ml, dtype=bool)
        self.front[self.queue] = True
        cand = self.linked if self.cand is None else self.cand  # the unvisited among them
        self.cand = cand[self._parent[cand] < 0]

    def _frontier_to_queue(self) -> int:
        self.queue = self.backend.xp.flatnonzero(self.front)
        return int(self.queue.shape[0])

    def _bottom_up_level(self, parent, qlen):
        xp, g = self.backend.xp, self.graph
        t0 = self._clock()
        bits = xp.packbits(self.front)
        t1 = self._clock()
        gathered = self.exchange.allgather(bits)
        t2 = self._clock()
        # global vertex u = l * P + r: the (ml, P) layout of the ranks' masks, flattened
        masks = xp.unpackbits(gathered.reshape(-1)).reshape(self.size, -1)[:, :self.ml]
        front = masks.T.reshape(-1)[:self.n].astype(bool)
        found, self.cand, scanned = bottom_up_step(xp, g.indptr, g.indices, parent, None, 0,
                                                   front, self.cand)
        self.front = xp.zeros(self.ml, dtype=bool)
        self.front[found] = True
        self.queue = found
        degsum = self._degree_sum(found)
        t3 = self._clock()
        nbytes = int(bits.shape[0]) * (self.size - 1)
        nfound = int(found.shape[0])
        row = [1, qlen, int(scanned), 0, 0, 0, nbytes, 0, nbytes, nfound, 0,
               (t1 - t0) + (t3 - t2), t2 - t1, t3 - t0]
        return row, nfound, degsum
