"""The Graph500 run loop on P processes (``mpiexec -n P graph500 run``): thesis chapter 4.

Rank r generates its own range of the edge list, kernel 1 sends every tuple to the owners of
its endpoints (``distributed.build_dist``), roots are chosen once by the reference rule (the same
on every rank and the same as the embedded run's), and every search is the 1D distributed
BFS of ``distributed.bfs`` followed by the distributed validation. Times are the slowest rank's
(each phase starts after a barrier). Only rank 0 reports progress.

The run's result is a ``BenchmarkResult`` like the embedded one (the same official block,
``num_mpi_processes: P``); each search's ``levels`` hold the sums over the ranks in the
embedded fields (frontier, edges_examined, discovered, time) plus the distributed ones of
``distributed.LEVEL_FIELDS`` and, under ``per_rank``, every rank's values.

With ``--backend gpu`` every rank runs its searches on the GPU of its node-local rank
(``distributed.array_bfs``; kernel 1 runs on the CPU and its CSR is copied to the device inside the
timed construction), exchanging device arrays directly or staged through host memory
(``distributed.device``); ``auto`` does so when every rank has a GPU.
"""
from __future__ import annotations

import os
import signal
import time

import numpy as np

from ..backend.arrays import ArrayBackend, get_backend
from ..backend.memory import BASELINE_BYTES, require_memory
from ..backend.threads import set_threads
from ..distributed import (DEFAULT_DIST_ALGORITHM, DEFAULT_PRUNE, DIST_ALGORITHMS, LEVEL_FIELDS,
                    DistSearcher, Partition1D, build_dist, generate_local, vertex_dtype)
from ..distributed.array_bfs import DistArraySearcher, device_graph, estimate_device_bytes
from ..distributed.device import DeviceExchange
from ..distributed.validate import count_component_edges_dist, validate_dist
from ..bfs.types import DIRECTIONS
from ..errors import InputError
from ..generator import kronecker
from .roots import choose_roots_with
from .run import BenchmarkResult, RunConfig, SearchRun, search_labels

