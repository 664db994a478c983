"""BFS on the array backend (NumPy in CI, CuPy on a GPU): thesis chapter 4's single-GPU
algorithms and paper 004's GPU BFS variants, written once against ``xp``.

``gpu-queue``, ``sort-unique``, ``bitmap-filter``, ``frontier-mask`` (``queue_based``),
``edge-parallel`` (``edge_parallel``) and the array form of ``direction-optimizing``
(``direction_optimizing``, used by ``direction-optimizing`` with ``backend="gpu"``). Each
records thesis Table 4.1 per level in ``result.levels.extra`` (CLQ, NLF, LV, RV, NLQ, QR, UR)
with the time of each phase (t_expand, t_search, t_prune, t_update).

On a GPU a level costs what ``LEVEL_BUDGET`` allows, asserted without a GPU on the
``numpy-checked`` backend (which records ``host_syncs`` and ``allocations`` per level): one
host synchronisation (the next queue's size, which the next level's shapes need; the
statistics stay on the device until the search ends) and a fixed number of allocations
(about as many kernel launches), each in proportion to the level's work, not to N (but
frontier-mask's scan over all N, and direction-optimizing's candidate lists and frontier
masks, made once per search at its first bottom-up level). A search adds one read before its
levels (the root's degree) and one after (the statistics).
"""
from ...backend.arrays import BACKENDS
from ...descriptors import Algorithm
from ..types import option_help
from .direction_optimizing import bfs_direction_optimizing_array
from .edge_parallel import bfs_edge_parallel
from .queue_based import bfs_bitmap_filter, bfs_frontier_mask, bfs_gpu_queue, bfs_sort_unique


def _array(name, function, summary, source, *more_options, directed=True):
    return Algorithm(name, "bfs", function, summary, source,
                     option_help("backend", "depth", "on_device", *more_options),
                     backends=BACKENDS, python_levels=True, directed=directed)


ARRAY_ALGORITHMS = {a.name: a for a in (
    _array("gpu-queue", bfs_gpu_queue,
           "the straightforward GPU BFS, no pruning: on a GPU a numba.cuda kernel, a thread "
           "per queued vertex walking its list and claiming neighbours by compare-and-swap; "
           "on NumPy the same search in whole-array steps", "Mastrostefano 2013, 4.2.3", "kernel"),
    _array("sort-unique", bfs_sort_unique,
           "queue degrees, their prefix sum, a work item per next-level-frontier element "
           "found by binary search, the (vertex, parent) keys sorted and made unique (each "
           "vertex keeps its smallest parent); on a GPU three launches a level",
           "Mastrostefano 2013, 4.3.2", "kernel", directed=False),  # its keys' room: the unvisited
    # vertices' out-degrees, a bound only where every edge has its reverse
    _array("bitmap-filter", bfs_bitmap_filter,
           "sort-unique's sort replaced by a per-vertex claim array (memory for time)",
           "Mastrostefano 2013, 5.3"),
    Algorithm("edge-parallel", "bfs", bfs_edge_parallel,
              "the naive GPU BFS: every edge examined at every level", "Padamata & Raveendran 2013",
              option_help("backend", "depth", "on_device"), backends=BACKENDS,
              python_levels=True, examines_every_edge=True, directed=True),
    Algorithm("frontier-mask", "bfs", bfs_frontier_mask,
              "the linear-work GPU BFS: prefix-scan expansion, duplicates removed by a vertex "
              "mask, compacted by its prefix scan or, below serial_below frontier vertices, "
              "by one sequential pass", "Padamata & Raveendran 2013",
              option_help("backend", "depth", "on_device", serial_below=(
                  "frontiers of fewer vertices compact the mask by one sequential pass "
                  "instead of the prefix scan (the paper's 512; 0: always the scan; NumPy "
                  "only: a device always scans)")),
              backends=BACKENDS, python_levels=True, directed=True),
)}

# Per level on a device: (host synchronisations, allocations); see the module docstring.
LEVEL_BUDGET = {
    "gpu-queue": (1, 30),  # the whole-array form; the numba.cuda kernel: one read, no allocation
    "sort-unique": (1, 39),
    "bitmap-filter": (1, 32),
    "edge-parallel": (1, 13),
    "frontier-mask": (1, 28),
    "direction-optimizing": (1, 44),  # its first bottom-up level makes the per-search lists
}

# The numba.cuda forms, what a device runs (asserted under numba's CUDA simulator on
# numpy-checked, a kernel's own reads being the device's). The allocations: gpu-queue's two
# scalars of its counts row recorded (LV, NLF); sort-unique's queue degrees and their prefix
# sum, the keys buffer and three scalars of the counts row (LV, the next queue's length and
# edges); direction-optimizing's top-down level the same but the keys (5), a bottom-up level
# its two scalars (2), its first one 15 (it makes the per-search candidate lists and
# frontier masks).
KERNEL_LEVEL_BUDGET = {"gpu-queue": (1, 2), "sort-unique": (1, 6),
                       "direction-optimizing": (1, 15)}

__all__ = ["ARRAY_ALGORITHMS", "LEVEL_BUDGET", "KERNEL_LEVEL_BUDGET", "bfs_gpu_queue",
           "bfs_sort_unique", "bfs_bitmap_filter", "bfs_edge_parallel", "bfs_frontier_mask",
           "bfs_direction_optimizing_array"]
