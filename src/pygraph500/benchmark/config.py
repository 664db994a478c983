"""What a benchmark run is asked to do, as four small specifications, and the checks that need
no work done: ``GraphSpec`` (which graph), ``SearchSpec`` (which kernels and algorithms, their
options, the roots and the validation), ``ExecutionSpec`` (threads, backend, processes and
partition) and ``OutputSpec`` (what the result keeps). Each checks its own fields; ``RunConfig``
holds the four and checks the rules that join them (an algorithm and a backend, a kernel and a
partition). Every refusal is an InputError naming its parameter (``InputError.param``); the
command line says it with its own flag.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, field, fields

from ..backend.arrays import BACKENDS, DEVICE_BACKENDS
from ..backend.threads import check_threads
from ..bfs import ALGORITHMS, DEFAULT_ALGORITHM, get_algorithm
from ..errors import InputError, shown
from ..generator import check_scale, check_seed
from ..graph.build import SORT_VERTICES
from .roots import NUM_ROOTS

__all__ = ["RunConfig", "GraphSpec", "SearchSpec", "ExecutionSpec", "OutputSpec",
           "GPU_ALGORITHMS", "KERNELS", "VALIDATIONS", "PARTITIONS", "search_labels"]

# Which timed kernels a run does: Graph500's kernel 2 (BFS), kernel 3 (SSSP), or both in the
# order of the reference's graph500_reference_bfs_sssp (every BFS, then every SSSP).
KERNELS = {"bfs": ("bfs",), "sssp": ("sssp",), "both": ("bfs", "sssp")}

# What an embedded run validates against: kernel 1's CSR (the reference's REUSE_CSR_FOR_VALIDATION
# build, the default on the CPU backend: the tuples are never all held) or the tuples themselves
# (held in memory for it; the array backends' and distributed engines' way).
VALIDATIONS = ("csr", "tuples")

# How the distributed engine splits the graph: 1D (thesis chapter 4) or the 2D mesh (paper 001).
PARTITIONS = ("1d", "2d")

# What backend "gpu" (or "auto", or "numpy-checked") can run (hybrid: its array side there).
GPU_ALGORITHMS = ALGORITHMS.names(lambda a: a.on_devices)

# The BFS options the engine itself passes (what it keeps, where the graph lives): a run's
# options are the others its algorithm takes (``Algorithm.options``).
ENGINE_OPTIONS = ("depth", "backend", "on_device")
RUN_OPTIONS = frozenset(o.name for a in ALGORITHMS.values() for o in a.options
                        if o.name not in ENGINE_OPTIONS)
HYBRID_OPTIONS = ("tasks", "mode", "lam", "gpu_share", "standin_speed", "direction")


def _one_of(param: str, value, allowed) -> None:
    if value not in allowed:
        raise InputError(f"{param} must be one of {', '.join(map(str, allowed))}; got "
                         f"{value!r}", param)


@dataclass
class GraphSpec:
    """The graph: the Graph500 generator's (``scale``, ``edgefactor``, ``seed``; the reference's
    defaults) or a user's file (``input``, its ``input_format`` and ``num_vertices``; where it
    has no weights, kernel 3's from ``input_weights`` or ``unit_weights``); ``sort_vertices``:
    "degree" (kernel 1 relabels by degree), "none", or None: the engine's default
    (``RunConfig.sort_vertices``)."""

    scale: int = 16
    edgefactor: int = 16
    seed: tuple[int, int] = (2, 3)
    input: str | None = None          # a user's edge list instead of the generator
    input_format: str | None = None   # io.FORMATS name; default from the file name
    num_vertices: int | None = None   # the input's vertex count (ids below it, no relabelling)
    unit_weights: bool = False        # an input file without weights: every weight 1.0
    input_weights: str | None = None  # or its weights file: float32 a tuple (generate --weights)
    sort_vertices: str | None = None  # "none" or graph.build.SORT_VERTICES

    @property
    def generated(self) -> bool:
        return self.input is None

    def check(self) -> None:
        if self.generated:
            check_scale(self.scale, self.edgefactor)
        if self.input_weights is not None and self.generated:
            raise InputError("input_weights are the weights of an input file without them; "
                             "the generator makes its own", "input_weights")
        if self.input_weights is not None and self.unit_weights:
            raise InputError("input_weights and unit weights exclude each other (each gives "
                             "an input file without weights its weights)", "input_weights")
        self.seed = check_seed(self.seed)
        _one_of("sort_vertices", self.sort_vertices, SORT_VERTICES + ("none",))


@dataclass
class SearchSpec:
    """What is timed: the kernels (``kernel``: bfs, sssp or both), the BFS ``algorithm`` with
    its ``options`` (the function's own keywords, e.g. ``deterministic``, ``workers``, the
    hybrid's ``tasks``, ``mode``, ``lam``), the SSSP algorithm, ``num_roots`` search keys, and
    whether (``validate``) and against what (``validation``) each tree is checked."""

    kernel: str = "bfs"
    algorithm: str = DEFAULT_ALGORITHM
    options: dict = field(default_factory=dict)
    sssp_algorithm: str | None = None  # sssp.ALGORITHMS name (None: sssp.DEFAULT_ALGORITHM)
    num_roots: int = NUM_ROOTS
    validate: bool = True
    validation: str | None = None     # VALIDATIONS (None: csr on the CPU backend, else tuples)

    def __post_init__(self):
        # an option not given (None, or a False flag) is left to the algorithm's default
        self.options = {k: v for k, v in self.options.items()
                        if v is not None and v is not False}

    @property
    def kernels(self) -> tuple[str, ...]:
        """The timed kernels of the run, in the order they run."""
        return KERNELS[self.kernel]

    @property
    def weighted(self) -> bool:
        """Whether the graph needs weights (kernel 3 runs)."""
        return "sssp" in KERNELS.get(self.kernel, ())

    @property
    def deterministic(self) -> bool:
        return bool(self.options.get("deterministic"))

    def hybrid_options(self) -> dict:
        """The hybrid BFS's options given (by the function's names)."""
        return {k: self.options[k] for k in HYBRID_OPTIONS if k in self.options}

    def check(self) -> None:
        _one_of("kernel", self.kernel, KERNELS)
        algorithm = get_algorithm(self.algorithm)
        if self.weighted:
            from ..sssp import DEFAULT_ALGORITHM as SSSP_DEFAULT, get_algorithm as sssp_algorithm

            self.sssp_algorithm = self.sssp_algorithm or SSSP_DEFAULT
            sssp_algorithm(self.sssp_algorithm)
        if not isinstance(self.num_roots, numbers.Integral) or self.num_roots < 1:
            raise InputError(f"num_roots must be an integer >= 1, got {shown(self.num_roots)}",
                             "num_roots")
        self.num_roots = int(self.num_roots)
        if self.validation is not None:
            _one_of("validation", self.validation, VALIDATIONS)
        for name in self.options:
            if name in ENGINE_OPTIONS:
                raise InputError(f"{name} is set by the benchmark's engine (depths are not "
                                 f"kept; the backend places the graph), not by a run", name)
            if name not in RUN_OPTIONS or not algorithm.takes(name):
                said = "lambda" if name == "lam" else name
                takers = " or ".join(ALGORITHMS.names(lambda a: a.takes(name))) or "none"
                raise InputError(f"{said} applies to algorithm {takers}; not to "
                                 f"{self.algorithm}", said)
        workers = self.options.get("workers")
        if workers is not None:
            if not isinstance(workers, numbers.Integral) or not 1 <= workers <= 1024:
                raise InputError(f"workers must be an integer in [1, 1024], got "
                                 f"{shown(workers)}", "workers")
            self.options["workers"] = int(workers)
        if self.algorithm == "hybrid":
            from ..bfs.hybrid import HybridOptions

            HybridOptions.check(**self.hybrid_options())


@dataclass
class ExecutionSpec:
    """Where it runs: ``threads`` (None: every core), the array ``backend``, and the
    distributed engine's processes (``distributed``: even without an MPI launcher), its
    ``partition`` (1D, or paper 001's 2D mesh with its ``grid``, fold ``compress``ion and
    ``fold``: what the fold sends), the 1D engine's ``prune``, and ``pipeline`` (the exchange
    overlapped with the computation: 1D each peer's block sent while the next is pruned,
    thesis 5.2; 2D the fold's packets sent while the scan goes on, paper 001 4.3; by default
    one alltoallv a level, or the packets sent when the scan ends), and
    an emulated ``network`` under it (``distributed.network``:
    "latency=2us,bandwidth=10GB/s"; default: ``PYGRAPH500_NETWORK``)."""

    threads: int | None = None
    backend: str = "cpu"              # backend.arrays.BACKENDS: where kernel 1 and the BFS run
    distributed: bool = False
    partition: str = "1d"
    grid: str | None = None           # 2d: the mesh "RxC" (None: distributed.grid.mesh_shape)
    compress: str | None = None       # 2d: fold packets, "vlq" (default) or "none"
    fold: str | None = None           # 2d: distributed.search2d.FOLD_MODES (None: "dedup")
    prune: str | None = None          # 1d: distributed.PRUNE_MODES (None: its default)
    pipeline: bool = False
    network: str | None = None

    @property
    def wants_distributed(self) -> bool:
        """Whether the distributed engine runs even in one process (the 2D mesh is its own, an
        emulated network is between its ranks)."""
        return self.distributed or self.partition == "2d" or self.network is not None

    def check(self) -> None:
        check_threads(self.threads)
        if self.network is not None:
            from ..distributed.network import parse_network

            parse_network(self.network, "network")
        _one_of("backend", self.backend, BACKENDS)
        _one_of("partition", self.partition, PARTITIONS)
        for name in ("grid", "compress", "fold"):
            if getattr(self, name) is not None and self.partition != "2d":
                raise InputError(f"{name} applies to partition 2d", name)


@dataclass
class OutputSpec:
    """What the result keeps beyond the official statistics: ``record_levels``, every
    search's per-level table (for --levels, JSON and plots)."""

    record_levels: bool = True


