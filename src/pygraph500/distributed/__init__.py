"""The distributed engine (DESIGN.md ``distributed/``): communicators, the 1D partition and
paper 001's 2D mesh, and the distributed generation, kernel 1, BFS (thesis Algorithm 4 with
sort-unique pruning; 2D expand and fold), SSSP (kernel 3: delta-stepping) and their
validation, all written against ``Comm`` so they also run embedded on ``SerialComm``."""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from .build import DistGraph, build_dist
from .build2d import DistGraph2D, build_2d, mesh_comms
from .comm import (Comm, MPIComm, SerialComm, abort_on_error, collective_check,
                   launched_rank, launched_size, world)
from .generate import LocalEdges, generate_local
from .grid import Grid2D, mesh_shape
from .level_loop import LEVEL_FIELDS, DistBFSResult
from .modes import (DEFAULT_DIST_ALGORITHM, DEFAULT_PRUNE, DIST_ALGORITHMS, PRUNE_MODES,
                    check_modes)
from .thread_comm import ThreadComm
from .partition import Partition1D, bucket_by_owner, edge_range, fetch, vertex_dtype
from .search1d import DistSearcher, bfs_dist
from .search2d import Searcher2D
from .sssp import SSSP_FIELDS, DistSSSPResult, DistSSSPSearcher, default_delta, sssp_dist
from .validate import count_component_edges_dist, validate_dist
from .validate_sssp import validate_sssp_dist
from .validate2d import count_component_edges_2d, distribute_tuples, validate_2d

__all__ = [
    "Comm", "SerialComm", "MPIComm", "ThreadComm", "world", "launched_rank", "launched_size",
    "abort_on_error", "collective_check",
    "Partition1D", "edge_range", "bucket_by_owner", "fetch", "vertex_dtype",
    "LocalEdges", "generate_local", "DistGraph", "build_dist",
    "PRUNE_MODES", "DEFAULT_PRUNE", "DIST_ALGORITHMS", "DEFAULT_DIST_ALGORITHM", "check_modes",
    "LEVEL_FIELDS", "DistBFSResult", "DistSearcher", "bfs_dist",
    "SSSP_FIELDS", "DistSSSPResult", "DistSSSPSearcher", "sssp_dist", "default_delta",
    "validate_dist", "validate_sssp_dist", "count_component_edges_dist",
    "Grid2D", "mesh_shape", "mesh_comms", "DistGraph2D", "build_2d", "Searcher2D",
    "distribute_tuples", "validate_2d", "count_component_edges_2d",
]
