"""Distributed level-synchronous BFS over a 1D partition (thesis Algorithm 4 with 4.3.2).

Every rank owns the vertices ``v % P == rank``. Two algorithms (``DIST_ALGORITHMS``):
``"topdown-queue"`` runs every level top-down as below (the thesis's algorithm);
``"direction-optimizing"`` (the default, as in the embedded engine) runs the same top-down
levels while the frontier is small and bottom-up levels when its edges outweigh the
unvisited vertices' (Beamer's switch, ``ALPHA`` / ``BETA``): the ranks allgather their
frontier bitmaps and each finds parents for its own unvisited vertices.

One top-down level, on every rank:

1. **expand** (4.3.2 A-B): the degrees of the current queue are prefix-summed (``m``, the
   size of the next-level frontier NLF, is the last sum); the m entries are cut into equal
   chunks, each chunk finds its first queue vertex by binary search in the prefix sums and
   writes its entries ``(owner-major key of v, parent u)`` contiguously into the NLF arrays
   (perfect load balance whatever the degrees). A neighbour owned by this rank that is
   already visited is dropped on the spot (a local look-up, Algorithm 4 line 17), unless
   ``drop_visited=False``: the thesis's step C prunes the whole NLF, visited or not, so its
   Table 4.1 (UR = pruned / NLF, LV, NLQ) is counted as the thesis counts it; the parents
   are the same (step 4 filters the visited).
2. **prune** (4.3.2 C) by ``prune``:

   - ``"sort-unique"`` (default): the NLF is sorted by (owner, local id) carrying the parent
     as payload (packed in the same 64-bit word when it fits), and only the first entry of
     each vertex is kept; the sort also groups the entries by owner, which is the split of
     step D. LSD radix passes sort down to blocks of 2**UNIQUE_BITS vertices; inside a block
     a bitmap keeps the first entry of each vertex instead of a last sort pass.
   - ``"none"``: the straightforward version of 4.2.3: every remote neighbour is sent, copies
     included (a counting sort by owner makes the blocks).
   - ``"bitmap"`` (thesis 5.3, the space-time trade-off): every rank keeps a bitmap over its
     compact neighbour labels (``DistGraph.column``); a remote vertex is sent the first time
     the rank meets it in the whole search and never again (a test-and-set per entry, no
     sort).

3. **exchange** (4.3.2 D): counts, then the ``(local id at the owner, parent)`` pairs with
   alltoallv; the rank's own block never leaves it.
4. **filter**: the received pairs (and the own block) are checked against the local visited
   bitmap; a new vertex gets its parent and joins the next queue. A vertex found by several
   ranks gets the parent of the own block, else of the lowest source rank, whatever order
   the blocks are claimed in, and the next queue is sorted (``claim_unvisited``,
   ``fresh_to_queue``): the tree does not depend on when blocks arrive.

   ``pipeline`` (thesis 5.2; ``--pipeline``): steps 2-4 per owner. The NLF is grouped by
   owner (sort-unique's radix passes, whose last sorts by owner; else a stable counting
   sort), each peer's block is pruned (made unique) and sent as a packet while the next
   block is pruned, the own block last and claimed while the packets travel; the
   received blocks are filtered as they arrive. Every row, byte and parent is the
   all-at-once exchange's (but the counts, which a packet's length replaces). A level whose
   frontier has fewer than ``PIPELINE_ROWS`` edges per pair of ranks is pruned whole, then
   sent, and its received blocks claimed together.
5. **terminate**: an allreduce of the next queues' sizes (Algorithm 4 line 35).

Here ``DistSearcher`` keeps a rank's buffers and runs the steps; their compiled kernels are
in ``distributed.kernels1d`` and ``distributed.sort_unique``, the level loop and Beamer's
switch in ``distributed.level_loop`` (shared with the array searcher), the modes in
``distributed.modes``.

Measured per level on every rank (the fields of thesis Table 4.1, Table 4.2 and Fig. 4.13):
``LEVEL_FIELDS`` (``distributed.level_loop``). ``comp_time`` is the time in steps 1, 2 and 4,
``comm_time`` in 3 and 5 (waiting for slower ranks included, as an MPI profile shows it).
Bytes are the payload of the data alltoallv (pairs of vertex ids, ``vertex_dtype``); the
counts exchange adds ``8 (P - 1)`` bytes per level per rank.
"""
from __future__ import annotations

