"""Argument groups that several `graph500` commands share (``cli.py`` builds the parser):
input files, the search's tree options, and paper 002's hybrid BFS options; and the
RunConfig fields they give (``search_fields``).
"""
from __future__ import annotations

import argparse

__all__ = ["FORMATS_HELP", "add_input_args", "add_tree_args", "add_hybrid_args",
           "search_fields"]

FORMATS_HELP = ("snap text .txt/.tsv/.el (+.gz), Matrix Market .mtx, Graph500 binary "
                ".bin/.edges, packed 48-bit .p48, NumPy .npy/.npz")


def add_input_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", "-f", default=None, metavar="FORMAT",
                   help="snap, mtx, g500, packed48, npy or npz (default: from the file name)")
    p.add_argument("--num-vertices", "-n", type=int, default=None, metavar="N",
                   help="vertex count: ids must be below N (default: from the ids; sparse ids "
                        "are relabelled and reported back in the file's ids)")


def add_tree_args(p) -> None:
    """--deterministic and --workers (run, bfs FILE)."""
    p.add_argument("--deterministic", action="store_true",
                   help="the same tree every run and for any thread count: each vertex's "
                        "parent is its smallest neighbour one level up (compiled CPU "
                        "algorithms; determinate is so by construction)")
    p.add_argument("--workers", "-w", type=int, default=None, metavar="W",
                   help="--algorithm determinate: task workers (threads; default: --threads)")


def add_hybrid_args(p) -> None:
    """The options of --algorithm hybrid (paper 002; run, bfs FILE)."""
    from .bfs.hybrid import DEFAULT_SHARE, DEFAULT_TASKS, MODES

    g = p.add_argument_group("--algorithm hybrid (paper 002: tasks on the CPU and the array "
                             "side; run's --backend picks the array side: cpu = NumPy, gpu = "
                             "CuPy; bfs FILE: NumPy)")
    g.add_argument("--tasks", type=int, default=None, metavar="T",
                   help=f"vertex-range tasks (default {DEFAULT_TASKS}; independent of threads)")
    g.add_argument("--hybrid", dest="hybrid_mode", choices=MODES, default=None,
                   help="workload (default): a task with more than --lambda frontier vertices "
                        "runs on the array side, the others on the CPU; fixed: the first "
                        "--gpu-share of the tasks always on the array side, the rest on the CPU")
    g.add_argument("--lambda", dest="lam", default=None, metavar="L|auto",
                   help="workload threshold in vertices (0: all on the array side; N: all on "
                        "the CPU); auto (default): chosen per level by a cost model fitted on "
                        "measured levels")
    g.add_argument("--gpu-share", type=float, default=None, metavar="F",
                   help=f"fixed: the share of tasks on the array side, in [0, 1] (default "
                        f"{DEFAULT_SHARE})")
    g.add_argument("--standin-speed", type=float, default=None, metavar="K",
                   help="replace the array side by a STAND-IN (no device): the CPU kernels "
                        "with a clock modelled at K times the CPU engine's speed; level times "
                        "(--levels, JSON) are modelled, the official times are wall-clock")


def search_fields(args) -> dict:
    """The RunConfig fields of the tree and hybrid options."""
    return dict(deterministic=args.deterministic, workers=args.workers, tasks=args.tasks,
                hybrid_mode=args.hybrid_mode, lam=args.lam, gpu_share=args.gpu_share,
                standin_speed=args.standin_speed)
