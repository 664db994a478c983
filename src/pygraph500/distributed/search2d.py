"""Distributed BFS over the 2D mesh (paper 001, Algorithm II): expand in the processor-column,
fold in the processor-row in compressed packets (with ``pipeline``, sent and claimed while the
scan goes on).

One level on rank (i, j) (``Searcher2D``):

1. **expand**: the rank's frontier (its own vertices found in the last level) is allgathered
   in processor-column j, as a list of local ids or as a bitmap, whichever is smaller (a
   4-byte id against L/8 bytes); the column-block frontier is assembled as a bitmap.
2. **fold**, top-down: the column frontier is scanned in order, u ascending, and every entry
   u -> v of the rank's block makes a pair for v's owner in the processor-row, or a claim when
   v is the rank's own. ``fold``: "dedup" sends a vertex at most once per search from a rank
   (a test-and-set on a row-block bitmap: the thesis's pruning, sort-free); "paper" sends
   every edge to a vertex the rank does not know to be visited (paper 001, Task A: only a
   bottom-up level tells a rank of other owners' visited vertices). Pairs go in packets of
   ``PACKET_BYTES`` (``fold_codec``: u as a delta, v as its local id at its owner, both VLQ,
   or with ``fold="paper"`` v in 4 fixed bytes as the paper's; ``--compress none``: raw
   pairs). Each peer's last packet of a level says so; the level ends when every peer's has
   arrived.

   ``pipeline`` (``--pipeline``; paper 001 section 4.3, communication overlapped with
   computation): a full packet leaves at once with a non-blocking send while the scan goes
   on, and between two packets the rank takes the packets that have arrived off the
   network (a poll, ``recv_packet(block=False)``: MPI's Iprobe). These are the sender and
   receiver tasks of Algorithm II interleaved in the rank's one thread instead of the
   paper's threads: the scan is compiled code that holds the interpreter's lock (no
   ``nogil``), so a Python thread for the messages could not run beside it, and the scan
   already stops at every full packet, so the progress points cost no extra pass. On the
   emulated network a poll delivers only packets whose virtual arrival has passed, so an
   early poll never waits.
   A vertex claimed twice in a top-down level keeps the parent of the first claim from its
   own processor-column, else from the nearest column after it, in that column's scan order
   (``claim_pairs``), so the tree is the same with and without ``pipeline`` and whatever
   order the peers' packets arrive in.
   A top-down level keeps the entries for the rank's own vertices (a run of each sorted
   list, noted unread; a full buffer of ``DEFERRED_RUNS`` runs is claimed on the spot) and
   the packets taken during the scan, and claims them after the level's last packets have
   been sent, so that those travel while the rank computes: a level's last packet cannot
   leave before its scan ends, and its latency is most of the fold's communication where a
   peer's share of a level fits one packet. Without ``pipeline`` the full packets are kept
   until the scan ends, then sent, then the peers' are received and claimed: the same
   packets, bytes, per-level counts and tree, with the exchange after the scan.
   The expand is not overlapped with the previous level's tail: the rank's part is its whole
   next frontier, complete only when the last peer's packet has been claimed, its form (ids
   or bitmap) follows from its final size, and the level loop's termination allreduce (and
   Beamer's switch) sits between the two; sending the own claims ahead would add a message
   and bytes to every level.
3. **bottom-up** levels (direction-optimizing, Beamer's switch as in 1D; the 2D form of
   Beamer, Buluc, Asanovic and Patterson, SC 2012): after the expand, the row-block is scanned
   one owner's segment at a time, in C steps round the processor-row: at step t rank j scans
   the unvisited rows of owner (j + t) % C that no rank before it has found a parent for, then
   hands that segment's "done" bitmap (L bits) to rank j - 1. The owner scans its own segment
   first and claims what it finds; a parent found by another rank travels to the owner as a
   (v, u) pair in the same packets (v ascending), once per vertex.
4. **terminate**: the allreduce of the level loop (``distributed.level_loop``).

Vertex sorting (section 4.4): the visited bitmap and the pairs use each owner's order
(``DistGraph2D.order``: by degree, so the busiest vertices share a few cache lines, or the
identity when kernel 1 did not sort); parents are stored by original local id (MAP, Task B
line 5), so the parent array is the 1D one.

Raw bytes (``fold_bytes_raw``): the fold's pairs uncompressed, two vertex ids each: 8 bytes
a pair with ``fold="dedup"`` where ids fit 4 bytes (the 1D engine's pair), 16 with
``fold="paper"`` (the paper's 8-byte ids, section 4.2), whose ``compress="none"`` packets
also carry 8-byte fields.
"""
from __future__ import annotations