_SPECS = {"graph": GraphSpec, "search": SearchSpec, "execution": ExecutionSpec,
          "output": OutputSpec}


@dataclass
class RunConfig:
    """One benchmark run: its four specifications. ``RunConfig.of(scale=20, threads=2)`` makes
    one from flat parameters (each field of a spec by its name, an algorithm option into
    ``search.options``)."""

    graph: GraphSpec = field(default_factory=GraphSpec)
    search: SearchSpec = field(default_factory=SearchSpec)
    execution: ExecutionSpec = field(default_factory=ExecutionSpec)
    output: OutputSpec = field(default_factory=OutputSpec)

    @classmethod
    def of(cls, **params) -> "RunConfig":
        """The run of these flat parameters; TypeError for a name no spec or option has."""
        given = {part: {} for part in _SPECS}
        options = {}
        for name, value in params.items():
            part = next((p for p, spec in _SPECS.items()
                         if name in {f.name for f in fields(spec)}), None)
            if part is not None and name != "options":
                given[part][name] = value
            elif name in RUN_OPTIONS:
                options[name] = value
            else:
                raise TypeError(f"RunConfig.of: no parameter {name!r}")
        given["search"].setdefault("options", {}).update(options)
        return cls(**{part: _SPECS[part](**kw) for part, kw in given.items()})

    @property
    def sort_vertices(self) -> str | None:
        """Kernel 1's vertex sorting (``graph.build.SORT_VERTICES``): as the graph asks, else
        degree on the 2D mesh (paper 001's U-BFS sorts each owner's block) and none
        elsewhere."""
        asked = self.graph.sort_vertices
        if asked is None:
            return "degree" if self.execution.partition == "2d" else None
        return None if asked == "none" else asked

    def check(self, distributed: bool = False) -> None:
        """InputError for anything out of range or not runnable together, before any work is
        done (``distributed``: the run is the distributed engine's)."""
        self.graph.check()
        self.search.check()
        self.execution.check()
        graph, search, ex = self.graph, self.search, self.execution
        device = ex.backend in DEVICE_BACKENDS
        if search.weighted and device:
            raise InputError("kernel sssp runs on the CPU backend (the array algorithm "
                             "bellman-ford runs on NumPy there); backend "
                             f"{ex.backend}: kernel bfs", "kernel")
        if ex.backend == "numpy-checked" and distributed:
            raise InputError("backend numpy-checked runs in one process (it counts the host "
                             "synchronisations of the array algorithms); distributed runs: "
                             "cpu, gpu or auto", "backend")
        if search.algorithm == "hybrid":
            self._check_hybrid(distributed)
        if device and not distributed and not get_algorithm(search.algorithm).on_devices:
            raise InputError(f"algorithm {search.algorithm} runs on the CPU only; with backend "
                             f"{ex.backend}: {', '.join(GPU_ALGORITHMS)}", "algorithm")
        if device and graph.sort_vertices == "degree":  # asked for (2D's default: check_2d)
            raise InputError("sort_vertices runs on the CPU backend only", "sort_vertices")
        if search.deterministic and (distributed or device):
            raise InputError(f"deterministic applies to the compiled CPU algorithms in one "
                             f"process; not to {search.algorithm} on backend {ex.backend}"
                             + (" distributed" if distributed else ""), "deterministic")
        if search.validation is not None and distributed:
            raise InputError("validation applies to runs in one process (distributed runs "
                             "check the tuples where they were generated)", "validation")
        if search.validation == "csr" and device:
            raise InputError(f"validation csr runs on the CPU backend (backend {ex.backend} "
                             f"validates against the tuples)", "validation")
        given = [name for name, on in (("prune", ex.prune is not None),
                                        ("pipeline", ex.pipeline)) if on]
        if given and not distributed:
            raise InputError(f"{given[0]} applies to distributed runs only (mpiexec -n P, or "
                             f"the distributed engine asked for)", given[0])

    def _check_hybrid(self, distributed: bool) -> None:
        if distributed:
            raise InputError("algorithm hybrid runs in one process (its two sides are this "
                             "machine's CPU and array backend)", "algorithm")
        if "standin_speed" in self.search.options and self.execution.backend != "cpu":
            raise InputError(f"standin_speed replaces the array side: no backend to give it "
                             f"(got backend {self.execution.backend})", "standin_speed")


