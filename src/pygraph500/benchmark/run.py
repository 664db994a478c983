"""The Graph500 run loop: generate, build (kernel 1), choose roots, search (kernel 2), validate.

Graph500 semantics are the default: 64 roots, a warm-up search, validation after every
search (untimed), the official statistics. Anything else (``validate=False``, another root
count, a user's graph read from ``input`` instead of the generator) is recorded in
``labels`` and shown in the output.

With ``input`` the graph is read from a file (``io.read_graph``, any of its formats) instead
of generated: ``graph_generation`` is then the read time, SCALE is ``ceil(log2 N)`` and
edgefactor ``M / N`` rounded (both labelled), roots are chosen by the reference rule over the
file's N vertices, and roots are reported in the file's ids.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..backend.memory import estimate_run_bytes, require_memory
from ..backend.arrays import BACKENDS, get_backend
from ..backend.threads import check_threads, set_threads
from ..bfs import DEFAULT_ALGORITHM, get_algorithm
from ..bfs.array import ARRAY_ALGORITHMS
from ..errors import InputError
from ..generator import check_scale, check_seed, kronecker
from ..graph import build_csr
from ..graph.build_array import build_csr_array
from ..graph.build import SORT_VERTICES
from ..graph.relabel import degree_in_original_labels, search_in_original_labels
from ..validate import TEPS_COUNTING_RULE, count_component_edges, validate
from .roots import NUM_ROOTS, choose_roots

# What --backend gpu (or auto) can run: the array-backend algorithms and direction-optimizing.
GPU_ALGORITHMS = (*ARRAY_ALGORITHMS, "direction-optimizing")
from .stats import summary, teps_summary


@dataclass
class RunConfig:
    """Parameters of one benchmark run; defaults are the Graph500 reference's."""

    scale: int = 16
    edgefactor: int = 16
    seed: tuple[int, int] = (2, 3)
    num_roots: int = NUM_ROOTS
    algorithm: str = DEFAULT_ALGORITHM
    threads: int | None = None
    validate: bool = True
    sort_vertices: str | None = None
    input: str | None = None          # a user's edge list instead of the generator
    input_format: str | None = None   # io.FORMATS name; default from the file name
    num_vertices: int | None = None   # the input's vertex count (ids below it, no relabelling)
    prune: str | None = None          # distributed engine: distributed.PRUNE_MODES (None: its default)
    backend: str = "cpu"              # backend.arrays.BACKENDS: where kernel 1 and the BFS run

    def check(self, distributed: bool = False) -> None:
        """InputError for anything out of range, before any work is done (``distributed``:
        the distributed engine checks its own algorithms, on either backend)."""
        if self.input is None:
            check_scale(self.scale, self.edgefactor)
        self.seed = check_seed(self.seed)
        get_algorithm(self.algorithm)
        if self.sort_vertices not in SORT_VERTICES:
            raise InputError(f"--sort-vertices must be one of none, degree; got {self.sort_vertices!r}")
        if not isinstance(self.num_roots, int) or self.num_roots < 1:
            raise InputError(f"--roots must be an integer >= 1, got {self.num_roots!r}")
        check_threads(self.threads)
        if self.backend not in BACKENDS:
            raise InputError(f"--backend must be one of {', '.join(BACKENDS)}; got "
                             f"{self.backend!r}")
        if self.backend == "gpu":
            if self.algorithm not in GPU_ALGORITHMS and not distributed:
                raise InputError(f"--algorithm {self.algorithm} runs on the CPU only; with "
                                 f"--backend gpu: {', '.join(GPU_ALGORITHMS)}")
            if self.sort_vertices:
                raise InputError("--sort-vertices runs on the CPU backend only")
        if self.prune is not None:
            from ..distributed.bfs import PRUNE_MODES

            if self.prune not in PRUNE_MODES:
                raise InputError(f"--prune must be one of {', '.join(PRUNE_MODES)}; got "
                                 f"{self.prune!r}")


