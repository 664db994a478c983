"""BFS algorithms (kernel 2): one registry, name -> function obeying the BFSResult contract.

Every function has the signature ``fn(graph: CSRGraph, root: int, **options) -> BFSResult``.

- ``reference``: the serial queue BFS of thesis Algorithm 1.
- ``topdown-queue``: level-synchronous top-down with frontier queues (Algorithm 2), parallel.
- ``topdown-bitmap``: level-synchronous top-down with bitmap frontiers (Algorithm 3), parallel.
- ``bottomup``: Beamer's bottom-up step at every level, parallel.
- ``direction-optimizing`` (default): Beamer's switching between the two; options ``alpha``
  (default 15) and ``beta`` (default 18).
- ``spmv``: sparse matrix times vector over scipy.sparse (paper 001, section 2.3), serial.
- ``determinate``: Fresh Breeze's BFS on trees of chunks (paper 003): spawn/join tasks on
  ``workers`` threads, the same tree for any number of them (``bfs.determinate``).
- ``hybrid``: paper 002's task-based BFS: t vertex-range tasks, each level each task on
  the compiled CPU engine or the array side (CuPy on a GPU, NumPy where none), by a
  threshold lambda (given, or tuned per level) or a fixed split (``bfs.hybrid``).
- ``gpu-queue``, ``sort-unique``, ``bitmap-filter``, ``edge-parallel``, ``frontier-mask``:
  the array-backend algorithms (``bfs.array``: thesis chapter 4, seed 004), NumPy or CuPy
  by the option ``backend`` ("cpu", "gpu", "auto"); ``direction-optimizing`` with
  ``backend="gpu"`` runs its array form.

The compiled ones share their steps (``steps``); ``steps.SERIAL_WORK``, ``steps.BUF`` and
``steps.TIME_GRAIN`` are read at call time.

With several threads, which valid parent a vertex gets may vary from run to run. The compiled
CPU ones and ``spmv`` take ``deterministic`` (default False): True gives the canonical tree,
``parent[v]`` = the smallest neighbour of v one level nearer the root (``steps.canonical``),
the same for any number of threads and the tree ``determinate`` gives.
"""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from .types import BFSResult, LevelStats, LevelTable
from .reference import bfs_reference
from .topdown_queue import bfs_topdown_queue
from .topdown_bitmap import bfs_topdown_bitmap
from .bottomup import bfs_bottomup
from .direction_optimizing import bfs_direction_optimizing
from .spmv import bfs_spmv
from .determinate import bfs_determinate
from .hybrid import bfs_hybrid
from .array import ARRAY_ALGORITHMS

ALGORITHMS = {
    "reference": bfs_reference,
    "topdown-queue": bfs_topdown_queue,
    "topdown-bitmap": bfs_topdown_bitmap,
    "bottomup": bfs_bottomup,
    "direction-optimizing": bfs_direction_optimizing,
    "spmv": bfs_spmv,
    "determinate": bfs_determinate,
    "hybrid": bfs_hybrid,
    **ARRAY_ALGORITHMS,
}
DEFAULT_ALGORITHM = "direction-optimizing"
# The algorithms that take ``deterministic=True`` (determinate is so by construction).
DETERMINISTIC_ALGORITHMS = ("reference", "topdown-queue", "topdown-bitmap", "bottomup",
                            "direction-optimizing", "spmv", "determinate")

__all__ = ["ALGORITHMS", "DEFAULT_ALGORITHM", "DETERMINISTIC_ALGORITHMS", "BFSResult", "LevelStats",
           "LevelTable", "get_algorithm"]


def get_algorithm(name: str):
    """The registered function for ``name``; InputError naming the known ones otherwise."""
    from ..errors import InputError

    try:
        return ALGORITHMS[name]
    except KeyError:
        raise InputError(
            f"unknown BFS algorithm {name!r}; known: {', '.join(sorted(ALGORITHMS))}"
        ) from None
