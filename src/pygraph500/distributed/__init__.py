"""The distributed engine (DESIGN.md ``distributed/``): communicators, the 1D partition, and the
distributed generation, kernel 1, BFS (thesis Algorithm 4 with sort-unique pruning), SSSP
(kernel 3: delta-stepping) and their validation, all written against ``Comm`` so they also
run embedded on ``SerialComm``."""
from .build import DistGraph, build_dist
from .comm import (Comm, MPIComm, SerialComm, abort_on_error, collective_check,
                   launched_rank, launched_size, world)
from .generate import LocalEdges, generate_local
from .level_loop import LEVEL_FIELDS, DistBFSResult
from .modes import (DEFAULT_DIST_ALGORITHM, DEFAULT_PRUNE, DIST_ALGORITHMS, PRUNE_MODES,
                    check_modes)
from .thread_comm import ThreadComm
from .partition import Partition1D, bucket_by_owner, edge_range, fetch, vertex_dtype
from .search import DistSearcher, bfs_dist
from .sssp import SSSP_FIELDS, DistSSSPResult, DistSSSPSearcher, default_delta, sssp_dist
from .validate import count_component_edges_dist, validate_dist
from .validate_sssp import validate_sssp_dist

__all__ = [
    "Comm", "SerialComm", "MPIComm", "ThreadComm", "world", "launched_rank", "launched_size",
    "abort_on_error", "collective_check",
    "Partition1D", "edge_range", "bucket_by_owner", "fetch", "vertex_dtype",
    "LocalEdges", "generate_local", "DistGraph", "build_dist",
    "PRUNE_MODES", "DEFAULT_PRUNE", "DIST_ALGORITHMS", "DEFAULT_DIST_ALGORITHM", "check_modes",
    "LEVEL_FIELDS", "DistBFSResult", "DistSearcher", "bfs_dist",
    "SSSP_FIELDS", "DistSSSPResult", "DistSSSPSearcher", "sssp_dist", "default_delta",
    "validate_dist", "validate_sssp_dist", "count_component_edges_dist",
]
