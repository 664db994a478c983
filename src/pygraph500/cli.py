"""The `graph500` command: parse, call one library function, print. No logic lives here.

Exit status: 0 success, 1 an invalid BFS tree or SSSP result (run/validate/bfs/sssp), 2 bad
input or a run that will not fit (one line on stderr, no traceback, nothing half-written).
"""
from __future__ import annotations

import argparse
import sys

from .cli_args import (FORMATS_HELP, add_hybrid_args, add_input_args, add_tree_args,
                       search_fields)
from .errors import Graph500Error, InputError

DEFAULT_SCALE = 16


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"seed {value} out of range [0, 2**64)")
    return value


def _add_graph_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scale", "-s", type=int, default=DEFAULT_SCALE,
                   help=f"log2 of the number of vertices (default {DEFAULT_SCALE})")
    p.add_argument("--edgefactor", "-e", type=int, default=16,
                   help="edge tuples per vertex (default 16)")
    p.add_argument("--seed", type=_seed, nargs=2, default=(2, 3), metavar=("S1", "S2"),
                   help="the two 64-bit generator seeds (default: the reference's 2 3)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")


class _Parser(argparse.ArgumentParser):
    """argparse with the house's bad-input rule: one line on stderr, exit status 2 (argparse
    prints the whole usage first; ``--help`` still does)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from .apsp.cli import add_apsp_parser
    from .benchmark import GPU_ALGORITHMS
    from .bfs import ALGORITHMS, DEFAULT_ALGORITHM
    from .distributed import PRUNE_MODES
    from .sssp import ALGORITHMS as SSSP_ALGORITHMS, DEFAULT_ALGORITHM as SSSP_DEFAULT

    parser = _Parser(
        prog="graph500",
        description="The Graph500 benchmark in Python: reference-exact Kronecker generator, "
                    "kernel 1 (CSR), kernel 2 (BFS) and kernel 3 (SSSP) from 64 roots, "
                    "validation, official TEPS.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # one add_parser block per subcommand below: declarations alike by nature, not repeated logic

    run = sub.add_parser(
        "run", help="run the whole benchmark and print the official output block",
        description="Generate the Kronecker graph, build it, run BFS (and with --kernel "
                    "sssp|both, SSSP) from 64 roots, validate every result (untimed) and print "
                    "the reference's output block on stdout. Exit status 1 when a result is "
                    "invalid.")
    _add_graph_args(run)
    run.add_argument("--roots", type=int, default=64,
                     help="number of search keys (Graph500: 64; others are labelled)")
    run.add_argument("--algorithm", "-a", default=None,
                     help=f"BFS algorithm: {', '.join(ALGORITHMS)} (default {DEFAULT_ALGORITHM}); "
                          "distributed runs: direction-optimizing (default; its top-down levels "
                          "are thesis Algorithm 4, its bottom-up levels use an allgathered "
                          "frontier bitmap) or topdown-queue (thesis Algorithm 4 on every level)")
    run.add_argument("--threads", "-t", type=int, default=None,
                     help="worker threads (default: all cores; under mpiexec, per process: "
                          "the node's cores shared among its processes)")
    add_tree_args(run)
    add_hybrid_args(run)
    run.add_argument("--sort-vertices", choices=["none", "degree"], default="none",
                     help="kernel 1 relabels vertices by decreasing degree for locality "
                          "(paper 001, 4.4); parents are still reported in original labels")
    run.add_argument("--json", metavar="FILE", help="also write the full results as JSON")
    run.add_argument("--levels", action="store_true",
                     help="print per-level statistics of the first search (and per-phase ones "
                          "of the first SSSP search)")
    run.add_argument("--no-validate", dest="validate", action="store_false",
                     help="skip validation (the result is then not a Graph500 result)")
    run.add_argument("--validation", choices=["csr", "tuples"], default=None,
                     help="validate against kernel 1's CSR (default on the CPU: no tuples kept) "
                          "or against every input tuple, kept in memory (default on a GPU)")
    run.add_argument("--input", "-i", metavar="FILE",
                     help="run on a user's edge list instead of the generator (any format of "
                          "`graph500 convert`); --scale/--edgefactor/--seed then only pick roots")
    add_input_args(run)
    run.add_argument("--prune", choices=PRUNE_MODES, default=None,
                     help="distributed runs (mpiexec -n P): how the next-level frontier is "
                          "pruned before it is sent to the owners: sort-unique (default; thesis "
                          "4.3.2: sort, keep one copy of each vertex with its parent), none "
                          "(thesis 4.2.3: every copy is sent), bitmap (thesis 5.3: a bitmap "
                          "over the neighbours a process can send; each is sent once per search)")
    run.add_argument("--backend", choices=["cpu", "gpu", "auto", "numpy-checked"],
                     default="cpu",
                     help="where kernel 1 and the searches run: cpu (numba; the array "
                          "algorithms on NumPy), gpu (CuPy: " + ", ".join(GPU_ALGORITHMS) + "), "
                          "auto (the GPU when there is one, else the CPU, and it says so), "
                          "numpy-checked (the GPU's code on NumPy, each level's host "
                          "synchronisations and allocations counted in --levels and the "
                          "JSON: host_syncs, allocations); under mpiexec, gpu gives every "
                          "process the GPU of its node-local rank (algorithms: as for --prune "
                          "runs)")
    run.add_argument("--kernel", "-k", choices=["bfs", "sssp", "both"], default="bfs",
                     help="the timed kernels: bfs (Graph500 kernel 2, the default, as "
                          "graph500_reference_bfs), sssp (kernel 3: shortest paths on the "
                          "generator's float32 weights) or both (every BFS then every SSSP, as "
                          "graph500_reference_bfs_sssp; the output carries both blocks)")
    run.add_argument("--sssp-algorithm", default=None, metavar="NAME",
                     help=f"kernel 3 algorithm: {', '.join(SSSP_ALGORITHMS)} (default "
                          f"{SSSP_DEFAULT})")
    run.add_argument("--unit-weights", action="store_true",
                     help="kernel 3 on an --input file without weights: every weight 1.0")
    run.add_argument("--distributed", action="store_true",
                     help="use the distributed (MPI) engine even with one process; it is "
                          "chosen automatically when mpiexec starts more than one")
    run.add_argument("--partition", choices=["1d", "2d"], default="1d",
                     help="distributed runs: 1d (default; vertex v on process v %% P, thesis "
                          "chapter 4) or 2d (paper 001: an R x C mesh; the frontier is "
                          "allgathered in processor-columns, discovered pairs sent within "
                          "processor-rows in compressed packets). 2d alone runs the 2D engine "
                          "on one process")
    run.add_argument("--grid", metavar="RxC", default=None,
                     help="--partition 2d: the mesh, R rows x C columns with R * C = P "
                          "(default: R <= C as close as P allows, paper 001 Table 1: 2 -> 1x2, "
                          "4 -> 2x2, 6 -> 2x3, 8 -> 2x4)")
    run.add_argument("--compress", choices=["vlq", "none"], default=None,
                     help="--partition 2d: fold packets as delta + VLQ codes (default; paper "
                          "001 4.2) or raw pairs of vertex ids")

    gen = sub.add_parser(
        "generate", help="write the Kronecker edge list (and kernel 3's weights) to files",
        description="Write the edge list as little-endian int64 pairs (v0, v1) in generation "
                    "order (the reference's packed_edge layout); a .txt name writes text pairs.")
    _add_graph_args(gen)
    gen.add_argument("--out", "-o", required=True, metavar="FILE", help="output file")
    gen.add_argument("--weights", "-w", metavar="W.bin",
                     help="also write kernel 3's weights: little-endian float32, one per tuple "
                          "in generation order (the reference's TMPFILE.weights)")

    val = sub.add_parser(
        "validate", help="validate any parent array (and SSSP distances) against an edge list",
        description="Check a BFS parent array (ours or another program's) by the Graph500 rules; "
                    "with --distances, a kernel-3 (SSSP) result by the kernel-3 rules (float32 "
                    "arithmetic, as the reference). Exit 0 when valid, 1 when not (naming the "
                    "rule broken), 2 for bad input.")
    val.add_argument("edges", metavar="EDGES", help="edge list: binary int64 pairs, or .txt pairs")
    val.add_argument("parents", metavar="PARENTS", help="parent array: .npy, or text one per line")
    val.add_argument("--root", type=int, required=True, help="the search key")
    val.add_argument("--distances", metavar="D.npy",
                     help="kernel 3: the distances (float32 .npy, or text one per line; -1 or "
                          "inf where unreached); needs --weights")
    val.add_argument("--weights", metavar="W.bin",
                     help="kernel 3: the tuples' weights as `graph500 generate --weights` "
                          "writes them (little-endian float32, one per tuple)")

    info = sub.add_parser("info", help="versions, threads, MPI, GPU, the kernel cache")
    info.add_argument("--compile", action="store_true",
                      help="first compile the default run's kernels (as its first run would)")

    one = sub.add_parser(
        "bfs", help="one search on a user's graph file, optionally writing the tree",
        description="Read FILE, search from --root (the file's own id), validate the tree by "
                    "the Graph500 rules and print a summary. --out writes one row per reached "
                    "vertex, `vertex, parent[, distance]`, in the file's ids: an int64 table "
                    "(.npy) or CSV (.csv). Exit status 1 when the tree is invalid (nothing is "
                    "written then).")
    one.add_argument("file", metavar="FILE", help=f"edge list ({FORMATS_HELP})")
    one.add_argument("--root", "-r", type=int, required=True, help="the source vertex (file's id)")
    one.add_argument("--out", "-o", metavar="FILE", help="write the tree: .npy or .csv")
    one.add_argument("--distances", "-d", action="store_true",
                     help="add the distance (hops from the root) as a third column")
    one.add_argument("--algorithm", "-a", default=DEFAULT_ALGORITHM,
                     help=f"BFS algorithm: {', '.join(ALGORITHMS)} (default {DEFAULT_ALGORITHM})")
    one.add_argument("--threads", "-t", type=int, default=None, help="worker threads (default: all)")
    add_tree_args(one)
    add_hybrid_args(one)
    one.add_argument("--no-validate", dest="validate", action="store_false",
                     help="skip validation of the tree")
    add_input_args(one)
    one.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")

    sp_ = sub.add_parser(
        "sssp", help="kernel 3 (shortest paths) on a user's weighted graph file",
        description="Read FILE with its weights (SNAP third column, Matrix Market values, "
                    ".npz weight), run single-source shortest paths from --root (the file's "
                    "own id), validate by the Graph500 kernel-3 rules and print a summary. --out "
                    "writes one row per reached vertex, `vertex,parent,distance`, in the "
                    "file's ids: CSV (.csv) or a (K, 3) float64 table (.npy). Negative or NaN "
                    "weights are refused (exit 2). Exit status 1 when the result is invalid.")
    sp_.add_argument("file", metavar="FILE", help=f"weighted edge list ({FORMATS_HELP})")
    sp_.add_argument("--root", "-r", type=int, required=True, help="the source vertex (file's id)")
    sp_.add_argument("--out", "-o", metavar="FILE", help="write the paths: .npy or .csv")
    sp_.add_argument("--algorithm", "-a", default=SSSP_DEFAULT,
                     help=f"SSSP algorithm: {', '.join(SSSP_ALGORITHMS)} (default {SSSP_DEFAULT})")
    sp_.add_argument("--unit-weights", action="store_true",
                     help="a file without weights: every weight 1.0 (else an error)")
    sp_.add_argument("--threads", "-t", type=int, default=None, help="worker threads (default: all)")
    sp_.add_argument("--no-validate", dest="validate", action="store_false",
                     help="skip validation of the result")
    add_input_args(sp_)
    sp_.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")

    conv = sub.add_parser(
        "convert", help="convert an edge list between file formats",
        description="Read IN and write OUT, formats from the file names (or --from/--to): "
                    f"{FORMATS_HELP}. Ids are kept as they are in the file. What OUT's format "
                    "cannot hold (weights, direction) is reported on stderr.")
    conv.add_argument("input", metavar="IN")
    conv.add_argument("output", metavar="OUT")
    conv.add_argument("--from", dest="format", metavar="FORMAT", help="format of IN")
    conv.add_argument("--to", dest="to_format", metavar="FORMAT", help="format of OUT")
    conv.add_argument("--num-vertices", type=int, default=None, metavar="N",
                      help="vertex count of IN (its ids must be below N)")
    conv.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")

    plot = sub.add_parser(
        "plot", help="PNG figures of a `run --json` result",
        description="Write teps.png (TEPS per search, harmonic mean marked), levels.png "
                    "(frontier, edges examined, discovered and unique ratio per level of the "
                    "first search: thesis Table 4.1 / Fig. 4.13) and level_times.png (time per "
                    "level and direction, first search and all searches) into DIR. Needs "
                    "matplotlib (pip install 'pygraph500[plot]').")
    plot.add_argument("result", metavar="RESULT.json")
    plot.add_argument("--out", "-o", required=True, metavar="DIR", help="directory for the PNGs")

    cmp_ = sub.add_parser(
        "compare", help="side-by-side official statistics of several `run --json` results",
        description="Print one row per official statistic, one column per result, and the "
                    "ratio of each result to the first.")
    cmp_.add_argument("results", metavar="RESULT.json", nargs="+")
    add_apsp_parser(sub)
    return parser


def _cmd_run(args) -> int:
    """`graph500 run`, embedded or (under mpiexec, or --distributed) on every rank: bad
    parameters are reported once and every rank exits 2; a failure on any rank ends them all;
    one process prints the results."""
    from .backend.threads import shared_machine
    from .benchmark import Launch, RunConfig
    from .io import check_writable
    from .report import Progress

    options = dict(scale=args.scale, edgefactor=args.edgefactor, seed=tuple(args.seed),
                   num_roots=args.roots, threads=args.threads, validate=args.validate,
                   sort_vertices=None if args.sort_vertices == "none" else args.sort_vertices,
                   input=args.input, input_format=args.format, num_vertices=args.num_vertices,
                   prune=args.prune, backend=args.backend, distributed=args.distributed,
                   record_levels=args.levels or bool(args.json), kernel=args.kernel,
                   sssp_algorithm=args.sssp_algorithm, unit_weights=args.unit_weights,
                   **search_fields(args), partition=args.partition, grid=args.grid,
                   compress=args.compress, validation=args.validation)
    if args.algorithm is not None:  # else the engine's default
        options["algorithm"] = args.algorithm
    launch = Launch(RunConfig(**options))
    launch.check(lambda: check_writable(args.json) if args.json else None)
    # before the first parallel kernel: OpenMP reads its wait policy when it starts
    shared = shared_machine(args.threads) if launch.comm is None else None
    with launch.guard():
        result = launch.run(Progress(False if args.quiet else None))
        if shared:
            result.labels.append(shared)
        if launch.reporting:
            _print_run(result, args)
    return 0 if result.valid else 1


def _print_run(result, args) -> None:
    from .io import write_json
    from .report import (format_dist_levels, format_levels, format_official, format_phases,
                         result_json)

    for label in result.labels:
        print(f"# NOTE: {label}")
    if args.levels and result.sssp_runs:
        first = result.sssp_runs[0]
        print(format_phases(first.levels, f"# phases of the SSSP search from root {first.root}"))
    if args.levels and result.runs:
        first = result.runs[0]
        title = f"# levels of the search from root {first.root}"
        if result.distributed is None:
            print(format_levels(first.levels, title))
        else:
            p, dist = result.num_processes, result.distributed
            how = (f"--prune {dist['prune']}" if dist["partition"] == "1d" else
                   f"2D {dist['grid'][0]}x{dist['grid'][1]} mesh, --compress {dist['compress']}")
            print(format_dist_levels(first.levels, f"{title} ({p} process"
                                     f"{'es' if p > 1 else ''}, {dist['algorithm']}, {how})"))
    if args.json:
        write_json(result_json(result), args.json)
    if not result.valid:
        failed = result.first_failure
        if failed is not None:
            print(f"validation failed for root {failed.root}: {failed.message}", file=sys.stderr)
        print("No results printed for invalid run.")
    else:
        print(format_official(result.official()))
    sys.stdout.flush()


def _cmd_generate(args) -> int:
    from .generator import kronecker
    from .io import check_writable, write_edges, write_text_edges, write_weights
    from .report import Progress

    from .backend.memory import require_memory
    from .generator import check_scale

    check_scale(args.scale, args.edgefactor)
    check_writable(args.out)
    if args.weights:
        check_writable(args.weights)
    m = args.edgefactor << args.scale
    require_memory(m * (20 if args.weights else 16),
                   f"generating SCALE {args.scale}, edgefactor {args.edgefactor} ({m} edges)")
    progress = Progress(False if args.quiet else None)
    progress("generation", 0, 1)
    edges = kronecker(args.scale, args.edgefactor, tuple(args.seed), weights=bool(args.weights))
    progress("generation", 1, 1)
    (write_text_edges if args.out.endswith(".txt") else write_edges)(edges, args.out)
    if args.weights:
        write_weights(args.weights, edges.weight)
    return 0


def _cmd_validate(args) -> int:
    from .graph import EdgeList
    from .io import read_distances, read_edges, read_parents, read_weights
    from .validate import as_distances, validate, validate_sssp

    if (args.distances is None) != (args.weights is None):
        raise InputError("--distances and --weights go together (kernel 3)")
    parents = read_parents(args.parents)
    distances = None
    if args.distances is not None:
        distances = as_distances(read_distances(args.distances), args.distances)
    edges = read_edges(args.edges, num_vertices=len(parents))
    if not 0 <= args.root < len(parents):
        raise InputError(f"--root {args.root} is outside [0, {len(parents)})")
    if distances is None:
        report = validate(edges, parents, args.root)
        extent = f"max depth {report.max_depth}"
    else:
        weights = read_weights(args.weights, count=edges.num_edges)
        edges = EdgeList(edges.src, edges.dst, edges.num_vertices, weights)
        report = validate_sssp(edges, parents, distances, args.root)
        extent = f"max distance {report.max_distance!r}"
    if report.valid:
        print(f"valid: {report.num_visited} vertices reached, {report.nedge} edges in the "
              f"component, {extent}")
        return 0
    print(f"invalid: {report.message}")
    return 1


def _cmd_info(args) -> int:
    from .backend import system_info
    from .benchmark import compile_kernels
    from .primitives.numba_cache import describe_cache

    if args.compile:
        compile_kernels()
    for key, value in {**system_info(), "kernel cache": describe_cache()}.items():
        print(f"{key + ':':<18}{value}")
    return 0


def _cmd_bfs(args) -> int:
    from .benchmark.single import search_file
    from .report import Progress

    result = search_file(args.file, args.root, out=args.out, distances=args.distances,
                         algorithm=args.algorithm, format=args.format,
                         num_vertices=args.num_vertices, validate_tree=args.validate,
                         threads=args.threads, progress=Progress(False if args.quiet else None),
                         **search_fields(args))
    print(result.summary())
    return 1 if result.valid is False else 0


def _cmd_sssp(args) -> int:
    from .benchmark.single import sssp_file
    from .report import Progress

    result = sssp_file(args.file, args.root, out=args.out, algorithm=args.algorithm,
                       unit_weights=args.unit_weights, format=args.format,
                       num_vertices=args.num_vertices, validate_tree=args.validate,
                       threads=args.threads, progress=Progress(False if args.quiet else None))
    print(result.summary())
    return 1 if result.valid is False else 0


def _cmd_convert(args) -> int:
    from .io import convert_graph
    from .report import Progress

    graph, notes = convert_graph(args.input, args.output, in_format=args.format,
                                 out_format=args.to_format, num_vertices=args.num_vertices,
                                 progress=Progress(False if args.quiet else None))
    for note in notes:
        print(f"# NOTE: {note}", file=sys.stderr)
    print(f"wrote {args.output}: {graph.num_edges} edge tuples, {graph.num_vertices} vertices")
    return 0


def _cmd_plot(args) -> int:
    from .report import plot_result

    for path in plot_result(args.result, args.out):
        print(path)
    return 0


def _cmd_compare(args) -> int:
    from .report import compare_results

    print(compare_results(args.results))
    return 0



# RunConfig's parameters as `graph500 run` spells them: the library's messages name the
# parameter first ("num_roots must be ..."), the command's one-line errors its flag.
_RUN_FLAGS = {"num_roots": "--roots", "sort_vertices": "--sort-vertices", "backend": "--backend",
              "algorithm": "--algorithm", "prune": "--prune", "input": "--input",
              "kernel": "--kernel", "deterministic": "--deterministic", "workers": "--workers",
              "partition": "--partition", "grid": "--grid", "compress": "--compress",
              "tasks": "--tasks", "lambda": "--lambda", "mode": "--hybrid",
              "gpu_share": "--gpu-share", "standin_speed": "--standin-speed"}


def _as_flags(message: str) -> str:
    name, space, rest = message.partition(" ")
    return _RUN_FLAGS.get(name, name) + space + rest


def main(argv=None) -> int:
    from .apsp.cli import cmd_apsp
    from .distributed.comm import launched_rank

    parser = build_parser()
    quiet_rank = launched_rank() not in (None, 0)
    if quiet_rank:  # under mpiexec, usage errors and --help come from rank 0 only
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            args = parser.parse_args(argv)
    else:
        args = parser.parse_args(argv)
    handler = {"run": _cmd_run, "generate": _cmd_generate, "validate": _cmd_validate,
               "info": _cmd_info, "bfs": _cmd_bfs, "sssp": _cmd_sssp, "convert": _cmd_convert,
               "plot": _cmd_plot,
               "compare": _cmd_compare, "apsp": cmd_apsp}[args.command]
    try:
        return handler(args)
    except Graph500Error as exc:
        if not quiet_rank:
            message = _as_flags(str(exc)) if args.command in ("run", "bfs") else exc
            print(f"graph500: error: {message}", file=sys.stderr)
        return 2
    except MemoryError:  # an allocation no estimate foresaw: still one line, nothing written
        print(f"graph500: error: out of memory in {args.command} (see graph500 info for what "
              f"this machine has)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("graph500: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
