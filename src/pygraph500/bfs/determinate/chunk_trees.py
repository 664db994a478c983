"""Fresh Breeze memory (paper 003, sections 2.1, 4.1, 5): write-once chunks of 16 slots,
sparse vectors as 16-ary trees of chunks, the graph as a vector of adjacency vectors.

A chunk store is one int64 array ``mem[capacity, 16]``; a chunk's *handle* is its row. A
slot holds a value (in a leaf) or the handle of a subtree (elsewhere); ``UNDEF`` (-1) marks an
undefined element or an omitted subtree. Chunks are filled once, by the task that allocates
them, before their handle is passed on (frozen, as in the paper; nothing writes a chunk
after its handle is shared).

A vector of ``n`` elements is a tree of ``depth`` levels, ``16**depth >= n``: the root at
level 0, leaves (16 elements each) at level ``depth - 1``; subtrees without a defined element
are omitted (``UNDEF`` in their parent). Code below speaks of a node's *height*: 0 for a leaf,
``depth - 1`` for the root.

The graph (section 4.1): ``G`` is a vector of ``n`` elements, ``G[v]`` the handle of
``v``'s adjacency vector: a vector of ``n`` elements with ``v`` at the index of each
neighbour (so an element carries both ends of its edge). Vertices without neighbours have
``G[v]`` undefined.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

__all__ = ["UNDEF", "SLOTS", "tree_depth", "ChunkGraph", "build_chunk_graph", "to_csr",
           "vector_elements", "count_chunks", "chunk_bounds"]

UNDEF = -1
SLOTS = 16   # slots per chunk: 128 bytes of 8-byte slots
_SHIFT = 4   # log2(SLOTS)


def tree_depth(n: int) -> int:
    """Levels of a vector of ``n`` elements: the least d >= 1 with 16**d >= n."""
    d = 1
    while SLOTS ** d < n:
        d += 1
    return d


@njit(cache=True)
def _count_vector_chunks(idx, s, e, depth):
    """Chunks of the tree holding the sorted distinct indices ``idx[s:e]``: at height h, one
    per distinct ``index >> 4(h+1)``."""
    total = 0
    for h in range(depth):
        shift = _SHIFT * (h + 1)
        prev = -1
        for k in range(s, e):
            key = np.int64(idx[k]) >> shift
            if key != prev:
                total += 1
                prev = key
    return total


@njit(cache=True)
def _write_vector(mem, pos, idx, val, s, e, depth):
    """Write the tree of ``idx[s:e] -> val`` (``val`` aligned with ``idx``, or of length 1:
    one value everywhere) into ``mem[pos:]``: the leaves in index order, then each height
    above, the root last (so a node's children are the previous height's chunks, in
    order). Returns the root's handle (``UNDEF`` when s == e)."""
    if s == e:
        return UNDEF
    one = val.shape[0] == 1
    child_base = -1
    for h in range(depth):
        shift = _SHIFT * (h + 1)
        this_base = pos
        prev = -1
        cur = pos - 1
        child = child_base - 1
        child_prev = -1
        for k in range(s, e):
            x = np.int64(idx[k])
            key = x >> shift
            if key != prev:
                prev = key
                cur += 1
                for j in range(SLOTS):
                    mem[cur, j] = UNDEF
            if h == 0:
                mem[cur, x & (SLOTS - 1)] = val[0] if one else val[k]
            else:
                ckey = x >> (shift - _SHIFT)
                if ckey != child_prev:
                    child_prev = ckey
                    child += 1
                    mem[cur, ckey & (SLOTS - 1)] = child
        pos = cur + 1
        child_base = this_base
    return pos - 1


@njit(cache=True, parallel=True)
def _write_adjacency(mem, indptr, indices, first, depth, roots):
    """Every vertex's adjacency vector (its value: the vertex) at ``mem[first[v]:]``."""
    n = indptr.shape[0] - 1
    for v in prange(n):
        roots[v] = _write_vector(mem, first[v], indices, np.full(1, v, np.int64), indptr[v],
                                 indptr[v + 1], depth)


@njit(cache=True, parallel=True)
def _adjacency_chunks(indptr, indices, depth, out):
    n = indptr.shape[0] - 1
    for v in prange(n):
        out[v] = _count_vector_chunks(indices, indptr[v], indptr[v + 1], depth)


@dataclass
class ChunkGraph:
    """The graph as the paper stores it: ``mem[:graph_chunks]`` holds the adjacency vectors
    and ``G`` (root ``root``), ``depth`` levels per vector; chunks after ``graph_chunks``
    belong to a search. ``degree``: neighbours per vertex (for the level statistics)."""

    mem: np.ndarray
    root: int
    depth: int
    num_vertices: int
    graph_chunks: int
    degree: np.ndarray
    # one search at a time writes the spare chunks (whatever its number of workers)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def grow(self) -> None:
        """Twice the room for a search's chunks (the graph's chunks kept); ResourceError
        when that will not fit."""
        from ...backend.memory import require_memory

        capacity = self.graph_chunks + 2 * (self.mem.shape[0] - self.graph_chunks)
        require_memory(capacity * SLOTS * 8, f"a search of the chunk graph ({capacity} chunks)")
        mem = np.empty((capacity, SLOTS), np.int64)
        mem[:self.graph_chunks] = self.mem[:self.graph_chunks]
        self.mem = mem


