"""Distributed BFS on the array backend: the thesis's multi-GPU system (chapter 4, 4.4).

Every rank holds its local CSR on its own device (``get_backend("gpu", local_rank=...)``:
the GPU of its node-local rank) and runs Algorithm 4 with whole-array steps of
``primitives.xp_steps``, the same code on CuPy and, in CI, on NumPy standing in for the device:

1. **expand** (4.3.2 A-B): ``queue_offsets`` and ``gather`` make the next-level frontier
   (NLF, global neighbour ids) with its parent payload (the queued vertex's global id), one
   work item per entry; entries this rank owns and has visited are dropped on the spot.
2. **prune** by ``prune`` (as in ``distributed.search1d``): ``sort-unique`` sorts (owner,
   local id, parent) packed in one 64-bit key and keeps the first of each vertex, which also
   groups the entries by owner; ``none`` only groups them by owner (every copy is sent);
   ``bitmap`` drops the vertices this rank has sent before in the search (a per-vertex
   mask) and keeps one entry per vertex with ``claim`` (a scatter of tickets, no sort).
3. **exchange**: counts on the host, then the ``(local id at the owner, parent)`` rows with
   ``DeviceExchange.alltoallv``: device buffers handed to a CUDA-aware MPI, or staged through
   host memory.
4. **filter**: the own block and the received rows drop visited vertices; ``claim`` keeps
   one row per vertex, which sets its parent and joins the next queue.

   ``pipeline`` (thesis 5.2, "CUDA streams on a device"; ``--pipeline``): steps 2-3 per
   owner. The NLF is split by owner (one read: the entries per owner), then each peer's
   block is pruned on one of two CUDA streams while the block before it is read back and
   sent (a packet, non-blocking), the own block last; the packets are claimed together in
   rank order, as the all-at-once exchange claims them (the same rows, bytes and parents).
   Messages are staged through host memory either way.

``direction-optimizing`` runs bottom-up levels by the same switch as ``distributed.search1d``
(``distributed.level_loop.LevelLoop``): the ranks allgather their frontier masks (packed to
bits, through the same exchange) and each finds parents for its own unvisited vertices: on a
GPU with the embedded search's kernel (``primitives.cuda_steps.bottom_up_level``: a thread per
candidate, stopping at its first frontier neighbour), elsewhere with ``bottom_up_step`` (whole
lists gathered). The statistics are ``distributed.LEVEL_FIELDS``, so reports and
``--levels`` are the CPU engine's.

The state stays on the device and every shape is known on the host (``primitives.xp_steps``:
elements that go nowhere are written to spare slots, never filtered by a mask). A top-down
level reads back twice, both for MPI, whose calls take host numbers: the message counts per
rank (step 3), and the vertices found with their edges for the termination allreduce; a
bottom-up level reads once. The exchange synchronises too (MPI reads the buffers). Phase times
are device-timeline marks, added to the statistics after the search.
"""
from __future__ import annotations

import contextlib
import dataclasses

import numpy as np

from ..backend.checked import PerLevel
from ..primitives.xp_steps import (SPARE, bottom_up_step, claim, compact, gather, put,
                                   queue_offsets, read_counts, sort_unique, spill)
from .build import DistGraph
from .device import DeviceExchange
from .level_loop import LevelLoop
from .modes import DEFAULT_DIST_ALGORITHM, DEFAULT_PRUNE, check_modes
from .partition import Partition1D, vertex_dtype
from .search1d import LEVEL_TAG

__all__ = ["DistArraySearcher", "device_graph", "estimate_device_bytes"]


def estimate_device_bytes(part: Partition1D, entries: int, prune: str) -> int:
    """Peak device bytes of one rank's searches (``entries``: its adjacency entries): its
    CSR, per-vertex arrays (parent, tickets, degrees, two queues, two candidate lists), the
    frontier masks of a bottom-up level (local and global) and, for ``bitmap``, a mask and
    tickets over every vertex; a level's NLF at its worst (every local adjacency entry:
    vertex, parent, owner, local id, key, its sorted copy, places: int64 each) and its
    messages (send and receive rows of two vertex ids)."""
    n, nl = part.num_vertices, part.num_local
    b = np.dtype(vertex_dtype(n)).itemsize
    per_vertex = 8 * (nl + 1) + b * entries + 7 * 8 * (nl + 1) + 2 * part.max_local + n
    if prune == "bitmap":
        per_vertex += 9 * (n + 1)
    return per_vertex + 7 * 8 * entries + 2 * 2 * b * entries