def hybrid_side(config: RunConfig):
    """(the array side's backend for algorithm hybrid, the output's notes on the run): the
    stand-in takes the name "cpu" (it needs none)."""
    from ..backend.arrays import get_backend
    from ..bfs.hybrid import DEFAULT_TASKS

    given = config.search.options
    mode = given.get("mode", "workload")
    how = (f"hybrid BFS (paper 002): {given.get('tasks', DEFAULT_TASKS)} tasks, mode {mode}, "
           + (f"gpu_share {given.get('gpu_share', 0.5)}" if mode == "fixed"
              else f"lambda {given.get('lam', 'auto')}")
           + f", direction {given.get('direction', 'both')}")
    speed = given.get("standin_speed")
    if speed is not None:
        return "cpu", [f"{how}; the array side is a STAND-IN (no device): the CPU engine's "
                       f"kernels with a clock modelled at {speed:g}x its "
                       f"speed. The times below are wall-clock (both sides ran one after the "
                       f"other on this CPU); the modelled times are the levels' (--levels, "
                       f"JSON)"]
    array = get_backend(config.execution.backend)
    notes = [f"{how}; array side: {array.device}"
             + ("" if array.on_cuda else " (no device: the two sides run one after the "
                                         "other)")]
    return array, notes + ([array.note] if array.note else [])


def search_labels(config: RunConfig, roots) -> list[str]:
    """The output's notes on how the searches depart from Graph500's rules, if they do:
    not 64 roots asked for, fewer found, or no validation (embedded and distributed runs)."""
    labels = []
    wanted = config.search.num_roots
    if wanted != NUM_ROOTS:
        labels.append(f"{wanted} roots requested (Graph500: {NUM_ROOTS})")
    if len(roots) < wanted:
        labels.append(f"only {len(roots)} roots found (reference rule gives up after N tries)")
    if not config.search.validate:
        labels.append("validation skipped (--no-validate): not a valid Graph500 result")
    return labels
