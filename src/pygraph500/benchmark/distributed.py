"""The distributed engine (``mpiexec -n P graph500 run``): thesis chapter 4, run by ``loop``.

Rank r generates its own range of the edge list, kernel 1 sends every tuple to the owners of
its endpoints (``distributed.build_dist``), roots are chosen once by the reference rule (the same
on every rank and the same as the embedded run's), and every search is the 1D distributed
BFS (``distributed.DistSearcher``) followed by the distributed validation. Times are the
slowest rank's (each phase starts after a barrier). Only rank 0 reports progress.

The run's result is a ``BenchmarkResult`` like the embedded one (the same official block,
``num_mpi_processes: P``); each search's ``levels`` hold the sums over the ranks in the
embedded fields (frontier, edges_examined, discovered, time) plus the distributed ones of
``distributed.LEVEL_FIELDS`` and, under ``per_rank``, every rank's values.

With backend "gpu" every rank runs its searches on the GPU of its node-local rank
(``distributed.array_bfs``; kernel 1 runs on the CPU and its CSR is copied to the device inside
the timed construction), exchanging device arrays directly or staged through host memory
(``distributed.device``); "auto" does so when every rank has a GPU.
"""
from __future__ import annotations

import os
import signal
import time

import numpy as np

from ..backend.arrays import ArrayBackend, get_backend
from ..backend.memory import BASELINE_BYTES, require_memory
from ..backend.threads import set_threads
from ..bfs.types import DIRECTIONS
from ..distributed import (DEFAULT_PRUNE, LEVEL_FIELDS, DistSearcher, DistSSSPSearcher,
                           Partition1D, build_dist, check_modes, generate_local,
                           validate_sssp_dist, vertex_dtype)
from ..distributed.array_bfs import DistArraySearcher, device_graph, estimate_device_bytes
from ..distributed.device import DeviceExchange
from ..distributed.network import network_report, virtual_time
from ..distributed.validate import count_component_edges_dist, validate_dist
from ..errors import InputError
from ..generator import kronecker
from ..process import command_ending
from .config import RunConfig, search_labels
from .engine import Engine
from .loop import run_engine
from .result import BenchmarkResult
from .roots import choose_roots_with

__all__ = ["DistributedEngine", "check_distributed", "run_distributed", "default_threads",
           "estimate_rank_bytes", "combine_levels", "combine_phases", "rank_backend"]

# Failure injection for the tests of fault handling (read only here).
_FAIL_RANK = "PYGRAPH500_FAIL_RANK"
_FAIL_PHASE = "PYGRAPH500_FAIL_PHASE"  # generation, construction, search (default), validation
_FAIL_MODE = "PYGRAPH500_FAIL_MODE"    # raise (default) or kill (SIGKILL, no goodbye)


def _maybe_fail(comm, phase: str) -> None:
    rank = os.environ.get(_FAIL_RANK)
    if rank is None or int(rank) != comm.rank or os.environ.get(_FAIL_PHASE, "search") != phase:
        return
    if os.environ.get(_FAIL_MODE, "raise") == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    raise RuntimeError(f"injected failure in {phase} ({_FAIL_RANK}={rank})")


