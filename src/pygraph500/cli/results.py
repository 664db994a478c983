"""`graph500 plot` and `graph500 compare`: what `run --json` wrote, drawn or set side by side."""
from __future__ import annotations


__all__ = ["add"]


def add(sub) -> None:
    """Add the command's parser to the subparsers ``sub``."""
    p = sub.add_parser(
        "plot",
        description="Write teps.png (TEPS per search in MTEPS or GTEPS, harmonic mean "
                    "marked), levels.png (per level of the first search: Mastrostefano 2013's "
                    "Table 4.1 counts) and level_times.png (time per level and direction) into "
                    "DIR; for a run with SSSP searches (--kernel sssp|both) also sssp_teps.png "
                    "and sssp_phases.png (vertices and edges relaxed, distances lowered, time "
                    "and bucket per phase of the first SSSP search). Needs matplotlib (pip "
                    "install 'pygraph500[plot]').")
    p.add_argument("result", metavar="RESULT.json")
    p.add_argument("--out", "-o", required=True, metavar="DIR", help="directory for the PNGs")
    p.set_defaults(handler=_cmd_plot)

    p = sub.add_parser(
        "compare",
        description="Print one row per official statistic, one column per result, and the "
                    "ratio of each result to the first.")
    p.add_argument("results", metavar="RESULT.json", nargs="+")
    p.set_defaults(handler=_cmd_compare)


def _cmd_plot(args) -> int:
    from ..report import plot_result

    for path in plot_result(args.result, args.out):
        print(path)
    return 0


def _cmd_compare(args) -> int:
    from ..report import compare_results

    print(compare_results(args.results))
    return 0
