"""Kernel 1: build the symmetric CSR graph from an EdgeList (thesis section 4.2.2).

Counting sort plus prefix sum, as in the thesis, done in parallel without locks or atomics:

1. count: the edge tuples are cut into ``C`` contiguous chunks; chunk ``c`` counts, in its own
   row ``counts[c]``, how many adjacency entries it will write for every vertex (both
   directions of each tuple, self-loops skipped). Labels are range-checked on the way.
2. prefix sum: the degree of ``v`` is ``sum_c counts[c, v]``; ``indptr`` is their prefix sum and
   ``counts[c, v]`` becomes the first slot of chunk ``c`` inside row ``v``.
3. scatter: every chunk writes its entries into its own slots (no two chunks share a slot).
   Rows are now complete but unsorted.
4. sort + dedup, in place, parallel over vertex ranges of equal entry counts: short rows by
   insertion sort, medium ones by one bucket pass on their top label bits followed by an
   insertion sort (nearly linear then), long ones by an LSD radix sort on the label bits,
   with a per-task scratch buffer the size of its longest row; duplicates are then adjacent
   and dropped while each range packs its rows to the left of its own region.
5. compact: each range's packed block moves left to its final place (a few large
   ``memmove`` calls, in order: a block may land on the source of the one before it) and the
   array is shrunk without a copy.

Sorting rows in place avoids a second ``indices``-sized array (a transposing counting sort
needs one, and fresh memory is expensive on virtual machines), and is faster anyway.
The chunk count ``C`` is at most the number of numba threads and is lowered so that the
``C x N`` count table stays small next to the edge list. Memory beyond the input: one
``indices``-sized array (2 entries per input tuple), the count table and per-vertex arrays.
"""
from __future__ import annotations

import time

import numba
import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..backend.memory import require_memory
from ..errors import InputError
from ..primitives.bits import LOW32
from .types import CSRGraph, EdgeList, index_dtype
from .weights import check_weights, insertion_sort, split_keys

__all__ = ["build_csr", "count_tuples", "place_tuples", "TupleCounts", "sort_dedup_rows", "lap"]

# Largest count table (bytes) we allow beyond max(64 MiB, 1/4 of the edge list's bytes).
_COUNT_TABLE_MIN_BYTES = 64 << 20


@njit(cache=True, parallel=True)
def _count(src, dst, n, counts, bounds):
    """counts[c, v] += entries chunk c writes into row v; return the number of bad tuples."""
    nchunks = bounds.shape[0] - 1
    bad = 0
    for c in prange(nchunks):
        row = counts[c]
        for i in range(bounds[c], bounds[c + 1]):
            u = src[i]
            v = dst[i]
            if u < 0 or u >= n or v < 0 or v >= n:
                bad += 1
                continue
            if u != v:
                row[np.uint64(u)] += 1  # (checked just above: no wraparound test)
                row[np.uint64(v)] += 1
    return bad


@njit(cache=True)
def _first_bad(src, dst, n):
    for i in range(src.shape[0]):
        if src[i] < 0 or src[i] >= n or dst[i] < 0 or dst[i] >= n:
            return i
    return -1


@njit(cache=True, parallel=True)
def _offsets(counts, indptr):
    """indptr = prefix sum of degrees; counts[c, v] becomes chunk c's first slot in row v."""
    nchunks, n = counts.shape
    indptr[0] = 0
    # Serial prefix sum of the degrees (O(N), a few ms at N = 2**20).
    acc = 0
    for v in range(n):
        for c in range(nchunks):
            acc += counts[c, v]
        indptr[v + 1] = acc
    for v in prange(n):
        run = indptr[v]
        for c in range(nchunks):
            t = counts[c, v]
            counts[c, v] = run
            run += t


