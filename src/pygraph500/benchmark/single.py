"""One search on a user's graph (``graph500 bfs FILE --root R``, and kernel 3's ``graph500
sssp FILE --root R``): read, build, search, validate, write the tree in the user's ids.

It is the run loop (``loop.run_engine``) on a ``FileEngine`` with one root: the search is timed
as in the benchmark (kernel 2 only, after the compiled code has been loaded on a tiny graph and
one untimed warm-up search from the same root, as the reference does before its timed
searches); the construction is timed on its own; validation is untimed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..bfs import DEFAULT_ALGORITHM
from ..io import GraphFile, check_search_table_path, write_search_table
from ..sssp import DEFAULT_ALGORITHM as SSSP_DEFAULT_ALGORITHM
from .config import ExecutionSpec, GraphSpec, OutputSpec, RunConfig, SearchSpec
from .embedded import FileEngine
from .loop import run_engine

__all__ = ["SingleSearch", "search_file", "sssp_file"]


@dataclass
class SingleSearch:
    """What ``search_file`` did: the graph read, the root (user's id and vertex number), the
    parent array (vertex numbers), depths when asked for (SSSP: the float32 distances), times,
    TEPS numerator, verdict."""

    graph: GraphFile
    root: int
    root_vertex: int
    parent: np.ndarray
    depth: np.ndarray | None
    read_time: float
    construction_time: float
    time: float
    nedge: int
    reached: int
    algorithm: str
    threads: int
    valid: bool | None = None
    message: str = ""
    validate_time: float = 0.0
    max_depth: int | None = None
    out: str | None = None
    rows: int = 0
    levels: list = field(default_factory=list)
    root_degree: int = 0
    kernel: str = "bfs"
    max_distance: float | None = None

    @property
    def teps(self) -> float:
        return self.nedge / self.time if self.time > 0 else float("inf")

    def summary(self) -> str:
        """The lines ``graph500 bfs`` prints."""
        g = self.graph
        kind = "directed, searched as undirected" if g.directed else "undirected"
        ids = (f", ids relabelled to 0..{g.num_vertices - 1} (results in the file's ids)"
               if g.relabelled else "")
        lines = [
            f"graph:             {g.path} ({g.format}, {g.num_vertices} vertices, "
            f"{g.num_edges} edge tuples, {kind}{ids})",
            f"read_time:         {self.read_time:.6g} s",
            f"construction_time: {self.construction_time:.6g} s",
            f"root:              {self.root}" + ("" if self.root_degree else
                                                     " (no neighbours: the search reaches only the root)"),
            f"reached:           {self.reached} vertices, {self.nedge} edge tuples in the "
            f"component" + (f", max depth {self.max_depth}" if self.max_depth is not None else "")
            + (f", max distance {self.max_distance:.9g}" if self.max_distance is not None
               else ""),
            f"{self.kernel}_time:{' ' * (13 - len(self.kernel))}{self.time:.6g} s "
            f"({self.algorithm}, {self.threads} threads)",
            f"TEPS:              {self.teps:.6g}",
        ]
        if self.valid is None:
            lines.append("validation:        skipped (--no-validate)")
        elif self.valid:
            rules = "Graph500 rules" if self.kernel == "bfs" else "Graph500 kernel-3 rules"
            lines.append(f"validation:        valid ({rules}, {self.validate_time:.3g} s)")
        else:
            lines.append(f"validation:        INVALID: {self.message}")
        if self.out:
            lines.append(self.wrote())
        return "\n".join(lines)

    def write(self, out: str) -> int:
        """Write the table to ``out`` (.npy or .csv): one row per reached vertex, ``vertex,
        parent[, distance]`` in the file's ids; the number of rows."""
        vertices = np.flatnonzero(self.parent >= 0)
        ids = self.graph.user_ids
        self.rows = write_search_table(out, ids(vertices), ids(self.parent[vertices]),
                                       None if self.depth is None else self.depth[vertices])
        self.out = out
        return self.rows

    def wrote(self) -> str:
        """The summary's line for the table written."""
        cols = "vertex, parent" + (", distance" if self.depth is not None else "")
        return f"wrote:             {self.out} ({self.rows} rows: {cols})"


def sssp_file(path: str, root: int, *, out: str | None = None,
              algorithm: str = SSSP_DEFAULT_ALGORITHM, unit_weights: bool = False,
              input_weights: str | None = None, **options) -> SingleSearch:
    """Kernel 3 on a user's weighted graph: ``search_file`` with shortest paths.

    The weights are the file's (SNAP third column, Matrix Market values, ``.npz`` weight);
    for a file without any, ``input_weights`` (a weights file, float32 a tuple as
    ``graph500 generate --weights`` writes) or ``unit_weights`` (all 1.0). ``out`` (.npy or
    .csv): one row per reached vertex, ``vertex, parent, distance`` in the file's ids (a
    (K, 3) float64 table, or CSV with the header ``vertex,parent,distance``).
    """
    return search_file(path, root, out=out, algorithm=algorithm, kernel="sssp",
                       unit_weights=unit_weights, input_weights=input_weights, **options)


def search_file(path: str, root: int, *, out: str | None = None, distances: bool = False,
                algorithm: str = DEFAULT_ALGORITHM, format: str | None = None,
                num_vertices: int | None = None, relabel="auto", directed: bool | None = None,
                validate_tree: bool = True, threads: int | None = None, levels: bool = False,
                progress=None, kernel: str = "bfs", unit_weights: bool = False,
                input_weights: str | None = None, options: dict | None = None) -> SingleSearch:
    """Read ``path``, search from the user's vertex ``root``, validate, and write the tree.

    ``out`` (.npy or .csv): one row per reached vertex, ``vertex, parent[, distance]`` in the
    file's own ids (sorted by vertex number, which is the ids' order). It is written only
    when the tree is valid (or validation is off). InputError for bad input, before any work.
    ``levels``: keep the per-level statistics of the search (``SingleSearch.levels``).
    ``options``: the BFS algorithm's own (``deterministic``, ``workers``, the hybrid's
    ``tasks``, ``mode``, ``lam``, ``gpu_share``, ``standin_speed``; its array side is NumPy's).

    >>> s = search_file("karate.txt", 1, out="tree.csv", distances=True)   # doctest: +SKIP
    >>> s.reached, s.valid                                                 # doctest: +SKIP
    (34, True)
    """
    sssp = kernel == "sssp"
    names = dict(sssp_algorithm=algorithm) if sssp else dict(algorithm=algorithm)
    config = RunConfig(GraphSpec(input=path, input_format=format, num_vertices=num_vertices,
                                 unit_weights=unit_weights, input_weights=input_weights),
                       SearchSpec(kernel=kernel, options=dict(options or {}), num_roots=1,
                                  validate=validate_tree, **names),
                       ExecutionSpec(threads=threads), OutputSpec(record_levels=levels))
    engine = _OneSearch(config, progress, read_options=dict(relabel=relabel, directed=directed),
                        root=root, search_options=dict(depth=distances, **config.search.options),
                        check_memory=False)
    if out is not None:
        check_search_table_path(out)
    bench = run_engine(engine, config, progress)
    graph, r, result = engine.source, engine.root_vertex, engine.last
    parent = result.parent
    reached_mask = parent >= 0
    reached = int(np.count_nonzero(reached_mask))
    [timed] = bench.sssp_runs if sssp else bench.runs
    dist = result.distance if sssp else (result.depth if distances else None)
    run = SingleSearch(graph, int(root), r, parent, dist,
                       bench.generation_time, bench.construction_time, timed.time, timed.nedge,
                       reached, algorithm, bench.threads, valid=timed.valid,
                       levels=timed.levels,
                       root_degree=int(engine.graph.indptr[r + 1] - engine.graph.indptr[r]),
                       kernel=kernel)
    if validate_tree:
        run.message, run.validate_time = timed.message, timed.validate_time
        if timed.valid:
            run.max_depth = engine.verdict.max_depth if not sssp else None
            run.max_distance = engine.verdict.max_distance
    if sssp and run.max_distance is None and reached:
        run.max_distance = float(result.distance[reached_mask].max())
    if not sssp and run.max_depth is None and result.depth is not None and reached:
        run.max_depth = int(result.depth[reached_mask].max())
    if out is not None and run.valid is not False:
        run.write(out)
    return run


class _OneSearch(FileEngine):
    """FileEngine keeping the timed search's result and verdict for the summary and table."""

    last = verdict = None

    def fetch(self, result):
        self.last = super().fetch(result)
        return self.last

    def validate(self, result, root: int):
        self.verdict = super().validate(result, root)
        return self.verdict