import time

import numba
import numpy as np

from ..errors import InputError
from ..primitives.bitmaps import ONE
from .build import DistGraph
from .comm import KeptBuffers
from .kernels1d import (bits_to_queue, bottom_up_scan, claim_unvisited, expand_queue,
                        fresh_to_queue, group_by_owner, queue_to_bits, split_by_owner)
from .level_loop import DistBFSResult, LevelLoop
from .modes import DEFAULT_DIST_ALGORITHM, DEFAULT_PRUNE, check_modes
from .partition import owner_split, vertex_dtype
from .sort_unique import radix_sort, sort_unique

__all__ = ["DistSearcher", "bfs_dist", "PACK_PARENTS", "UNIQUE_BITS", "PIPELINE_ROWS"]

# The searcher's tunables, read when a searcher is made (tests change them here).
# Pack (NLF key, parent) into one int64 word when both fit (up to about SCALE 30); else the
# parent travels in its own array.
PACK_PARENTS = True
# sort-unique: radix passes sort the keys down to blocks of 2**UNIQUE_BITS keys, a bitmap
# makes each block unique (``distributed.sort_unique``).
UNIQUE_BITS = 15
# A pipelined level's packets (the 2D fold's are 7).
LEVEL_TAG = 5
# With --pipeline, a top-down level whose frontier has fewer edges than this many per pair
# of ranks is pruned whole before its packets leave, and the packets it receives are claimed
# together: calls per block (some microseconds each, in Python) would cost more than they
# overlap. Read at call time.
PIPELINE_ROWS = 4096