@njit(cache=True, parallel=True)
def _scatter(src, dst, wbits, counts, bounds, out, new_label):
    """Write both directions of every tuple; labels go through new_label unless it is empty.
    A non-empty ``wbits`` (weighted kernel 1) makes each entry the int64 key
    ``neighbour << 32 | the tuple's weight bits`` instead of the neighbour alone."""
    nchunks = bounds.shape[0] - 1
    relabel = new_label.shape[0] > 0
    keyed = wbits.shape[0] > 0
    for c in prange(nchunks):
        row = counts[c]
        for i in range(bounds[c], bounds[c + 1]):
            u = src[i]
            v = dst[i]
            if relabel:
                u = new_label[u]
                v = new_label[v]
            if u != v:  # labels were range-checked: uint64 indices skip the wraparound test
                uu = np.uint64(u)
                vv = np.uint64(v)
                if keyed:
                    w = np.int64(wbits[i]) & LOW32
                    out[np.uint64(row[uu])] = (np.int64(v) << 32) | w
                    out[np.uint64(row[vv])] = (np.int64(u) << 32) | w
                else:
                    out[np.uint64(row[uu])] = v
                    out[np.uint64(row[vv])] = u
                row[uu] += 1
                row[vv] += 1


@njit(cache=True)
def _by_decreasing_degree(degree):
    """Vertices by decreasing degree, ties by label (a stable counting sort, O(N + max))."""
    n = degree.shape[0]
    top = 0
    for v in range(n):
        top = max(top, degree[v])
    start = np.zeros(top + 2, np.int64)
    for v in range(n):
        start[top - degree[v] + 1] += 1
    for d in range(top + 1):
        start[d + 1] += start[d]
    order = np.empty(n, np.int64)
    for v in range(n):
        k = top - degree[v]
        order[start[k]] = v
        start[k] += 1
    return order


_INSERTION_MAX = 16  # rows up to this length are insertion-sorted
_BUCKET_MAX = 64     # up to this length: a bucket pass, then insertion (radix beyond)


@njit(inline="always")
def _bucket_then_insertion_sort(out, s, e, tmp, cnt, label_bits):
    """Sort out[s:e] by one counting pass on the top log2(len) label bits (into tmp), then
    an insertion sort whose moves stay inside buckets: 2.4x faster than insertion alone on
    rows of 17-64 random labels (``bench_kernels.py --phases``). Clustered labels (the sum of squared bucket sizes above
    4x the length) take the plain insertion sort instead."""
    d = e - s
    b = 1
    while (1 << b) < d:
        b += 1
    b = min(b, label_bits)
    shift = label_bits - b
    cnt[:(1 << b) + 1] = 0
    for i in range(s, e):
        cnt[(out[i] >> shift) + 1] += 1
    squares = 0
    for k in range(1 << b):
        squares += cnt[k + 1] * cnt[k + 1]
        cnt[k + 1] += cnt[k]
    if squares > 4 * d:
        insertion_sort(out, s, e)
        return
    for i in range(s, e):
        k = out[i] >> shift
        tmp[cnt[k]] = out[i]
        cnt[k] += 1
    for i in range(d):
        x = tmp[i]
        j = s + i - 1
        while j >= s and out[j] > x:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = x


@njit(inline="always")
def _radix_sort(out, s, e, tmp, cnt, bits, passes):
    """LSD radix sort of out[s:e], ``passes`` passes of ``bits`` bits, through tmp."""
    d = e - s
    mask = (1 << bits) - 1
    shift = 0
    in_out = True  # where the data is now
    for _ in range(passes):
        cnt[:] = 0
        if in_out:
            for i in range(s, e):
                cnt[((out[i] >> shift) & mask) + 1] += 1
        else:
            for i in range(d):
                cnt[((tmp[i] >> shift) & mask) + 1] += 1
        for b in range(mask + 1):
            cnt[b + 1] += cnt[b]
        if in_out:
            for i in range(s, e):
                k = (out[i] >> shift) & mask
                tmp[cnt[k]] = out[i]
                cnt[k] += 1
        else:
            for i in range(d):
                k = (tmp[i] >> shift) & mask
                out[s + cnt[k]] = tmp[i]
                cnt[k] += 1
        in_out = not in_out
        shift += bits
    if not in_out:
        out[s:e] = tmp[:d]


