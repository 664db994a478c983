"""`graph500 info`: versions, threads, MPI, GPU and the kernel cache; or the algorithms."""
from __future__ import annotations


__all__ = ["add"]


def add(sub) -> None:
    """Add the command's parser to the subparsers ``sub``."""
    p = sub.add_parser("info")
    p.add_argument("--algorithms", action="store_true",
                   help="print every BFS and SSSP algorithm instead: what it is, where it "
                        "runs and its options (markdown; from the registries)")
    p.add_argument("--compile", action="store_true",
                   help="first compile the default run's kernels (as its first run would)")
    p.set_defaults(handler=_cmd_info)


def _cmd_info(args) -> int:
    if args.algorithms:
        from ..bfs import ALGORITHMS
        from ..sssp import ALGORITHMS as SSSP_ALGORITHMS

        print(f"## BFS (kernel 2)\n\n{ALGORITHMS.table()}\n\n"
              f"## SSSP (kernel 3)\n\n{SSSP_ALGORITHMS.table()}")
        return 0
    from ..backend import system_info
    from ..benchmark import compile_kernels
    from ..primitives.numba_cache import describe_cache

    if args.compile:
        compile_kernels()
    for key, value in {**system_info(), "kernel cache": describe_cache()}.items():
        print(f"{key + ':':<18}{value}")
    return 0