def check_distributed(config: RunConfig, comm=None) -> None:
    """InputError for what the distributed engine does not do, and (given ``comm``)
    ResourceError when this node cannot hold its processes' share, or a rank's GPU its part
    (checked on every rank, before any work)."""
    config.check(distributed=True)
    check_modes(config.execution.prune or DEFAULT_PRUNE, config.search.algorithm)
    if config.graph.input is not None:
        raise InputError("input is not supported by the distributed engine: it generates the "
                         "Kronecker graph on the ranks (run `graph500 run --input` without "
                         "mpiexec)", "input")
    if config.sort_vertices is not None and config.execution.partition == "1d":
        raise InputError("sort_vertices is not supported by the distributed engine (run "
                         "`graph500 run --sort-vertices` without mpiexec)", "sort_vertices")
    if comm is not None and config.execution.partition == "1d":  # the 2D engine checks its own
        scale, edgefactor = config.graph.scale, config.graph.edgefactor
        n, m = 1 << scale, edgefactor << scale
        what = f"SCALE {scale}, edgefactor {edgefactor} on {comm.size} processes"
        share = estimate_rank_bytes(n, m, comm.size, config.search.weighted)
        require_memory(share * comm.local_size,
                       f"{what} ({comm.local_size} on this node)")
        backend = rank_backend(config, comm)
        if backend.is_gpu:
            DeviceExchange(comm, backend)  # a bad PYGRAPH500_CUDA_AWARE is an InputError
            part = Partition1D(n, comm.size, comm.rank)
            backend.require(estimate_device_bytes(part, -(-2 * m // comm.size),
                                                  config.execution.prune or DEFAULT_PRUNE),
                            f"{what}, rank {comm.rank}'s part")


def rank_backend(config: RunConfig, comm) -> ArrayBackend:
    """Where this rank searches: the CPU, or (``gpu``; ``auto`` when every rank has one) the
    GPU of its node-local rank (collective). Kernel 3 runs on the CPU."""
    if config.execution.backend == "cpu" or config.search.weighted:
        return get_backend("cpu")
    backend = get_backend(config.execution.backend, local_rank=comm.local_rank)
    if config.execution.backend == "auto" and not comm.allreduce(int(backend.is_gpu), "min"):
        return get_backend("cpu")
    return backend


def default_threads(comm) -> int:
    """Worker threads per rank: the cores the launcher bound this rank to, or, when it did
    not bind, this node's cores shared among its ranks (at least one)."""
    import numba

    cores = os.cpu_count() or 1
    try:
        mine = len(os.sched_getaffinity(0))
    except AttributeError:
        mine = cores
    share = mine if mine < cores else cores // max(1, comm.local_size)
    return max(1, min(numba.config.NUMBA_NUM_THREADS, share))


def estimate_rank_bytes(num_vertices: int, num_edges: int, size: int,
                        weighted: bool = False) -> int:
    """Peak bytes of one rank: its tuples (kept for validation), its CSR, and the larger of
    kernel 1's messages and a search's buffers (NLF with sort scratch, messages), all at their
    worst case (a level whose frontier touches every local adjacency entry). ``weighted``
    (kernel 3): the tuples' and the CSR's float32 weights, a weight in every kernel-1 message
    row, kernel 1's int64 keys, and the SSSP searcher's copy of its rows (8 bytes an entry)."""
    m = -(-num_edges // size)
    nl = -(-num_vertices // size)
    b = np.dtype(vertex_dtype(num_vertices)).itemsize
    entries = 2 * m
    kernel1 = entries * 2 * b * 2          # send and receive (local id, neighbour)
    search = entries * (8 + b) * 2 + entries * 2 * b * 2  # NLF + sort scratch, send + receive
    extra = 0
    if weighted:
        kernel1 += entries * 4 * 2 + entries * 8
        extra = 4 * m + entries * 4 + entries * 8
    return BASELINE_BYTES + 16 * m + entries * b + max(kernel1, search) + 64 * nl + extra


def combine_levels(per_rank: list[dict]) -> list[dict]:
    """Per-level dicts from every rank's level columns: sums (counts) and maxima (times) in
    the embedded fields and the distributed ones, and ``per_rank`` lists. Every level says
    ``expand_bytes``, ``fold_bytes`` and ``fold_bytes_raw`` (1D: a bottom-up level's bitmap
    allgather is its expand, a top-down level's pairs its fold, uncompressed)."""
    nlev = len(per_rank[0]["queue"])
    fields = list(per_rank[0])
    out = []
    for i in range(nlev):
        pr = {k: [lv[k][i].item() for lv in per_rank] for k in fields}
        row = {
            "level": i,
            "frontier": int(sum(pr["queue"])),
            "edges_examined": int(sum(pr["nlf"])),
            "discovered": int(sum(pr["enqueued_local"]) + sum(pr["enqueued_received"])),
            "direction": DIRECTIONS[pr["direction"][0]],
            "time": float(max(pr["time"])),
        }
        row["unique_ratio"] = (row["discovered"] / row["edges_examined"]
                               if row["edges_examined"] else 0.0)
        for k in fields:
            if k in ("direction", "queue", "time"):
                continue
            row[k] = float(max(pr[k])) if k.endswith("_time") else int(sum(pr[k]))
        if "fold_bytes" not in row:  # 1D: a top-down level's alltoallv is its fold
            td = row["direction"] == "top-down"
            row["expand_bytes"] = 0 if td else row["sent_bytes"]
            row["fold_bytes"] = row["fold_bytes_raw"] = row["sent_bytes"] if td else 0
        row["prune_ratio"] = row["nlf_pruned"] / row["nlf"] if row["nlf"] else 0.0
        row["per_rank"] = pr
        out.append(row)
    return out


def has_neighbour(comm, part: Partition1D, degree: np.ndarray):
    """Root choice's test "has a neighbour" over the ranks' degrees (the 1D and 2D engines)."""
    def lookup(vertices: np.ndarray) -> np.ndarray:
        mine = np.zeros(vertices.shape[0], dtype=np.int64)
        own = part.owner(vertices) == part.rank
        mine[own] = degree[part.local(vertices[own])] > 0
        return comm.allreduce(mine, "max") > 0
    return lookup


def combine_phases(per_rank: list[dict]) -> list[dict]:
    """Per-phase dicts of a distributed SSSP from every rank's phase columns: sums of the
    counts, maxima of the times (``*time``), the bucket and phase kind as they are (the same on
    every rank), and ``per_rank`` lists."""
    names = list(per_rank[0])
    out = []
    for i in range(len(per_rank[0][names[0]]) if names else 0):
        pr = {k: [cols[k][i].item() for cols in per_rank] for k in names}
        row = {"phase": i}
        for k, values in pr.items():
            if k in ("bucket", "heavy"):  # the same on every rank
                row[k] = values[0]
            elif k.endswith("time"):
                row[k] = float(max(values))
            else:
                row[k] = sum(values)
        row["per_rank"] = pr
        out.append(row)
    return out


class DistributedEngine(Engine):
    """The benchmark on the ranks of ``comm`` (collective; SerialComm runs it in one process)
    with the 1D partition; searches compiled on the CPU (``distributed.DistSearcher``) or
    arrays on each rank's device (``distributed.array_bfs``), the graph where that searcher
    wants it; kernel 3 by ``distributed.DistSSSPSearcher`` on the CPU. A 2D engine is a
    subclass with its own build, search and validation."""

    kernels = ("bfs", "sssp")

    def __init__(self, config: RunConfig, comm):
        self.check(config, comm)
        self.config, self.comm = config, comm
        self.prune = config.execution.prune or DEFAULT_PRUNE
        threads = config.execution.threads
        self.threads = set_threads(threads if threads is not None else default_threads(comm))
        self.num_vertices = 1 << config.graph.scale
        self.num_edges = config.graph.edgefactor << config.graph.scale
        self.need = estimate_rank_bytes(self.num_vertices, self.num_edges, comm.size,
                                        config.search.weighted)
        self.backend = rank_backend(config, comm)
        self.exchange = DeviceExchange(comm, self.backend) if self.backend.is_gpu else None
        self.edges = self.graph = self._searcher = self._sssp = None
        self.phase = self.virtual_start = None
        self.emulated_times: dict[str, list[float]] = {}  # kernel -> per search, seconds

    @staticmethod
    def check(config: RunConfig, comm) -> None:
        """InputError or ResourceError before any work (every rank)."""
        check_distributed(config, comm)

    def barrier(self) -> None:
        self.comm.barrier()
        self.virtual_start = virtual_time(self.comm)  # None unless on an emulated network

    def elapsed(self, start: float) -> float:
        """The slowest rank's seconds since ``start``; on an emulated network a search's
        virtual seconds (the slowest rank's) are kept too (``emulated_times``)."""
        if self.virtual_start is not None and self.phase == "search":
            spent = virtual_time(self.comm) - self.virtual_start
            self.emulated_times.setdefault(self.kernel, []).append(
                float(self.comm.allreduce(spent, "max")))
        return float(self.comm.allreduce(time.perf_counter() - start, "max"))

    def begin(self, phase: str) -> None:
        self.phase = phase
        _maybe_fail(self.comm, phase)

    def common_fields(self, per_rank: list[dict]) -> dict:
        """The ``distributed`` entries of the result that every partition has (collective):
        the communicator, threads, device, sizes, ``per_rank`` (lists by rank of the dicts
        ``per_rank``) and, on an emulated network, its report with each search's time."""
        comm = self.comm
        fields = {
            "communicator": type(comm).__name__,
            "mpi_library": comm.library,
            "threads_per_rank": self.threads,
            "processes_on_node_0": comm.local_size,
            "device": self.backend.device,
            "message_vertex_bytes": int(np.dtype(vertex_dtype(self.num_vertices)).itemsize),
            "memory_estimate_per_rank": int(self.need),
            "per_rank": {k: [r[k] for r in per_rank] for k in per_rank[0]},
        }
        report = network_report(comm)
        if report is not None:
            fields["network"] = dict(report, search_times=self.emulated_times)
        return fields

    def kernel1(self, edges):
        """Kernel 1, and the CSR's copy to the device."""
        graph = build_dist(self.comm, edges,
                           compact_columns=self.prune == "bitmap" and self.exchange is None)
        if self.exchange is not None:
            graph = device_graph(graph, self.backend)
            self.backend.synchronize()
        return graph

    def searcher(self, graph):
        if self.exchange is None:
            return DistSearcher(self.comm, graph, self.prune, self.config.search.algorithm,
                                self.config.execution.pipeline)
        return DistArraySearcher(self.comm, graph, self.backend, self.exchange, self.prune,
                                 self.config.search.algorithm,
                                 pipeline=self.config.execution.pipeline)

    def warm_up(self) -> None:
        """A search of a tiny graph (its kernels compiled or loaded, untimed); with arrays on
        a device, one more from a root on each rank: CuPy compiles a kernel the first time
        its process runs it on data (an empty level launches nothing), and a rank whose
        queue stayed empty here would compile inside a timed search. (The reductions' block
        size variants are compiled by ``backend.arrays.warm_reductions``.)"""
        comm, seed = self.comm, self.config.graph.seed
        scale = max(4, comm.size.bit_length() + 2)  # a few linked vertices on every rank
        tiny = generate_local(comm, scale, 1, seed, weights=self.config.search.weighted)
        graph = self.kernel1(tiny)
        root = int(kronecker(scale, 1, seed, start=0, end=1).src[0])
        searcher = self.searcher(graph)
        parent = self.backend.to_host(searcher.search(root).parent)
        validate_dist(comm, graph.part, tiny, parent, root)
        count_component_edges_dist(comm, graph.part, tiny, parent)
        if self.exchange is not None:
            for other in self._root_per_rank(graph, 1 << scale):
                searcher.search(other)
        if self.config.search.weighted:
            result = DistSSSPSearcher(comm, graph).search(root)
            validate_sssp_dist(comm, graph.part, tiny, result.parent, result.distance, root)

    def _root_per_rank(self, graph, n: int) -> list[int]:
        """The first vertex with a neighbour that each rank owns, where it has one."""
        degree = self.backend.to_host(graph.indptr[1:] - graph.indptr[:-1])
        linked = np.flatnonzero(has_neighbour(self.comm, graph.part, degree)(np.arange(n)))
        owners = graph.part.owner(linked)
        return [int(linked[owners == r][0]) for r in range(self.comm.size)
                if (owners == r).any()]

    def load(self) -> None:
        g, search = self.config.graph, self.config.search
        self.edges = generate_local(self.comm, g.scale, g.edgefactor, g.seed,
                                    weights=search.weighted)

    def build(self) -> None:
        self.graph = self.kernel1(self.edges)

    def roots(self) -> np.ndarray:
        graph = self.graph
        degree = self.backend.to_host(graph.indptr[1:] - graph.indptr[:-1])
        return choose_roots_with(self.num_vertices, has_neighbour(self.comm, graph.part, degree),
                                 self.config.graph.seed, self.config.search.num_roots)

    def labels(self, roots: np.ndarray) -> list[str]:
        labels = search_labels(self.config, roots)
        if self.exchange is not None:
            labels.append(f"one GPU per process (rank 0: {self.backend.device}); messages: "
                          f"{self.exchange.describe()}")
        elif self.config.execution.backend == "auto":
            labels.append("--backend auto: not every process has a GPU; the processes run on "
                          "the CPU")
        cores = os.cpu_count() or 1
        threads, local = self.threads, self.comm.local_size
        if local * threads > cores:
            labels.append(f"{local} processes x {threads} thread{'s' if threads > 1 else ''} "
                          f"on {cores} cores of this node: oversubscribed, times are not those "
                          f"of dedicated cores")
        return labels

    def search(self, root: int):
        if self.kernel == "sssp":
            if self._sssp is None:  # made at the warm-up search (untimed)
                self._sssp = DistSSSPSearcher(self.comm, self.graph)
            return self._sssp.search(root)
        if self._searcher is None:  # made at the warm-up search, after the roots (untimed)
            self._searcher = self.searcher(self.graph)
        return self._searcher.search(root)

    def fetch(self, result):
        result.parent = self.backend.to_host(result.parent)
        return result

    def validate(self, result, root: int):
        if self.kernel == "sssp":
            return validate_sssp_dist(self.comm, self.graph.part, self.edges, result.parent,
                                      result.distance, root)
        return validate_dist(self.comm, self.graph.part, self.edges, result.parent, root)

    def count_edges(self, result) -> int:
        return count_component_edges_dist(self.comm, self.graph.part, self.edges, result.parent)

    def levels(self, result) -> list[dict]:
        if self.kernel == "sssp":
            return combine_phases(self.comm.allgather(result.levels))
        return combine_levels(self.comm.allgather(result.levels))

    def _last_gather(self, mine: dict) -> list:
        """Every rank's ``mine``: the run's last collective. A rank other than 0 is done
        after it (rank 0 holds the results), so from then on a late kill cannot fail it."""
        per_rank = self.comm.allgather(mine)
        if self.comm.rank != 0:
            command_ending()
        return per_rank

    def result_fields(self) -> dict:
        comm, part, backend = self.comm, self.graph.part, self.backend
        per_rank = self._last_gather({
            "local_vertices": part.num_local, "local_entries": self.graph.num_entries,
            "edge_tuples": len(self.edges), "threads": self.threads,
            "node_rank": comm.local_rank, "device_id": backend.device_id,
        })
        info = {
            "algorithm": self.config.search.algorithm,
            "prune": self.prune,
            "pipeline": self.config.execution.pipeline,
            "num_processes": comm.size,
            "partition": "1d",
            "layout": "1D: vertex v on rank v % P (local id v // P); rank r generates edge "
                      "tuples [M r / P, M (r + 1) / P)",
            "device_exchange": None if self.exchange is None else self.exchange.describe(),
            **self.common_fields(per_rank),
        }
        return dict(num_vertices=self.num_vertices, num_edges=self.num_edges,
                    threads=self.threads, num_processes=comm.size, distributed=info,
                    backend=backend.name, device=backend.device)


def run_distributed(config: RunConfig, comm, progress=None) -> BenchmarkResult:
    """The whole benchmark across the ranks of ``comm`` (collective; SerialComm runs it in one
    process). ``progress(phase, done, total)`` is called on rank 0 only."""
    engine = DistributedEngine(config, comm)
    return run_engine(engine, config, progress if comm.rank == 0 else None)