@njit(cache=True, parallel=True)
def _sort_dedup_rows(indptr, out, newdeg, vbounds, label_bits, bits, passes, packed):
    """Sort every row in place and drop duplicates; newdeg[v] = distinct neighbours.

    Each vertex range k also packs its deduplicated rows to the left of its own region
    (rows only move left, inside the range: no race); packed[k] = entries it kept.
    """
    nchunks = vbounds.shape[0] - 1
    for k in prange(nchunks):
        longest = 0
        for v in range(vbounds[k], vbounds[k + 1]):
            longest = max(longest, indptr[v + 1] - indptr[v])
        tmp = np.empty(longest, out.dtype)
        cnt = np.empty(max(1 << bits, 2 * _BUCKET_MAX) + 1, np.int64)
        w = indptr[vbounds[k]]
        for v in range(vbounds[k], vbounds[k + 1]):
            s = indptr[v]
            e = indptr[v + 1]
            if e - s > _BUCKET_MAX:
                _radix_sort(out, s, e, tmp, cnt, bits, passes)
            elif e - s > _INSERTION_MAX:
                _bucket_then_insertion_sort(out, s, e, tmp, cnt, label_bits)
            elif e - s > 1:
                insertion_sort(out, s, e)
            row_start = w
            last = -1
            for i in range(s, e):
                x = out[i]
                if x != last:
                    out[w] = x
                    w += 1
                    last = x
            newdeg[v] = w - row_start
        packed[k] = w - indptr[vbounds[k]]


@intrinsic
def _move_left(typingctx, arr, dst, src, count):
    """``arr[dst:dst + count] = arr[src:src + count]`` for overlapping ranges, as one
    ``llvm.memmove`` (an element loop here is 3x slower: ``bench_kernels.py --phases``)."""
    def codegen(context, builder, sig, args):
        a, d, s, c = args
        ary = context.make_array(sig.args[0])(context, builder, a)
        itemsize = context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype))
        cgutils.raw_memmove(builder, builder.gep(ary.data, [d]), builder.gep(ary.data, [s]), c,
                            itemsize)
        return context.get_dummy_value()
    return types.none(arr, types.int64, types.int64, types.int64), codegen


@njit(cache=True)
def _compact(indptr, out, newdeg, vbounds, packed):
    """Final indptr from newdeg; each range's packed block moves left to its final place."""
    n = newdeg.shape[0]
    old_start = indptr.copy()
    w = 0
    for v in range(n):
        indptr[v] = w
        w += newdeg[v]
    indptr[n] = w
    for k in range(vbounds.shape[0] - 1):
        src = old_start[vbounds[k]]
        dst = indptr[vbounds[k]]
        if src != dst:  # dst < src; the blocks before have moved already
            _move_left(out, dst, src, packed[k])
    return w


def lap(phases: dict | None, name: str, t0: float) -> float:
    """Add the seconds since ``t0`` to ``phases[name]`` if a dict; the time now."""
    t = time.perf_counter()
    if phases is not None:
        phases[name] = phases.get(name, 0.0) + t - t0
    return t


