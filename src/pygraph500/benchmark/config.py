"""What a benchmark run is asked to do (``RunConfig``) and the checks that need no work done.

Messages name the parameters (``num_roots``, ``backend``); the command line says them with
its own flag names.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

from ..backend.arrays import BACKENDS, DEVICE_BACKENDS
from ..backend.threads import check_threads
from ..bfs import ALGORITHMS, DEFAULT_ALGORITHM, DETERMINISTIC_ALGORITHMS, get_algorithm
from ..errors import InputError, shown
from ..generator import check_scale, check_seed
from ..graph.build import SORT_VERTICES
from .roots import NUM_ROOTS

__all__ = ["RunConfig", "GPU_ALGORITHMS", "KERNELS", "VALIDATIONS", "algorithm_options",
           "search_labels"]

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
    distributed: bool = False         # the distributed engine even without an MPI launcher
    record_levels: bool = True        # keep every search's per-level statistics (dicts)
    kernel: str = "bfs"               # KERNELS: bfs (kernel 2), sssp (kernel 3) or both
    sssp_algorithm: str | None = None  # sssp.ALGORITHMS name (None: sssp.DEFAULT_ALGORITHM)
    unit_weights: bool = False        # an input file without weights: every weight 1.0
    deterministic: bool = False       # BFS: the canonical tree (smallest parent one level up)
    workers: int | None = None        # determinate: task workers (None: the thread count)
    partition: str = "1d"             # distributed engine: PARTITIONS (2d: paper 001's mesh)
    grid: str | None = None           # 2d: the mesh "RxC" (None: distributed.grid.mesh_shape)
    compress: str | None = None       # 2d: fold packets, "vlq" (default) or "none"
    validation: str | None = None     # VALIDATIONS (None: csr on the CPU backend, else tuples)
    tasks: int | None = None          # hybrid (paper 002): vertex-range tasks
    hybrid_mode: str | None = None    # hybrid: "workload" (lambda) or "fixed" (gpu_share)
    lam: str | float | None = None    # hybrid workload: lambda, a number >= 0 or "auto"
    gpu_share: float | None = None    # hybrid fixed: the share of tasks on the array side
    standin_speed: float | None = None  # hybrid: a stand-in array side this many times as fast

    @property
    def kernels(self) -> tuple[str, ...]:
        """The timed kernels of the run, in the order they run."""
        return KERNELS[self.kernel]

    @property
    def weighted(self) -> bool:
        """Whether the graph needs weights (kernel 3 runs)."""
        return "sssp" in KERNELS.get(self.kernel, ())

    def check(self, distributed: bool = False) -> None:
        """InputError for anything out of range, before any work is done (``distributed``:
        the distributed engine checks its own algorithms and pruning, on either backend)."""
        if self.input is None:
            check_scale(self.scale, self.edgefactor)
        self.seed = check_seed(self.seed)
        algorithm = get_algorithm(self.algorithm)
        if self.kernel not in KERNELS:
            raise InputError(f"kernel must be one of {', '.join(KERNELS)}; got {self.kernel!r}")
        if self.weighted:
            from ..sssp import DEFAULT_ALGORITHM as SSSP_DEFAULT, get_algorithm as sssp_algorithm

            self.sssp_algorithm = self.sssp_algorithm or SSSP_DEFAULT
            sssp_algorithm(self.sssp_algorithm)
            if self.backend in DEVICE_BACKENDS:
                raise InputError("kernel sssp runs on the CPU backend (the array algorithm "
                                 "bellman-ford runs on NumPy there); backend "
                                 f"{self.backend}: kernel bfs")
        if self.sort_vertices not in SORT_VERTICES:
            raise InputError(f"sort_vertices must be one of None, 'degree'; got "
                             f"{self.sort_vertices!r}")
        if not isinstance(self.num_roots, numbers.Integral) or self.num_roots < 1:
            raise InputError(f"num_roots must be an integer >= 1, got {shown(self.num_roots)}")
        self.num_roots = int(self.num_roots)
        check_threads(self.threads)
        if self.backend not in BACKENDS:
            raise InputError(f"backend must be one of {', '.join(BACKENDS)}; got "
                             f"{self.backend!r}")
        if self.backend == "numpy-checked" and distributed:
            raise InputError("backend numpy-checked runs in one process (it counts the host "
                             "synchronisations of the array algorithms); distributed runs: "
                             "cpu, gpu or auto")
        self._check_hybrid(distributed)
        if self.backend in DEVICE_BACKENDS:
            if not algorithm.on_devices and not distributed:
                raise InputError(f"algorithm {self.algorithm} runs on the CPU only; with "
                                 f"backend {self.backend}: {', '.join(GPU_ALGORITHMS)}")
            if self.sort_vertices:
                raise InputError("sort_vertices runs on the CPU backend only")
        if self.deterministic and (self.algorithm not in DETERMINISTIC_ALGORITHMS
                                   or distributed or self.backend in DEVICE_BACKENDS):
            raise InputError(f"deterministic applies to the compiled CPU algorithms "
                             f"({', '.join(DETERMINISTIC_ALGORITHMS)}) in one process; not to "
                             f"{self.algorithm} on backend {self.backend}"
                             + (" distributed" if distributed else ""))
        if self.workers is not None:
            if not algorithm.takes("workers"):
                raise InputError(f"workers applies to algorithm "
                                 f"{' or '.join(ALGORITHMS.names(lambda a: a.takes('workers')))}"
                                 f" (threads sets the others' threads)")
            if not isinstance(self.workers, numbers.Integral) or not 1 <= self.workers <= 1024:
                raise InputError(f"workers must be an integer in [1, 1024], got "
                                 f"{shown(self.workers)}")
            self.workers = int(self.workers)
        if self.partition not in PARTITIONS:
            raise InputError(f"partition must be one of {', '.join(PARTITIONS)}; got "
                             f"{self.partition!r}")
        if (self.grid is not None or self.compress is not None) and self.partition != "2d":
            raise InputError(f"{'grid' if self.grid is not None else 'compress'} applies to "
                             f"partition 2d")
        if self.validation is not None:
            if self.validation not in VALIDATIONS:
                raise InputError(f"validation must be one of {', '.join(VALIDATIONS)}; got "
                                 f"{self.validation!r}")
            if distributed:
                raise InputError("validation applies to runs in one process (distributed runs "
                                 "check the tuples where they were generated)")
            if self.validation == "csr" and self.backend in DEVICE_BACKENDS:
                raise InputError(f"validation csr runs on the CPU backend (backend "
                                 f"{self.backend} validates against the tuples)")
        if self.prune is not None and not distributed:
            raise InputError("prune applies to distributed runs only (mpiexec -n P, or the "
                             "distributed engine asked for)")

    def _check_hybrid(self, distributed: bool) -> None:
        """The hybrid options: only with algorithm hybrid, in one process, in range."""
        given = hybrid_options(self)
        if self.algorithm != "hybrid":
            if given:
                name = next(iter(given))
                raise InputError(f"{'lambda' if name == 'lam' else name} applies to "
                                 f"algorithm hybrid")
            return
        if distributed:
            raise InputError("algorithm hybrid runs in one process (its two sides are this "
                             "machine's CPU and array backend)")
        from ..bfs.hybrid import HybridOptions

        HybridOptions.check(**given)
        if self.standin_speed is not None and self.backend != "cpu":
            raise InputError(f"standin_speed replaces the array side: no backend to give it "
                             f"(got backend {self.backend})")


def hybrid_options(config: RunConfig) -> dict:
    """The hybrid BFS's options the run gives (by its parameter names)."""
    given = dict(tasks=config.tasks, mode=config.hybrid_mode, lam=config.lam,
                 gpu_share=config.gpu_share, standin_speed=config.standin_speed)
    return {name: value for name, value in given.items() if value is not None}


