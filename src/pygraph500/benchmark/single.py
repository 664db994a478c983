"""One search on a user's graph (``graph500 bfs FILE --root R``): read, build, search,
validate, write the tree in the user's ids.

The search is timed as in the benchmark (kernel 2 only, after the compiled code has been
loaded on a tiny graph and one untimed warm-up search from the same root, as the reference
does before its timed searches); the construction is timed on its own; validation is untimed.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..backend.threads import set_threads
from ..bfs import DEFAULT_ALGORITHM, get_algorithm
from ..generator import kronecker
from ..graph import build_csr
from ..io.files import check_search_table_path, write_search_table
from ..io.formats import GraphFile, read_graph
from ..validate import count_component_edges, validate

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
                validate_tree: bool = True, threads: int | None = None,
                progress=None) -> SingleSearch:
    """Read ``path``, search from the user's vertex ``root``, validate, and write the tree.

    ``out`` (.npy or .csv): one row per reached vertex, ``vertex, parent[, distance]`` in the
    file's own ids (sorted by vertex number, which is the ids' order). It is written only
    when the tree is valid (or validation is off). InputError for bad input, before any work.

    >>> s = search_file("karate.txt", 1, out="tree.csv", distances=True)   # doctest: +SKIP
    >>> s.reached, s.valid                                                 # doctest: +SKIP
    (34, True)
    """
    report = progress or (lambda *a: None)
    bfs = get_algorithm(algorithm)
    if out is not None:
        check_search_table_path(out)
    t0 = time.perf_counter()
    graph = read_graph(path, format=format, num_vertices=num_vertices, relabel=relabel,
                       directed=directed, progress=report)
    read_time = time.perf_counter() - t0
    r = graph.vertex(root)
    nthreads = set_threads(threads)

    tiny = kronecker(4, 1)  # load the compiled code untimed, as the benchmark does
    warm = bfs(build_csr(tiny), int(tiny.src[0]), depth=distances)
    count_component_edges(tiny, warm.parent)
    if validate_tree:
        validate(tiny, warm.parent, int(tiny.src[0]))

    report("construction", 0, 1)
    t0 = time.perf_counter()
    csr = build_csr(graph.edges)
    construction_time = time.perf_counter() - t0
    report("construction", 1, 1)
    root_degree = int(csr.indptr[r + 1] - csr.indptr[r])

    bfs(csr, r, depth=distances)  # an untimed warm-up search, as the reference does
    t0 = time.perf_counter()
    result = bfs(csr, r, depth=distances)
    elapsed = time.perf_counter() - t0
    parent = result.parent
    reached_mask = parent >= 0
    reached = int(np.count_nonzero(reached_mask))
    run = SingleSearch(graph, int(root), r, parent, result.depth if distances else None,
                       read_time, construction_time, elapsed, 0, reached, algorithm, nthreads,
                       levels=result.levels.as_dicts() if hasattr(result.levels, "as_dicts")
                       else [lv.as_dict() for lv in result.levels], root_degree=root_degree)
    if validate_tree:
        t0 = time.perf_counter()
        verdict = validate(graph.edges, parent, r)
        run.validate_time = time.perf_counter() - t0
        run.valid, run.message, run.nedge = verdict.valid, verdict.message, verdict.nedge
        run.max_depth = verdict.max_depth if verdict.valid else None
    else:
        run.nedge = count_component_edges(graph.edges, parent)
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
