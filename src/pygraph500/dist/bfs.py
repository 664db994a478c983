"""Distributed level-synchronous BFS over a 1D partition (thesis Algorithm 4 with 4.3.2).

Every rank owns the vertices ``v % P == rank``. One level, on every rank:

1. **expand** (4.3.2 A-B): the degrees of the current queue are prefix-summed (``m``, the
   size of the next-level frontier NLF, is the last sum); the m entries are cut into equal
   chunks, each chunk finds its first queue vertex by binary search in the prefix sums and
   writes its entries ``(owner-major key of v, parent u)`` contiguously into the NLF arrays
   (perfect load balance whatever the degrees). A neighbour owned by this rank that is
   already visited is dropped on the spot (a local look-up, Algorithm 4 line 17).
2. **prune** (4.3.2 C) by ``prune``:

   - ``"sort-unique"`` (default): the NLF is radix-sorted by (owner, local id) carrying the
     parent as payload, and only the first entry of each vertex is kept; the sort also groups
     the entries by owner, which is the split of step D.
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

from ..bfs._common import fetch_or
from ..errors import InputError
from .build import DistGraph
from .partition import vertex_dtype

__all__ = ["PRUNE_MODES", "DEFAULT_PRUNE", "LEVEL_FIELDS", "DistBFSResult", "DistSearcher",
           "bfs_dist"]

PRUNE_MODES = ("sort-unique", "none", "bitmap")
DEFAULT_PRUNE = "sort-unique"

# Per level and per rank. Counts are entries (vertex, parent pairs); bytes are message bytes.
LEVEL_FIELDS = (
    "queue",          # CLQ: vertices in this rank's current level queue
    "nlf",            # NLF: adjacency entries of the queue (the frontier before pruning)
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
_INT_FIELDS = LEVEL_FIELDS[:10]

_ONE = np.uint64(1)


@njit(cache=True, parallel=True)
def _expand(indptr, indices, queue, qlen, visited, rank, size, pow2, shift, mask, nlmax,
            seen, column, use_seen, key, par, nthreads):
    """Write the NLF of queue[:qlen] into key/par (key -1: dropped); returns (m, kept)."""
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
                out = o * nlmax + loc
                if o == rank:
                    if visited[loc >> 6] & (_ONE << np.uint64(loc & 63)):
                        out = -1
                elif use_seen:
                    col = np.int64(column[e])
                    bit = _ONE << np.uint64(col & 63)
                    if seen[col >> 6] & bit:
                        out = -1
                    elif fetch_or(seen, col >> 6, bit) & bit:
                        out = -1
                key[j] = out
                par[j] = pu
                if out >= 0:
                    k += 1
                j += 1
            i += 1
        kept[c] = k
    return m, kept.sum()


@njit(cache=True)
def _split(key, par, m, nlmax, size, send, counts):
    """Counting sort of the kept NLF entries by owner: rows (local id, parent) into send."""
    counts[:] = 0
    for j in range(m):
        k = key[j]
        if k >= 0:
            counts[k // nlmax] += 1
    pos = np.empty(size, np.int64)
    acc = 0
    for r in range(size):
        pos[r] = acc
        acc += counts[r]
    for j in range(m):
        k = key[j]
        if k >= 0:
            o = k // nlmax
            send[pos[o], 0] = k - o * nlmax
            send[pos[o], 1] = par[j]
            pos[o] += 1
    return acc


@njit(cache=True)
def _sort_unique(key, par, m, key_bits, tkey, tpar, nlmax, size, send, counts):
    """Sort the kept entries by key (LSD radix, payload carried), keep the first entry of
    every key: rows (local id, parent) grouped by owner into send. Returns the count."""
    n = 0
    for j in range(m):  # compact the kept entries
        if key[j] >= 0:
            key[n] = key[j]
            par[n] = par[j]
            n += 1
    passes = max(1, (key_bits + 10) // 11)
    bits = (key_bits + passes - 1) // passes
    mask = (1 << bits) - 1
    cnt = np.empty((1 << bits) + 1, np.int64)
    a_k, a_p, b_k, b_p = key, par, tkey, tpar
    shift = 0
    for _ in range(passes):
        cnt[:] = 0
        for j in range(n):
            cnt[((a_k[j] >> shift) & mask) + 1] += 1
        for d in range(mask + 1):
            cnt[d + 1] += cnt[d]
        for j in range(n):
            d = (a_k[j] >> shift) & mask
            t = cnt[d]
            b_k[t] = a_k[j]
            b_p[t] = a_p[j]
            cnt[d] = t + 1
        a_k, a_p, b_k, b_p = b_k, b_p, a_k, a_p
        shift += bits
    counts[:] = 0
    w = 0
    last = -1
    for j in range(n):
        k = a_k[j]
        if k != last:
            last = k
            o = k // nlmax
            send[w, 0] = k - o * nlmax
            send[w, 1] = a_p[j]
            counts[o] += 1
            w += 1
    return w


@njit(cache=True)
def _filter(rows, parent, visited, nq, nqlen):
    """Claim the unvisited vertices of rows (local id, parent); append them to nq."""
    for k in range(rows.shape[0]):
        loc = rows[k, 0]
        w = loc >> 6
        bit = _ONE << np.uint64(loc & 63)
        if not (visited[w] & bit):
            visited[w] |= bit
            parent[loc] = rows[k, 1]
            nq[nqlen] = loc
            nqlen += 1
    return nqlen


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


class DistSearcher:
    """Distributed searches of one DistGraph with one pruning mode. Buffers (NLF, sort
    scratch, messages, queues) are kept from search to search: fresh memory is slow on
    virtual machines, and a level's arrays can be as large as the rank's adjacency."""

    def __init__(self, comm, graph: DistGraph, prune: str = DEFAULT_PRUNE):
        if prune not in PRUNE_MODES:
            raise InputError(f"--prune must be one of {', '.join(PRUNE_MODES)}; got {prune!r}")
        if prune == "bitmap" and graph.column is None:
            raise InputError("--prune bitmap needs the graph built with compact columns "
                             "(build_dist(..., compact_columns=True))")
        self.comm = comm
        self.graph = graph
        self.prune = prune
        part = graph.part
        self.size = comm.size
        self.rank = comm.rank
        self.nlmax = part.max_local
        self.itype = vertex_dtype(part.num_vertices)
        self.pow2 = self.size & (self.size - 1) == 0
        self.shift = self.size.bit_length() - 1
        self.key_bits = max(1, (self.size * self.nlmax - 1).bit_length())
        nl = part.num_local
        self.visited = np.zeros((nl + 63) // 64, dtype=np.uint64)
        self.seen = np.zeros((graph.num_columns + 63) // 64 if prune == "bitmap" else 1,
                             dtype=np.uint64)
        self.column = graph.column if prune == "bitmap" else np.zeros(1, dtype=self.itype)
        self.queue = np.empty(max(1, nl), dtype=np.int64)
        self.next = np.empty(max(1, nl), dtype=np.int64)
        self._bufs: dict[str, np.ndarray] = {}

    def _buf(self, name: str, rows: int, dtype, width: int | None = None) -> np.ndarray:
        """A kept buffer of at least ``rows`` rows (grown by 1.5x when too small)."""
        b = self._bufs.get(name)
        if b is None or b.shape[0] < rows:
            cap = max(rows, 1024 if b is None else int(b.shape[0] * 1.5))
            b = np.empty((cap,) if width is None else (cap, width), dtype=dtype)
            self._bufs[name] = b
        return b

    def search(self, root: int) -> DistBFSResult:
        """One BFS from global vertex ``root`` (collective: every rank calls it)."""
        comm, g = self.comm, self.graph
        n = g.num_vertices
        root = int(root)
        if not 0 <= root < n:
            raise InputError(f"BFS root {root} is not a vertex: the graph has {n} vertices")
        size, rank = self.size, self.rank
        nthreads = numba.get_num_threads()
        parent = np.full(g.num_local, -1, dtype=np.int64)
        visited = self.visited
        visited[:] = 0
        if self.prune == "bitmap":
            self.seen[:] = 0
        q, nq = self.queue, self.next
        qlen = 0
        if root % size == rank:
            loc = root // size
            parent[loc] = root
            visited[loc >> 6] |= _ONE << np.uint64(loc & 63)
            q[0] = loc
            qlen = 1
        stats = {k: [] for k in LEVEL_FIELDS}
        total = 1
        width = np.dtype(self.itype).itemsize * 2
        counts = np.empty(size, dtype=np.int64)
        while total > 0:
            t0 = time.perf_counter()
            degree_sum = int(g.indptr[q[:qlen] + 1].sum() - g.indptr[q[:qlen]].sum()) if qlen else 0
            key = self._buf("key", degree_sum, np.int64)
            par = self._buf("par", degree_sum, self.itype)
            m, kept = _expand(g.indptr, g.indices, q, np.int64(qlen), visited, np.int64(rank),
                              np.int64(size), self.pow2, np.int64(self.shift),
                              np.int64(size - 1), np.int64(self.nlmax), self.seen, self.column,
                              self.prune == "bitmap", key, par, nthreads)
            m, kept = int(m), int(kept)
            send = self._buf("send", kept, self.itype, 2)
            if self.prune == "sort-unique":
                tkey = self._buf("tkey", kept, np.int64)
                tpar = self._buf("tpar", kept, self.itype)
                pruned = int(_sort_unique(key, par, np.int64(m), np.int64(self.key_bits), tkey,
                                          tpar, np.int64(self.nlmax), np.int64(size), send,
                                          counts))
            else:
                pruned = int(_split(key, par, np.int64(m), np.int64(self.nlmax), np.int64(size),
                                    send, counts))
            displs = np.zeros(size, dtype=np.int64)
            np.cumsum(counts[:-1], out=displs[1:])
            own = int(counts[rank])
            sendcounts = counts.copy()
            sendcounts[rank] = 0
            t1 = time.perf_counter()
            recv_buf = self._bufs.get("recv")
            recv, recvcounts = comm.alltoallv(send, sendcounts, out=recv_buf, displs=displs)
            if recv_buf is None or recv.base is not recv_buf:
                self._bufs["recv"] = recv if recv.base is None else recv.base
            t2 = time.perf_counter()
            nqlen = int(_filter(send[displs[rank]:displs[rank] + own], parent, visited, nq,
                                np.int64(0)))
            enq_local = nqlen
            nqlen = int(_filter(recv, parent, visited, nq, np.int64(nqlen)))
            t3 = time.perf_counter()
            total = comm.allreduce(nqlen)
            t4 = time.perf_counter()
            sent = pruned - own
            received = int(recvcounts.sum())
            for name, value in zip(LEVEL_FIELDS, (
                    qlen, m, pruned, own, sent, sent * width, received, received * width,
                    enq_local, nqlen - enq_local, (t1 - t0) + (t3 - t2), (t2 - t1) + (t4 - t3),
                    t4 - t0)):
                stats[name].append(value)
            q, nq = nq, q
            qlen = nqlen
        levels = {k: np.array(v, dtype=np.int64 if k in _INT_FIELDS else np.float64)
                  for k, v in stats.items()}
        return DistBFSResult(parent, root, levels)


def bfs_dist(comm, graph: DistGraph, root: int, prune: str = DEFAULT_PRUNE) -> DistBFSResult:
    """One distributed BFS from ``root`` (collective); see the module docstring."""
    return DistSearcher(comm, graph, prune).search(root)
