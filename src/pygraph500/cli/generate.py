"""`graph500 generate`: the Kronecker edge list, its weights and its description, written
together."""
from __future__ import annotations

from .common import add_graph_args, formats_help

__all__ = ["add"]


def add(sub) -> None:
    """Add the command's parser to the subparsers ``sub``."""
    p = sub.add_parser(
        "generate",
        description="Write the edge tuples in generation order, in the format FILE's name "
                    "says, as `convert` tells it (with --weights, weighted formats hold the "
                    "weights too); a name without a known suffix, a device or a pipe gets "
                    "the reference's packed_edge layout, little-endian int64 pairs (v0, v1): "
                    "the g500 format.")
    add_graph_args(p)
    p.add_argument("--out", "-o", required=True, metavar="FILE",
                   help=f"output file ({formats_help()}); a regular file gets FILE.json "
                        "beside it, its description (SCALE, edgefactor, seeds, vertex "
                        "count), which `validate` reads")
    p.add_argument("--weights", "-w", metavar="W.bin",
                   help="also write kernel 3's weights: little-endian float32, one per tuple "
                        "in generation order (the reference's TMPFILE.weights)")
    p.set_defaults(handler=_cmd_generate)


def _cmd_generate(args) -> int:
    from .. import __version__
    from ..backend.memory import require_memory
    from ..generator import check_scale, kronecker
    from ..io import (check_outputs, describe_generated, description_path, edge_list_format,
                     write_edges, write_json, write_weights, writes_in_place, written_together)
    from ..report import Progress

    check_scale(args.scale, args.edgefactor)
    edge_list_format(args.out, for_writing=True)  # a name no format may have: refused now
    described = None if writes_in_place(args.out) else description_path(args.out)
    check_outputs(("--out", args.out), ("--weights", args.weights),
                  ("its description", described))
    m = args.edgefactor << args.scale
    require_memory(m * (20 if args.weights else 16),
                   f"generating SCALE {args.scale}, edgefactor {args.edgefactor} ({m} edges)")
    progress = Progress(False if args.quiet else None)
    progress("generation", 0, 1)
    edges = kronecker(args.scale, args.edgefactor, tuple(args.seed), weights=bool(args.weights))
    progress("generation", 1, 1)
    with written_together(args.out, args.weights, described):
        write_edges(edges, args.out)
        if args.weights:
            write_weights(args.weights, edges.weight)
        if described:
            write_json(describe_generated(edges, args.scale, args.edgefactor, args.seed,
                                          args.weights, __version__), described)
    return 0
