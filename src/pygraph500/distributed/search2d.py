"""Distributed BFS over the 2D mesh (paper 001, Algorithm II): expand in the processor-column,
fold in the processor-row, compressed packets sent while the scan goes on.

One level on rank (i, j) (``Searcher2D``):

1. **expand**: the rank's frontier (its own vertices found in the last level) is allgathered
   in processor-column j, as a list of local ids or as a bitmap, whichever is smaller (a
   4-byte id against L/8 bytes); the column-block frontier is assembled as a bitmap.
2. **fold**, top-down: the column frontier is scanned in order, u ascending, and every entry
   u -> v of the rank's block makes a pair for v's owner in the processor-row, or a claim when
   v is the rank's own. A vertex is sent at most once per search by a rank (a test-and-set on
   a row-block bitmap: the thesis's pruning, sort-free). Pairs go in packets of
   ``PACKET_BYTES`` (``fold_codec``: u delta + VLQ, v as its 4-byte local id at its owner;
   ``--compress none``: raw pairs); a full packet leaves at once with a non-blocking send,
   and packets that have arrived are decoded and claimed between scans (the sender and
   receiver tasks of Algorithm II, interleaved in one thread per rank). Each peer's last
   packet of a level says so; the level ends when every peer's has arrived.
3. **bottom-up** levels (direction-optimizing, Beamer's switch as in 1D): the owners' visited
   bitmaps are allgathered in the processor-row, then every unvisited row of the block looks
   for a neighbour in the column frontier; the first one found is sent to the row's owner as
   a (v, u) pair in the same packets, v ascending. Up to C ranks may find a parent for the same
   vertex; the owner keeps the first to arrive.
4. **terminate**: the allreduce of the level loop (``distributed.level_loop``).

Vertex sorting (section 4.4): the visited bitmap and the pairs use each owner's degree order
(``DistGraph2D.order``), so the busiest vertices share a few cache lines; parents are stored
by original local id (MAP, Task B line 5), so the parent array is the 1D one.
"""
from __future__ import annotations

import time

import numpy as np

from ..errors import InputError
from .build2d import DistGraph2D
from .fold_codec import FLAG_LAST, FLAG_VLQ, HEADER_BYTES, decode_into, write_header
from .kernels2d import (ST_CLAIMED, ST_DEGSUM, ST_EXAMINED, ST_LOCAL, ST_PAIRS,
                        assemble_frontier, bu_scan, claim_pairs, td_scan)
from .level_loop import LEVEL_FIELDS, DistBFSResult, LevelLoop
from .modes import DEFAULT_DIST_ALGORITHM, DIST_ALGORITHMS
from .partition import vertex_dtype

__all__ = ["Searcher2D", "LEVEL_FIELDS_2D", "COMPRESS_MODES", "DEFAULT_COMPRESS",
           "PACKET_BYTES"]

COMPRESS_MODES = ("vlq", "none")
DEFAULT_COMPRESS = "vlq"
PACKET_BYTES = 1 << 16  # bytes of a fold packet (read when a searcher is made)
_TAG = 7

# LEVEL_FIELDS with the 2D traffic before the times: bytes this rank sent in the expand
# allgathers (its part times the peers), in fold packets, and the fold's pairs uncompressed
# (two vertex ids each, as the 1D engine sends them).
LEVEL_FIELDS_2D = LEVEL_FIELDS[:11] + ("expand_bytes", "fold_bytes", "fold_bytes_raw") + \
    LEVEL_FIELDS[11:]