class DistSearcher(LevelLoop):
    """Distributed searches of one DistGraph with one algorithm and pruning mode. Buffers
    (NLF, sort scratch, messages, queues) are kept from search to search: fresh memory is slow
    on virtual machines, and a level's arrays can be as large as the rank's adjacency.

    ``algorithm``: ``"topdown-queue"`` (thesis Algorithm 4, every level top-down) or
    ``"direction-optimizing"`` (Beamer's switch, as the embedded algorithm of that name, with
    ``ALPHA`` and ``BETA``: a level whose frontier's edges outweigh the unvisited vertices'
    edges / ALPHA runs bottom-up: the ranks allgather their frontier bitmaps, N/8 bytes in
    all, and every rank looks for parents of its own unvisited vertices; nothing else moves).
    """

    def __init__(self, comm, graph: DistGraph, prune: str = DEFAULT_PRUNE,
                 algorithm: str = DEFAULT_DIST_ALGORITHM, pipeline: bool = False,
                 drop_visited: bool = True):
        check_modes(prune, algorithm)
        if prune == "bitmap" and graph.column is None:
            raise InputError("prune bitmap needs the graph built with compact columns "
                             "(build_dist(..., compact_columns=True))", "prune")
        self.comm = comm
        self.graph = graph
        self.prune = prune
        self.pipeline = pipeline
        self.drop_visited = drop_visited
        self.switches_direction = algorithm == "direction-optimizing"
        part = graph.part
        self.size = comm.size
        self.rank = comm.rank
        self.itype = vertex_dtype(part.num_vertices)
        # owner_local's arguments after the vertex (``kernels1d``'s ``split``)
        self.split = owner_split(self.size)
        # NLF key: owner << lbits | local id; with the parent packed below it when it fits
        self.lbits = max(1, (part.max_local - 1).bit_length())
        self.key_bits = self.lbits + (self.size - 1).bit_length()
        vbits = max(1, (part.num_vertices - 1).bit_length())
        self.pbits = vbits if PACK_PARENTS and self.key_bits + vbits <= 63 else 0
        self.unique_bits = UNIQUE_BITS
        nl = part.num_local
        self.visited = np.zeros((nl + 63) // 64, dtype=np.uint64)
        # a top-down level's vertices claimed so far (``claim_unvisited``)
        self.fresh = np.zeros_like(self.visited)
        self.seen = np.zeros((graph.num_columns + 63) // 64 if prune == "bitmap" else 1,
                             dtype=np.uint64)
        column = graph.column if prune == "bitmap" else np.zeros(1, dtype=self.itype)
        self.pruning = (prune == "bitmap", self.seen, column)
        self.queue = np.empty(max(1, nl), dtype=np.int64)
        self.next = np.empty(max(1, nl), dtype=np.int64)
        # bottom-up: this rank's frontier / next bitmaps, padded to the largest rank's words
        self.words = (part.max_local + 63) // 64
        self.num_entries = int(comm.allreduce(graph.num_entries)) if self.switches_direction else 0
        self.linked = np.zeros_like(self.visited)
        if self.switches_direction:
            deg = graph.degree()
            queue_to_bits(np.flatnonzero(deg > 0), np.int64(int((deg > 0).sum())), self.linked)
        self._bufs = KeptBuffers()

    def _start(self, root: int):
        g = self.graph
        parent = np.full(g.num_local, -1, dtype=np.int64)
        self.visited[:] = 0
        if self.prune == "bitmap":
            self.seen[:] = 0
        if g.part.owner(root) != self.rank:
            return parent, 0, 0
        loc = g.part.local(root)
        parent[loc] = root
        self.visited[loc >> 6] |= ONE << np.uint64(loc & 63)
        self.queue[0] = loc
        return parent, 1, int(g.indptr[loc + 1] - g.indptr[loc])

    def _queue_to_frontier(self, qlen: int) -> None:
        front = self._bufs.rows("front", self.words, np.uint64)[:self.words]
        queue_to_bits(self.queue, np.int64(qlen), front)

    def _frontier_to_queue(self) -> int:
        return int(bits_to_queue(self._bufs["front"][:self.words], self.queue))

    def _top_down_level(self, parent, qlen):
        """Algorithm 4's level: expand, prune, exchange, filter; the exchange ``pipelined``
        or all at once. The next queue replaces the current one. Returns (statistics row,
        vertices found, their degree sum)."""
        t0 = time.perf_counter()
        m, kept, key, par = self._expand(qlen)
        exchange = self._pipelined if self.pipeline and self.size > 1 else self._all_at_once
        counts, recvcounts, nqlen, enq_local, degsum, comm_s = exchange(parent, key, par, m,
                                                                          kept)
        fresh_to_queue(self.fresh, self.next, np.int64(nqlen))
        t3 = time.perf_counter()
        self.queue, self.next = self.next, self.queue
        width = np.dtype(self.itype).itemsize * 2
        pruned, own = int(counts.sum()), int(counts[self.rank])
        sent, received = pruned - own, int(recvcounts.sum())
        row = [0, qlen, m, pruned, own, sent, sent * width, received, received * width,
               enq_local, nqlen - enq_local, (t3 - t0) - comm_s, comm_s, t3 - t0]
        return row, nqlen, degsum

    def _expand(self, qlen):
        """Step 1: the NLF of the queue's ``qlen`` vertices (``m`` entries, ``kept`` of them
        not dropped) as (key, parent) arrays."""
        g, q = self.graph, self.queue
        degree_sum = int(g.indptr[q[:qlen] + 1].sum() - g.indptr[q[:qlen]].sum()) if qlen else 0
        key = self._bufs.rows("key", degree_sum, np.int64)
        par = self._bufs.rows("par", 1 if self.pbits else degree_sum, self.itype)
        m, kept = expand_queue((g.indptr, g.indices), (q, np.int64(qlen), self.visited),
                               np.int64(self.rank), self.split, self.pruning, self._nlf(key, par),
                               numba.get_num_threads(), self.drop_visited)
        return int(m), int(kept), key, par

    def _nlf(self, key, par):
        """The kernels' NLF record: (words, parents, lbits, pbits)."""
        return key, par, np.int64(self.lbits), np.int64(self.pbits)

    def _prune(self, key, par, m: int, send, counts, one_owner: bool = False) -> int:
        """Step 2 on ``key[:m]``: rows (local id, parent) grouped by owner into ``send``, the
        rows per owner in ``counts``; returns their number. ``one_owner``: one owner's block
        of ``_split``, whose keys are sorted already."""
        if self.prune == "sort-unique":
            tkey = self._bufs.rows("tkey", m, np.int64)
            tpar = self._bufs.rows("tpar", 1 if self.pbits else m, self.itype)
            key_bits = min(self.unique_bits, self.lbits) if one_owner else self.key_bits
            return int(sort_unique(self._nlf(key, par), np.int64(m), np.int64(key_bits),
                                   np.int64(self.unique_bits), (tkey, tpar), send, counts))
        return int(group_by_owner(self._nlf(key, par), np.int64(m), np.int64(self.size), send,
                                  counts))

    def _split(self, key, par, m: int, kept: int):
        """A pipelined level's NLF grouped by owner: (keys, parents, where each owner's
        begin). Sort-unique's radix passes, whose last sorts by owner (each block is then
        made unique on its own), else a counting sort by owner."""
        starts = np.empty(self.size + 1, dtype=np.int64)
        if self.prune == "sort-unique":
            scratch = (self._bufs.rows("tkey", m, np.int64),
                       self._bufs.rows("tpar", 1 if self.pbits else m, self.itype))
            okey, opar, _, _ = radix_sort(self._nlf(key, par), np.int64(m),
                                          np.int64(self.key_bits), np.int64(self.unique_bits),
                                          scratch, starts)
            return okey, opar, starts
        okey = self._bufs.rows("okey", kept, np.int64)
        opar = self._bufs.rows("opar", 1 if self.pbits else kept, self.itype)
        split_by_owner(self._nlf(key, par), np.int64(m), np.int64(self.size), okey, opar, starts)
        return okey, opar, starts

    def _claim(self, rows, parent, nqlen: int) -> tuple[int, int]:
        """Step 4 on received or own rows, in any order of blocks (``claim_unvisited``): (the
        next queue's length, degree sum claimed)."""
        n, deg = claim_unvisited(rows, self.graph.indptr, (parent, self.visited, self.fresh),
                                 self.next, np.int64(nqlen), self.split, np.int64(self.rank))
        return int(n), int(deg)

    def _all_at_once(self, parent, key, par, m, kept):
        """Steps 2-4 as thesis 4.3.2 has them: prune the whole NLF, one alltoallv, claim.
        Returns (rows per owner, rows received per source, next queue length, of them from
        the own block, degree sum, seconds in the exchange)."""
        size, rank = self.size, self.rank
        send = self._bufs.rows("send", kept, self.itype, 2)
        counts = np.empty(size, dtype=np.int64)
        self._prune(key, par, m, send, counts)
        displs = np.zeros(size, dtype=np.int64)
        np.cumsum(counts[:-1], out=displs[1:])
        sendcounts = counts.copy()
        sendcounts[rank] = 0
        t1 = time.perf_counter()
        recv, recvcounts = self.comm.alltoallv(send, sendcounts, out=self._bufs.get("recv"),
                                               displs=displs)
        if recv.base is None:  # a new array (the kept one was too small): keep it
            self._bufs["recv"] = recv
        t2 = time.perf_counter()
        nqlen, deg_local = self._claim(send[displs[rank]:displs[rank] + counts[rank]], parent, 0)
        enq_local = nqlen
        nqlen, deg_recv = self._claim(recv, parent, nqlen)
        return counts, recvcounts, nqlen, enq_local, deg_local + deg_recv, t2 - t1

    def _pipelined(self, parent, key, par, m, kept):
        """Steps 2-4 pipelined (thesis 5.2): the NLF grouped by owner, then each peer's block
        pruned and sent (a packet, non-blocking) while the next one is pruned, the own block
        last and claimed while the packets travel, the peers' blocks claimed as they arrive.
        A level of a small frontier is pruned whole, then sent, its blocks claimed together.
        The same rows travel; no counts exchange (a packet carries its length). Returns what
        ``_all_at_once`` does."""
        size, rank, packed = self.size, self.rank, self.pbits > 0
        send = self._bufs.rows("send", kept, self.itype, 2)
        counts = np.zeros(size, dtype=np.int64)
        whole = self.frontier_edges < PIPELINE_ROWS * size * size
        if whole:
            self._prune(key, par, m, send, counts)
            starts = np.zeros(size + 1, dtype=np.int64)
            np.cumsum(counts, out=starts[1:])
            blocks = [send[starts[d]:starts[d + 1]] for d in range(size)]
        else:
            okey, opar, starts = self._split(key, par, m, kept)
            block_counts = np.empty(size, dtype=np.int64)
        requests, w = [], 0
        for step in range(1, size):  # the peers after this rank first
            d = (rank + step) % size
            if whole:
                rows = blocks[d]
            else:
                lo, hi = int(starts[d]), int(starts[d + 1])
                c = self._prune(okey[lo:hi], opar if packed else opar[lo:hi], hi - lo,
                                send[w:], block_counts, one_owner=True)
                counts[d] = c
                rows = send[w:w + c]
                w += c
            requests.append(self.comm.isend(rows.view(np.uint8).reshape(-1), d, LEVEL_TAG))
        if whole:
            own = blocks[rank]
        else:
            lo, hi = int(starts[rank]), int(starts[rank + 1])
            c = counts[rank] = self._prune(okey[lo:hi], opar if packed else opar[lo:hi],
                                           hi - lo, send[w:], block_counts, one_owner=True)
            own = send[w:w + c]
        nqlen, degsum = self._claim(own, parent, 0)
        enq_local = nqlen
        recvcounts, comm_s, arrived = np.zeros(size, dtype=np.int64), 0.0, []
        for _ in range(size - 1):
            t1 = time.perf_counter()
            source, packet = self.comm.recv_packet(LEVEL_TAG)
            comm_s += time.perf_counter() - t1
            rows = packet.view(self.itype).reshape(-1, 2)
            recvcounts[source] = rows.shape[0]
            if whole:
                arrived.append(rows)
            else:
                nqlen, deg = self._claim(rows, parent, nqlen)
                degsum += deg
        if whole:
            nqlen, deg = self._claim(np.concatenate(arrived), parent, nqlen)
            degsum += deg
        t1 = time.perf_counter()
        for request in requests:
            request.wait()
        comm_s += time.perf_counter() - t1
        return counts, recvcounts, nqlen, enq_local, degsum, comm_s

    def _bottom_up_level(self, parent, qlen):
        """A bottom-up level: allgather the frontier bitmaps, find parents for the own
        unvisited vertices. ``front`` holds this rank's frontier and gets the next one."""
        comm, g = self.comm, self.graph
        t0 = time.perf_counter()
        front = self._bufs["front"][:self.words]
        t1 = time.perf_counter()
        frontier = comm.allgather(front)
        t2 = time.perf_counter()
        nxt = self._bufs.rows("nxt", self.words, np.uint64)[:self.words]
        nxt[:] = 0
        found, degsum, scanned = bottom_up_scan(
            (g.indptr, g.indices), self.visited, self.linked, frontier, nxt, parent, self.split,
            numba.get_num_threads())
        self._bufs["front"], self._bufs["nxt"] = self._bufs["nxt"], self._bufs["front"]
        t3 = time.perf_counter()
        nbytes = self.words * 8 * (self.size - 1)
        found = int(found)
        row = [1, qlen, int(scanned), 0, 0, 0, nbytes, 0, nbytes, found, 0,
               (t1 - t0) + (t3 - t2), t2 - t1, t3 - t0]
        return row, found, int(degsum)


def bfs_dist(comm, graph: DistGraph, root: int, prune: str = DEFAULT_PRUNE,
             algorithm: str = DEFAULT_DIST_ALGORITHM, drop_visited: bool = True) -> DistBFSResult:
    """One distributed BFS from ``root`` (collective); see the module docstring."""
    return DistSearcher(comm, graph, prune, algorithm, drop_visited=drop_visited).search(root)
