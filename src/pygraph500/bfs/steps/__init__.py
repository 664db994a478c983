"""The steps the compiled BFS algorithms are made of, one module per step family, and the
tunables their Python callers read at call time.

Used by ``topdown-queue``, ``topdown-bitmap``, ``bottomup``, ``direction-optimizing`` and
``reference`` (each of those modules holds only its level loop, a compiled driver that calls
these kernels).

- ``level_log``: the per-level log every driver records (``new_log`` ... ``log_table``).
- ``search_state``: a search's arrays (``new_search``), its start (``mark_root``) and end
  (``end_search``: vertices never reached get -1).
- ``thin_frontier``: frontiers of one or two vertices walked in registers (paths, chains).
- ``queue_topdown``: top-down levels with queue frontiers (serial, many per call; parallel).
- ``bitmap_topdown``: top-down levels with hierarchical bitmap frontiers.
- ``bottom_up``: Beamer's bottom-up level.
- ``directed``: what the steps do on a directed graph (its in-edges beside its out-edges,
  empty arrays for an undirected one) and Beamer's counts there.
- ``canonical``: the rule of ``deterministic=True`` (each vertex's parent is its smallest
  neighbour one level up), where each step stands with it, and why its parallel pass is
  race-free.
- the bitmaps themselves and the queue <-> bitmap conversions are ``primitives.bitmaps``.

State of a search
-----------------
- ``parent`` (int64) and ``depth``: written only for reached vertices during the search;
  ``mark_unreached`` writes -1 for the others at the end (so no O(N) initialisation pass is
  needed for vertices the search reaches, and a connected graph is written once). A
  ``depth`` of length 0 means depths are not wanted: the kernels then skip them (the
  Graph500 output is the parent array; depths cost a scattered write per vertex).
- ``visited``: a bitmap (``primitives.bitmaps``) of the reached vertices. It is the "already
  seen?" test of every top-down step: N/8 bytes, so it stays in cache where ``parent`` would
  not. Parallel steps claim a vertex with an atomic fetch-and-or on its word: exactly one
  thread sees the bit go from 0 to 1.
- a frontier is either a queue (a slice of a vertex array) or a bitmap like ``visited``.

The kernels take this state as records (tuples, unpacked at their top): ``graph`` =
(indptr, indices), ``search`` = (parent, depth, visited), the level log a
``level_log.LevelLog``; each module's docstring names its others. What may be None (a
directed graph's in-edges, ``det``) stays an argument of its own: numba prunes an ``is
None`` branch at compile time for an argument only, not for a tuple's member.

Parallel kernels take ``nthreads`` (``numba.get_num_threads()``, read by the Python caller:
calling it inside a kernel would keep the kernel out of numba's on-disk cache) and cut
their work into per-thread slots ``prange(nthreads)``; chunks are claimed from a shared
counter with an atomic fetch-and-add (dynamic scheduling: a slow thread does less, the
others do not wait for it). A value updated only by atomics inside a ``prange`` loop is read
after the loop with an atomic too (``fetch_add(a, i, 0)``): numba does not see the atomics as
writes, and a plain read in the same function may return a stale value.

Tunables
--------
``SERIAL_WORK``, ``BUF`` and ``TIME_GRAIN`` live here, and only here: the Python callers read
them as ``steps.SERIAL_WORK`` at every call and pass them to the compiled drivers, so a test
may lower them (``monkeypatch.setattr(steps, "SERIAL_WORK", 0)``).
"""

# A top-down level whose work (frontier vertices + adjacency entries) is at most this runs in a
# serial kernel; above it, in a parallel one. Read at call time (tests lower it).
SERIAL_WORK = 1 << 14
# Per-thread buffer of claimed vertices in the parallel top-down step. Read at call time.
BUF = 2048
# Levels with less work than this are timed together (see ``level_log``). Read at call time.
TIME_GRAIN = 1 << 10

# Dynamic scheduling of the parallel steps over bitmap words (bitmap top-down, bottom-up): their
# words are cut into this many chunks per thread. A compile-time constant of those kernels.
WORD_CHUNKS_PER_THREAD = 32

__all__ = ["SERIAL_WORK", "BUF", "TIME_GRAIN", "WORD_CHUNKS_PER_THREAD"]