def row_ranges(indptr: np.ndarray) -> np.ndarray:
    """Step 4's vertex ranges: 16 per thread, of about equal entry counts (int64 bounds)."""
    dchunks = max(1, 16 * numba.get_num_threads())
    vbounds = np.searchsorted(indptr, (np.arange(dchunks + 1) * int(indptr[-1])) // dchunks)
    vbounds = vbounds.astype(np.int64)
    vbounds[0], vbounds[-1] = 0, indptr.shape[0] - 1
    return vbounds


def sort_dedup_rows(indptr: np.ndarray, out: np.ndarray, num_labels: int,
                    phases: dict | None = None) -> np.ndarray:
    """Steps 4 and 5 for any row layout (also the distributed kernel 1's): every row of
    ``out`` sorted and deduplicated in place, ``indptr`` rewritten, and ``out`` shrunk to the
    entries kept (returned: the same memory when it could be shrunk in place). Labels are
    below ``num_labels``; radix passes take at most 11 of their bits. ``phases``: see
    ``lap``."""
    t = time.perf_counter()
    n = indptr.shape[0] - 1
    total = int(indptr[-1])
    label_bits = max(1, (num_labels - 1).bit_length())
    passes = -(-label_bits // 11)
    bits = -(-label_bits // passes)
    newdeg = np.empty(n, dtype=np.int64)
    vbounds = row_ranges(indptr)
    packed = np.empty(vbounds.shape[0] - 1, dtype=np.int64)
    _sort_dedup_rows(indptr, out, newdeg, vbounds, label_bits, bits, passes, packed)
    t = lap(phases, "sort + dedup", t)
    final = int(_compact(indptr, out, newdeg, vbounds, packed))
    if final != total:
        try:
            out.resize(final, refcheck=False)  # shrinks in place (realloc), no copy
        except (ValueError, SystemError):
            out = out[:final].copy()
    lap(phases, "compaction", t)
    return out


def _edge_bounds(m: int, nchunks: int) -> np.ndarray:
    return (np.arange(nchunks + 1, dtype=np.int64) * m) // nchunks


SORT_VERTICES = (None, "degree")


@njit(cache=True, parallel=True)
def _row_lengths(indptr, out):
    """out[v] = indptr[v + 1] - indptr[v] (the tuples at v before duplicates are dropped)."""
    for v in prange(out.shape[0]):
        out[v] = indptr[v + 1] - indptr[v]


@njit(cache=True)
def _longest_row(indptr):
    top = 0
    for v in range(indptr.shape[0] - 1):
        top = max(top, indptr[v + 1] - indptr[v])
    return top


def _int64(a):
    return a if a.dtype == np.int64 else a.astype(np.int64)


class TupleCounts:
    """Kernel 1's first pass over a tuple source: how many adjacency entries each of
    ``nchunks`` parts of every piece writes into each row (``counts[c, v]``). The second
    pass (``place_tuples``) must read the same pieces, split the same way."""

    def __init__(self, edges):
        n = int(edges.num_vertices)
        if n < 0:
            raise InputError(f"EdgeList.num_vertices must be >= 0, got {n}")
        m = int(edges.num_edges)
        if 2 * m >= 2**63:
            raise InputError(f"too many edge tuples ({m})")
        if isinstance(edges, EdgeList):
            for a in (edges.src, edges.dst):
                if a.dtype.kind not in "iu":
                    raise InputError(f"EdgeList labels must be integers, got {edges.src.dtype} "
                                     f"and {edges.dst.dtype}")
            if edges.weight is not None:
                check_weights(edges.weight)  # refused before any work
        self.n, self.m, self.weighted = n, m, bool(edges.weighted)
        self.itype = index_dtype(n)
        # Count table: one row of N per part; int32 when every offset fits.
        ctype = np.int32 if 2 * m < 2**31 else np.int64
        row_bytes = max(1, n) * np.dtype(ctype).itemsize
        budget = max(_COUNT_TABLE_MIN_BYTES, (16 * m) // 4)
        self.nchunks = int(max(1, min(numba.get_num_threads(), budget // row_bytes,
                                      -(-m // 65536))))
        # weighted: int64 keys, then the int32/int64 indices and float32 weights beside them
        item = (np.dtype(self.itype).itemsize if not self.weighted
                else 8 + np.dtype(self.itype).itemsize + 4)
        require_memory((2 * m) * item + self.nchunks * row_bytes + 16 * (n + 1),
                       f"building the CSR graph of {m} edge tuples and {n} vertices (kernel 1)")
        self.counts = np.zeros((self.nchunks, n), dtype=ctype)
        for start, src, dst, _ in edges.chunks(weights=False):
            src, dst = _int64(np.ascontiguousarray(src)), _int64(np.ascontiguousarray(dst))
            bad = _count(src, dst, n, self.counts, _edge_bounds(src.shape[0], self.nchunks))
            if bad:
                i = int(_first_bad(src, dst, n))
                raise InputError(
                    f"edge tuple {start + i} = ({int(src[i])}, {int(dst[i])}) has a label "
                    f"outside [0, {n}) ({bad} such tuples in all)")


def count_tuples(edges) -> TupleCounts:
    """Kernel 1's first pass (see ``build_csr``): read every tuple once and count."""
    return TupleCounts(edges)


def place_tuples(edges, counted: TupleCounts, sort_vertices: str | None = None,
                 phases: dict | None = None) -> CSRGraph:
    """Kernel 1's second pass and the rest (see ``build_csr``): ``edges`` must give the pieces
    ``counted`` read. The count table is consumed. ``phases``: see ``lap``."""
    if sort_vertices not in SORT_VERTICES:
        raise InputError(f"sort_vertices must be one of {SORT_VERTICES}, got {sort_vertices!r}")
    t = time.perf_counter()
    n, m, itype, nchunks = counted.n, counted.m, counted.itype, counted.nchunks
    counts, counted.counts = counted.counts, None
    original_label = new_label = None
    if sort_vertices == "degree":
        original_label = _by_decreasing_degree(counts.sum(axis=0, dtype=np.int64))
        new_label = np.empty(n, dtype=np.int64)
        new_label[original_label] = np.arange(n, dtype=np.int64)
        counts = np.ascontiguousarray(counts[:, original_label])  # columns in the new order
        t = lap(phases, "relabel", t)

    indptr = np.empty(n + 1, dtype=np.int64)
    _offsets(counts, indptr)
    total = int(indptr[-1])
    wide = total >= 2**31 and _longest_row(indptr) >= 2**31
    tuple_degree = np.empty(n, dtype=np.int64 if wide else np.int32)
    _row_lengths(indptr, tuple_degree)
    relabel = new_label if new_label is not None else np.empty(0, dtype=np.int64)
    weights = None
    t = lap(phases, "offsets", t)
    if not counted.weighted:
        out = np.empty(total, dtype=itype)
        nowb = np.empty(0, dtype=np.int32)
        for _, src, dst, _ in edges.chunks(weights=False):
            src, dst = _int64(np.ascontiguousarray(src)), _int64(np.ascontiguousarray(dst))
            _scatter(src, dst, nowb, counts, _edge_bounds(src.shape[0], nchunks), out, relabel)
        del counts
        lap(phases, "scatter", t)
        out = sort_dedup_rows(indptr, out, n, phases)
    else:  # rows of neighbour << 32 | weight keys; the smallest weight per neighbour kept
        if n > 2**31:
            raise InputError(f"weighted graphs are limited to 2**31 vertices, got {n}")
        keys = np.empty(total, dtype=np.int64)
        for start, src, dst, w in edges.chunks(weights=True):
            src, dst = _int64(np.ascontiguousarray(src)), _int64(np.ascontiguousarray(dst))
            wbits = check_weights(w, first=start).view(np.int32)
            _scatter(src, dst, wbits, counts, _edge_bounds(src.shape[0], nchunks), keys, relabel)
        del counts
        lap(phases, "scatter", t)
        keys = sort_dedup_rows(indptr, keys, max(1, n) << 32, phases)
        t = time.perf_counter()
        indptr, out, weights = split_keys(indptr, keys, itype)
        del keys
        lap(phases, "split", t)
    graph = CSRGraph(indptr=indptr, indices=out, num_vertices=n, num_input_edges=int(m),
                     original_label=original_label, new_label=new_label, weights=weights,
                     tuple_degree=tuple_degree)
    if weights is not None:
        graph.by_weight  # the rows by weight too (kernel 3's delta-stepping): kernel 1's work
    return graph


def build_csr(edges, sort_vertices: str | None = None, phases: dict | None = None) -> CSRGraph:
    """Kernel 1: the symmetric, self-loop-free, deduplicated CSR graph of ``edges``.

    ``edges``: an EdgeList, or any tuple source that gives its tuples in pieces the same way
    each time it is asked (``generator.KroneckerTuples``: then the list is never held, it is
    made twice). Every tuple ``(u, v)`` with ``u != v`` yields ``v`` in the list of ``u`` and
    ``u`` in the list of ``v``; lists are sorted ascending. ``indptr`` is int64 (N+1),
    ``indices`` int32 when N < 2**31 else int64. ``num_input_edges`` is the number of tuples;
    ``tuple_degree`` the tuples at each vertex before duplicates are dropped.
    ``sort_vertices="degree"`` relabels the vertices by decreasing degree (paper 001, 4.4:
    hubs get small ids, so the bitmaps and arrays they hit stay in cache); the degree used is
    the tuple count before duplicate removal, ties keep label order. The graph then carries
    ``original_label``/``new_label`` and its ids are the new ones.
    A weighted source (kernel 3) gives a weighted graph: each entry carries the smallest
    weight of the tuples joining its vertices (``graph.weights``).
    ``phases``: a dict that receives the seconds of each step (count, offsets, scatter,
    sort + dedup, compaction; relabel and split when they run).
    Raises InputError when a label is outside ``[0, num_vertices)`` or a weight is negative.
    """
    if sort_vertices not in SORT_VERTICES:
        raise InputError(f"sort_vertices must be one of {SORT_VERTICES}, got {sort_vertices!r}")
    t = time.perf_counter()
    counted = count_tuples(edges)
    lap(phases, "count", t)
    return place_tuples(edges, counted, sort_vertices, phases)
