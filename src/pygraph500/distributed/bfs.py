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
   already visited is dropped on the spot (a local look-up, Algorithm 4 line 17).
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
   bitmap; a new vertex gets its parent and joins the next queue.
5. **terminate**: an allreduce of the next queues' sizes (Algorithm 4 line 35).

Measured per level on every rank (the fields of thesis Table 4.1, Table 4.2 and Fig. 4.13):
``LEVEL_FIELDS``. ``comp_time`` is the time in steps 1, 2 and 4, ``comm_time`` in 3 and 5
(waiting for slower ranks included, as an MPI profile shows it). Bytes are the payload of the
data alltoallv (pairs of vertex ids, ``vertex_dtype``); the counts exchange adds
``8 (P - 1)`` bytes per level per rank.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import njit, prange

from ..primitives import cttz, fetch_or
from ..primitives.direction import ALPHA, BETA, go_bottom_up
from ..errors import InputError
from .build import DistGraph
from .partition import vertex_dtype

__all__ = ["PRUNE_MODES", "DEFAULT_PRUNE", "DIST_ALGORITHMS", "DEFAULT_DIST_ALGORITHM",
           "LEVEL_FIELDS", "DistBFSResult", "DistSearcher", "bfs_dist"]

PRUNE_MODES = ("sort-unique", "none", "bitmap")
DEFAULT_PRUNE = "sort-unique"
# The distributed engine's algorithms, named as their embedded counterparts. The default is
# the embedded default's: its top-down levels are Algorithm 4; "topdown-queue" is Algorithm 4
# on every level, the thesis's own algorithm (and the one for its pruning comparisons).
DIST_ALGORITHMS = ("topdown-queue", "direction-optimizing")
DEFAULT_DIST_ALGORITHM = "direction-optimizing"
# Beamer's switching parameters, the embedded direction-optimizing defaults.

# Per level and per rank. Counts are entries (vertex, parent pairs); bytes are message bytes.
LEVEL_FIELDS = (
    "direction",      # 0 top-down (Algorithm 4), 1 bottom-up (direction-optimizing only)
    "queue",          # CLQ: vertices in this rank's current level queue (frontier)
    "nlf",            # NLF: adjacency entries of the queue (the frontier before pruning);
                      # bottom-up: adjacency entries examined
    "nlf_pruned",     # entries left after pruning (sort-unique: distinct vertices)
    "local",          # LV: entries of them owned by this rank (never sent)
    "sent",           # entries sent to other ranks
    "sent_bytes",
    "received",       # RV: entries received from other ranks
    "received_bytes",
    "enqueued_local",     # NLQ, own part: new vertices from the rank's own entries
    "enqueued_received",  # NLQ, received part
    "comp_time",      # seconds: expand, prune, filter
    "comm_time",      # seconds: alltoallv of counts and data, termination allreduce
    "time",           # seconds: the whole level on this rank
)
_INT_FIELDS = LEVEL_FIELDS[:11]

# Pack (NLF key, parent) into one int64 word when both fit (up to about SCALE 30); else the
# parent travels in its own array. Read when a searcher is made (tests turn it off).
PACK_PARENTS = True

_ONE = np.uint64(1)


