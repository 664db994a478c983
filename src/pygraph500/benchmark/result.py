"""What a run produced: one ``SearchRun`` per timed search and the ``BenchmarkResult`` of the run,
with the reference's statistics over them. Their text and JSON forms are ``report.result``'s.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..report.result import official_block
from .config import RunConfig
from .stats import summary, teps_summary

__all__ = ["SearchRun", "BenchmarkResult"]


@dataclass
class SearchRun:
    """One search: its root, timed search (BFS or SSSP), TEPS numerator, validation verdict and
    levels (SSSP: phases)."""

    root: int
    time: float
    nedge: int
    valid: bool | None
    validate_time: float
    rule: str | None = None
    message: str = ""
    levels: list = field(default_factory=list)

    @property
    def teps(self) -> float:
        return self.nedge / self.time if self.time > 0 else float("inf")


@dataclass
class BenchmarkResult:
    config: RunConfig
    num_vertices: int
    num_edges: int
    generation_time: float
    construction_time: float
    roots: np.ndarray
    runs: list[SearchRun]
    threads: int
    labels: list[str] = field(default_factory=list)
    warmup_time: float = 0.0
    source: object | None = None  # the io.GraphFile read with RunConfig.input, else None
    num_processes: int = 1        # MPI processes of a distributed run
    distributed: dict | None = None  # what a distributed run adds to the JSON (dist engine)
    backend: str = "cpu"          # where it ran, and on what device
    device: str = ""
    sssp_runs: list[SearchRun] | None = None  # kernel 3's searches (None: BFS only)
    validation: str | None = None  # what an embedded run validated against: csr or tuples
    graph_bytes: int = 0  # the searched graph's arrays (CSR, tuple counts, weights) in memory

    @property
    def scale(self) -> int:
        """SCALE: the configured one, or ceil(log2 N) of an input graph."""
        if self.source is None:
            return self.config.graph.scale
        return max(0, math.ceil(math.log2(max(1, self.num_vertices))))

    @property
    def edgefactor(self) -> int:
        """edgefactor: the configured one, or M / N rounded for an input graph."""
        if self.source is None:
            return self.config.graph.edgefactor
        return int(round(self.num_edges / max(1, self.num_vertices)))

    def user_ids(self, vertices):
        """Vertex numbers as the input file's ids (identity for generated graphs)."""
        v = np.asarray(vertices, dtype=np.int64)
        return v if self.source is None else self.source.user_ids(v)

    def kernel_runs(self) -> dict[str, list[SearchRun]]:
        """The searches of every kernel the run was asked for, in order (missing ones empty:
        the run stopped before them)."""
        have = {"bfs": self.runs, "sssp": self.sssp_runs or []}
        return {k: have[k] for k in self.config.search.kernels}

    @property
    def valid(self) -> bool:
        return all(all(r.valid is not False for r in runs) and len(runs) == len(self.roots)
                   for runs in self.kernel_runs().values())

    @property
    def first_failure(self) -> SearchRun | None:
        return next((r for runs in self.kernel_runs().values() for r in runs
                     if r.valid is False), None)

    def statistics(self, kernel: str = "bfs") -> dict[str, dict[str, float]]:
        """The reference's statistics of one kernel's searches: times, edge counts, TEPS,
        validation times (-1 each when validation was skipped, as the reference prints them)."""
        runs = self.kernel_runs().get(kernel, [])
        times = [r.time for r in runs]
        nedges = [r.nedge for r in runs]
        vt = [r.validate_time for r in runs] if self.config.search.validate else [-1.0] * len(runs)
        return {"time": summary(times), "nedge": summary(nedges),
                "teps": teps_summary(times, nedges), "validate": summary(vt)}

    def official(self) -> dict[str, float]:
        """The reference's output block as key -> number, in the reference's order."""
        return official_block(self)
