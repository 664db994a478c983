"""`graph500 bfs FILE` and `graph500 sssp FILE`: one search on a user's graph; the summary
printed first, then the table written."""
from __future__ import annotations

from .common import (WEIGHTS_FILE_HELP, add_hybrid_args, add_input_args, add_tree_args,
                     formats_help, results_next, search_options)

__all__ = ["add"]


def add(sub) -> None:
    """Add the commands' parsers to the subparsers ``sub``."""
    from ..bfs import ALGORITHMS
    from ..sssp import ALGORITHMS as SSSP_ALGORITHMS

    p = _search_parser(
        sub, "bfs",
        "Read FILE, search from --root (the file's own id), validate the tree by the Graph500 "
        "rules and print a summary. --out writes one row per reached vertex, `vertex, "
        "parent[, distance]`, in the file's ids: an int64 table (.npy) or CSV (.csv). Exit "
        "status 1 when the tree is invalid (nothing is written then).",
        "edge list", "the tree", "BFS", ALGORITHMS)
    p.add_argument("--distances", "-d", action="store_true",
                   help="add the distance (hops from the root) as a third column")
    add_tree_args(p)
    add_hybrid_args(p)
    p = _search_parser(
        sub, "sssp",
        "Read FILE with its weights (SNAP third column, CSV weight column, Matrix Market "
        "values, .npz weight), run single-source shortest paths from --root (the file's own "
        "id), validate by the Graph500 kernel-3 rules and print a summary. --out writes one "
        "row per reached vertex, `vertex,parent,distance`, in the file's ids: CSV (.csv) or a "
        "(K, 3) float64 table (.npy). Negative or NaN weights are refused (exit 2). Exit "
        "status 1 when the result is invalid.",
        "weighted edge list", "the paths", "SSSP", SSSP_ALGORITHMS)
    p.add_argument("--unit-weights", action="store_true",
                   help="a file without weights: every weight 1.0 (else an error)")
    p.add_argument("--weights", dest="input_weights", metavar="W.bin",
                   help=f"a file without weights: {WEIGHTS_FILE_HELP}")


def _search_parser(sub, name, description, graph, table, kind, algorithms):
    """A search command's parser with the arguments `bfs` and `sssp` share."""
    p = sub.add_parser(name, description=description)
    p.add_argument("file", metavar="FILE", help=f"{graph} ({formats_help()}); - reads stdin")
    p.add_argument("--root", "-r", type=int, required=True, help="the source vertex (file's id)")
    p.add_argument("--out", "-o", metavar="FILE", help=f"write {table}: .npy or .csv")
    p.add_argument("--algorithm", "-a", default=algorithms.default,
                   help=f"{kind} algorithm: {algorithms.help_text()}")
    p.add_argument("--threads", "-t", type=int, default=None, help="worker threads (default: all)")
    p.add_argument("--no-validate", dest="validate", action="store_false",
                   help="skip validation of the result")
    add_input_args(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    p.set_defaults(handler=_cmd_search)
    return p


def _cmd_search(args) -> int:
    """`bfs FILE` and `sssp FILE`: the table's name checked before any work, one search."""
    from ..benchmark.single import search_file
    from ..io import check_search_table_path
    from ..report import Progress

    if args.out is not None:
        check_search_table_path(args.out)
    own = (dict(distances=args.distances, options=search_options(args)) if args.command == "bfs"
           else dict(kernel="sssp", unit_weights=args.unit_weights,
                     input_weights=args.input_weights))
    result = search_file(args.file, args.root, algorithm=args.algorithm, format=args.format,
                         num_vertices=args.num_vertices, validate_tree=args.validate,
                         threads=args.threads, progress=Progress(False if args.quiet else None),
                         **own)
    return _print_and_write(result, args.out)


def _print_and_write(result, out) -> int:
    """`bfs`/`sssp`: the summary first, then the table (a valid or unvalidated answer only),
    so a failed write never loses the results."""
    writes = out is not None and result.valid is not False
    results_next(more=writes)
    print(result.summary(), flush=True)
    if writes:
        result.write(out)
        print(result.wrote())
    return 1 if result.valid is False else 0