@njit(cache=True, parallel=True)
def _expand(indptr, indices, queue, qlen, visited, rank, size, pow2, shift, mask, lbits,
            pbits, seen, column, use_seen, key, par, nthreads):
    """Write the NLF of queue[:qlen]: entry j's key ``owner << lbits | local id`` and parent
    (``pbits`` > 0: one word ``key << pbits | parent`` in ``key``, ``par`` unused); -1 marks a
    dropped entry. Returns (m, kept)."""
    off = np.empty(qlen + 1, np.int64)
    off[0] = 0
    for i in range(qlen):
        u = queue[i]
        off[i + 1] = off[i] + indptr[u + 1] - indptr[u]
    m = off[qlen]
    nch = 1 if m < 65536 else 8 * nthreads
    kept = np.zeros(nch, np.int64)
    for c in prange(nch):
        lo = c * m // nch
        hi = (c + 1) * m // nch
        if lo >= hi:
            continue
        # the thesis's thread-to-entry mapping, one binary search per chunk
        i = np.searchsorted(off, lo, side="right") - 1
        j = lo
        k = 0
        while j < hi:
            u = queue[i]
            e0 = indptr[u] + (j - off[i])
            e1 = min(indptr[u + 1], e0 + (hi - j))
            pu = u * size + rank
            for e in range(e0, e1):
                v = np.int64(indices[e])
                if pow2:
                    o = v & mask
                    loc = v >> shift
                else:
                    o = v % size
                    loc = v // size
                # drop (branch-free): an own vertex already visited
                drop = np.int64((visited[loc >> 6] >> np.uint64(loc & 63)) & _ONE) & np.int64(
                    o == rank)
                if use_seen and o != rank:
                    col = np.int64(column[e])
                    bit = _ONE << np.uint64(col & 63)
                    if seen[col >> 6] & bit:
                        drop = 1
                    elif fetch_or(seen, col >> 6, bit) & bit:
                        drop = 1
                out = (o << lbits) | loc
                if pbits > 0:
                    key[j] = (out << pbits) | pu | -drop
                else:
                    key[j] = out | -drop
                    par[j] = pu
                k += 1 - drop
                j += 1
            i += 1
        kept[c] = k
    return m, kept.sum()


@njit(cache=True)
def _split(key, par, m, lbits, pbits, size, send, counts):
    """Counting sort of the kept NLF entries by owner: rows (local id, parent) into send."""
    lmask = (np.int64(1) << lbits) - 1
    pmask = (np.int64(1) << pbits) - 1
    counts[:] = 0
    for j in range(m):
        k = key[j]
        if k >= 0:
            counts[k >> (lbits + pbits)] += 1
    pos = np.empty(size, np.int64)
    acc = 0
    for r in range(size):
        pos[r] = acc
        acc += counts[r]
    for j in range(m):
        k = key[j]
        if k >= 0:
            if pbits > 0:
                p = k & pmask
                k >>= pbits
            else:
                p = par[j]
            o = k >> lbits
            send[pos[o], 0] = k & lmask
            send[pos[o], 1] = p
            pos[o] += 1
    return acc


@njit(cache=True)
def _radix_pass(a_k, a_p, b_k, b_p, n, shift, mask, cnt, first, payload):
    """One stable LSD pass by digit ``(key >> shift) & mask``; the first pass reads the NLF
    as written (``n`` entries, -1 dropped) and so also compacts it. Returns the count."""
    cnt[:] = 0
    for j in range(n):
        x = a_k[j]
        if first and x < 0:
            continue
        cnt[((x >> shift) & mask) + 1] += 1
    for d in range(mask + 1):
        cnt[d + 1] += cnt[d]
    for j in range(n):
        x = a_k[j]
        if first and x < 0:
            continue
        d = (x >> shift) & mask
        t = cnt[d]
        b_k[t] = x
        if payload:
            b_p[t] = a_p[j]
        cnt[d] = t + 1
    return cnt[mask]


# sort-unique: LSD radix passes sort the keys down to blocks of 2**UNIQUE_BITS keys; inside a
# block the last digit is not sorted, the block's entries are made unique with a bitmap of its
# keys (4 KiB, in L1) instead: the first entry of every key is kept, in NLF order. Read when a
# searcher is made (tests lower it).
UNIQUE_BITS = 15
_DIGIT_BITS = 8


