"""Answers of a search on a relabelled graph, given back in the input's labels.

A graph built with vertex sorting numbers its vertices by decreasing degree; the benchmark
searches it from the new id of each root and reports parents (and depths) in the original
labels, so validation runs on the original edge list. The translation is part of the timed
search: a user of the tree needs it in their labels.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..primitives.sorted_search import lower_bound
from .types import CSRGraph


@njit(cache=True, parallel=True)
def _to_original(parent, depth, original_label, new_label, parent_out, depth_out):
    """Gather form (random reads, sequential writes): v's answer is row new_label[v]'s. An
    empty ``depth_out``: no depths wanted (none read, none written)."""
    keep_depth = depth_out.shape[0] != 0
    for v in prange(parent.shape[0]):
        i = new_label[v]
        p = parent[i]
        parent_out[v] = original_label[p] if p >= 0 else -1
        if keep_depth:
            depth_out[v] = depth[i]


def search_in_original_labels(bfs, graph: CSRGraph, root: int, **options):
    """Run ``bfs(graph, root)`` with ``root`` in original labels; answer in original labels."""
    if not graph.relabelled:
        return bfs(graph, root, **options)
    result = bfs(graph, int(graph.new_label[root]), **options)
    parent = np.empty_like(result.parent)
    if result.depth is None:  # depths not asked for: nothing N-sized allocated for them
        depth_in = depth = np.empty(0, dtype=result.parent.dtype)
    else:
        depth_in, depth = result.depth, np.empty_like(result.depth)
    _to_original(result.parent, depth_in, graph.original_label, graph.new_label, parent, depth)
    result.parent, result.root = parent, root
    if result.depth is not None:
        result.depth = depth
    return result


def sssp_in_original_labels(sssp, graph: CSRGraph, root: int, **options):
    """Run ``sssp(graph, root)`` (kernel 3) with ``root`` in original labels; parents and
    distances in original labels."""
    if not graph.relabelled:
        return sssp(graph, root, **options)
    result = sssp(graph, int(graph.new_label[root]), **options)
    parent = np.empty_like(result.parent)
    distance = np.empty_like(result.distance)
    _to_original(result.parent, result.distance, graph.original_label, graph.new_label, parent,
                 distance)
    result.parent, result.distance, result.root = parent, distance, root
    return result


def degree_in_original_labels(graph: CSRGraph) -> np.ndarray:
    """Vertex degrees indexed by original label (what root selection looks at)."""
    degree = graph.degree()
    return degree[graph.new_label] if graph.relabelled else degree


# ---- sparse user ids ----------------------------------------------------------------------
# A user's graph may name its vertices with ids that are sparse or far larger than the number
# of vertices (user ids, hashes, a subgraph of a bigger one). Such ids are compacted to
# 0..N-1 in increasing order of the original id; ``labels[i]`` is the original id of vertex i
# (sorted ascending, so the reverse map is a binary search and needs no id-sized table).


@njit(cache=True, parallel=True)
def _lookup_sorted(labels, starts, shift, ids, out):
    """out[i] = position of ids[i] in the sorted array ``labels`` (-1 when absent), searched
    for in its bucket ``labels[starts[b]:starts[b + 1]]``, ``b = ids[i] >> shift``."""
    nb = starts.shape[0] - 1
    for i in prange(ids.shape[0]):
        x = ids[i]
        b = x >> shift
        if b < 0 or b >= nb:
            out[i] = -1
            continue
        end = starts[b + 1]
        lo = lower_bound(labels, starts[b], end, x)
        out[i] = lo if lo < end and labels[lo] == x else -1


def _buckets(labels: np.ndarray, lookups: int):
    """(starts, shift) for ``_lookup_sorted``: for many ``lookups``, about one label a bucket
    (a lookup reads a bucket instead of a binary search's 20 cache lines over all labels);
    for a few, one bucket."""
    n = labels.shape[0]
    if n == 0 or lookups < 1024:
        return np.array([0, n], np.int64), 63
    top = int(labels[-1])
    shift = max(0, top.bit_length() - n.bit_length())
    nb = (top >> shift) + 1
    starts = np.empty(nb + 1, np.int64)
    starts[:nb] = np.searchsorted(labels, np.arange(nb, dtype=np.int64) << shift)
    starts[nb] = n
    return starts, shift


def lookup_labels(labels: np.ndarray, ids, out: np.ndarray | None = None) -> np.ndarray:
    """Positions of ``ids`` (original ids) in the sorted ``labels``; -1 where absent.

    ``out`` may be ``ids`` itself (int64) to translate in place.
    """
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    if out is None:
        out = np.empty(ids.shape, dtype=np.int64)
    labels = np.ascontiguousarray(labels, dtype=np.int64)
    _lookup_sorted(labels, *_buckets(labels, ids.size), ids.reshape(-1), out.reshape(-1))
    return out


def _sorted_distinct(a: np.ndarray) -> np.ndarray:
    """The sorted distinct values of ``a``: a sort and a mask (``np.unique`` took 8 times
    as long on 16 M int64 ids)."""
    a = np.sort(a)
    keep = np.empty(a.shape[0], np.bool_)
    keep[:1] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def distinct_ids(src: np.ndarray, dst: np.ndarray, hi: int) -> np.ndarray:
    """The sorted distinct values of ``src`` and ``dst`` (all in ``[0, hi)``), as int64.

    A byte map over ``[0, hi)`` when that is no bigger than the arrays (O(M + hi)), else a
    sort of each array on its own (never a concatenated copy of both).
    """
    if hi <= 2 * (src.shape[0] + dst.shape[0]) + 4096:
        present = np.zeros(hi, dtype=np.bool_)
        present[src] = True
        present[dst] = True
        return np.flatnonzero(present).astype(np.int64, copy=False)
    both = np.concatenate((_sorted_distinct(src), _sorted_distinct(dst)))
    return _sorted_distinct(both).astype(np.int64, copy=False)


def compacting(relabel, hi: int, num_edges: int) -> bool:
    """Whether ids below ``hi`` on ``num_edges`` edges are compacted to 0..N-1: ``relabel``
    True always, False never, "auto" when the id range is over four times the edges (a
    dense array over the ids would then cost more than the edges)."""
    return relabel is True or (relabel == "auto" and hi > 4 * num_edges + 1024)


def compact_ids(src: np.ndarray, dst: np.ndarray, hi: int | None = None) -> np.ndarray:
    """Relabel ``src`` and ``dst`` (int64, non-negative) IN PLACE to 0..N-1; return ``labels``.

    ``labels`` (int64, sorted) holds the original id of each new vertex number, so
    ``labels[src]`` gives the input back. Memory beyond the arrays: the label array and,
    for very sparse ids, a sorted copy of one of the arrays at a time.
    """
    if hi is None:
        hi = int(max(src.max(initial=-1), dst.max(initial=-1))) + 1
    labels = distinct_ids(src, dst, hi)
    buckets = _buckets(labels, src.size)  # one index for both arrays
    _lookup_sorted(labels, *buckets, src, src)
    _lookup_sorted(labels, *buckets, dst, dst)
    return labels
