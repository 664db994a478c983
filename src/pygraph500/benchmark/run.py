"""The benchmark where it was launched: embedded in this process, or the distributed engine on
every rank (started by an MPI launcher with several processes, or asked for with
``RunConfig.distributed``). Graph500 semantics are the default: 64 roots, a warm-up search,
validation after every search (untimed), the official statistics; anything else is recorded
in the result's ``labels``.

``Launch`` is what a front end (the CLI) needs around ``run_benchmark``: the parameter checks
agreed by every rank, one failure ending every rank, and which process reports.
"""
from __future__ import annotations

from contextlib import nullcontext

from ..distributed.comm import abort_on_error, collective_check, world
from ..distributed.network import emulated, parse_network
from .config import RunConfig
from .distributed import DistributedEngine
from .distributed2d import Distributed2DEngine
from .embedded import EmbeddedEngine, FileEngine
from .engine import Engine
from .loop import run_engine
from .result import BenchmarkResult

__all__ = ["Launch", "make_engine", "run_benchmark", "compile_kernels"]


def distributed_engine(config: RunConfig) -> type[DistributedEngine]:
    """The distributed engine of ``config``'s partition (1D, or paper 001's 2D mesh)."""
    return Distributed2DEngine if config.execution.partition == "2d" else DistributedEngine


def make_engine(config: RunConfig, comm=None, progress=None) -> Engine:
    """The engine of ``config``: distributed on ``comm``, else embedded on the generator's
    graph or (``config.graph.input``) a user's file (``progress`` told the bytes read)."""
    if comm is not None:
        return distributed_engine(config)(config, comm)
    if config.graph.input is not None:
        return FileEngine(config, progress)
    return EmbeddedEngine(config)


class Launch:
    """One run of ``config`` where this process was started: ``comm`` is the communicator of
    a distributed run, None for an embedded one."""

    def __init__(self, config: RunConfig):
        self.config = config
        force = config.execution.wants_distributed
        comm = world(force=force)
        comm = comm if comm is not None and (comm.size > 1 or force) else None
        network = config.execution.network
        self.comm = emulated(comm, parse_network(network, "network") if network else None)

    @property
    def reporting(self) -> bool:
        """Whether this process reports (progress, results): rank 0, or the only one."""
        return self.comm is None or self.comm.rank == 0

    def check(self, also=None) -> None:
        """InputError (or ResourceError) for parameters that will not run, before any work:
        on every rank alike, with the first failing rank's message; ``also()``: a further
        check on the reporting process (e.g. that the output file can be written)."""
        def check():
            if self.comm is None:
                self.config.check()
            else:
                distributed_engine(self.config).check(self.config, self.comm)
            if also is not None and self.reporting:
                also()

        if self.comm is None:
            check()
            return
        error = collective_check(self.comm, check)
        if error is not None:
            raise error

    def guard(self):
        """Context for the run and its reporting: a failure on any rank ends them all."""
        return nullcontext() if self.comm is None else abort_on_error(self.comm)

    def run(self, progress=None) -> BenchmarkResult:
        """The whole benchmark (collective when distributed); ``progress(phase, done, total)``
        is called on the reporting process only."""
        progress = progress if self.reporting else None
        return run_engine(make_engine(self.config, self.comm, progress), self.config, progress)


def compile_kernels() -> None:
    """Compile the default run's kernels into numba's cache now (``graph500 info
    --compile``): the default benchmark on a SCALE 4 graph needs every one of them."""
    from ..report import Progress

    run_benchmark(scale=4, num_roots=1, progress=Progress(None))


def run_benchmark(config: RunConfig | None = None, progress=None, **params) -> BenchmarkResult:
    """Run the whole benchmark where this process was launched (see ``Launch``): ``config``,
    or the run of the flat ``params`` (``RunConfig.of``: ``run_benchmark(scale=20,
    threads=2)``).

    ``progress(phase, done, total)`` is called as work advances (the CLI prints it on stderr).
    """
    if config is None:
        config = RunConfig.of(**params)
    elif params:
        raise TypeError("run_benchmark: give a RunConfig or its parameters, not both")
    return Launch(config).run(progress)
