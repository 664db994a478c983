"""Paper 002's GPU task (its Algorithm 3) as a numba.cuda kernel: the top-down level of the
array side's tasks with warp-cooperative expansion.

One thread per frontier vertex of the tasks run; the threads of a warp then walk the warp's
adjacency lists together: while any thread still has a list to walk, the threads vie for the
warp (each candidate writes its lane into shared memory: one write wins), the winner
publishes its list's range and vertex and gives it up, and all 32 threads read the list
with stride 32 (coalesced, and a hub's list is walked by 32 threads, not one: the load
imbalance of one-thread-per-vertex, gpu-queue's kernel, is what the warp fixes). A
neighbour not yet visited is claimed with a compare-and-swap on its parent entry (-1 -> the
list's vertex: exactly one thread wins a vertex, so the parent is the winner's), then marked
in the visited mask VB and the vertex mask VM (the next frontier, the paper's "Shared Vertex
Mask"), and counted, with its degree, for its owner task.

The paper's pseudo-code marks VB without an atomic (a vertex may then be found twice; it
computes distances, which both finders agree on); a Graph500 parent needs one winner, hence
the compare-and-swap. A block is one warp (32 threads), so the warp's vote is the block's
``syncthreads_or`` and its barrier ``syncthreads``: the same code runs on a GPU and under
numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, small graphs: it runs every thread in
Python), which has no warp-level intrinsics.
"""
from __future__ import annotations

import numpy as np
from numba import cuda

from ...backend.cuda_launch import device_view, hush_small_grids

__all__ = ["WARP", "warp_task_level", "run_tasks"]

WARP = 32
_NONE = np.int64(-1)
hush_small_grids()


@cuda.jit
def warp_task_level(graph, queue, qlen, masks, parent, vertex_task, counts, t):
    """Algorithm 3 over ``queue[:qlen]`` (see the module); ``graph``: (indptr, indices),
    ``masks``: (VB, VM); ``counts[k]``: vertices claimed in task k, ``counts[t + k]``: their
    degrees."""
    indptr, indices = graph
    vis, nxt = masks
    owner = cuda.shared.array(4, dtype=np.int64)  # lane, list start, list end, vertex
    tid = cuda.grid(1)
    lane = cuda.threadIdx.x
    u = _NONE
    start = np.int64(0)
    end = np.int64(0)
    if tid < qlen:
        u = queue[tid]
        start = indptr[u]
        end = indptr[u + 1]
    # while any(range_end > range); the vote takes an int on a device (a bool does not type)
    while cuda.syncthreads_or(1 if end > start else 0):
        if end > start:
            owner[0] = lane  # vie for the warp
        cuda.syncthreads()
        if owner[0] == lane:
            owner[1] = start
            owner[2] = end
            owner[3] = u
            start = end
        cuda.syncthreads()
        p = owner[1] + lane  # read before the next vote: no barrier needed after the walk
        stop = owner[2]
        src = owner[3]
        while p < stop:
            v = indices[p]
            if not vis[v]:
                if cuda.atomic.cas(parent, v, _NONE, src) == _NONE:
                    vis[v] = True
                    nxt[v] = True
                    k = vertex_task[v]
                    cuda.atomic.add(counts, k, 1)
                    cuda.atomic.add(counts, t + k, indptr[v + 1] - indptr[v])
            p += WARP


def run_tasks(dev, queue, m: int) -> None:
    """The top-down level of ``dev`` (an ``ArrayDevice``) from ``queue`` (its run tasks'
    frontier vertices, ``m`` adjacency entries): counts left in ``dev.counts_d``."""
    qlen = int(queue.shape[0])
    dev.counts_d[:] = 0
    if qlen:
        blocks = (qlen + WARP - 1) // WARP
        view = device_view
        warp_task_level[blocks, WARP]((view(dev.indptr), view(dev.indices)), view(queue), qlen,
                                      (view(dev.vis), view(dev.nxt)), view(dev.parent),
                                      view(dev.vertex_task), view(dev.counts_d), dev.t)
    dev.counts_d[-1] = m
