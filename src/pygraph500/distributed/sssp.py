"""Distributed single-source shortest paths (Graph500 kernel 3) over a 1D partition:
delta-stepping (Meyer and Sanders) in bulk-synchronous phases.

Every rank owns the vertices ``v % P == rank`` with their float32 distances and parents.
Vertices are in buckets ``floor(d / delta)``; the buckets are taken in increasing order, the
smallest non-empty one chosen by an ``allreduce(min)`` over the ranks' pending vertices.

- **light phase** (repeated while the bucket keeps changing): every rank relaxes the light
  entries (weight < delta) of its frontier: each entry ``(u, v, w)`` gives the triple
  ``(v, float32(d(u) + w), u)``; only the least per target v (ties: the least u) is kept
  (an atomic min in one slot per distinct neighbour of the rank: in the heavy phases of
  Graph500 graphs that cuts the triples about tenfold), an own target only when it lowers
  ``d(v)``; the triples go to the owners of their targets, grouped by owner, in ONE
  ``alltoallv``; the owner lowers ``d(v)`` and sets ``parent(v) = u`` only on a strict
  decrease. Vertices lowered into the current bucket form the next frontier (their light
  entries again), those lowered into later buckets wait in the pending list. An allreduce of
  the next frontiers' sizes ends the bucket.
- **heavy phase** (once per bucket): the heavy entries of every vertex settled in the bucket
  (R), with its final distance: one ``alltoallv``; what they lower waits in later buckets.

Distances are float32 sums as the reference computes them; float rounding is monotone, so a
vertex whose distance drops after it gave its neighbours theirs relaxes them again (it is
pending once more), and at the end every parent satisfies ``d(v) == float32(d(parent) + w)``
with the parent's final distance, and the parents form a tree (a strict decrease can never
close a cycle: along parent pointers distances never increase).

``delta`` defaults to ``DELTA_SCALE`` (4) times the mean weight over the average degree
(adjacency entries / N), the mean over every entry of every rank: about 0.07 for Graph500
weights (uniform in [0, 1]) at degree ~30 (Meyer and Sanders' Theta(1/d)); the Graph500
reference's own code uses 0.1. The factor is 50x the embedded delta-stepping's: every phase
here costs an ``alltoallv`` and allreduces, so fewer, wider buckets pay, where the embedded
one (light and heavy edges in one pass, no collective) runs best with narrow buckets. Light phases read only
light entries: the searcher keeps a copy of its rows with the light entries first
(``split_light``).

The run is deterministic, and its distances and phases are the same bit for bit for any
number of ranks and threads: every phase applies the least of the same candidates (computed
from the distances before the phase), whatever the ranks and the order of the rows; only a
parent can differ, between equal candidates from two ranks (the lower rank's wins).

Per phase and rank (``SSSP_FIELDS``, ``levels``): see the tuple below. ``comp_time`` is the
relaxing, applying and bucket bookkeeping, ``comm_time`` the alltoallv and the allreduce(s)
(waiting for slower ranks included).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba
import numpy as np

from ..errors import InputError, shown
from .build import DistGraph, label_columns
from .comm import KeptBuffers
from .partition import owner_split, vertex_dtype
from .sssp_kernels import (INPL, NO_BUCKET, PEND, apply, clear_settled, column_vertices, emit,
                           front_offsets, min_bucket, relax, relax_serial, sort_lowered,
                           split_light, take_bucket)

__all__ = ["SSSP_FIELDS", "DistSSSPResult", "DistSSSPSearcher", "sssp_dist", "default_delta"]

# Per phase and per rank. Counts are relaxation triples (target, candidate, source).
SSSP_FIELDS = (
    "heavy",          # 0 light phase, 1 heavy phase
    "bucket",         # the bucket being settled
    "frontier",       # vertices whose entries this rank relaxed
    "relaxations",    # adjacency entries examined (light or heavy ones of the frontier)
    "candidates",     # triples formed (an own vertex's only when it lowers the distance)
    "local",          # triples kept for this rank's own vertices (one per target)
    "sent",           # triples sent to other ranks
    "sent_bytes",
    "received",       # triples received from other ranks
    "received_bytes",
    "lowered",        # distances lowered on this rank by the phase's triples
    "comp_time",      # seconds
    "comm_time",      # seconds
    "time",           # seconds: the whole phase on this rank
)
_INT_FIELDS = SSSP_FIELDS[:11]
# delta = DELTA_SCALE * mean weight / average degree (see the module docstring for why it is
# not the embedded delta-stepping's factor).
DELTA_SCALE = 4.0
_SERIAL_ENTRIES = 65536  # below this many entries a phase relaxes in one chunk


@dataclass
class DistSSSPResult:
    """One distributed SSSP, this rank's part: ``parent`` (int64 over the local vertices,
    global ids, -1 unreached), ``distance`` (float32, inf unreached) and this rank's
    per-phase statistics (``levels``: SSSP_FIELDS -> one value per phase)."""

    parent: np.ndarray
    distance: np.ndarray
    root: int
    delta: float
    levels: dict = field(default_factory=dict)

    @property
    def num_phases(self) -> int:
        return len(self.levels.get("frontier", ()))


def default_delta(comm, graph: DistGraph) -> float:
    """``DELTA_SCALE * mean weight / average degree`` over all ranks' entries (collective);
    1.0 for a graph without entries or only zero weights."""
    total = float(graph.weights.sum(dtype=np.float64))
    total = float(comm.allreduce(total))
    entries = int(comm.allreduce(graph.num_entries))
    if not total > 0 or entries == 0 or not np.isfinite(total):
        return 1.0
    return DELTA_SCALE * (total / entries) / (entries / max(1, graph.num_vertices))


class DistSSSPSearcher:
    """Distributed delta-stepping searches of one weighted DistGraph (every rank makes one
    with the same ``delta``; None: ``default_delta``). Keeps its buffers from search to
    search, and a copy of the rank's rows split into light and heavy entries."""

    def __init__(self, comm, graph: DistGraph, delta: float | None = None):
        if graph.weights is None:
            raise InputError("SSSP needs a weighted graph (build_dist on weighted edges: "
                             "generate_local(..., weights=True))")
        self.comm = comm
        self.graph = graph
        self.delta = float(default_delta(comm, graph) if delta is None else delta)
        if not self.delta > 0 or not np.isfinite(self.delta):
            raise InputError(f"delta must be a positive number, got {shown(delta)}")
        part = graph.part
        self.size, self.rank = comm.size, comm.rank
        # owner_local's arguments after the vertex (``sssp_kernels``'s ``split``)
        self.split = owner_split(self.size)
        self.itype = vertex_dtype(part.num_vertices)
        self.ftype = np.float32 if np.dtype(self.itype).itemsize == 4 else np.float64
        self.row_bytes = 3 * np.dtype(self.itype).itemsize
        nl = part.num_local
        column, ncols = graph.column, graph.num_columns
        if column is None:
            column, ncols = label_columns(graph.indices, part.num_vertices)
        # per distinct neighbour: [the phase's least key, its global id]
        self.cols = np.empty((max(1, ncols), 2), dtype=np.int64)
        column_vertices(column, graph.indices, self.cols)
        self.lcol = np.empty_like(column)
        self.lw = np.empty_like(graph.weights)
        self.lend = np.empty(nl, dtype=np.int64)
        split_light(graph.indptr, column, graph.weights, np.float32(self.delta), self.lcol,
                    self.lw, self.lend)
        self.rows = (graph.indptr, self.lend, self.lcol, self.lw)
        self.state = np.zeros(nl, dtype=np.uint8)
        cap = max(1, nl)
        self.front = np.empty(cap, dtype=np.int64)
        self.next = np.empty(cap, dtype=np.int64)
        self.plist = np.empty(cap, dtype=np.int64)
        self.settle = np.empty(cap, dtype=np.int64)
        self.lowered = np.empty(cap, dtype=np.int64)
        self.off = np.empty(cap + 1, dtype=np.int64)
        self._bufs = KeptBuffers()
        self._recv = None

    def search(self, root: int) -> DistSSSPResult:
        """Shortest paths from global vertex ``root`` (collective: every rank calls it)."""
        comm, g = self.comm, self.graph
        n = g.num_vertices
        root = int(root)
        if not 0 <= root < n:
            raise InputError(f"SSSP root {root} is not a vertex: the graph has {n} vertices")
        nl = g.num_local
        dist = np.full(nl, np.inf, dtype=np.float32)
        parent = np.full(nl, -1, dtype=np.int64)
        self.state[:] = 0
        plen = slen = 0
        if g.part.owner(root) == self.rank:
            loc = g.part.local(root)
            dist[loc] = 0
            parent[loc] = root
            self.state[loc] = PEND | INPL
            self.plist[0] = loc
            plen = 1
        delta = self.delta
        stats = {k: [] for k in SSSP_FIELDS}
        while True:
            t0 = time.perf_counter()
            plen, mine = min_bucket((self.plist, plen), dist, delta, self.state)
            t1 = time.perf_counter()
            b = int(comm.allreduce(int(mine), "min"))
            t2 = time.perf_counter()
            if b == NO_BUCKET:
                break
            flen, plen, slen = take_bucket((self.plist, plen), dist, delta, b, self.state,
                                           self.front, (self.settle, slen))
            t3 = time.perf_counter()
            carry = ((t1 - t0) + (t3 - t2), t2 - t1)  # bucket choice: into the first phase
            while True:
                row, flen, plen, slen = self._phase(dist, parent, self.front, flen, False, b,
                                                    plen, slen)
                t4 = time.perf_counter()
                more = int(comm.allreduce(flen))
                t5 = time.perf_counter()
                row[-2] += t5 - t4 + carry[1]
                row[-3] += carry[0]
                row[-1] += t5 - t4 + sum(carry)
                carry = (0.0, 0.0)
                self._record(stats, row)
                if more == 0:
                    break
                self.front, self.next = self.next, self.front
            row, _, plen, _ = self._phase(dist, parent, self.settle, slen, True, b, plen, 0)
            clear_settled(self.settle, np.int64(slen), self.state)
            slen = 0
            self._record(stats, row)
        levels = {k: np.array(v, dtype=np.int64 if k in _INT_FIELDS else np.float64)
                  for k, v in stats.items()}
        return DistSSSPResult(parent, dist, root, delta, levels)

    @staticmethod
    def _record(stats, row):
        for name, value in zip(SSSP_FIELDS, row):
            stats[name].append(value)

    def _phase(self, dist, parent, front, flen, heavy, b, plen, slen):
        """Relax the light (or heavy) entries of front[:flen], exchange, apply. Returns
        (statistics row, next frontier length in self.next, plen, slen)."""
        comm, g = self.comm, self.graph
        size, rank = self.size, self.rank
        t0 = time.perf_counter()
        m = int(front_offsets(g.indptr, self.lend, front, np.int64(flen), heavy, self.off))
        nch = 1 if m < _SERIAL_ENTRIES else 8 * numba.get_num_threads()
        touched = self._bufs.rows("touched", m, np.int64)
        tcount = np.empty(nch, dtype=np.int64)
        work = (front, np.int64(flen), self.off, heavy)
        slots = (self.cols, touched, tcount)
        if nch == 1:
            cands = relax_serial(work, np.int64(m), self.rows, dist, np.int64(rank), self.split,
                                 slots)
        else:
            cands = relax(work, np.int64(m), np.int64(nch), self.rows, dist, np.int64(rank),
                          self.split, slots)
        cands = int(cands)
        rows = int(tcount.sum())
        send = self._bufs.rows("send", rows, self.itype, 3)
        counts = np.empty(size, dtype=np.int64)
        kept = int(emit(slots, np.int64(m), self.split, counts, send, send.view(self.ftype)))
        send = send[:kept]
        t1 = time.perf_counter()
        recv, got = comm.alltoallv(send, counts, out=self._recv)
        # keep the largest receive buffer (not SerialComm's answer: a view of send itself)
        if (not np.may_share_memory(recv, send)
                and (self._recv is None or recv.shape[0] > self._recv.shape[0])):
            self._recv = recv
        t2 = time.perf_counter()
        nlow = int(apply(recv, recv.view(self.ftype), dist, parent, self.state, self.lowered))
        na, plen, slen = sort_lowered((self.lowered, np.int64(nlow)), dist, self.delta,
                                      np.int64(-1 if heavy else b), self.state, self.next,
                                      (self.plist, np.int64(plen)), (self.settle, np.int64(slen)))
        t3 = time.perf_counter()
        own = int(counts[rank])
        sent = kept - own
        received = int(got.sum()) - int(got[rank])
        row = [int(heavy), b, int(flen), m, cands, own, sent, sent * self.row_bytes, received,
               received * self.row_bytes, nlow, (t1 - t0) + (t3 - t2), t2 - t1, t3 - t0]
        return row, int(na), int(plen), int(slen)


def sssp_dist(comm, graph: DistGraph, root: int, delta: float | None = None) -> DistSSSPResult:
    """One distributed SSSP (collective): ``DistSSSPSearcher(comm, graph, delta).search``."""
    return DistSSSPSearcher(comm, graph, delta).search(root)
