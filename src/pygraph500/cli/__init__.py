"""The `graph500` command: one module per command (its arguments, one library call, what it
prints); shared argument groups in ``common``. This module is the entry point: signals are
handled, and stdout and stderr made safe for any path, before anything heavy is imported.

Exit status: 0 success, 1 an invalid BFS tree or SSSP result (run/validate/bfs/sssp), 2 bad
input, a run that will not fit or a file that could not be written (one line on stderr, no
traceback, nothing half-written), 128 + the signal when interrupted (one line).
"""
from __future__ import annotations

import signal
import sys

from ..errors import Graph500Error
from ..process import (abort_launch, command_ending, handled_signals, interrupted_line,
                       join_mpi, launched_rank, let_rank0_speak, remove_temporaries,
                       signal_received)

__all__ = ["main", "build_parser", "COMMANDS"]

# Every command, in the order of the help: the module that adds its parser (``add(sub)``,
# relative to this package) and its one-line summary. The top-level help is made from this
# table alone, so `graph500 --help` imports none of the commands' libraries (numba, scipy).
COMMANDS = {
    "run": (".run", "run the whole benchmark and print the official output block"),
    "generate": (".generate", "write the Kronecker edge list (and kernel 3's weights) to "
                              "files"),
    "validate": (".validate", "validate any parent array (and SSSP distances) against an "
                              "edge list"),
    "info": (".info", "versions, threads, MPI, GPU, the kernel cache"),
    "bfs": (".bfs_sssp", "one search on a user's graph file, optionally writing the tree"),
    "sssp": (".bfs_sssp", "kernel 3 (shortest paths) on a user's weighted graph file"),
    "convert": (".convert", "convert an edge list between file formats"),
    "plot": (".results", "PNG figures of a `run --json` result"),
    "compare": (".results", "side-by-side official statistics of several `run --json` "
                            "results"),
    "report": (".report", "what a Graph500 list submission asks for, from a `run --json` "
                          "result"),
    "apsp": ("..apsp.cli", "all-pairs shortest paths (paper 004): blocked Floyd-Warshall "
                           "and others"),
}


class _Summarised:
    """The subparsers, each command's help line given from ``COMMANDS``."""

    def __init__(self, sub):
        self.sub = sub

    def add_parser(self, name, **kwargs):
        return self.sub.add_parser(name, help=COMMANDS[name][1], **kwargs)


def build_parser(commands: bool = True):
    """The parser of every command (each command module adds its own); ``commands=False``:
    the commands' names and summaries only (the top-level help and its errors), which
    imports no command module."""
    from importlib import import_module

    from .common import Parser

    parser = Parser(
        prog="graph500",
        description="The Graph500 benchmark in Python: reference-exact Kronecker generator, "
                    "kernel 1 (CSR), kernel 2 (BFS) and kernel 3 (SSSP) from 64 roots, "
                    "validation, official TEPS.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if not commands:
        for name, (_, summary) in COMMANDS.items():
            sub.add_parser(name, help=summary)
        return parser
    for module in dict.fromkeys(m for m, _ in COMMANDS.values()):
        import_module(module, __name__).add(_Summarised(sub))
    return parser


def main(argv=None) -> int:
    """The `graph500` command (``argv``: its arguments, default ``sys.argv[1:]``); returns
    the exit status. The command itself (``argv`` None) ignores signals once it is done, so
    a signal while the process exits changes nothing; a call from Python gets the previous
    handlers back."""
    _safe_streams()
    try:  # around the handlers' block: a signal while they are put in place is caught too
        with handled_signals(ignore_after=argv is None):
            status = _main(argv)
            command_ending()
            return status
    except BrokenPipeError:  # stdout's reader has gone (`graph500 info | head`): end as a
        # pipe's writer ends, silently; files are written whole or not at all regardless
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13  # SIGPIPE's status
    except BaseException as exc:  # noqa: BLE001 - an interrupt may surface as another error
        # (numpy's import interrupted inside its C code fails with an ImportError)
        signum = getattr(exc, "signum", None) or signal_received() or (
            signal.SIGINT if isinstance(exc, KeyboardInterrupt) else None)
        if signum is None:
            raise
        command_ending()
        remove_temporaries()
        if _joins_mpi(argv):
            join_mpi()  # the others may wait for this rank in MPI's initialisation
        let_rank0_speak()
        print(interrupted_line(signum), file=sys.stderr, flush=True)
        abort_launch(128 + signum)  # ranks waiting for this one in a collective end too
        if argv is None:  # the command's own process: no finalisation after an interrupt
            _exit_now(128 + signum)
        return 128 + signum


def _exit_now(status: int) -> None:
    """Flush and leave at once. An interrupt can leave a C extension half initialised (an
    import cut short), and the interpreter's finalisation may then crash on it (seen: a
    double free after numba's import was interrupted); the files are in order already."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def _joins_mpi(argv) -> bool:
    """Whether the command is one whose every rank joins MPI under a launcher: `run` (its
    ``Launch`` takes the world communicator); the others run each rank on its own."""
    return (sys.argv[1:] if argv is None else list(argv))[:1] == ["run"]


def _quiet_rank() -> bool:
    """Whether this process is a rank other than 0 of an MPI launch (rank 0 speaks for all)."""
    return launched_rank() not in (None, 0)


def _main(argv) -> int:
    from .common import command_parser, in_flags

    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(commands=any(w in COMMANDS for w in words))
    quiet_rank = _quiet_rank()
    if quiet_rank:  # under mpiexec, usage errors and --help come from rank 0 only
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            args = parser.parse_args(argv)
    else:
        args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except Graph500Error as exc:
        if not quiet_rank:
            message = in_flags(exc, command_parser(parser, args.command))
            print(f"graph500: error: {message}", file=sys.stderr)
        return 2
    except MemoryError:  # an allocation no estimate foresaw: still one line, nothing written
        print(f"graph500: error: out of memory in {args.command} (see graph500 info for what "
              f"this machine has)", file=sys.stderr)
        return 2


_SHOWN = "graph500-shown"  # the codec error handler of the command's stdout and stderr


def _shown(exc):
    """A character the stream cannot encode, as text: a byte of a file name that was not
    valid in the locale (Python keeps it as a surrogate) as \\xNN, anything else as a
    backslash escape."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = "".join(f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF
                   else c.encode("ascii", "backslashreplace").decode("ascii")
                   for c in exc.object[exc.start:exc.end])
    return text, exc.end


def _safe_streams() -> None:
    """stdout and stderr never fail on a path or message, whatever the terminal's encoding."""
    import codecs

    try:
        codecs.lookup_error(_SHOWN)
    except LookupError:
        codecs.register_error(_SHOWN, _shown)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=_SHOWN)
