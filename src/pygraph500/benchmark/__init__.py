"""The benchmark driver: roots, timing, statistics and ONE run loop (``loop``) over an
``Engine`` (``engine``): embedded (``embedded``) or distributed (``distributed``); ``run``
picks the engine from the launch environment, ``single`` is ``graph500 bfs FILE``."""
from .config import GPU_ALGORITHMS, ExecutionSpec, GraphSpec, OutputSpec, RunConfig, SearchSpec
from .engine import Engine
from .loop import run_engine, run_trials
from .result import BenchmarkResult, SearchRun
from .roots import NUM_ROOTS, choose_roots
from .run import Launch, compile_kernels, make_engine, run_benchmark
from .stats import summary, teps_summary

__all__ = ["NUM_ROOTS", "choose_roots", "RunConfig", "GraphSpec", "SearchSpec", "ExecutionSpec",
           "OutputSpec", "GPU_ALGORITHMS", "BenchmarkResult",
           "SearchRun", "Engine", "Launch", "make_engine", "run_engine", "run_trials",
           "run_benchmark", "compile_kernels", "summary", "teps_summary"]