def device_graph(graph: DistGraph, backend) -> DistGraph:
    """The rank's graph with its CSR on the backend's device (neighbour ids keep their
    dtype, int32 below 2**31 vertices); ``column`` (compact labels of the compiled bitmap
    mode) is not carried."""
    return dataclasses.replace(graph, indptr=backend.to_device(graph.indptr, np.int64),
                               indices=backend.to_device(graph.indices),
                               column=None, num_columns=0)


class DistArraySearcher(LevelLoop):
    """Distributed searches of one device-resident DistGraph (``device_graph``) on
    ``backend`` (an ArrayBackend), moving arrays with ``exchange`` (a DeviceExchange).
    Per-vertex arrays have SPARE spare slots after their ``nl`` (the bitmap's: ``n``)
    entries (``primitives.xp_steps.spill``)."""

    def __init__(self, comm, graph: DistGraph, backend, exchange: DeviceExchange | None = None,
                 prune: str = DEFAULT_PRUNE, algorithm: str = DEFAULT_DIST_ALGORITHM,
                 kernel: bool | None = None, pipeline: bool = False):
        """``kernel``: bottom-up levels by the numba.cuda kernel (default: on a device; True
        under numba's CUDA simulator runs it on NumPy arrays, for tests). ``pipeline``: a
        top-down level's exchange pipelined (see the module docstring)."""
        check_modes(prune, algorithm)
        xp = backend.xp
        self.kernel = backend.on_cuda if kernel is None else kernel
        self.comm, self.graph, self.backend = comm, graph, backend
        self.exchange = exchange if exchange is not None else DeviceExchange(comm, backend)
        self.prune = prune
        self.switches_direction = algorithm == "direction-optimizing"
        part = graph.part
        self.size, self.rank = comm.size, comm.rank
        self.streams = [backend.stream(), backend.stream()] if pipeline and self.size > 1 else None
        self.n, self.nl, self.ml = part.num_vertices, part.num_local, part.max_local
        nl = self.nl
        self.itype = vertex_dtype(self.n)
        self.tickets = xp.empty(nl + SPARE, dtype=np.int64)
        if prune == "bitmap":
            self.sent = xp.zeros(self.n + SPARE, dtype=bool)
            self.sent_tickets = xp.empty(self.n + SPARE, dtype=np.int64)
        self.num_entries = int(comm.allreduce(graph.indices.shape[0])) if self.switches_direction else 0
        self.deg = xp.zeros(nl + 1, dtype=np.int64)
        self.deg[:nl] = graph.indptr[1:] - graph.indptr[:-1]
        self.linked = xp.flatnonzero(self.deg[:nl])  # local vertices a bottom-up level may reach
        self.queues = [xp.empty(nl + SPARE, dtype=np.int64) for _ in range(2)]
        self.sizes = xp.zeros(3, dtype=np.int64)
        if self.switches_direction:
            self.front = xp.zeros(self.ml, dtype=bool)
            self.cands = [xp.empty(nl + SPARE, dtype=np.int64) for _ in range(2)]
        self._pbuf = None
        self.cur = self.nq = self.m = self.m_u = self.unvisited = 0
        self.held = None  # candidates in cands[0]; None: none made in this search yet
        self._marks, self._checked = [], PerLevel(None)

    @property
    def queue(self):
        return self.queues[self.cur][:self.nq]

    def search(self, root: int):
        """LevelLoop's search; then the device's phase times (and on numpy-checked each
        level's host synchronisations, the exchange's apart, and allocations) join the
        statistics, read once."""
        self._marks, self._checked = [], PerLevel(self.backend.checks)
        result = super().search(root)
        sec = self.backend.seconds
        t = np.array([[sec(a, b), sec(b, c), sec(c, d)] for a, b, c, d in self._marks],
                     dtype=np.float64).reshape(-1, 3)
        lv = result.levels
        lv["comp_time"] = lv["comp_time"] + t[:, 0] + t[:, 2]
        lv["comm_time"] = lv["comm_time"] + t[:, 1]
        lv["time"] = lv["time"] + t.sum(axis=1)
        lv.update(self._checked.columns(apart="exchange_syncs"))
        return result

    def _end_level(self, marks, nq, degsum, extra=0):
        """The level's end: its one read after the exchange (the next queue's length, its
        edges, ``extra``), the marks kept, the counts snapshotted."""
        nq, degsum, extra = read_counts(self.backend, self.sizes, nq, degsum, extra)
        marks.append(self.backend.mark())
        self.nq, self.m, self.cur = nq, degsum, 1 - self.cur
        self.unvisited -= nq
        self.m_u -= degsum
        self._marks.append(marks)
        self._checked.mark()
        return nq, degsum, extra

    def _exchange(self, name, *args):
        """The exchange's call (its synchronisations counted ``_apart``)."""
        with self._apart():
            return getattr(self.exchange, name)(*args)

    def _apart(self):
        """On numpy-checked, the exchange's synchronisations counted apart (MPI's, or the
        pipelined blocks' reads); elsewhere nothing."""
        checks = self.backend.checks
        return contextlib.nullcontext() if checks is None else checks.apart()

    def _start(self, root: int):
        xp = self.backend.xp
        self._pbuf = xp.full(self.nl + SPARE, -1, dtype=np.int64)
        parent = self._pbuf[:self.nl]
        self.cur, self.nq, self.m, self.held = 0, 0, 0, None
        if self.prune == "bitmap":
            self.sent.fill(False)
        if self.graph.part.owner(root) == self.rank:
            loc = self.graph.part.local(root)
            parent[loc] = root
            self.queues[0][0] = loc
            self.nq = 1
            self.m, = read_counts(self.backend, self.sizes, self.deg[loc])
        self.unvisited = self.linked.shape[0] - (self.m > 0)
        self.m_u = self.graph.indices.shape[0] - self.m
        self._checked.mark()  # the levels' counts start here
        return parent, self.nq, self.m

    def _prune(self, v, p, owner, lid, keep):
        """(owner, local id, parent, send) in the order of the send buffer: the entries to
        send marked, grouped by owner."""
        xp, size = self.backend.xp, self.size
        if self.prune == "sort-unique":  # (owner, local id) owner-major, < size * ml
            key, par, first = sort_unique(xp, owner * self.ml + lid, p, keep, self.n,
                                          size * self.ml)
            owner = key // self.ml
            return owner, key - owner * self.ml, par, first
        if self.prune == "bitmap":  # one entry per vertex never sent before in the search
            slots = spill(xp, v.shape[0], self.n)
            keep = claim(xp, v, keep & ~self.sent[v], self.sent_tickets, slots)
            put(xp, self.sent, v, True, keep, slots)
        order = xp.argsort(xp.where(keep, owner, size), kind="stable")
        return owner[order], lid[order], p[order], keep[order]

    def _accept(self, lid, par, slots):
        """Which rows (local id, parent) give a new vertex its parent: one per vertex."""
        xp = self.backend.xp
        new = self._pbuf[lid] < 0
        take = claim(xp, lid, new, self.tickets, slots)
        put(xp, self._pbuf, lid, par, take, slots)
        return take

    def _top_down_level(self, parent, qlen):
        be, g = self.backend, self.graph
        xp, size, rank, nl = be.xp, self.size, self.rank, self.nl
        marks = [be.mark()]
        q, m = self.queue, self.m
        start, newoff, _ = queue_offsets(xp, g.indptr, q)
        v, p = gather(xp, g.indices, q * size + rank, start, newoff, m)
        owner, lid = v % size, v // size
        own = owner == rank
        keep = ~(own & (self._pbuf[xp.where(own, lid, nl)] >= 0))  # own visited: dropped
        exchange = self._all_at_once if self.streams is None else self._pipelined
        counts, mine, got, recvcounts = exchange(v, p, owner, lid, keep, marks)
        mine, got = mine.astype(np.int64), got.astype(np.int64)
        local = mine.shape[0]
        lids = xp.concatenate([mine[:, 0], got[:, 0]])
        slots = spill(xp, lids.shape[0], nl)
        won_local = self._accept(mine[:, 0], mine[:, 1], slots[:local])
        wins = xp.concatenate([won_local, self._accept(got[:, 0], got[:, 1], slots[local:])])
        nq = compact(xp, wins, lids, self.queues[1 - self.cur], slots)
        # read 2 of 2: the vertices found (for the termination allreduce) and their edges
        found, degsum, found_local = self._end_level(
            marks, nq, xp.where(wins, self.deg[lids], 0).sum(), xp.count_nonzero(won_local))
        width = np.dtype(self.itype).itemsize * 2
        pruned = int(counts.sum())
        sent, received = pruned - local, int(recvcounts.sum())
        row = [0, qlen, m, pruned, local, sent, sent * width, received, received * width,
               found_local, found - found_local, 0.0, 0.0, 0.0]
        return row, found, degsum

    def _rows(self, v, p, owner, lid, keep):
        """Steps 2 on NLF entries: (the rows (local id, parent) to send, grouped by owner, on
        the device; their number, still on the device; the entries per owner)."""
        xp, size = self.backend.xp, self.size
        owner, lid, par, send_it = self._prune(v, p, owner, lid, keep)
        m = send_it.shape[0]
        rows = xp.empty((m + SPARE, 2), dtype=self.itype)
        count = compact(xp, send_it, xp.stack([lid, par], axis=1).astype(self.itype), rows,
                        spill(xp, m, m))
        return rows, count, xp.where(send_it, owner, size)

    def _all_at_once(self, v, p, owner, lid, keep, marks):
        """Steps 2-3 as thesis 4.3.2 has them: prune the whole NLF, one alltoallv. Returns
        (rows per owner, on the host; the own rows and the received ones, on the device;
        rows received per source, on the host)."""
        be, xp, size, rank = self.backend, self.backend.xp, self.size, self.rank
        rows, _, owners = self._rows(v, p, owner, lid, keep)
        # read 1 of 2: the message counts (MPI takes them from the host)
        counts = be.to_host(xp.bincount(owners, minlength=size + 1))[:size].astype(np.int64)
        displs = np.zeros(size, dtype=np.int64)
        np.cumsum(counts[:-1], out=displs[1:])
        send = rows[:int(counts.sum())]
        sendcounts = counts.copy()
        sendcounts[rank] = 0
        marks.append(be.mark())
        recv, recvcounts = self._exchange("alltoallv", send, sendcounts, displs)
        marks.append(be.mark())
        return counts, send[displs[rank]:displs[rank] + counts[rank]], recv, recvcounts

    def _pipelined(self, v, p, owner, lid, keep, marks):
        """Steps 2-3 pipelined (thesis 5.2): the NLF split by owner, each peer's block pruned
        on one of the two streams while the block before it is read back and sent as a
        packet; the own block last. Returns what ``_all_at_once`` does."""
        be, xp, size, rank = self.backend, self.backend.xp, self.size, self.rank
        order = xp.argsort(owner, kind="stable")
        # the split's one read: the entries per owner (the device idles until it is back)
        bounds = np.zeros(size + 1, dtype=np.int64)
        np.cumsum(be.to_host(xp.bincount(owner, minlength=size))[:size], out=bounds[1:])
        counts = np.zeros(size, dtype=np.int64)
        requests, pending, mine = [], None, None
        with self._apart():
            for step in range(1, size + 1):  # the peers after this rank first, the own last
                d = (rank + step) % size
                stream = self.streams[step % 2]
                with stream:
                    block = order[bounds[d]:bounds[d + 1]]
                    rows, count, _ = self._rows(v[block], p[block], owner[block], lid[block],
                                                keep[block])
                if pending is not None:  # the block before: read back and sent meanwhile
                    requests.append(self._send_block(*pending, counts))
                pending = (stream, d, rows, count)
            mine = self._send_block(*pending, counts)  # d == rank: it stays
        marks.append(be.mark())
        recvcounts, arrived = np.zeros(size, dtype=np.int64), {}
        while len(arrived) < size - 1:
            source, packet = self.comm.recv_packet(LEVEL_TAG)
            arrived[source] = packet.view(self.itype).reshape(-1, 2)
            recvcounts[source] = arrived[source].shape[0]
        for request in requests:
            request.wait()
        got = np.concatenate([arrived[r] for r in sorted(arrived)]) if arrived else \
            np.empty((0, 2), dtype=self.itype)
        got = be.to_device(got)
        marks.append(be.mark())
        return counts, mine, got, recvcounts

    def _send_block(self, stream, dest, rows, count, counts):
        """Block ``dest``'s rows, once its stream is done: sent (the request) or, for this
        rank's own block, kept on the device (the rows)."""
        stream.synchronize()  # a read may go through another stream than the block's
        with stream:
            c = int(count)
            counts[dest] = c
            if dest == self.rank:
                return rows[:c]
            packet = self.backend.to_host(rows[:c])
        return self.comm.isend(packet.view(np.uint8).reshape(-1), dest, LEVEL_TAG)

    def _queue_to_frontier(self, qlen: int) -> None:
        """The frontier mask of the queue, and the candidates: the unvisited vertices with
        neighbours (``unvisited`` of them, counted on the host)."""
        xp = self.backend.xp
        self.front.fill(False)
        self.front[self.queue] = True
        cand = self.linked if self.held is None else self.cands[0][:self.held]
        compact(xp, self._pbuf[cand] < 0, cand, self.cands[1], spill(xp, cand.shape[0], self.nl))
        self.cands.reverse()
        self.held = self.unvisited

    def _frontier_to_queue(self) -> int:
        return self.nq  # every bottom-up level leaves its frontier as the queue too

    def _bottom_up_level(self, parent, qlen):
        be, g = self.backend, self.graph
        xp = be.xp
        marks = [be.mark()]
        bits = xp.packbits(self.front)
        marks.append(be.mark())
        gathered = self._exchange("allgather", bits)
        marks.append(be.mark())
        # global vertex u = l * P + r: the (ml, P) layout of the ranks' masks, flattened
        masks = xp.unpackbits(gathered.reshape(-1)).reshape(self.size, -1)[:, :self.ml]
        front = masks.T.reshape(-1)[:self.n].astype(bool)
        cand, scanned = self.cands[0][:self.held], self.m_u
        if self.kernel:  # it writes the mask, the queue and the candidates left itself
            from ..primitives.cuda_steps import bottom_up_search_step

            row = xp.zeros(3, dtype=np.int64)  # found, their edges, left
            bottom_up_search_step(xp, g.indptr, g.indices, self._pbuf, None, 0, front, cand,
                                  self.front, self.queues[1 - self.cur], self.cands[1], row)
            nq, degsum = row[0], row[1]
        else:
            slots = spill(xp, scanned, self.nl)
            found, deg = bottom_up_step(xp, g.indptr, g.indices, self._pbuf, None, 0, front,
                                        cand, scanned, slots)
            self.front.fill(False)
            self.front[cand] = found
            slots = slots[:self.held]
            compact(xp, ~found, cand, self.cands[1], slots)  # the candidates left
            nq = compact(xp, found, cand, self.queues[1 - self.cur], slots)  # to switch back
            degsum = xp.where(found, deg, 0).sum()
        nfound, degsum, _ = self._end_level(marks, nq, degsum)
        self.held -= nfound
        self.cands.reverse()
        nbytes = int(bits.shape[0]) * (self.size - 1)
        row = [1, qlen, scanned, 0, 0, 0, nbytes, 0, nbytes, nfound, 0, 0.0, 0.0, 0.0]
        return row, nfound, degsum