def _bitmap(length: int) -> np.ndarray:
    return np.zeros(-(-length // 64), dtype=np.uint64)


class Searcher2D(LevelLoop):
    """Searches of one DistGraph2D (see the module docstring); buffers are kept from search to
    search. ``algorithm``: "topdown-queue" or "direction-optimizing" (needs the row CSR);
    ``compress``: "vlq" or "none"."""

    fields = LEVEL_FIELDS_2D

    def __init__(self, comm, graph: DistGraph2D, row_comm, col_comm,
                 algorithm: str = DEFAULT_DIST_ALGORITHM, compress: str = DEFAULT_COMPRESS,
                 packet_bytes: int | None = None):
        if algorithm not in DIST_ALGORITHMS:
            raise InputError(f"the distributed engine runs {' or '.join(DIST_ALGORITHMS)}; "
                             f"got {algorithm!r}")
        if compress not in COMPRESS_MODES:
            raise InputError(f"--compress must be one of {', '.join(COMPRESS_MODES)}; got "
                             f"{compress!r}")
        grid = graph.grid
        self.hybrid = algorithm == "direction-optimizing"
        if self.hybrid and graph.rindptr is None:
            raise InputError("direction-optimizing needs the block's row CSR "
                             "(build_2d(..., transpose=True))")
        if grid.block >= 2**32:
            raise InputError(f"2D blocks of {grid.block} vertices are beyond 2**32: use more "
                             f"processes")
        self.comm, self.row_comm, self.col_comm = comm, row_comm, col_comm
        self.graph, self.grid = graph, grid
        self.vlq = compress == "vlq"
        self.width = 4 if max(grid.col_length, grid.row_length) < 2**32 else 8
        self.raw_pair = 2 * np.dtype(vertex_dtype(grid.num_vertices)).itemsize
        block, nl = grid.block, graph.num_local
        self.col_u0 = grid.col * grid.rows
        self.visited = _bitmap(block)
        # sorted ids that can never be reached (degree 0, padding): marked visited at the start
        self.dead = _bitmap(block)
        linked = int((graph.degree > 0).sum())
        for s in range(linked, block):
            self.dead[s >> 6] |= np.uint64(1) << np.uint64(s & 63)
        self.nextbits = _bitmap(block)
        self.queue = np.empty(max(1, nl), dtype=np.int64)
        self.qlen = 0
        self.colbits = _bitmap(grid.col_length)
        self.sent = _bitmap(grid.row_length)
        self.rowvis = _bitmap(grid.row_length)
        size = int(packet_bytes or PACKET_BYTES)
        if size < HEADER_BYTES + 2 * 10 + 16:
            raise InputError(f"fold packets of {size} bytes are too small")
        cols = grid.cols
        self.bufs = np.zeros((cols, size), dtype=np.uint8)
        self.fill = np.full(cols, HEADER_BYTES, dtype=np.int64)
        self.prev = np.zeros((cols, 2), dtype=np.int64)  # each packet's last pair
        self.npairs = np.zeros(cols, dtype=np.int64)
        most = (size - HEADER_BYTES) // 2  # a pair takes 2 bytes at least
        self.a_buf = np.empty(most, dtype=np.int64)
        self.b_buf = np.empty(most, dtype=np.int64)
        self.num_entries = int(comm.allreduce(graph.num_entries)) if self.hybrid else 0

    # -- the level loop's hooks ---------------------------------------------------------------

    def _start(self, root: int):
        g, grid = self.graph, self.grid
        parent = np.full(g.num_local, -1, dtype=np.int64)
        self.visited[:] = self.dead
        self.nextbits[:] = 0
        self.sent[:] = 0
        self.qlen = 0
        if grid.part.owner(root) != grid.rank:
            return parent, 0, 0
        loc = grid.part.local(root)
        s = int(g.sorted_id[loc])
        parent[loc] = root
        self.visited[s >> 6] |= np.uint64(1) << np.uint64(s & 63)
        self.nextbits[loc >> 6] |= np.uint64(1) << np.uint64(loc & 63)
        self.queue[0] = loc
        self.qlen = 1
        return parent, 1, int(g.degree[loc])

    def _queue_to_frontier(self, qlen: int) -> None:
        pass  # the frontier is kept as both a queue and a bitmap

    def _frontier_to_queue(self) -> int:
        return self.qlen

    def _top_down_level(self, parent, qlen):
        return self._level(parent, topdown=True)

    def _bottom_up_level(self, parent, qlen):
        return self._level(parent, topdown=False)

    # -- one level ----------------------------------------------------------------------------

    def _expand(self) -> int:
        """The column frontier into ``colbits``; returns the bytes this rank's part costs."""
        words = self.grid.block // 64
        q = self.qlen
        if q < 2 * words:
            part = np.empty(q + 1, dtype=np.uint32)
            part[0] = 0
            part[1:] = self.queue[:q]
        else:
            part = np.empty(2 * words + 1, dtype=np.uint32)
            part[0] = 1
            part[1:] = self.nextbits.view(np.uint32)
        parts, counts = self.col_comm.allgatherv(part)
        assemble_frontier(parts, counts, np.int64(words), self.colbits)
        return part.nbytes * (self.grid.rows - 1)

    def _level(self, parent, topdown: bool):
        g, grid = self.graph, self.grid
        t0 = time.perf_counter()
        qlen_in = self.qlen
        expand_bytes = self._expand()
        t1 = time.perf_counter()
        comm_time = t1 - t0
        if not topdown:
            t = time.perf_counter()
            vis = self.row_comm.allgather(self.visited)
            self.rowvis[:] = vis.reshape(-1)
            np.bitwise_or(self.sent, self.rowvis, out=self.sent)
            comm_time += time.perf_counter() - t
            expand_bytes += self.visited.nbytes * (grid.cols - 1)
        self.nextbits[:] = 0
        self.qlen = 0
        stats = np.zeros(5, dtype=np.int64)
        rstats = np.zeros(5, dtype=np.int64)
        fold = self._fold(parent, topdown, stats, rstats)
        t2 = time.perf_counter()
        comm_time += fold["wait"]
        sent_pairs, recv_pairs = fold["sent_pairs"], fold["recv_pairs"]
        found = int(stats[ST_CLAIMED] + rstats[ST_CLAIMED])
        row = [0 if topdown else 1, qlen_in, int(stats[ST_EXAMINED]), int(stats[ST_PAIRS]),
               int(stats[ST_LOCAL]), sent_pairs, fold["sent_bytes"] + expand_bytes,
               recv_pairs, fold["recv_bytes"], int(stats[ST_CLAIMED]),
               int(rstats[ST_CLAIMED]), expand_bytes, fold["sent_bytes"],
               sent_pairs * self.raw_pair, (t2 - t0) - comm_time, comm_time, t2 - t0]
        return row, found, int(stats[ST_DEGSUM] + rstats[ST_DEGSUM])

    def _fold(self, parent, topdown: bool, stats, rstats) -> dict:
        """Scan, send full packets, claim what has arrived; then the last packets, and wait
        for every peer's last one."""
        g, grid = self.graph, self.grid
        me, peers = grid.col, grid.cols - 1
        rc = self.row_comm
        bufs, fill, prev, npairs = self.bufs, self.fill, self.prev, self.npairs
        fill[:] = HEADER_BYTES
        prev[:] = (0, -1)
        npairs[:] = 0
        flags = FLAG_VLQ if self.vlq else 0
        out = {"sent_pairs": 0, "sent_bytes": 0, "recv_pairs": 0, "recv_bytes": 0,
               "wait": 0.0, "lasts": 0}
        requests = []
        state = np.array([0, -1], dtype=np.int64)
        own = (g.degree, )
        block, size = np.int64(grid.block), np.int64(grid.size)
        common = (self.sent, self.visited, g.order, parent, self.nextbits, self.queue)

        def send(k: int, last: bool) -> None:
            if last:
                write_header(bufs[k], npairs[k], flags | FLAG_LAST, self.width)
            n = int(fill[k])
            packet = bufs[k, :n].copy()
            requests.append(rc.isend(packet, k, _TAG))
            out["sent_pairs"] += int(npairs[k])
            out["sent_bytes"] += n
            fill[k] = HEADER_BYTES
            prev[k] = (0, -1)
            npairs[k] = 0

        def receive(block_wait: bool) -> bool:
            t = time.perf_counter()
            got = rc.recv_packet(_TAG, block=block_wait)
            if block_wait:
                out["wait"] += time.perf_counter() - t
            if got is None:
                return False
            source, packet = got
            count = int(decode_into(packet, self.a_buf, self.b_buf))
            if count < 0:
                raise RuntimeError(f"a damaged fold packet from processor-column {source}")
            self.qlen = int(claim_pairs(self.a_buf, self.b_buf, np.int64(count), topdown,
                                        np.int64(source * grid.rows), size, block,
                                        self.visited, g.order, parent, self.nextbits,
                                        self.queue, np.int64(self.qlen), g.degree, rstats))
            out["recv_pairs"] += count
            out["recv_bytes"] += packet.shape[0]
            out["lasts"] += bool(packet[4] & FLAG_LAST)
            return True

        while True:
            if topdown:
                k, qlen = td_scan(state, self.colbits, g.cindptr, g.cindices, block,
                                  np.int64(me), np.int64(self.col_u0), size, *common, np.int64(self.qlen), *own,
                                  bufs, fill, prev, npairs, np.int64(self.width), self.vlq,
                                  stats)
            else:
                k, qlen = bu_scan(state, self.rowvis, self.colbits, g.rindptr, g.rindices,
                                  block, np.int64(me), np.int64(self.col_u0), size, *common,
                                  np.int64(self.qlen), *own, bufs, fill, prev, npairs,
                                  np.int64(self.width), self.vlq, stats)
            self.qlen = int(qlen)
            if k < 0:
                break
            send(int(k), False)
            while receive(False):
                pass
        for k in range(grid.cols):
            if k != me:
                send(k, True)
        while out["lasts"] < peers:
            receive(True)
        t = time.perf_counter()
        for r in requests:
            r.wait()
        out["wait"] += time.perf_counter() - t
        return out