@dataclass
class SearchRun:
    """One search: its root, timed BFS, TEPS numerator, validation verdict and levels."""

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

    @property
    def scale(self) -> int:
        """SCALE: the configured one, or ceil(log2 N) of an input graph."""
        if self.source is None:
            return self.config.scale
        return max(0, math.ceil(math.log2(max(1, self.num_vertices))))

    @property
    def edgefactor(self) -> int:
        """edgefactor: the configured one, or M / N rounded for an input graph."""
        if self.source is None:
            return self.config.edgefactor
        return int(round(self.num_edges / max(1, self.num_vertices)))

    def user_ids(self, vertices):
        """Vertex numbers as the input file's ids (identity for generated graphs)."""
        v = np.asarray(vertices, dtype=np.int64)
        return v if self.source is None else self.source.user_ids(v)

    @property
    def valid(self) -> bool:
        return all(r.valid is not False for r in self.runs) and len(self.runs) == len(self.roots)

    @property
    def first_failure(self) -> SearchRun | None:
        return next((r for r in self.runs if r.valid is False), None)

    def official(self) -> dict[str, float]:
        """The reference's output block as key -> number, in the reference's order."""
        times = [r.time for r in self.runs]
        nedges = [r.nedge for r in self.runs]
        out: dict[str, float] = {
            "SCALE": self.scale,
            "edgefactor": self.edgefactor,
            "NBFS": len(self.runs),
            "graph_generation": self.generation_time,
            "num_mpi_processes": self.num_processes,
            "construction_time": self.construction_time,
        }
        for k, v in summary(times).items():
            out[f"bfs  {k}_time"] = v
        for k, v in summary(nedges).items():
            out[f"{k}_nedge"] = v
        teps = teps_summary(times, nedges)
        for k in ("min", "firstquartile", "median", "thirdquartile", "max"):
            out[f"bfs  {k}_TEPS"] = teps[k]
        out["bfs  harmonic_mean_TEPS"] = teps["harmonic_mean"]
        out["bfs  harmonic_stddev_TEPS"] = teps["harmonic_stddev"]
        vt = [r.validate_time for r in self.runs] if self.config.validate else [-1.0] * len(self.runs)
        for k, v in summary(vt).items():
            out[f"bfs  {k}_validate"] = v
        return out


def search_labels(config: RunConfig, roots) -> list[str]:
    """The output's notes on how the searches depart from Graph500's rules, if they do:
    not 64 roots asked for, fewer found, or no validation (embedded and distributed runs)."""
    labels = []
    if config.num_roots != NUM_ROOTS:
        labels.append(f"{config.num_roots} roots requested (Graph500: {NUM_ROOTS})")
    if len(roots) < config.num_roots:
        labels.append(f"only {len(roots)} roots found (reference rule gives up after N tries)")
    if not config.validate:
        labels.append("validation skipped (--no-validate): not a valid Graph500 result")
    return labels


