"""The 2D engine (``graph500 run --partition 2d [--grid RxC]``, paper 001): the distributed
engine with the R x C mesh of ``distributed.grid`` instead of the 1D partition.

Rank r generates its own range of tuples as in 1D; kernel 1 builds its edge block A(i, j)
with the vertices of each owner sorted by degree or not (``distributed.build2d``;
``sort_vertices``: the command line's default with ``--partition 2d`` is degree, the
paper's); the searches are ``distributed.Searcher2D`` (expand in the processor-column, fold
in the processor-row: ``compress`` says how pairs are coded, ``fold`` which are sent,
``pipeline`` whether they travel while the scan goes on).
Before the first search (untimed) the tuples are 2D-partitioned once for validation
(``distributed.validate2d``: each validation then talks only within rows and columns), and
the generated range is dropped. Roots, timing and the result are the 1D
engine's: the same roots, edge counts and official block as an embedded run.
"""
from __future__ import annotations

import numpy as np

from ..backend.memory import BASELINE_BYTES, require_memory
from ..distributed import generate_local, vertex_dtype
from ..distributed.build2d import build_2d, mesh_comms
from ..distributed.grid import Grid2D, parse_grid
from ..distributed.search2d import (COMPRESS_MODES, DEFAULT_COMPRESS, DEFAULT_FOLD,
                                    DEFERRED_RUNS, FOLD_MODES, PACKET_BYTES, Searcher2D)
from ..distributed.validate2d import count_component_edges_2d, distribute_tuples, validate_2d
from ..errors import InputError
from ..generator import kronecker
from .config import RunConfig
from .distributed import DistributedEngine, check_distributed, has_neighbour
from .roots import choose_roots_with

__all__ = ["Distributed2DEngine", "check_2d", "estimate_rank_bytes_2d"]


def check_2d(config: RunConfig, comm) -> tuple[int, int]:
    """InputError for what the 2D engine does not do (the distributed engine's checks, then
    its own), ResourceError when this node cannot hold its ranks' blocks; the mesh (R, C).
    Unlike 1D, the 2D kernel 1 sorts vertices (or not) inside each owner's block."""
    check_distributed(config, None)
    if config.execution.prune is not None:
        raise InputError("prune applies to partition 1d (the 2D fold sends each vertex once "
                         "per search and process, or with fold paper every edge: compress "
                         "says how)", "prune")
    if config.execution.backend == "gpu":
        raise InputError("partition 2d runs on the CPU (backend cpu)", "partition")
    if config.search.weighted:
        raise InputError("partition 2d runs kernel 2 (BFS); kernel 3 (kernel sssp or both) "
                         "runs with partition 1d", "partition")
    compress = config.execution.compress or DEFAULT_COMPRESS
    if compress not in COMPRESS_MODES:
        raise InputError(f"compress must be one of {', '.join(COMPRESS_MODES)}; got "
                         f"{compress!r}", "compress")
    fold = config.execution.fold or DEFAULT_FOLD
    if fold not in FOLD_MODES:
        raise InputError(f"fold must be one of {', '.join(FOLD_MODES)}; got {fold!r}", "fold")
    rows, cols = parse_grid(config.execution.grid, comm.size)
    scale, edgefactor = config.graph.scale, config.graph.edgefactor
    need = estimate_rank_bytes_2d(1 << scale, edgefactor << scale, rows, cols) * comm.local_size
    require_memory(need, f"SCALE {scale}, edgefactor {edgefactor} on a {rows}x{cols} "
                         f"mesh ({comm.local_size} processes on this node)")
    return rows, cols


