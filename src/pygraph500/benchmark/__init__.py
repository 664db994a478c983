"""The benchmark driver: roots, timing, statistics, the run loop."""
from .roots import NUM_ROOTS, choose_roots
from .run import BenchmarkResult, RunConfig, SearchRun, result_json, run_benchmark
from .stats import summary, teps_summary

__all__ = ["NUM_ROOTS", "choose_roots", "RunConfig", "BenchmarkResult", "SearchRun",
           "run_benchmark", "result_json", "summary", "teps_summary"]
