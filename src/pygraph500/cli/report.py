"""`graph500 report`: what a Graph500 list submission asks for, from a `run --json` result."""
from __future__ import annotations

__all__ = ["add"]


def add(sub) -> None:
    """Add the command's parser to the subparsers ``sub``."""
    from ..report.submission import FORMATS

    p = sub.add_parser(
        "report",
        description="Print what a Graph500 list submission asks for beside the official "
                    "block: the machine that ran the benchmark (CPU, sockets, cores, memory, "
                    "accelerator, OS, as the run recorded them), the software versions, the "
                    "run's parameters, the official block of each kernel as the reference "
                    "prints it, the validation, the settings the specification fixes for a "
                    "submission, and what a submission needs that a result cannot know.")
    p.add_argument("result", metavar="RESULT.json", help="a result of `graph500 run --json`")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text (default), md (a Markdown document with tables) or json (an "
                        "object with the same content)")
    p.set_defaults(handler=_cmd_report)


def _cmd_report(args) -> int:
    from ..report import submission_report

    print(submission_report(args.result, args.format))
    return 0
