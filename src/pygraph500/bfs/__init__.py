"""BFS algorithms (kernel 2): the registry ``ALGORITHMS``, name -> ``Algorithm`` record
(``descriptors``): the function, what it is, its options and where it runs. Every function
is ``fn(graph: CSRGraph, root: int, *, options) -> BFSResult`` (the contract of ``types``,
whose ``check_levels`` states what the level table holds); a record is called as its
function is, and refuses an option the function does not take.
``graph500 info --algorithms`` prints the table of them.

The compiled ones share their steps (``steps``); ``steps.SERIAL_WORK``, ``steps.BUF`` and
``steps.TIME_GRAIN`` are read at call time. With several threads, which valid parent a vertex
gets may vary from run to run; those that take ``deterministic`` give the canonical tree,
``parent[v]`` = the smallest neighbour of v one level nearer the root (``steps.canonical``),
for any number of threads.
"""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from ..backend.arrays import BACKENDS
from ..descriptors import Algorithm, Registry
from .types import BFSResult, LevelStats, LevelTable, check_levels, option_help
from .reference import bfs_reference
from .topdown_queue import bfs_topdown_queue
from .topdown_bitmap import bfs_topdown_bitmap
from .bottomup import bfs_bottomup
from .direction_optimizing import bfs_direction_optimizing
from .spmv import bfs_spmv
from .determinate import bfs_determinate, chunk_graph
from .hybrid import bfs_hybrid
from .array import ARRAY_ALGORITHMS

BOTH_WAYS = ("top-down", "bottom-up")

ALGORITHMS = Registry("bfs", (
    Algorithm("direction-optimizing", "bfs", bfs_direction_optimizing,
              "Beamer's BFS: top-down while the frontier is small, bottom-up when its edges "
              "exceed the unexplored edges / alpha, back when it shrinks below N / beta; "
              "parallel; with backend gpu its array form (numba.cuda kernels both ways)",
              "Beamer et al. 2012",
              option_help("alpha", "beta", "depth", "deterministic", "backend", "on_device"),
              backends=BACKENDS, distributed=True, directions=BOTH_WAYS, directed=True),
    Algorithm("topdown-queue", "bfs", bfs_topdown_queue,
              "level-synchronous top-down with frontier queues; the next queue from "
              "per-thread buffers, no lock", "Mastrostefano 2013, Algorithm 2",
              option_help("depth", "deterministic"), distributed=True, directed=True),
    Algorithm("topdown-bitmap", "bfs", bfs_topdown_bitmap,
              "level-synchronous top-down with the frontier as a bitmap, no queues",
              "Mastrostefano 2013, Algorithm 3", option_help("depth", "deterministic"), directed=True),
    Algorithm("bottomup", "bfs", bfs_bottomup,
              "every level bottom-up: each unvisited vertex stops at its first frontier "
              "neighbour (quadratic on long paths, by nature)", "Beamer et al. 2012",
              option_help("depth", "deterministic"), directions=("bottom-up",)),
    Algorithm("spmv", "bfs", bfs_spmv,
              "BFS as sparse matrix times vector over scipy.sparse: a readable reference",
              "Ueno & Suzumura 2012, 2.3", option_help("depth", "deterministic"), python_levels=True),
    Algorithm("reference", "bfs", bfs_reference,
              "the serial FIFO-queue BFS", "Mastrostefano 2013, Algorithm 1",
              option_help("depth", "deterministic"), directed=True),
    Algorithm("hybrid", "bfs", bfs_hybrid,
              "task-based BFS: t vertex-range tasks, each level each task on the compiled "
              "CPU engine or the array side (CuPy on a GPU, NumPy where none) by a threshold "
              "lambda (given, or tuned per level) or a fixed split", "Munguía et al. 2012",
              option_help("backend", "alpha", "beta", "depth",
                          tasks="t, the number of vertex-range tasks",
                          mode="workload (the threshold lambda) or fixed (gpu_share)",
                          lam="workload: a task with more frontier vertices than lambda runs "
                              "on the array side (a number >= 0, or auto: tuned per level)",
                          gpu_share="fixed: the share of the tasks always on the array side",
                          standin_speed="a stand-in array side this many times the CPU "
                                        "engine's speed (no device needed)",
                          clock="measured, or work (both sides charged by their work: a "
                                "deterministic model, for tests)",
                          warp="top-down levels on the array side by the warp kernel "
                               "(default: on a CUDA device)",
                          direction="both (Beamer's bottom-up levels added) or top-down "
                                    "(the paper's: every level top-down, lambda on the "
                                    "frontier only)"),
              backends=BACKENDS, directions=BOTH_WAYS, python_levels=True),
    Algorithm("determinate", "bfs", bfs_determinate,
              "Fresh Breeze BFS: vectors as 16-ary trees of 16-slot chunks, spawn/join tasks "
              "on W workers; the same (canonical) tree for any W", "St. John et al. 2012",
              option_help("depth", "deterministic",
                          workers="threads running tasks (default: numba's thread count)",
                          schedule="depth-first, or random (every choice drawn from seed: a "
                                   "test of determinacy)",
                          seed="the random schedule's seed",
                          merge="first (each vertex's parent its smallest neighbour one level "
                                "up: the canonical tree) or last (the paper's leaf merge, "
                                "Fig. 5: the largest; the same tasks)"),
              prepare=chunk_graph),
    *ARRAY_ALGORITHMS.values(),
), default="direction-optimizing")
DEFAULT_ALGORITHM = ALGORITHMS.default
get_algorithm = ALGORITHMS.get_algorithm
# The algorithms that take ``deterministic=True`` (determinate is so by construction).
DETERMINISTIC_ALGORITHMS = ALGORITHMS.names(lambda a: a.deterministic)

__all__ = ["ALGORITHMS", "DEFAULT_ALGORITHM", "DETERMINISTIC_ALGORITHMS", "BFSResult", "LevelStats",
           "LevelTable", "get_algorithm", "check_levels"]
