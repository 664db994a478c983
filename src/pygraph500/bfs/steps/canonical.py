"""The deterministic claim rule (``deterministic=True`` of the compiled algorithms).

The rule: ``parent[root] = root`` and, for every other reached vertex v, ``parent[v]`` is the
smallest vertex id among v's neighbours (on a directed graph, its in-neighbours) one level
up (depth(v) - 1): the canonical BFS tree, the same for any number of threads and any run,
and the rule of the ``determinate`` algorithm. Where each step stands:

- bottom-up (``bottom_up``): already canonical. Rows are sorted ascending (a directed
  graph's in-rows too, ``CSRGraph.in_edges``) and a vertex stops at its first neighbour in
  the previous level's frontier bitmap.
- serial bitmap top-down (``bitmap_topdown``): already canonical. The frontier is walked in
  ascending order, so the first vertex to claim v is its smallest neighbour in the frontier.
- serial queue top-down (``queue_topdown``, ``thin_frontier.claim_neighbours``, the
  ``reference`` FIFO): the queue is in discovery order, so a vertex met again in the level
  it was claimed in (``depth[v] == d``) takes the smaller parent: ``lower_parent``, a plain
  write (one thread). The register walk of ``thin_frontier_levels`` keeps no such rule
  (a runtime test there slows the default mode): a one-vertex frontier needs none, and
  two-vertex frontiers stay in the level loops in this mode.
- parallel top-down (``topdown_level_parallel``, ``bitmap_topdown_level_parallel``): a plain
  minimum inside the level would race with the claimer's plain write of ``parent[v]`` (a
  thread may lower it, then the claimer overwrite it). So the level claims as usual, and a
  second pass, after the level's ``prange`` has ended (a barrier: every claim's parent and
  depth written), sets them, one of two ways, whichever touches fewer adjacency entries:

  - forward (the level's edges, ``m_f`` entries): walk the frontier's edges again and lower
    ``parent[v]`` of the vertices claimed in the level (``depth[v] == d``; the bitmap step
    asks its next-frontier bitmap, N/8 bytes against 4N) with ``lower_parent_atomic``.
    Race-free: in that pass ``parent`` is only written by atomic fetch-and-min, and depth
    and the frontiers are only read; the plain read before the atomic can only be stale
    upwards (the value only decreases), so a read at most ``u`` means the value is already
    at most ``u``, and a stale larger read costs an atomic that changes nothing. The result
    is the minimum over all frontier neighbours, whatever the interleaving.
  - backward (the new vertices' edges, at most the next ``m_f``): each new vertex takes the
    first neighbour of its sorted row that is in the frontier (``first_parents``, a
    bottom-up scan; on a directed graph its in-row, whose length the choice counts). Race-free without atomics: each new vertex is written by the one thread
    that holds it, and the frontier (or visited and depth) is only read.

  The choice: backward when the next ``m_f`` (known once the claims are done) is below the
  level's. Forward wins on a level before the frontier explodes (a few hubs in the
  frontier: the new vertices would scan far for them), backward on the big levels (most new
  vertices stop at their first entries); forward alone cost topdown-queue 2x. The bitmap
  step keeps its frontier words for the pass and clears them after it.

The steps take the mode as ``det``: True, or None when the search is not deterministic
(``det_flag``). numba compiles a step apart for None and prunes the branches that test it
(``det is not None``), so an ordinary search compiles none of the passes above (2.3 CPU
seconds of the default search's first compile, RESULTS.md); a False would compile and run
them.

Sorted rows are the ``CSRGraph`` contract. ``spmv`` is canonical by construction (its min over
a sorted frontier). The deterministic mode needs the depth array, so the drivers keep it
whatever the caller's ``depth`` (measured: 3-7% of a direction-optimizing search at SCALE
16-20, most of what the mode costs it there).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...primitives import fetch_add, fetch_min
from ...primitives.bitmaps import BIT_MASK, ONE, WORD_SHIFT, as_uint

__all__ = ["det_flag", "lower_parent", "lower_parent_atomic", "first_parents"]


def det_flag(deterministic) -> bool | None:
    """The steps' ``det`` for a search's ``deterministic`` option: True or None."""
    return True if deterministic else None


@njit(inline="always")
def lower_parent(parent, depth, v, u, d):
    """Serial: v, already visited, takes ``u`` as parent if v was claimed at depth ``d``
    (this level) by a larger vertex."""
    u64 = np.int64(u)
    if depth[v] == d and u64 < parent[v]:
        parent[v] = u64


@njit(inline="always")
def lower_parent_atomic(parent, v, u):
    """Parallel: parent[v] = min(parent[v], u), the atomic only where it can change it."""
    if parent[v] > u:
        fetch_min(parent, v, u)


@njit(cache=True, parallel=True)
def first_parents(indptr, indices, parent, depth, visited, vs, level, nthreads):
    """The backward pass after a parallel queue level: each vertex of ``vs`` (claimed at
    depth ``level + 1``) takes the first neighbour in its sorted row that is visited at
    depth ``level``. Chunks of ``vs`` are claimed dynamically; a vertex's parent is written
    only by the thread holding it."""
    n = vs.shape[0]
    nchunks = max(1, min(n, 8 * nthreads))
    counter = np.zeros(1, np.int64)
    for t in prange(nthreads):
        while True:
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            for j in range((n * c) // nchunks, (n * (c + 1)) // nchunks):
                v = as_uint(vs[j])
                for k in range(indptr[v], indptr[v + ONE]):
                    u = as_uint(indices[as_uint(k)])
                    # unvisited vertices hold no depth yet: the bitmap first
                    if (visited[u >> WORD_SHIFT] >> (u & BIT_MASK)) & ONE and depth[u] == level:
                        parent[v] = np.int64(u)
                        break