def estimate_rank_bytes_2d(num_vertices: int, num_edges: int, rows: int, cols: int) -> int:
    """Peak bytes of one rank: its generated tuples, then kernel 1's messages and its block
    in both orientations (column and row CSR), the validation tuples (u, v, global index),
    and the search's row- and column-block bitmaps, packets, deferred runs of own entries
    and claiming columns, all at their worst case."""
    size = rows * cols
    m = -(-num_edges // size)
    entries = 2 * m
    block = -(-num_vertices // (64 * size)) * 64
    b = np.dtype(vertex_dtype(num_vertices)).itemsize
    generated = 16 * m
    kernel1 = entries * 2 * b * 2 + entries * b          # send, receive, column rows
    csr = 2 * (entries * b + 8 * block * max(rows, cols))
    tuples = m * (2 * b + 8)
    search = block * (rows + cols) * 2 + PACKET_BYTES * cols * 4 + 66 * block + \
        24 * DEFERRED_RUNS
    return BASELINE_BYTES + generated + max(kernel1, tuples) + csr + search


class Distributed2DEngine(DistributedEngine):
    """The benchmark on an R x C mesh of the ranks of ``comm`` (collective)."""

    kernels = ("bfs",)

    check = staticmethod(check_2d)

    def __init__(self, config: RunConfig, comm):
        super().__init__(config, comm)
        self.mesh = parse_grid(config.execution.grid, comm.size)
        self.compress = config.execution.compress or DEFAULT_COMPRESS
        self.fold = config.execution.fold or DEFAULT_FOLD
        self.grid = Grid2D(self.num_vertices, *self.mesh, comm.rank)
        self.row_comm, self.col_comm = mesh_comms(comm, self.grid)
        self.need = estimate_rank_bytes_2d(self.num_vertices, self.num_edges, *self.mesh)
        self.tuples = None

    def kernel1(self, edges, grid: Grid2D | None = None):
        grid = grid or self.grid
        return build_2d(self.comm, grid, edges, self.row_comm, self.col_comm,
                        transpose=self.config.search.algorithm == "direction-optimizing",
                        sort_vertices=self.config.sort_vertices)

    def searcher(self, graph):
        return Searcher2D(self.comm, graph, self.row_comm, self.col_comm,
                          self.config.search.algorithm, self.compress, fold=self.fold,
                          pipeline=self.config.execution.pipeline)

    def warm_up(self) -> None:
        comm, seed = self.comm, self.config.graph.seed
        tiny = generate_local(comm, 4, 1, seed)
        grid = Grid2D(tiny.num_vertices, *self.mesh, comm.rank)
        graph = self.kernel1(tiny, grid)
        root = int(kronecker(4, 1, seed, start=0, end=1).src[0])
        parent = self.searcher(graph).search(root).parent
        tuples = distribute_tuples(comm, grid, tiny)
        validate_2d(comm, grid, self.row_comm, self.col_comm, tuples, parent, root)
        count_component_edges_2d(comm, grid, self.row_comm, self.col_comm, tuples, parent)

    def roots(self) -> np.ndarray:
        """The reference's roots; then (untimed) the tuples are 2D-partitioned for validation
        and the generated range is dropped."""
        graph = self.graph
        roots = choose_roots_with(self.num_vertices,
                                  has_neighbour(self.comm, graph.part, graph.degree),
                                  self.config.graph.seed, self.config.search.num_roots)
        self.tuples = distribute_tuples(self.comm, self.grid, self.edges)
        self.edge_tuples = len(self.edges)
        self.edges = None
        return roots

    def validate(self, result, root: int):
        return validate_2d(self.comm, self.grid, self.row_comm, self.col_comm, self.tuples,
                           result.parent, root)

    def count_edges(self, result) -> int:
        return count_component_edges_2d(self.comm, self.grid, self.row_comm, self.col_comm,
                                         self.tuples, result.parent)

    def result_fields(self) -> dict:
        comm, grid, graph = self.comm, self.grid, self.graph
        per_rank = self._last_gather({
            "mesh_row": grid.row, "mesh_col": grid.col, "local_vertices": graph.num_local,
            "block_entries": graph.num_entries, "edge_tuples": self.edge_tuples,
            "validation_tuples": len(self.tuples.src), "threads": self.threads,
            "node_rank": comm.local_rank,
        })
        rows, cols = self.mesh
        info = {
            "algorithm": self.config.search.algorithm,
            "prune": ("sent bitmap (each vertex once per search and process)"
                      if self.fold == "dedup" else
                      "none (every edge to a vertex not known visited, paper 001)"),
            "partition": "2d",
            "grid": [rows, cols],
            "layout": grid.describe(),
            "compress": self.compress,
            "fold": self.fold,
            "pipeline": self.config.execution.pipeline,
            "sort_vertices": self.config.sort_vertices or "none",
            "packet_bytes": PACKET_BYTES,
            "num_processes": comm.size,
            **self.common_fields(per_rank),
        }
        return dict(num_vertices=self.num_vertices, num_edges=self.num_edges,
                    threads=self.threads, num_processes=comm.size, distributed=info,
                    backend=self.backend.name, device=self.backend.device)