__all__ = ["check_distributed", "run_distributed", "default_threads", "estimate_rank_bytes",
           "combine_levels"]

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
    if config.algorithm not in DIST_ALGORITHMS:
        raise InputError(f"the distributed engine runs {' or '.join(DIST_ALGORITHMS)} (default "
                         f"{DEFAULT_DIST_ALGORITHM}); got "
                         f"--algorithm {config.algorithm}")
    if config.input is not None:
        raise InputError("--input is not supported by the distributed engine (mpiexec -n P): "
                         "it generates the Kronecker graph on the ranks; run `graph500 run "
                         "--input` without mpiexec")
    if config.sort_vertices is not None:
        raise InputError("--sort-vertices is not supported by the distributed engine")
    if comm is not None:
        n, m = 1 << config.scale, config.edgefactor << config.scale
        what = f"SCALE {config.scale}, edgefactor {config.edgefactor} on {comm.size} processes"
        require_memory(estimate_rank_bytes(n, m, comm.size) * comm.local_size,
                       f"{what} ({comm.local_size} on this node)")
        backend = rank_backend(config, comm)
        if backend.is_gpu:
            DeviceExchange(comm, backend)  # a bad PYGRAPH500_CUDA_AWARE is an InputError
            part = Partition1D(n, comm.size, comm.rank)
            backend.require(estimate_device_bytes(part, -(-2 * m // comm.size),
                                                  config.prune or DEFAULT_PRUNE),
                            f"{what}, rank {comm.rank}'s part")


def rank_backend(config: RunConfig, comm) -> ArrayBackend:
    """Where this rank searches: the CPU, or (``gpu``; ``auto`` when every rank has one) the
    GPU of its node-local rank (collective)."""
    if config.backend == "cpu":
        return get_backend("cpu")
    backend = get_backend(config.backend, local_rank=comm.local_rank)
    if config.backend == "auto" and not comm.allreduce(int(backend.is_gpu), "min"):
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


def estimate_rank_bytes(num_vertices: int, num_edges: int, size: int) -> int:
    """Peak bytes of one rank: its tuples (kept for validation), its CSR, and the larger of
    kernel 1's messages and a search's buffers (NLF with sort scratch, messages), all at their
    worst case (a level whose frontier touches every local adjacency entry)."""
    m = -(-num_edges // size)
    nl = -(-num_vertices // size)
    b = np.dtype(vertex_dtype(num_vertices)).itemsize
    entries = 2 * m
    kernel1 = entries * 2 * b * 2          # send and receive (local id, neighbour)
    search = entries * (8 + b) * 2 + entries * 2 * b * 2  # NLF + sort scratch, send + receive
    return BASELINE_BYTES + 16 * m + entries * b + max(kernel1, search) + 64 * nl


def combine_levels(per_rank: list[dict]) -> list[dict]:
    """Per-level dicts from every rank's level columns: sums (counts) and maxima (times) in
    the embedded fields and the distributed ones, and ``per_rank`` lists."""
    nlev = len(per_rank[0]["queue"])
    out = []
    for i in range(nlev):
        pr = {k: [lv[k][i].item() for lv in per_rank] for k in LEVEL_FIELDS}
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
        for k in LEVEL_FIELDS:
            if k in ("direction", "queue", "time"):
                continue
            row[k] = float(max(pr[k])) if k.endswith("_time") else int(sum(pr[k]))
        row["prune_ratio"] = row["nlf_pruned"] / row["nlf"] if row["nlf"] else 0.0
        row["per_rank"] = pr
        out.append(row)
    return out


def _timed(comm, fn, *args, **kw):
    """(result, seconds of the slowest rank), the phase started together after a barrier."""
    comm.barrier()
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    return out, float(comm.allreduce(time.perf_counter() - t0, "max"))


def _has_neighbour(comm, part: Partition1D, degree: np.ndarray):
    def lookup(vertices: np.ndarray) -> np.ndarray:
        mine = np.zeros(vertices.shape[0], dtype=np.int64)
        own = part.owner(vertices) == part.rank
        mine[own] = degree[part.local(vertices[own])] > 0
        return comm.allreduce(mine, "max") > 0
    return lookup


class _Engine:
    """The run's searcher kind: compiled on the CPU (``distributed.bfs``) or arrays on each rank's
    device (``distributed.array_bfs``), with the graph where that searcher wants it."""

    def __init__(self, comm, backend: ArrayBackend, prune: str, algorithm: str):
        self.comm, self.backend, self.prune, self.algorithm = comm, backend, prune, algorithm
        self.exchange = DeviceExchange(comm, backend) if backend.is_gpu else None

    def build(self, edges):
        """Kernel 1, and the CSR's copy to the device."""
        graph = build_dist(self.comm, edges,
                           compact_columns=self.prune == "bitmap" and self.exchange is None)
        if self.exchange is not None:
            graph = device_graph(graph, self.backend)
            self.backend.synchronize()
        return graph

    def searcher(self, graph):
        if self.exchange is None:
            return DistSearcher(self.comm, graph, self.prune, self.algorithm)
        return DistArraySearcher(self.comm, graph, self.backend, self.exchange, self.prune,
                                 self.algorithm)


def _warm_up(comm, config: RunConfig, engine: _Engine) -> None:
    """Load (or compile) every kernel of the run on a tiny graph, collectively."""
    tiny = generate_local(comm, 4, 1, config.seed)
    graph = engine.build(tiny)
    root = int(kronecker(4, 1, config.seed, start=0, end=1).src[0])
    parent = engine.backend.to_host(engine.searcher(graph).search(root).parent)
    validate_dist(comm, graph.part, tiny, parent, root)
    count_component_edges_dist(comm, graph.part, tiny, parent)


def run_distributed(config: RunConfig, comm, progress=None) -> BenchmarkResult:
    """The whole benchmark across the ranks of ``comm`` (collective; SerialComm runs it in one
    process). ``progress(phase, done, total)`` is called on rank 0 only."""
    check_distributed(config, comm)
    report = progress if (progress is not None and comm.rank == 0) else (lambda *a: None)
    prune = config.prune or DEFAULT_PRUNE
    threads = set_threads(config.threads if config.threads is not None else default_threads(comm))
    n = 1 << config.scale
    m = config.edgefactor << config.scale
    need = estimate_rank_bytes(n, m, comm.size)
    backend = rank_backend(config, comm)
    engine = _Engine(comm, backend, prune, config.algorithm)

    t0 = time.perf_counter()
    _warm_up(comm, config, engine)
    warmup_time = float(comm.allreduce(time.perf_counter() - t0, "max"))

    report("generation", 0, 1)
    _maybe_fail(comm, "generation")
    edges, generation_time = _timed(comm, generate_local, comm, config.scale, config.edgefactor,
                                    config.seed)
    report("generation", 1, 1)
    report("construction", 0, 1)
    _maybe_fail(comm, "construction")
    graph, construction_time = _timed(comm, engine.build, edges)
    report("construction", 1, 1)
    part = graph.part

    degree = backend.to_host(graph.indptr[1:] - graph.indptr[:-1])
    roots = choose_roots_with(n, _has_neighbour(comm, part, degree), config.seed,
                              config.num_roots)
    labels = search_labels(config, roots)
    if engine.exchange is not None:
        labels.append(f"one GPU per process (rank 0: {backend.device}); messages: "
                      f"{engine.exchange.describe()}")
    elif config.backend == "auto":
        labels.append("--backend auto: not every process has a GPU; the processes run on the "
                      "CPU")
    cores = os.cpu_count() or 1
    if comm.local_size * threads > cores:
        labels.append(f"{comm.local_size} processes x {threads} thread{'s' if threads > 1 else ''} "
                      f"on {cores} cores of this node: oversubscribed, times are not those of "
                      f"dedicated cores")

    searcher = engine.searcher(graph)
    runs: list[SearchRun] = []
    if len(roots):  # warm-up search, as the reference does
        searcher.search(int(roots[0]))
    for i, root in enumerate(roots.tolist()):
        report("search", i, len(roots))
        _maybe_fail(comm, "search")
        result, elapsed = _timed(comm, searcher.search, root)
        levels = combine_levels(comm.allgather(result.levels))
        parent = backend.to_host(result.parent)
        if config.validate:
            _maybe_fail(comm, "validation")
            verdict, vtime = _timed(comm, validate_dist, comm, part, edges, parent, root)
            run = SearchRun(root, elapsed, verdict.nedge, verdict.valid, vtime, verdict.rule,
                            verdict.message, levels)
        else:
            nedge = count_component_edges_dist(comm, part, edges, parent)
            run = SearchRun(root, elapsed, nedge, None, -1.0, levels=levels)
        runs.append(run)
        if run.valid is False:
            break  # the reference stops at the first invalid tree
    report("search", len(roots), len(roots))

    per_rank = comm.allgather({
        "local_vertices": part.num_local, "local_entries": graph.num_entries,
        "edge_tuples": len(edges), "threads": threads, "node_rank": comm.local_rank,
        "device_id": backend.device_id,
    })
    info = {
        "algorithm": config.algorithm,
        "prune": prune,
        "num_processes": comm.size,
        "partition": "1D: vertex v on rank v % P (local id v // P); rank r generates edge "
                     "tuples [M r / P, M (r + 1) / P)",
        "communicator": type(comm).__name__,
        "mpi_library": comm.library,
        "threads_per_rank": threads,
        "processes_on_node_0": comm.local_size,
        "device": backend.device,
        "device_exchange": None if engine.exchange is None else engine.exchange.describe(),
        "message_vertex_bytes": int(np.dtype(vertex_dtype(n)).itemsize),
        "memory_estimate_per_rank": int(need),
        "per_rank": {k: [r[k] for r in per_rank] for k in per_rank[0]},
    }
    return BenchmarkResult(config, n, m, generation_time, construction_time, roots, runs,
                           threads, labels, warmup_time, None, num_processes=comm.size,
                           distributed=info)