import time

import numpy as np

from ..errors import InputError
from .build2d import DistGraph2D
from .fold_codec import (FLAG_LAST, HEADER_BYTES, VLQ_FIXED_B, body_flags, decode_into,
                         write_header)
from .kernels2d import (ST_CLAIMED, ST_DEGSUM, ST_EXAMINED, ST_LOCAL, ST_PAIRS,
                        assemble_frontier, bu_scan, claim_deferred, claim_pairs, td_scan)
from .level_loop import LEVEL_FIELDS, LevelLoop
from .modes import DEFAULT_DIST_ALGORITHM, DIST_ALGORITHMS
from .partition import vertex_dtype

__all__ = ["Searcher2D", "LEVEL_FIELDS_2D", "COMPRESS_MODES", "DEFAULT_COMPRESS",
           "FOLD_MODES", "DEFAULT_FOLD", "PACKET_BYTES"]

COMPRESS_MODES = ("vlq", "none")
DEFAULT_COMPRESS = "vlq"
FOLD_MODES = ("dedup", "paper")
DEFAULT_FOLD = "dedup"
PAPER_ID_BYTES = 8  # fold "paper": a vertex id uncompressed, as the paper counts it
PACKET_BYTES = 1 << 16  # bytes of a fold packet (read when a searcher is made)
# pipeline: a top-down level's first runs of entries for the rank's own vertices (24 bytes
# each), kept to be claimed while the level's last packets travel (read when a searcher is
# made)
DEFERRED_RUNS = 1 << 16
_TAG = 7      # fold packets
_ROTATE = 8   # bottom-up: a segment's done bitmap handed along the processor-row

# LEVEL_FIELDS with the 2D traffic before the times: bytes this rank sent in the expand
# allgathers (its part times the peers), in fold packets, and the fold's pairs uncompressed
# (two vertex ids each: see the module docstring for their width).
LEVEL_FIELDS_2D = LEVEL_FIELDS[:11] + ("expand_bytes", "fold_bytes", "fold_bytes_raw") + \
    LEVEL_FIELDS[11:]