@njit(cache=True)
def _sort_unique(key, par, m, lbits, pbits, key_bits, unique_bits, tkey, tpar, size, send,
                 counts):
    """Sort the kept entries by key (see UNIQUE_BITS; the parent rides in the low ``pbits``
    bits of the word, or in ``par`` when ``pbits`` is 0) and keep the first entry of every
    key: rows (local id, parent) grouped by owner into send. Returns the count."""
    low = min(unique_bits, lbits)  # owner bits always sorted: the rows come out by owner
    high = key_bits - low
    payload = pbits == 0
    a_k, a_p, b_k, b_p = key, par, tkey, tpar
    n = m
    first = True
    if high > 0:
        passes = (high + _DIGIT_BITS - 1) // _DIGIT_BITS
        bits = (high + passes - 1) // passes
        mask = (np.int64(1) << bits) - 1
        cnt = np.empty((1 << bits) + 1, np.int64)
        shift = pbits + low
        for _ in range(passes):
            n = _radix_pass(a_k, a_p, b_k, b_p, n, shift, mask, cnt, first, payload)
            a_k, a_p, b_k, b_p = b_k, b_p, a_k, a_p
            shift += bits
            first = False
    lmask = (np.int64(1) << lbits) - 1
    pmask = (np.int64(1) << pbits) - 1
    bmask = (np.int64(1) << low) - 1
    block = np.zeros(((1 << low) + 63) // 64, np.uint64)
    counts[:] = 0
    w = 0
    j = 0
    while j < n:  # one block of equal high key bits at a time
        x = a_k[j]
        if first and x < 0:
            j += 1
            continue
        hi = (x >> pbits) >> low
        jstart = j
        while j < n:
            x = a_k[j]
            if first and x < 0:
                j += 1
                continue
            k = x >> pbits
            if (k >> low) != hi:
                break
            b = k & bmask
            bit = _ONE << np.uint64(b & 63)
            if not (block[b >> 6] & bit):
                block[b >> 6] |= bit
                send[w, 0] = k & lmask
                send[w, 1] = x & pmask if pbits > 0 else a_p[j]
                counts[k >> lbits] += 1
                w += 1
            j += 1
        for t in range(jstart, j):  # clear what the block set
            x = a_k[t]
            if x >= 0:
                block[((x >> pbits) & bmask) >> 6] = 0
    return w


@njit(cache=True)
def _filter(rows, indptr, parent, visited, nq, nqlen):
    """Claim the unvisited vertices of rows (local id, parent); append them to nq. Returns
    the new queue length and the degree sum of the claimed vertices."""
    degsum = 0
    for k in range(rows.shape[0]):
        loc = rows[k, 0]
        w = loc >> 6
        bit = _ONE << np.uint64(loc & 63)
        if not (visited[w] & bit):
            visited[w] |= bit
            parent[loc] = rows[k, 1]
            nq[nqlen] = loc
            nqlen += 1
            degsum += indptr[loc + 1] - indptr[loc]
    return nqlen, degsum


@njit(cache=True)
def _queue_to_bits(q, qlen, bits):
    bits[:] = 0
    for i in range(qlen):
        loc = q[i]
        bits[loc >> 6] |= _ONE << np.uint64(loc & 63)


@njit(cache=True)
def _bits_to_queue(bits, q):
    n = 0
    for w in range(bits.shape[0]):
        x = bits[w]
        while x:
            q[n] = (w << 6) + np.int64(cttz(x))
            n += 1
            x &= x - _ONE
    return n


@njit(cache=True, parallel=True)
def _bottom_up(indptr, indices, visited, linked, frontier, nxt, parent, size, pow2, shift,
               mask, nthreads):
    """One bottom-up level (Beamer): every unvisited local vertex with a neighbour (``linked``:
    bitmap of the local vertices of degree > 0) scans its neighbours for one in the frontier
    (``frontier[owner]``: that rank's bitmap of its local ids) and stops at the first. Threads
    own whole words of visited / nxt (no atomics). Indices are unsigned (no wraparound
    checks). Returns (found, degree sum of the found, adjacency entries examined)."""
    nwords = visited.shape[0]
    nch = min(nwords, 32 * nthreads) if nwords > 256 else min(nwords, 1)
    out = np.zeros((max(nch, 1), 3), np.int64)
    usize = np.uint64(size)
    ushift = np.uint64(shift)
    umask = np.uint64(mask)
    for c in prange(nch):
        found = 0
        deg = 0
        scanned = 0
        for w in range(c * nwords // nch, (c + 1) * nwords // nch):
            uw = np.uint64(w)
            todo = ~visited[uw] & linked[uw]
            new = np.uint64(0)
            base = uw << np.uint64(6)
            while todo:
                b = cttz(todo)
                bit = _ONE << b
                todo ^= bit
                loc = base + b
                e0 = np.uint64(indptr[loc])
                e1 = np.uint64(indptr[loc + _ONE])
                e = e0
                while e < e1:
                    v = np.uint64(indices[e])
                    if pow2:
                        o = v & umask
                        lv = v >> ushift
                    else:
                        o = v % usize
                        lv = v // usize
                    if (frontier[o, lv >> np.uint64(6)] >> (lv & np.uint64(63))) & _ONE:
                        break
                    e += _ONE
                if e < e1:
                    parent[loc] = indices[e]
                    new |= bit
                    found += 1
                    deg += np.int64(e1 - e0)
                    scanned += np.int64(e - e0) + 1
                else:
                    scanned += np.int64(e1 - e0)
            nxt[uw] = new
            visited[uw] |= new
        out[c, 0] = found
        out[c, 1] = deg
        out[c, 2] = scanned
    return out[:, 0].sum(), out[:, 1].sum(), out[:, 2].sum()


@dataclass
class DistBFSResult:
    """One distributed search, this rank's part: ``parent`` (int64 over the local vertices,
    global ids, -1 unreached; ``parent[root // P] == root`` on the root's owner) and the
    per-level statistics of this rank (``levels``: LEVEL_FIELDS -> one value per level)."""

    parent: np.ndarray
    root: int
    levels: dict = field(default_factory=dict)

    @property
    def num_levels(self) -> int:
        return len(self.levels.get("queue", ()))


def check_modes(prune: str, algorithm: str) -> None:
    """InputError for a pruning mode or algorithm the distributed engine does not have."""
    if prune not in PRUNE_MODES:
        raise InputError(f"--prune must be one of {', '.join(PRUNE_MODES)}; got {prune!r}")
    if algorithm not in DIST_ALGORITHMS:
        raise InputError(f"the distributed engine runs {' or '.join(DIST_ALGORITHMS)}; got "
                         f"{algorithm!r}")


class LevelLoop:
    """The level loop of every distributed searcher (compiled here, array in
    ``distributed.array_bfs``): top-down or bottom-up levels by Beamer's switch, the termination
    allreduce and the per-level statistics. A searcher provides ``_start(root)`` -> (parent,
    queue length, root degree on this rank), ``_top_down_level`` and ``_bottom_up_level``
    (parent, qlen) -> (LEVEL_FIELDS row, vertices found, their degree sum), and
    ``_queue_to_frontier(qlen)`` / ``_frontier_to_queue()`` -> qlen for the switches."""

    comm = None
    graph: DistGraph
    hybrid: bool
    num_entries: int  # adjacency entries over all ranks (direction-optimizing only)

    def search(self, root: int) -> DistBFSResult:
        """One BFS from global vertex ``root`` (collective: every rank calls it)."""
        comm, n = self.comm, self.graph.num_vertices
        root = int(root)
        if not 0 <= root < n:
            raise InputError(f"BFS root {root} is not a vertex: the graph has {n} vertices")
        parent, qlen, root_degree = self._start(root)
        stats = {k: [] for k in LEVEL_FIELDS}
        # global frontier size, its edges, the unvisited vertices' edges (Beamer's n_f, m_f, m_u)
        nf, prev_nf = 1, 0
        if self.hybrid:
            m_f = int(comm.allreduce(root_degree))
            m_u = self.num_entries - m_f
        bottom_up = False
        while nf > 0:
            if self.hybrid and not bottom_up and go_bottom_up(nf, prev_nf, m_f, m_u, ALPHA):
                bottom_up = True
                self._queue_to_frontier(qlen)
            if bottom_up:
                row, found, degsum = self._bottom_up_level(parent, qlen)
            else:
                row, found, degsum = self._top_down_level(parent, qlen)
            t0 = time.perf_counter()
            news = comm.allreduce(np.array([found, degsum], dtype=np.int64))
            t1 = time.perf_counter()
            row[-2] += t1 - t0   # comm_time
            row[-1] += t1 - t0   # time
            for name, value in zip(LEVEL_FIELDS, row):
                stats[name].append(value)
            prev_nf, nf = nf, int(news[0])
            if self.hybrid:
                m_f = int(news[1])
                m_u -= m_f
            qlen = found
            if bottom_up:
                back = nf > 0 and nf <= n / BETA and (
                    nf < prev_nf or not (m_u > 0 and m_f * ALPHA > m_u))
                if back or nf == 0:
                    bottom_up = False
                    qlen = self._frontier_to_queue()
        levels = {k: np.array(v, dtype=np.int64 if k in _INT_FIELDS else np.float64)
                  for k, v in stats.items()}
        return DistBFSResult(parent, root, levels)


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
                 algorithm: str = DEFAULT_DIST_ALGORITHM):
        check_modes(prune, algorithm)
        if prune == "bitmap" and graph.column is None:
            raise InputError("--prune bitmap needs the graph built with compact columns "
                             "(build_dist(..., compact_columns=True))")
        self.comm = comm
        self.graph = graph
        self.prune = prune
        self.hybrid = algorithm == "direction-optimizing"
        part = graph.part
        self.size = comm.size
        self.rank = comm.rank
        self.itype = vertex_dtype(part.num_vertices)
        self.pow2 = self.size & (self.size - 1) == 0
        self.shift = self.size.bit_length() - 1
        # NLF key: owner << lbits | local id; with the parent packed below it when it fits
        self.lbits = max(1, (part.max_local - 1).bit_length())
        self.key_bits = self.lbits + (self.size - 1).bit_length()
        vbits = max(1, (part.num_vertices - 1).bit_length())
        self.pbits = vbits if PACK_PARENTS and self.key_bits + vbits <= 63 else 0
        self.unique_bits = UNIQUE_BITS
        nl = part.num_local
        self.visited = np.zeros((nl + 63) // 64, dtype=np.uint64)
        self.seen = np.zeros((graph.num_columns + 63) // 64 if prune == "bitmap" else 1,
                             dtype=np.uint64)
        self.column = graph.column if prune == "bitmap" else np.zeros(1, dtype=self.itype)
        self.queue = np.empty(max(1, nl), dtype=np.int64)
        self.next = np.empty(max(1, nl), dtype=np.int64)
        # bottom-up: this rank's frontier / next bitmaps, padded to the largest rank's words
        self.words = (part.max_local + 63) // 64
        self.num_entries = int(comm.allreduce(graph.num_entries)) if self.hybrid else 0
        self.linked = np.zeros_like(self.visited)
        if self.hybrid:
            deg = graph.degree()
            _queue_to_bits(np.flatnonzero(deg > 0), np.int64(int((deg > 0).sum())), self.linked)
        self._bufs: dict[str, np.ndarray] = {}

    def _buf(self, name: str, rows: int, dtype, width: int | None = None) -> np.ndarray:
        """A kept buffer of at least ``rows`` rows (grown by 1.5x when too small)."""
        b = self._bufs.get(name)
        if b is None or b.shape[0] < rows:
            cap = max(rows, 1024 if b is None else int(b.shape[0] * 1.5))
            b = np.empty((cap,) if width is None else (cap, width), dtype=dtype)
            self._bufs[name] = b
        return b

    def _start(self, root: int):
        g = self.graph
        parent = np.full(g.num_local, -1, dtype=np.int64)
        self.visited[:] = 0
        if self.prune == "bitmap":
            self.seen[:] = 0
        if root % self.size != self.rank:
            return parent, 0, 0
        loc = root // self.size
        parent[loc] = root
        self.visited[loc >> 6] |= _ONE << np.uint64(loc & 63)
        self.queue[0] = loc
        return parent, 1, int(g.indptr[loc + 1] - g.indptr[loc])

    def _queue_to_frontier(self, qlen: int) -> None:
        front = self._buf("front", self.words, np.uint64)[:self.words]
        _queue_to_bits(self.queue, np.int64(qlen), front)

    def _frontier_to_queue(self) -> int:
        return int(_bits_to_queue(self._bufs["front"][:self.words], self.queue))

    def _top_down_level(self, parent, qlen):
        """Algorithm 4's level: expand, prune, exchange, filter. The next queue replaces the
        current one. Returns (statistics row, vertices found, their degree sum)."""
        comm, g = self.comm, self.graph
        size, rank = self.size, self.rank
        q, nq = self.queue, self.next
        t0 = time.perf_counter()
        degree_sum = int(g.indptr[q[:qlen] + 1].sum() - g.indptr[q[:qlen]].sum()) if qlen else 0
        packed = self.pbits > 0
        key = self._buf("key", degree_sum, np.int64)
        par = self._buf("par", 1 if packed else degree_sum, self.itype)
        m, kept = _expand(g.indptr, g.indices, q, np.int64(qlen), self.visited, np.int64(rank),
                          np.int64(size), self.pow2, np.int64(self.shift), np.int64(size - 1),
                          np.int64(self.lbits), np.int64(self.pbits), self.seen, self.column,
                          self.prune == "bitmap", key, par, numba.get_num_threads())
        m, kept = int(m), int(kept)
        send = self._buf("send", kept, self.itype, 2)
        counts = np.empty(size, dtype=np.int64)
        if self.prune == "sort-unique":
            tkey = self._buf("tkey", kept, np.int64)
            tpar = self._buf("tpar", 1 if packed else kept, self.itype)
            pruned = int(_sort_unique(key, par, np.int64(m), np.int64(self.lbits),
                                      np.int64(self.pbits), np.int64(self.key_bits),
                                      np.int64(self.unique_bits), tkey, tpar, np.int64(size),
                                      send, counts))
        else:
            pruned = int(_split(key, par, np.int64(m), np.int64(self.lbits),
                                np.int64(self.pbits), np.int64(size), send, counts))
        displs = np.zeros(size, dtype=np.int64)
        np.cumsum(counts[:-1], out=displs[1:])
        own = int(counts[rank])
        sendcounts = counts.copy()
        sendcounts[rank] = 0
        t1 = time.perf_counter()
        recv, recvcounts = comm.alltoallv(send, sendcounts, out=self._bufs.get("recv"),
                                          displs=displs)
        if recv.base is None:  # a new array (the kept one was too small): keep it
            self._bufs["recv"] = recv
        t2 = time.perf_counter()
        nqlen, deg_local = _filter(send[displs[rank]:displs[rank] + own], g.indptr, parent,
                                   self.visited, nq, np.int64(0))
        enq_local = int(nqlen)
        nqlen, deg_recv = _filter(recv, g.indptr, parent, self.visited, nq, np.int64(nqlen))
        nqlen = int(nqlen)
        t3 = time.perf_counter()
        self.queue, self.next = nq, q
        width = np.dtype(self.itype).itemsize * 2
        sent = pruned - own
        received = int(recvcounts.sum())
        row = [0, qlen, m, pruned, own, sent, sent * width, received, received * width,
               enq_local, nqlen - enq_local, (t1 - t0) + (t3 - t2), t2 - t1, t3 - t0]
        return row, nqlen, int(deg_local) + int(deg_recv)

    def _bottom_up_level(self, parent, qlen):
        """A bottom-up level: allgather the frontier bitmaps, find parents for the own
        unvisited vertices. ``front`` holds this rank's frontier and gets the next one."""
        comm, g = self.comm, self.graph
        t0 = time.perf_counter()
        front = self._bufs["front"][:self.words]
        t1 = time.perf_counter()
        frontier = comm.allgather(front)
        t2 = time.perf_counter()
        nxt = self._buf("nxt", self.words, np.uint64)[:self.words]
        nxt[:] = 0
        found, degsum, scanned = _bottom_up(
            g.indptr, g.indices, self.visited, self.linked, frontier, nxt, parent,
            np.int64(self.size), self.pow2, np.int64(self.shift), np.int64(self.size - 1),
            numba.get_num_threads())
        self._bufs["front"], self._bufs["nxt"] = self._bufs["nxt"], self._bufs["front"]
        t3 = time.perf_counter()
        nbytes = self.words * 8 * (self.size - 1)
        found = int(found)
        row = [1, qlen, int(scanned), 0, 0, 0, nbytes, 0, nbytes, found, 0,
               (t1 - t0) + (t3 - t2), t2 - t1, t3 - t0]
        return row, found, int(degsum)


def bfs_dist(comm, graph: DistGraph, root: int, prune: str = DEFAULT_PRUNE,
             algorithm: str = DEFAULT_DIST_ALGORITHM) -> DistBFSResult:
    """One distributed BFS from ``root`` (collective); see the module docstring."""
    return DistSearcher(comm, graph, prune, algorithm).search(root)