def build_chunk_graph(indptr: np.ndarray, indices: np.ndarray,
                      spare: int | None = None) -> ChunkGraph:
    """The chunk graph of a CSR graph (sorted, distinct neighbours), with room for ``spare``
    more chunks (default: half the graph's, about what one Kronecker search allocates).
    Adjacency vectors are written in parallel (a prefix sum of their chunk counts places
    them), then ``G``. ResourceError, before allocating, when it will not fit in memory."""
    from ...backend.memory import require_memory

    n = indptr.shape[0] - 1
    depth = tree_depth(max(n, 1))
    counts = np.empty(n, np.int64)
    _adjacency_chunks(indptr, indices, depth, counts)
    first = np.zeros(n + 1, np.int64)
    np.cumsum(counts, out=first[1:])
    have = np.flatnonzero(np.diff(indptr) > 0)
    g_chunks = _count_vector_chunks(have, 0, have.shape[0], depth)
    total = int(first[n]) + g_chunks
    if spare is None:
        spare = total // 2 + 4096
    require_memory((total + spare) * SLOTS * 8,
                   f"the chunk graph of {n} vertices ({total} chunks of 128 bytes, and room "
                   f"for {spare} more)")
    mem = np.empty((total + spare, SLOTS), np.int64)
    roots = np.empty(n, np.int64)
    _write_adjacency(mem, indptr, indices, first, depth, roots)
    root = _write_vector(mem, first[n], have, roots[have], 0, have.shape[0], depth)
    return ChunkGraph(mem=mem, root=int(root), depth=depth, num_vertices=n,
                      graph_chunks=total, degree=np.diff(indptr).astype(np.int64))


@njit(cache=True)
def _walk(mem, root, depth, idx, val):
    """The defined elements of a vector in index order into ``idx``/``val``; returns their
    number (an explicit stack: the tree is at most 16 levels deep)."""
    count = 0
    if root == UNDEF:
        return 0
    stack_h = np.empty(depth * SLOTS + 1, np.int64)
    stack_b = np.empty(depth * SLOTS + 1, np.int64)
    stack_i = np.empty(depth * SLOTS + 1, np.int64)
    top = 0
    stack_h[0] = root
    stack_b[0] = 0
    stack_i[0] = depth - 1
    top = 1
    while top > 0:
        top -= 1
        hnd = stack_h[top]
        base = stack_b[top]
        height = stack_i[top]
        if height == 0:
            for j in range(SLOTS):
                x = mem[hnd, j]
                if x != UNDEF:
                    idx[count] = base + j
                    val[count] = x
                    count += 1
        else:
            span = np.int64(1) << (_SHIFT * height)
            for j in range(SLOTS - 1, -1, -1):  # pushed in reverse: popped in index order
                c = mem[hnd, j]
                if c != UNDEF:
                    stack_h[top] = c
                    stack_b[top] = base + j * span
                    stack_i[top] = height - 1
                    top += 1
    return count


@njit(cache=True)
def _count(mem, root, height):
    if root == UNDEF:
        return 0
    if height == 0:
        return 1
    total = 1
    for j in range(SLOTS):
        c = mem[root, j]
        if c != UNDEF:
            total += _count(mem, c, height - 1)
    return total


def count_chunks(mem: np.ndarray, root: int, depth: int) -> int:
    """Chunks of the tree at ``root`` (a vector of ``depth`` levels)."""
    return int(_count(mem, root, depth - 1))


def vector_elements(mem: np.ndarray, root: int, depth: int, size: int):
    """(indices, values) of the defined elements of a vector, in index order; ``size``: an
    upper bound on their number."""
    idx = np.empty(size, np.int64)
    val = np.empty(size, np.int64)
    k = _walk(mem, root, depth, idx, val)
    return idx[:k], val[:k]


@njit(cache=True)
def flatten_into(mem, root, depth, out):
    """out[i] = element i of the vector (``out`` prefilled by the caller for the undefined
    ones); returns the number of defined elements."""
    idx = np.empty(out.shape[0], np.int64)
    val = np.empty(out.shape[0], np.int64)
    k = _walk(mem, root, depth, idx, val)
    for i in range(k):
        out[idx[i]] = val[i]
    return k


def to_csr(cg: ChunkGraph):
    """(indptr, indices) back from a chunk graph: each adjacency vector read in index order."""
    n = cg.num_vertices
    roots = np.full(n, UNDEF, np.int64)
    flatten_into(cg.mem, cg.root, cg.depth, roots)
    rows = []
    for v in range(n):
        idx, val = vector_elements(cg.mem, int(roots[v]), cg.depth, int(cg.degree[v]))
        if not (val == v).all():
            raise AssertionError(f"adjacency vector of {v} holds values other than {v}")
        rows.append(idx)
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum([r.shape[0] for r in rows], out=indptr[1:])
    indices = np.concatenate(rows) if rows else np.empty(0, np.int64)
    return indptr, indices


def chunk_bounds(x: int, depth: int) -> tuple[int, int]:
    """Section 5.1's bounds on the chunks of a vector with ``x`` defined elements and
    ``depth`` levels: at least ceil(x / 16**(depth - h)) chunks at level h (dense packing;
    the paper's closed form (x - 1) / 15 is below it), at most min(x, 16**h) (a chunk per
    element; the paper's simplification d * x is above it)."""
    if x == 0:
        return 0, 0
    lower = sum(-(-x // SLOTS ** (depth - h)) for h in range(depth))
    upper = sum(min(x, SLOTS ** h) for h in range(depth))
    return lower, upper
