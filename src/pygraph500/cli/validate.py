"""`graph500 validate`: any answer (a parent array, a `bfs`/`sssp --out` table) checked by the
Graph500 rules against an edge list whose vertex count is known independently of it."""
from __future__ import annotations

import sys

from ..errors import InputError

__all__ = ["add"]


def add(sub) -> None:
    """Add the command's parser to the subparsers ``sub``."""
    p = sub.add_parser(
        "validate",
        description="Check a BFS answer (ours or another program's) by the Graph500 rules; "
                    "with --weights, a kernel-3 (SSSP) answer by the kernel-3 rules (float32 "
                    "arithmetic, as the reference). The graph's vertex count comes from "
                    "--num-vertices or --scale, else from the description `generate` writes "
                    "beside EDGES (EDGES.json), else it is the largest vertex id + 1 (said in "
                    "a NOTE); a parent array of another length is invalid (parent-length). "
                    "Exit 0 when valid, 1 when not (naming the rule broken), 2 for bad input.")
    p.add_argument("edges", metavar="EDGES",
                   help="edge list, in the format its name says (as `generate` writes it): "
                        "text pairs for .txt, int64 pairs for .bin or a name without a "
                        "known suffix; `graph500 convert --help` lists the formats")
    p.add_argument("parents", metavar="ANSWER",
                   help="a parent array (.npy, or text one per line), or the table `bfs "
                        "--out` / `sssp --out` writes (.csv or .npy: vertex, parent[, "
                        "distance]; vertices without a row are unreached); - reads stdin")
    p.add_argument("--root", type=int, required=True, help="the search key")
    count = p.add_mutually_exclusive_group()
    count.add_argument("--num-vertices", "-n", type=int, default=None, metavar="N",
                       help="the graph's vertex count")
    count.add_argument("--scale", "-s", type=int, default=None,
                       help="the graph's SCALE: 2^SCALE vertices")
    p.add_argument("--distances", metavar="D.npy",
                   help="kernel 3: the distances of a bare parent array (float32 .npy, or "
                        "text one per line; -1 or inf where unreached)")
    p.add_argument("--weights", metavar="W.bin",
                   help="kernel 3: the tuples' weights as `graph500 generate --weights` "
                        "writes them (little-endian float32, one per tuple)")
    p.set_defaults(handler=_cmd_validate)


def _vertex_count(args) -> tuple[int | None, str]:
    """The graph's vertex count for `validate`, and where it came from: --num-vertices,
    --scale, the description `generate` wrote beside EDGES; (None, "") when none says it."""
    from ..generator import check_scale
    from ..io import description_path, read_description

    if args.num_vertices is not None:
        if args.num_vertices < 1:
            raise InputError(f"--num-vertices must be >= 1, got {args.num_vertices}")
        return args.num_vertices, "--num-vertices"
    if args.scale is not None:
        check_scale(args.scale, 1)
        return 1 << args.scale, f"--scale {args.scale}"
    described = read_description(args.edges)
    if described is not None:
        return described["num_vertices"], description_path(args.edges)
    return None, ""


def _cmd_validate(args) -> int:
    from ..graph import EdgeList
    from ..io import read_answer, read_description, read_distances, read_edges, read_weights
    from ..validate import as_distances, validate, validate_sssp

    kernel3 = args.weights is not None
    if args.distances is not None and not kernel3:
        raise InputError("--distances needs --weights: kernel 3 is checked against the "
                         "tuples' weights")
    n, origin = _vertex_count(args)
    edges = read_edges(args.edges, num_vertices=n)
    described = read_description(args.edges) if origin.endswith(".json") else None
    if described is not None and described["num_edges"] != edges.num_edges:
        raise InputError(f"{origin} describes {described['num_edges']} edge tuples, "
                         f"{args.edges} holds {edges.num_edges}: it describes another graph "
                         "(remove it, or give --num-vertices or --scale)")
    n = edges.num_vertices
    if not origin:
        print(f"# NOTE: vertex count {n} taken as the largest vertex id in {args.edges} + 1; "
              "give --num-vertices or --scale to check the answer's length against the graph's",
              file=sys.stderr)
    if not 0 <= args.root < n:
        raise InputError(f"--root {args.root} is outside [0, {n})")
    answer = read_answer(args.parents, n, kernel3)
    distances = answer.distance
    if args.distances is not None:
        if distances is not None:
            raise InputError(f"{args.parents} holds distances already; --distances is for a "
                             "bare parent array")
        distances = read_distances(args.distances)
    if not kernel3:
        report = validate(edges, answer.parent, args.root)
        extent = f"max depth {report.max_depth}"
    else:
        if distances is None:
            raise InputError(f"kernel 3 needs the distances: a table with a distance column "
                             f"(sssp --out) or --distances D.npy beside {args.parents}")
        what = args.distances or f"{args.parents}'s distance column"
        weights = read_weights(args.weights, count=edges.num_edges)
        edges = EdgeList(edges.src, edges.dst, edges.num_vertices, weights)
        report = validate_sssp(edges, answer.parent, as_distances(distances, what), args.root)
        extent = f"max distance {float(report.max_distance):.9g}"
    if report.valid:
        print(f"valid: {report.num_visited} vertices reached, {report.nedge} edges in the "
              f"component, {extent}")
        return 0
    print(f"invalid: {report.message}")
    return 1
