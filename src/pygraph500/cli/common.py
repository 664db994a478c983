"""What several `graph500` commands share: the parser with the house's bad-input rule, the
graph parameters, input files, the search's tree options, paper 002's hybrid options, the
algorithm options they give (``search_options``), and library messages in the flags' words.
"""
from __future__ import annotations

import argparse
import re

__all__ = ["Parser", "DEFAULT_SCALE", "seed", "add_graph_args", "formats_help", "add_input_args",
           "add_tree_args", "add_hybrid_args", "search_options", "results_next", "in_flags"]

DEFAULT_SCALE = 16


class Parser(argparse.ArgumentParser):
    """argparse with the house's bad-input rule: one line on stderr, exit status 2 (argparse
    prints the whole usage first; ``--help`` still does)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def seed(text: str) -> int:
    """A 64-bit generator seed (decimal or 0x...)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"seed {value} out of range [0, 2**64)")
    return value


def add_graph_args(p: argparse.ArgumentParser) -> None:
    """--scale, --edgefactor, --seed, --quiet (run, generate)."""
    p.add_argument("--scale", "-s", type=int, default=DEFAULT_SCALE,
                   help=f"log2 of the number of vertices (default {DEFAULT_SCALE})")
    p.add_argument("--edgefactor", "-e", type=int, default=16,
                   help="edge tuples per vertex (default 16)")
    p.add_argument("--seed", type=seed, nargs=2, default=(2, 3), metavar=("S1", "S2"),
                   help="the two 64-bit generator seeds (default: the reference's 2 3)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")


# A weights file given beside an edge list (run --input, sssp FILE)
WEIGHTS_FILE_HELP = ("kernel 3's weights from W.bin, as `generate --weights` writes them "
                     "(little-endian float32, one per tuple in file order)")


def formats_help() -> str:
    """Each format's name and file names, for the commands' help (the registry is imported
    when a command's parser is made, not for the top-level help)."""
    from ..io.registry import COMPRESSED_SUFFIXES, REGISTRY

    return "; ".join(" ".join((f.name, *f.suffixes))
                     + (f", + {' '.join(COMPRESSED_SUFFIXES)}" if f.compressible else "")
                     for f in REGISTRY.values())


def add_input_args(p: argparse.ArgumentParser) -> None:
    from ..io.registry import FORMATS

    p.add_argument("--format", "-f", default=None, choices=FORMATS, metavar="FORMAT",
                   help=f"{', '.join(FORMATS)} (default: from the file name)")
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
    from ..bfs.hybrid import DEFAULT_SHARE, DEFAULT_TASKS, DIRECTIONS, MODES

    g = p.add_argument_group("--algorithm hybrid (paper 002: tasks on the CPU and the array "
                             "side; run's --backend picks the array side: cpu = NumPy, gpu = "
                             "CuPy; bfs FILE: NumPy)")
    g.add_argument("--tasks", type=int, default=None, metavar="T",
                   help=f"vertex-range tasks (default {DEFAULT_TASKS}; independent of threads)")
    g.add_argument("--hybrid", dest="mode", choices=MODES, default=None,
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
    g.add_argument("--direction", choices=DIRECTIONS, default=None,
                   help="both (default): Beamer's bottom-up levels added, lambda splitting "
                        "their candidates too; top-down: the paper's algorithm, every level "
                        "top-down, lambda on the frontier only")


def results_next(more: bool) -> None:
    """The results are printed next. When no file is left to write after them (``more``
    False), the command is ending from now, before any of them is visible (stdout may be
    unbuffered), so a signal once they are out changes nothing: a late kill of a finished
    run, of one rank of an MPI launch among them."""
    from ..process import command_ending

    if not more:
        command_ending()


def search_options(args) -> dict:
    """The BFS algorithm's options of the tree and hybrid flags (by the function's own
    keywords; ``SearchSpec`` leaves out the ones not given)."""
    return dict(deterministic=args.deterministic, workers=args.workers, tasks=args.tasks,
                mode=args.mode, lam=args.lam, gpu_share=args.gpu_share,
                standin_speed=args.standin_speed, direction=args.direction)


def command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of ``graph500 COMMAND``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[command]
    return parser


def flag_of(parser: argparse.ArgumentParser, param: str) -> str | None:
    """The long flag that gives the library parameter ``param``: the option whose destination
    is ``param``, or spelled ``--param`` (lower case, ``_`` as ``-``); None if none does."""
    spelled = "--" + param.lower().replace("_", "-")
    for action in parser._actions:
        if action.option_strings and (action.dest in (param, param.lower())
                                      or spelled in action.option_strings):
            return max(action.option_strings, key=len)
    return None


def in_flags(exc: Exception, parser: argparse.ArgumentParser) -> str:
    """A library error in the command's words: the parameter it names (``InputError.param``)
    said as the flag that gives it."""
    message = str(exc)
    param = getattr(exc, "param", None)
    flag = flag_of(parser, param) if param else None
    if flag is None:
        return message
    return re.sub(rf"(?<![\w-]){re.escape(param)}(?![\w-])", flag, message, count=1)
