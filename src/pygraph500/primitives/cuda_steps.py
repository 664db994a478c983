"""numba.cuda steps shared by the embedded array BFS (``bfs.array``) and the distributed
array engine (``distributed.array_bfs``), as ``xp_steps`` holds their whole-array steps.

``bottom_up_level``: one thread per candidate (an unvisited vertex with neighbours) reads its
list until the first neighbour in the frontier mask and takes it as its parent. Stopping at
that neighbour is what makes a bottom-up level cheap (Beamer: most candidates stop within a
few entries); the whole-array form (``xp_steps.bottom_up_step``) cannot stop and reads every
list whole. Each candidate writes only its own entries, so the parents are determinate (the
first frontier neighbour in list order). The kernel also appends each candidate to the next
queue or to the candidates left (a slot per block from one atomic add, so the lists' order is
not determinate, which no later level depends on), where the array form needs two
compactions.

Imported only where a kernel runs (a device, or numba's CUDA simulator in tests). CuPy arrays
go to the kernels through ``backend.cuda_launch.device_view`` (no stream synchronisation per
argument).
"""
from __future__ import annotations

import numpy as np
from numba import cuda

from ..backend.cuda_launch import device_view, hush_small_grids

__all__ = ["THREADS", "NONE", "bottom_up_level", "bottom_up_search_step", "blocks",
           "depth_arg"]

THREADS = 256  # threads per block
NONE = np.int64(-1)
hush_small_grids()


@cuda.jit
def bottom_up_level(graph, cand, ncand, front, tree, out):
    """One bottom-up level on ``graph`` = (indptr, indices): candidate ``cand[t]`` takes the
    first neighbour in ``front`` as its parent (and depth level + 1: ``tree`` = (parent,
    depth, level)) and joins ``nxt`` (the next frontier mask) and ``found`` (the next
    queue), or else ``left`` (the candidates left): ``out`` = (nxt, found, left, counts);
    both lists take a slot per block from one global atomic add. ``counts``: [0] vertices
    found, [1] their adjacency entries, [2] candidates left. Every thread reaches the
    block's barriers."""
    indptr, indices = graph
    parent, depth, level = tree
    nxt, found, left, counts = out
    t = cuda.grid(1)
    tid = cuda.threadIdx.x
    block = cuda.shared.array(5, np.int64)  # found, their entries, left; first slots of both
    if tid == 0:
        block[0] = 0
        block[1] = 0
        block[2] = 0
    cuda.syncthreads()
    mine = t < ncand
    hit = False
    rank = 0
    v = NONE
    if mine:
        v = cand[t]
        for k in range(indptr[v], indptr[v + 1]):
            u = indices[k]
            if front[u]:
                parent[v] = u
                if depth.shape[0] > 0:
                    depth[v] = level + 1
                hit = True
                break
        if hit:
            nxt[v] = True
            rank = cuda.atomic.add(block, 0, 1)
            cuda.atomic.add(block, 1, indptr[v + 1] - indptr[v])
        else:
            rank = cuda.atomic.add(block, 2, 1)
    cuda.syncthreads()
    if tid == 0:
        if block[0]:
            block[3] = cuda.atomic.add(counts, 0, block[0])
            cuda.atomic.add(counts, 1, block[1])
        if block[2]:
            block[4] = cuda.atomic.add(counts, 2, block[2])
    cuda.syncthreads()
    if hit:
        found[block[3] + rank] = v
    elif mine:
        left[block[4] + rank] = v


def bottom_up_search_step(xp, indptr, indices, parent, depth, level, front, cand, nxt, found,
                          left, row):
    """``bottom_up_level`` over the candidates ``cand`` (``nxt``, the next frontier mask,
    cleared first): the vertices found go to ``found``, the others to ``left``, counted in
    the zeroed device ``row`` (found, their edges, left)."""
    ncand = cand.shape[0]
    nxt.fill(False)
    if ncand:
        view = device_view
        bottom_up_level[blocks(ncand), THREADS](
            (view(indptr), view(indices)), view(cand), ncand, view(front),
            (view(parent), view(depth_arg(xp, depth)), level),
            tuple(map(view, (nxt, found, left, row))))


def blocks(threads: int) -> int:
    """Blocks of THREADS for one thread per item."""
    return (threads + THREADS - 1) // THREADS


def depth_arg(xp, depth):
    """The kernels' depth argument: an empty array when the search keeps no depths."""
    return depth if depth is not None else xp.empty(0, dtype=np.int64)
