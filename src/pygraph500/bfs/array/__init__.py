"""BFS on the array backend (NumPy in CI, CuPy on a GPU): thesis chapter 4's single-GPU
algorithms and seed 004's GPU BFS variants, written once against ``xp``.

``gpu-queue``, ``sort-unique``, ``bitmap-filter``, ``frontier-mask`` (``search``),
``edge-parallel`` (``edge_parallel``) and the array form of ``direction-optimizing``
(``direction_optimizing``, used by ``direction-optimizing`` with ``backend="gpu"``). Each
records thesis Table 4.1 per level in ``result.levels.extra`` (CLQ, NLF, LV, RV, NLQ, QR, UR)
with the time of each phase (t_expand, t_search, t_prune, t_update).
"""
from .direction_optimizing import bfs_direction_optimizing_array
from .edge_parallel import bfs_edge_parallel
from .search import bfs_bitmap_filter, bfs_frontier_mask, bfs_gpu_queue, bfs_sort_unique

ARRAY_ALGORITHMS = {
    "gpu-queue": bfs_gpu_queue,
    "sort-unique": bfs_sort_unique,
    "bitmap-filter": bfs_bitmap_filter,
    "edge-parallel": bfs_edge_parallel,
    "frontier-mask": bfs_frontier_mask,
}

__all__ = ["ARRAY_ALGORITHMS", "bfs_gpu_queue", "bfs_sort_unique", "bfs_bitmap_filter",
           "bfs_edge_parallel", "bfs_frontier_mask", "bfs_direction_optimizing_array"]