def run_benchmark(config: RunConfig, progress=None) -> BenchmarkResult:
    """Run the whole benchmark embedded in this process.

    ``progress(phase, done, total)`` is called as work advances (the CLI prints it on stderr).
    """
    config.check()
    report = progress or (lambda *a: None)
    threads = set_threads(config.threads)
    source = None
    if config.input is None:
        n = 1 << config.scale
        m = config.edgefactor << config.scale
        require_memory(estimate_run_bytes(n, m), f"SCALE {config.scale}, edgefactor {config.edgefactor}")
    bfs = get_algorithm(config.algorithm)
    cpu_only = config.algorithm not in GPU_ALGORITHMS or config.sort_vertices
    be = get_backend("cpu" if config.backend == "auto" and cpu_only else config.backend)
    if config.backend == "auto" and cpu_only:
        be.note = "--backend auto: this algorithm (or --sort-vertices) runs on the CPU only"

    def kernel1(edges):  # the array backend builds on its device (thesis Fig. 4.1)
        return build_csr_array(edges, be) if be.is_gpu else build_csr(edges, config.sort_vertices)

    # Load (or compile) the numba code on a tiny graph first, so the timed phases measure the
    # work and not the one-time code loading; the warm-up time is reported on its own.
    t0 = time.perf_counter()
    tiny = kronecker(4, 1, config.seed)
    warm = search_in_original_labels(bfs, kernel1(tiny), int(tiny.src[0]), depth=False,
                                     backend=be)
    if config.validate:
        validate(tiny, warm.parent, int(tiny.src[0]))
    count_component_edges(tiny, warm.parent)
    warmup_time = time.perf_counter() - t0

    if config.input is None:
        report("generation", 0, 1)
        t0 = time.perf_counter()
        edges = kronecker(config.scale, config.edgefactor, config.seed)
        generation_time = time.perf_counter() - t0
        report("generation", 1, 1)
    else:
        from ..io.formats import read_graph

        t0 = time.perf_counter()
        source = read_graph(config.input, format=config.input_format,
                            num_vertices=config.num_vertices, progress=report)
        generation_time = time.perf_counter() - t0
        edges = source.edges
        n, m = edges.num_vertices, edges.num_edges
        require_memory(estimate_run_bytes(n, m), f"the graph of {config.input}")

    report("construction", 0, 1)
    t0 = time.perf_counter()
    graph = kernel1(edges)
    be.synchronize()
    construction_time = time.perf_counter() - t0
    report("construction", 1, 1)

    degree = np.diff(be.to_host(graph.indptr)) if be.is_gpu else degree_in_original_labels(graph)
    roots = choose_roots(degree > 0, config.seed, config.num_roots)
    labels = [be.note] if be.note else []
    if source is not None:
        labels.append(
            f"graph read from {config.input} ({source.format}, {n} vertices, {m} edge tuples"
            + (", directed, searched as undirected" if source.directed else "")
            + (", ids relabelled 0..N-1, roots reported in the file's ids" if source.relabelled else "")
            + "): graph_generation is the read time, SCALE = ceil(log2 N), edgefactor = M/N rounded")
    labels += search_labels(config, roots)

    runs: list[SearchRun] = []
    if len(roots):  # warm-up search, as the reference does
        search_in_original_labels(bfs, graph, int(roots[0]), depth=False, backend=be)
    for i, root in enumerate(roots.tolist()):
        report("search", i, len(roots))
        t0 = time.perf_counter()
        # Kernel 2's output is the parent array (the validator derives levels itself); on a
        # GPU it stays there until the clock has stopped (the device synchronised), then
        # comes to the host for validation, untimed.
        result = search_in_original_labels(bfs, graph, root, depth=False, backend=be,
                                           on_device=True)
        elapsed = time.perf_counter() - t0
        result.parent = be.to_host(result.parent)
        levels = result.levels.as_dicts()
        if config.validate:
            t0 = time.perf_counter()
            verdict = validate(edges, result.parent, root)
            vtime = time.perf_counter() - t0
            run = SearchRun(root, elapsed, verdict.nedge, verdict.valid, vtime, verdict.rule,
                            verdict.message, levels)
        else:
            run = SearchRun(root, elapsed, count_component_edges(edges, result.parent), None, -1.0,
                            levels=levels)
        runs.append(run)
        if run.valid is False:
            break  # the reference stops at the first invalid tree
    report("search", len(roots), len(roots))
    return BenchmarkResult(config, n, m, generation_time, construction_time, roots, runs, threads,
                           labels, warmup_time, source, backend=be.name, device=be.device)


def result_json(result: BenchmarkResult) -> dict:
    """The --json document: official block, parameters, roots, one entry per search."""
    from ..backend.info import system_info

    info = system_info()
    c = result.config
    doc = {
        "official": result.official() if result.valid and result.runs else None,
        "valid": result.valid,
        "labels": result.labels,
        "parameters": {
            "scale": c.scale,
            "edgefactor": c.edgefactor,
            "seeds": list(c.seed),
            "num_roots": c.num_roots,
            "algorithm": c.algorithm,
            "threads": result.threads,
            "backend": result.backend,
            "device": result.device,
            "validate": c.validate,
            "sort_vertices": c.sort_vertices or "none",
            "num_vertices": result.num_vertices,
            "num_edges": result.num_edges,
            "code_warmup_time": result.warmup_time,
            "teps_counting": TEPS_COUNTING_RULE,
            "versions": {k: info[k] for k in ("pygraph500", "python", "numpy", "numba", "scipy")},
        },
        "roots": result.user_ids(result.roots).tolist(),
        "runs": [
            {"root": int(result.user_ids(r.root)), "time": r.time, "nedge": r.nedge,
             "teps": r.teps, "valid": r.valid, "validate_time": r.validate_time, "rule": r.rule,
             "levels": r.levels}
            for r in result.runs
        ],
    }
    if result.source is not None:  # new keys only: a generated run's document is unchanged
        g = result.source
        doc["parameters"]["scale"] = result.scale
        doc["parameters"]["edgefactor"] = result.edgefactor
        doc["parameters"]["input"] = {
            "path": c.input, "format": g.format, "num_vertices": g.num_vertices,
            "num_edges": g.num_edges, "directed": g.directed, "relabelled": g.relabelled,
            "root_vertices": result.roots.tolist(),
        }
    if result.distributed is not None:  # new keys only, as above
        doc["parameters"]["num_mpi_processes"] = result.num_processes
        doc["parameters"]["algorithm"] = result.distributed["algorithm"]
        doc["parameters"]["prune"] = result.distributed["prune"]
        doc["distributed"] = result.distributed
    return doc
