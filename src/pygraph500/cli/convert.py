"""`graph500 convert`: an edge list from one file format to another."""
from __future__ import annotations

import sys

from .common import formats_help

__all__ = ["add"]


def add(sub) -> None:
    """Add the command's parser to the subparsers ``sub``."""
    from ..io.registry import FORMATS

    p = sub.add_parser(
        "convert",
        description="Read IN and write OUT, formats from the file names (or --from/--to): "
                    f"{formats_help()}. Ids are kept as they are in the file. What OUT's "
                    "format cannot hold (weights, direction) is reported on stderr.")
    p.add_argument("input", metavar="IN")
    p.add_argument("output", metavar="OUT")
    p.add_argument("--from", dest="format", choices=FORMATS, metavar="FORMAT",
                   help=f"format of IN: {', '.join(FORMATS)}")
    p.add_argument("--to", dest="to_format", choices=FORMATS, metavar="FORMAT",
                   help="format of OUT (the same names)")
    p.add_argument("--num-vertices", type=int, default=None, metavar="N",
                   help="vertex count of IN (its ids must be below N)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    p.set_defaults(handler=_cmd_convert)


def _cmd_convert(args) -> int:
    from ..io import convert_graph
    from ..report import Progress

    graph, notes = convert_graph(args.input, args.output, in_format=args.format,
                                 out_format=args.to_format, num_vertices=args.num_vertices,
                                 progress=Progress(False if args.quiet else None))
    for note in notes:
        print(f"# NOTE: {note}", file=sys.stderr)
    print(f"wrote {args.output}: {graph.num_edges} edge tuples, {graph.num_vertices} vertices")
    return 0
