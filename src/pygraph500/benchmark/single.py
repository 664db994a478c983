"""One search on a user's graph (``graph500 bfs FILE --root R``): read, build, search,
validate, write the tree in the user's ids.

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
from .config import RunConfig
from .embedded import FileEngine
from .loop import run_engine

__all__ = ["SingleSearch", "search_file"]


@dataclass
class SingleSearch:
    """What ``search_file`` did: the graph read, the root (user's id and vertex number), the
    parent array (vertex numbers), depths when asked for, times, TEPS numerator, verdict."""

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
            f"component" + (f", max depth {self.max_depth}" if self.max_depth is not None else ""),
            f"bfs_time:          {self.time:.6g} s ({self.algorithm}, {self.threads} threads)",
            f"TEPS:              {self.teps:.6g}",
        ]
        if self.valid is None:
            lines.append("validation:        skipped (--no-validate)")
        elif self.valid:
            lines.append(f"validation:        valid (Graph500 rules, {self.validate_time:.3g} s)")
        else:
            lines.append(f"validation:        INVALID: {self.message}")
        if self.out:
            cols = "vertex, parent" + (", distance" if self.depth is not None else "")
            lines.append(f"wrote:             {self.out} ({self.rows} rows: {cols})")
        return "\n".join(lines)


def search_file(path: str, root: int, *, out: str | None = None, distances: bool = False,
                algorithm: str = DEFAULT_ALGORITHM, format: str | None = None,
                num_vertices: int | None = None, relabel="auto", directed: bool | None = None,
                validate_tree: bool = True, threads: int | None = None, levels: bool = False,
                progress=None) -> SingleSearch:
    """Read ``path``, search from the user's vertex ``root``, validate, and write the tree.

    ``out`` (.npy or .csv): one row per reached vertex, ``vertex, parent[, distance]`` in the
    file's own ids (sorted by vertex number, which is the ids' order). It is written only
    when the tree is valid (or validation is off). InputError for bad input, before any work.
    ``levels``: keep the per-level statistics of the search (``SingleSearch.levels``).

    >>> s = search_file("karate.txt", 1, out="tree.csv", distances=True)   # doctest: +SKIP
    >>> s.reached, s.valid                                                 # doctest: +SKIP
    (34, True)
    """
    config = RunConfig(algorithm=algorithm, threads=threads, validate=validate_tree,
                       input=path, input_format=format, num_vertices=num_vertices,
                       num_roots=1, record_levels=levels)
    engine = _OneSearch(config, progress, read_options=dict(relabel=relabel, directed=directed),
                        root=root, search_options=dict(depth=distances), check_memory=False)
    if out is not None:
        check_search_table_path(out)
    bench = run_engine(engine, config, progress)
    graph, r, result = engine.source, engine.root_vertex, engine.last
    parent = result.parent
    reached_mask = parent >= 0
    reached = int(np.count_nonzero(reached_mask))
    [timed] = bench.runs
    run = SingleSearch(graph, int(root), r, parent, result.depth if distances else None,
                       bench.generation_time, bench.construction_time, timed.time, timed.nedge,
                       reached, algorithm, bench.threads, valid=timed.valid,
                       levels=timed.levels,
                       root_degree=int(engine.graph.indptr[r + 1] - engine.graph.indptr[r]))
    if validate_tree:
        run.message, run.validate_time = timed.message, timed.validate_time
        run.max_depth = engine.verdict.max_depth if timed.valid else None
    if run.max_depth is None and result.depth is not None and reached:
        run.max_depth = int(result.depth[reached_mask].max())
    if out is not None and run.valid is not False:
        vertices = np.flatnonzero(reached_mask)
        dist = None
        if distances:
            dist = np.asarray(result.depth, dtype=np.int64)[vertices]
        run.rows = write_search_table(out, graph.user_ids(vertices),
                                      graph.user_ids(parent[vertices]), dist)
        run.out = out
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
