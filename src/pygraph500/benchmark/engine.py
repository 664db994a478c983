"""The Engine: what the one run loop (``loop``) drives, as GAP's BenchmarkKernel is driven by
build, search and verify.

An engine owns its graph from edge list to searches: ``load`` (the generator or a file),
``build`` (kernel 1), ``roots``, ``search`` (the timed kernel), ``validate`` (its own rules,
untimed). The loop owns the order, the timing and the Graph500 semantics (code warm-up, one
warm-up search, one timed search per root, stop at the first invalid result). A new
partitioning (2D) is one more subclass; the loop does not change. Kernel 3 (SSSP) runs on the
same engine and graph: ``use_kernel("sssp")`` switches what ``search`` and ``validate`` do.

Implementations: ``embedded.EmbeddedEngine`` / ``embedded.FileEngine`` (this process, CPU or
array backend) and ``distributed.DistributedEngine`` (the ranks of a Comm, CPU or devices).
"""
from __future__ import annotations

import time
from abc import ABC, abstractmethod

import numpy as np

from ..errors import InputError

__all__ = ["Engine"]


class Engine(ABC):
    """One way of running the benchmark's kernels; see the module docstring."""

    # The progress phase the loop reports around ``load`` (None: ``load`` reports its own).
    load_phase: str | None = "generation"
    # Whether ``load`` reads the user's input: the loop reads it before the warm-up, whose
    # kernels may compile for a minute or more, so that its errors come first.
    reads_input: bool = False
    # The timed kernels this engine can run, and the one ``search``/``validate`` now mean.
    kernels: tuple[str, ...] = ("bfs",)
    kernel: str = "bfs"

    def use_kernel(self, kernel: str) -> None:
        """Make ``search``, ``validate``, ``count_edges`` and ``levels`` those of ``kernel``
        ("bfs": kernel 2, "sssp": kernel 3); the loop calls it before each kernel's trials."""
        if kernel not in self.kernels:
            raise InputError(f"kernel {kernel} is not supported by this engine "
                             f"({', '.join(self.kernels)} only)")
        self.kernel = kernel

    # ---- timing: the distributed engine starts phases together and takes the slowest rank
    def barrier(self) -> None:
        """Wait until every process of the run is here (embedded: nothing to wait for)."""

    def elapsed(self, start: float) -> float:
        """Seconds since ``start`` (``time.perf_counter``): the slowest process's."""
        return time.perf_counter() - start

    def begin(self, phase: str) -> None:
        """Called before ``load``, ``build``, each search and each validation ("generation",
        "construction", "search", "validation"); the distributed engine's failure injection."""

    # ---- the kernels
    @abstractmethod
    def warm_up(self) -> None:
        """Load (or compile) every kernel of the run on a tiny graph, so that the timed
        phases measure the work and not the one-time code loading."""

    def warm_up_parts(self) -> dict[str, float]:
        """Independent parts of ``warm_up`` that worker processes may compile at the same
        time on a cold cache (``compile_ahead``), each with its rough share of the compile
        time; none by default."""
        return {}

    def warm_up_part(self, name: str) -> None:
        """Compile (or load) the kernels of one part of ``warm_up_parts``."""
        raise NotImplementedError(name)

    @abstractmethod
    def load(self) -> None:
        """The edge list: generated, or read from a file (timed: graph_generation)."""

    def split_load(self, seconds: float) -> tuple[float, float]:
        """(graph_generation, kernel 1's share) of the ``seconds`` that ``load`` took: an
        engine whose load also starts kernel 1 (counting the tuples while they are made)
        gives that share to construction_time."""
        return seconds, 0.0

    def fits(self) -> None:
        """ResourceError when what ``load`` brought will not fit (checked untimed)."""

    @abstractmethod
    def build(self) -> None:
        """Kernel 1: the searchable graph from the edge list (timed: construction_time)."""

    @abstractmethod
    def roots(self) -> np.ndarray:
        """The search keys, in order (the reference's rule unless told otherwise)."""

    def labels(self, roots: np.ndarray) -> list[str]:
        """The output's notes on how this run departs from Graph500's rules."""
        return []

    @abstractmethod
    def search(self, root: int):
        """One search from ``root`` (timed); its result may stay where it was computed."""

    def fetch(self, result):
        """The result where ``validate`` reads it (the host), after the clock has stopped."""
        return result

    @abstractmethod
    def validate(self, result, root: int):
        """Check ``result`` by the kernel's rules; a report with ``valid``, ``nedge`` (the
        TEPS numerator), ``rule`` and ``message``."""

    @abstractmethod
    def count_edges(self, result) -> int:
        """The TEPS numerator without validating."""

    @abstractmethod
    def levels(self, result) -> list[dict]:
        """Per-level statistics of ``result`` as dicts (only built when asked for)."""

    @abstractmethod
    def result_fields(self) -> dict:
        """What ``BenchmarkResult`` records of this engine: num_vertices, num_edges, threads
        and any of source, num_processes, distributed, backend, device."""