def algorithm_options(config: RunConfig) -> dict:
    """The BFS options a run passes to its algorithm beside the engine's own."""
    options = {}
    if config.deterministic:
        options["deterministic"] = True
    if config.workers is not None:
        options["workers"] = config.workers
    if config.algorithm == "hybrid":
        options.update(hybrid_options(config))
    return options


def hybrid_side(config: RunConfig):
    """(the array side's backend for algorithm hybrid, the output's notes on the run): the
    stand-in takes the name "cpu" (it needs none)."""
    from ..backend.arrays import get_backend
    from ..bfs.hybrid import DEFAULT_TASKS

    how = (f"hybrid BFS (paper 002): {config.tasks or DEFAULT_TASKS} tasks, mode "
           f"{config.hybrid_mode or 'workload'}, "
           + (f"gpu_share {config.gpu_share if config.gpu_share is not None else 0.5}"
              if config.hybrid_mode == "fixed" else f"lambda {config.lam or 'auto'}"))
    if config.standin_speed is not None:
        return "cpu", [f"{how}; the array side is a STAND-IN (no device): the CPU engine's "
                       f"kernels with a clock modelled at {config.standin_speed:g}x its "
                       f"speed. The times below are wall-clock (both sides ran one after the "
                       f"other on this CPU); the modelled times are the levels' (--levels, "
                       f"JSON)"]
    array = get_backend(config.backend)
    notes = [f"{how}; array side: {array.device}"
             + ("" if array.on_cuda else " (no device: the two sides run one after the "
                                         "other)")]
    return array, notes + ([array.note] if array.note else [])


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