def _bitmap(length: int) -> np.ndarray:
    return np.zeros(-(-length // 64), dtype=np.uint64)


def _set_bits(bits: np.ndarray, ids: np.ndarray) -> None:
    ids = np.asarray(ids, dtype=np.int64)
    np.bitwise_or.at(bits, ids >> 6, np.left_shift(np.uint64(1), (ids & 63).astype(np.uint64)))


class Searcher2D(LevelLoop):
    """Searches of one DistGraph2D (see the module docstring); buffers are kept from search to
    search. ``algorithm``: "topdown-queue" or "direction-optimizing" (needs the row CSR);
    ``compress``: "vlq" or "none"; ``fold``: "dedup" or "paper"; ``pipeline``: the fold's
    packets sent and claimed while the scan goes on (else after it)."""

    fields = LEVEL_FIELDS_2D

    def __init__(self, comm, graph: DistGraph2D, row_comm, col_comm,
                 algorithm: str = DEFAULT_DIST_ALGORITHM, compress: str = DEFAULT_COMPRESS,
                 packet_bytes: int | None = None, fold: str = DEFAULT_FOLD,
                 pipeline: bool = False):
        if algorithm not in DIST_ALGORITHMS:
            raise InputError(f"the distributed engine runs {' or '.join(DIST_ALGORITHMS)}; "
                             f"got {algorithm!r}")
        if compress not in COMPRESS_MODES:
            raise InputError(f"compress must be one of {', '.join(COMPRESS_MODES)}; got "
                             f"{compress!r}", "compress")
        if fold not in FOLD_MODES:
            raise InputError(f"fold must be one of {', '.join(FOLD_MODES)}; got {fold!r}",
                             "fold")
        grid = graph.grid
        self.switches_direction = algorithm == "direction-optimizing"
        if self.switches_direction and graph.rindptr is None:
            raise InputError("direction-optimizing needs the block's row CSR "
                             "(build_2d(..., transpose=True))")
        if grid.block >= 2**32:
            raise InputError(f"2D blocks of {grid.block} vertices are beyond 2**32: use more "
                             f"processes")
        self.comm, self.row_comm, self.col_comm = comm, row_comm, col_comm
        self.graph, self.grid = graph, grid
        self.dedup = fold == "dedup"
        self.pipeline = bool(pipeline)
        # the packet body (fold_codec): raw, delta + VLQ, or the paper's (v in 4 bytes)
        self.vlq = np.int64(0 if compress == "none" else 1 if self.dedup else VLQ_FIXED_B)
        if self.dedup:
            self.width = 4 if max(grid.col_length, grid.row_length) < 2**32 else 8
            self.raw_pair = 2 * np.dtype(vertex_dtype(grid.num_vertices)).itemsize
        else:
            self.width, self.raw_pair = PAPER_ID_BYTES, 2 * PAPER_ID_BYTES
        block, nl = grid.block, graph.num_local
        self.col_u0 = grid.col * grid.rows
        # ``kernels2d``'s mesh record: (L, processor-column, its first rank, P)
        self.mesh = (np.int64(block), np.int64(grid.col), np.int64(self.col_u0),
                     np.int64(grid.size))
        self.claimed_by = np.zeros(block, dtype=np.uint16)  # ``claim_pairs``'s (C < 2**16)
        self.mine = (np.int64(grid.col), np.int64(grid.rows), self.claimed_by)
        self.visited = _bitmap(block)
        # sorted ids that can never be reached (degree 0, padding): marked visited at the start
        self.dead = _bitmap(block)
        unreached = np.concatenate([np.flatnonzero(graph.degree[graph.order] == 0),
                                    np.arange(nl, block)])
        _set_bits(self.dead, unreached)
        self.nextbits = _bitmap(block)
        self.queue = np.empty(max(1, nl), dtype=np.int64)
        self.qlen = 0
        self.colbits = _bitmap(grid.col_length)
        self.sent = _bitmap(grid.row_length)  # row-block ids not to send top-down again
        self.done = _bitmap(block)
        self.rows_held = _bitmap(grid.row_length)  # rows with an entry in this block
        if graph.rindptr is not None:
            _set_bits(self.rows_held, np.flatnonzero(np.diff(graph.rindptr)))
        size = int(packet_bytes or PACKET_BYTES)
        if size < HEADER_BYTES + 2 * 10 + 16:
            raise InputError(f"fold packets of {size} bytes are too small")
        cols = grid.cols
        self.bufs = np.zeros((cols, size), dtype=np.uint8)
        self.fill = np.full(cols, HEADER_BYTES, dtype=np.int64)
        self.prev = np.zeros((cols, 2), dtype=np.int64)  # each packet's last pair
        self.npairs = np.zeros(cols, dtype=np.int64)
        most = (size - HEADER_BYTES) // 2  # a pair takes 2 bytes at least
        # the runs of own entries kept: (u, first entry, end entry)
        self.deferred = np.empty((DEFERRED_RUNS if pipeline else 0, 3), dtype=np.int64)
        self.a_buf = np.empty(most, dtype=np.int64)
        self.b_buf = np.empty(most, dtype=np.int64)
        self.num_entries = int(comm.allreduce(graph.num_entries)) if self.switches_direction else 0

    # -- the level loop's hooks ---------------------------------------------------------------

    def _start(self, root: int):
        g, grid = self.graph, self.grid
        parent = np.full(g.num_local, -1, dtype=np.int64)
        self.visited[:] = self.dead
        self.nextbits[:] = 0
        self.sent[:] = 0
        self.claimed_by[:] = 0
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
        t0 = time.perf_counter()
        qlen_in = self.qlen
        expand_bytes = self._expand()
        t1 = time.perf_counter()
        self.nextbits[:] = 0
        self.qlen = 0
        fold = _Fold(self, parent, topdown)
        if topdown:
            self._top_down_scan(fold)
        else:
            expand_bytes += self._bottom_up_rotation(fold)
        fold.finish()
        if topdown and fold.recv_pairs:
            self.claimed_by[:] = 0
        t2 = time.perf_counter()
        stats, rstats = fold.stats, fold.rstats
        comm_time = (t1 - t0) + fold.wait
        sent_pairs = fold.sent_pairs
        found = int(stats[ST_CLAIMED] + rstats[ST_CLAIMED])
        row = [0 if topdown else 1, qlen_in, int(stats[ST_EXAMINED]), int(stats[ST_PAIRS]),
               int(stats[ST_LOCAL]), sent_pairs, fold.sent_bytes + expand_bytes,
               fold.recv_pairs, fold.recv_bytes, int(stats[ST_CLAIMED]),
               int(rstats[ST_CLAIMED]), expand_bytes, fold.sent_bytes,
               sent_pairs * self.raw_pair, (t2 - t0) - comm_time, comm_time, t2 - t0]
        return row, found, int(stats[ST_DEGSUM] + rstats[ST_DEGSUM])

    def _top_down_scan(self, fold: "_Fold") -> None:
        g = self.graph
        state = np.array([0, -1, 0], dtype=np.int64)
        scan = (state, self.deferred, self.sent, self.dedup)
        front = (self.colbits, g.cindptr, g.cindices)
        while True:
            k, qlen = td_scan(scan, front, self.mesh, fold.own, np.int64(self.qlen),
                              fold.packets, fold.stats)
            self.qlen = int(qlen)
            if k < 0:
                fold.deferred = int(state[2])
                return
            fold.send(int(k))

    def _bottom_up_rotation(self, fold: "_Fold") -> int:
        """The bottom-up level's rows, one owner's segment at a time (Beamer's 2D bottom-up):
        at step t rank j scans the rows of owner (j + t) % C that no rank before it found,
        then hands that segment's done bitmap to rank j - 1, so a vertex is found once per
        level and its owner, who scans it first, sends nothing for what it finds itself.
        Returns the bytes of the bitmaps passed."""
        g, grid = self.graph, self.grid
        me, cols = grid.col, grid.cols
        done = self.done
        done[:] = self.visited
        front = (self.colbits, g.rindptr, g.rindices, self.rows_held)
        passed = 0
        for t in range(cols):
            k = (me + t) % cols
            scan = (np.zeros(1, dtype=np.int64), np.int64(k), done)
            while True:
                kk, qlen = bu_scan(scan, front, self.mesh, fold.own, np.int64(self.qlen),
                                   fold.packets, fold.stats)
                self.qlen = int(qlen)
                if kk < 0:
                    break
                fold.send(int(kk))
            seg = self.sent[k * (grid.block // 64):(k + 1) * (grid.block // 64)]
            np.bitwise_or(seg, done, out=seg)  # visited, known here: never sent top-down
            if t < cols - 1:
                fold.requests.append(self.row_comm.isend(done.view(np.uint8).copy(),
                                                         (me - 1) % cols, _ROTATE))
                passed += done.nbytes
                done[:] = fold.wait_for(_ROTATE).view(np.uint64)
        return passed


class _Fold:
    """One level's fold on one rank: the packet buffers of the peers, the sends in flight (or,
    without ``pipeline``, the packets kept until the scan ends), the packets received and
    claimed, and the counts and waiting time."""

    def __init__(self, searcher: Searcher2D, parent, topdown: bool):
        self.s, self.parent, self.topdown = searcher, parent, topdown
        s = searcher
        s.fill[:] = HEADER_BYTES
        s.prev[:] = (0, -1)
        s.npairs[:] = 0
        self.packets = (s.bufs, s.fill, s.prev, s.npairs, np.int64(s.width), s.vlq)
        # what a claim reads and writes (``kernels2d``'s ``own``)
        self.own = (s.visited, s.graph.order, parent, s.nextbits, s.queue, s.graph.degree)
        self.flags = int(body_flags(s.vlq))
        self.stats = np.zeros(5, dtype=np.int64)
        self.rstats = np.zeros(5, dtype=np.int64)
        self.overlap = s.pipeline
        self.requests = []
        self.kept = []  # (peer, packet) sent when the scan ends (no pipeline)
        # top-down with pipeline: the peers' packets taken off the network during the scan,
        # claimed after the level's last packets have left
        self.held = [] if (topdown and s.pipeline) else None
        self.sent_pairs = self.sent_bytes = self.recv_pairs = self.recv_bytes = 0
        self.lasts = 0
        self.deferred = 0  # runs of own entries the scan left in ``searcher.deferred``
        self.wait = 0.0

    def send(self, k: int, last: bool = False) -> None:
        """Send peer k's packet (full, or its last of the level), then claim what has come;
        without ``pipeline`` keep it for ``finish``."""
        s = self.s
        if last:
            write_header(s.bufs[k], s.npairs[k], self.flags | FLAG_LAST, s.width)
        n = int(s.fill[k])
        packet = s.bufs[k, :n].copy()
        self.sent_pairs += int(s.npairs[k])
        self.sent_bytes += n
        s.fill[k] = HEADER_BYTES
        s.prev[k] = (0, -1)
        s.npairs[k] = 0
        if not self.overlap:
            self.kept.append((k, packet))
            return
        self.requests.append(s.row_comm.isend(packet, k, _TAG))
        while not last and self._receive(False):
            pass

    def _receive(self, block: bool) -> bool:
        got = self.s.row_comm.recv_packet(_TAG, block=block)
        if got is None:
            return False
        if self.held is not None and not block:
            self.held.append(got)
        else:
            self._claim(*got)
        return True

    def _claim(self, source: int, packet: np.ndarray) -> None:
        s = self.s
        count = int(decode_into(packet, s.a_buf, s.b_buf))
        if count < 0:
            raise RuntimeError(f"a damaged fold packet from processor-column {source}")
        s.qlen = int(claim_pairs((s.a_buf, s.b_buf, np.int64(count), self.topdown),
                                 np.int64(source * s.grid.rows), np.int64(s.grid.size),
                                 np.int64(s.grid.block), s.mine, self.own,
                                 np.int64(s.qlen), self.rstats))
        self.recv_pairs += count
        self.recv_bytes += packet.shape[0]
        self.lasts += bool(packet[4] & FLAG_LAST)

    def wait_for(self, tag: int) -> np.ndarray:
        """The next packet with ``tag`` (one peer sends them); with ``pipeline`` the fold
        packets that have arrived are claimed first."""
        while self.overlap and self._receive(False):
            pass
        t = time.perf_counter()
        got = self.s.row_comm.recv_packet(tag)
        self.wait += time.perf_counter() - t
        return got[1]

    def finish(self) -> None:
        """Every peer's last packet (and without ``pipeline`` every kept one) sent, the own
        entries the scan deferred claimed while they travel, every peer's received; every send
        completed."""
        s = self.s
        me = s.grid.col
        for k in range(s.grid.cols):
            if k != me:
                self.send(k, last=True)
        if self.deferred:
            s.qlen = int(claim_deferred(s.deferred, np.int64(self.deferred),
                                        s.graph.cindices, np.int64(me * s.grid.block),
                                        self.own, np.int64(s.qlen), self.stats))
        held, self.held = self.held or [], None
        for got in held:
            self._claim(*got)
        t = time.perf_counter()
        for k, packet in self.kept:
            self.requests.append(s.row_comm.isend(packet, k, _TAG))
        self.kept.clear()
        while self.lasts < s.grid.cols - 1:
            self._receive(True)
        for r in self.requests:
            r.wait()
        self.wait += time.perf_counter() - t
