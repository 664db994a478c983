"""`graph500 run`: the whole benchmark, embedded or on every rank of an MPI launch; the
official block printed first, then the JSON."""
from __future__ import annotations

import sys

from .common import (WEIGHTS_FILE_HELP, add_graph_args, add_hybrid_args, add_input_args,
                     add_tree_args, results_next, search_options)

__all__ = ["add"]


def add(sub) -> None:
    """Add the command's parser to the subparsers ``sub``."""
    from ..backend.arrays import BACKENDS
    from ..benchmark import GPU_ALGORITHMS
    from ..bfs import ALGORITHMS
    from ..distributed import PRUNE_MODES
    from ..sssp import ALGORITHMS as SSSP_ALGORITHMS, DEFAULT_ALGORITHM as SSSP_DEFAULT

    p = sub.add_parser(
        "run",
        description="Generate the Kronecker graph, build it, run BFS (and with --kernel "
                    "sssp|both, SSSP) from 64 roots, validate every result (untimed) and print "
                    "the reference's output block on stdout. Exit status 1 when a result is "
                    "invalid.")
    add_graph_args(p)
    p.add_argument("--roots", dest="num_roots", type=int, default=64,
                   help="number of search keys (Graph500: 64; others are labelled)")
    p.add_argument("--algorithm", "-a", default=None,
                   help=f"BFS algorithm: {ALGORITHMS.help_text()}; "
                        "distributed runs: direction-optimizing (default; its top-down levels "
                        "are thesis Algorithm 4, its bottom-up levels use an allgathered "
                        "frontier bitmap) or topdown-queue (thesis Algorithm 4 on every level)")
    p.add_argument("--threads", "-t", type=int, default=None,
                   help="worker threads (default: all cores; under mpiexec, per process: "
                        "the node's cores shared among its processes)")
    add_tree_args(p)
    add_hybrid_args(p)
    p.add_argument("--sort-vertices", choices=["none", "degree"], default=None,
                   help="kernel 1 relabels vertices by decreasing degree for locality "
                        "(paper 001, 4.4); parents are still reported in original labels. "
                        "Default: none; with --partition 2d, degree (each owner's block "
                        "sorted, the paper's U-BFS; none is its Fig. 9 without sorting)")
    p.add_argument("--json", metavar="FILE", help="also write the full results as JSON")
    p.add_argument("--plot", metavar="DIR",
                   help="also write the run's figures into DIR, as `graph500 plot` does "
                        "(needs matplotlib: pip install 'pygraph500[plot]')")
    p.add_argument("--levels", action="store_true",
                   help="print per-level statistics of the first search (and per-phase ones "
                        "of the first SSSP search)")
    p.add_argument("--no-validate", dest="validate", action="store_false",
                   help="skip validation (the result is then not a Graph500 result)")
    p.add_argument("--validation", choices=["csr", "tuples"], default=None,
                   help="validate against kernel 1's CSR (default on the CPU: no tuples kept) "
                        "or against every input tuple, kept in memory (default on a GPU)")
    p.add_argument("--input", "-i", metavar="FILE",
                   help="run on a user's edge list instead of the generator (any format of "
                        "`graph500 convert`); --scale/--edgefactor/--seed then only pick roots")
    add_input_args(p)
    p.add_argument("--prune", choices=PRUNE_MODES, default=None,
                   help="distributed runs (mpiexec -n P): how the next-level frontier is "
                        "pruned before it is sent to the owners: sort-unique (default; thesis "
                        "4.3.2: sort, keep one copy of each vertex with its parent), none "
                        "(thesis 4.2.3: every copy is sent), bitmap (thesis 5.3: a bitmap "
                        "over the neighbours a process can send; each is sent once per search)")
    p.add_argument("--backend", choices=BACKENDS,
                   default="cpu",
                   help="where kernel 1 and the searches run: cpu (numba; the array "
                        "algorithms on NumPy), gpu (CuPy: " + ", ".join(GPU_ALGORITHMS) + "), "
                        "auto (the GPU when there is one, else the CPU, and it says so), "
                        "numpy-checked (the GPU's code on NumPy, each level's host "
                        "synchronisations and allocations counted in --levels and the "
                        "JSON: host_syncs, allocations); under mpiexec, gpu gives every "
                        "process the GPU of its node-local rank (algorithms: as for --prune "
                        "runs)")
    p.add_argument("--kernel", "-k", choices=["bfs", "sssp", "both"], default="bfs",
                   help="the timed kernels: bfs (Graph500 kernel 2, the default, as "
                        "graph500_reference_bfs), sssp (kernel 3: shortest paths on the "
                        "generator's float32 weights) or both (every BFS then every SSSP, as "
                        "graph500_reference_bfs_sssp; the output carries both blocks)")
    p.add_argument("--sssp-algorithm", default=None, metavar="NAME",
                   help=f"kernel 3 algorithm: {', '.join(SSSP_ALGORITHMS)} (default "
                        f"{SSSP_DEFAULT})")
    p.add_argument("--unit-weights", action="store_true",
                   help="kernel 3 on an --input file without weights: every weight 1.0")
    p.add_argument("--weights", dest="input_weights", metavar="W.bin",
                   help=f"kernel 3 on an --input file without weights: {WEIGHTS_FILE_HELP}")
    p.add_argument("--distributed", action="store_true",
                   help="use the distributed (MPI) engine even with one process; it is "
                        "chosen automatically when mpiexec starts more than one")
    p.add_argument("--partition", choices=["1d", "2d"], default="1d",
                   help="distributed runs: 1d (default; vertex v on process v %% P, thesis "
                        "chapter 4) or 2d (paper 001: an R x C mesh; the frontier is "
                        "allgathered in processor-columns, discovered pairs sent within "
                        "processor-rows in compressed packets). 2d alone runs the 2D engine "
                        "on one process")
    p.add_argument("--pipeline", action="store_true",
                   help="distributed runs: the exchange overlapped with the computation. 1D "
                        "(thesis 5.2): a top-down level's exchange pipelined, each peer's "
                        "block pruned and sent while the next is pruned, the blocks claimed "
                        "as they arrive (on GPUs each block on its own CUDA stream; default: "
                        "one alltoallv a level); 2D (paper "
                        "001 4.3): the fold's packets sent while the scan goes on, the "
                        "claims made while the level's last packets travel (default: sent "
                        "when the scan ends). "
                        "The same bytes and trees as without it")
    p.add_argument("--network", metavar="SPEC", default=None,
                   help="emulate a network between the distributed engine's processes "
                        "(implies --distributed): latency=2us,bandwidth=10GB/s"
                        "[,topology=full][,compute=cpu|wall]; each process keeps a virtual "
                        "clock (its compute measured, each message costing latency + "
                        "bytes/bandwidth) and the output gives the emulated time per search "
                        "(default: $PYGRAPH500_NETWORK)")
    p.add_argument("--grid", metavar="RxC", default=None,
                   help="--partition 2d: the mesh, R rows x C columns with R * C = P "
                        "(default: R <= C as close as P allows, paper 001 Table 1: 2 -> 1x2, "
                        "4 -> 2x2, 6 -> 2x3, 8 -> 2x4)")
    p.add_argument("--compress", choices=["vlq", "none"], default=None,
                   help="--partition 2d: fold packets as delta + VLQ codes (default; paper "
                        "001 4.2) or raw pairs of vertex ids")
    p.add_argument("--fold", choices=["dedup", "paper"], default=None,
                   help="--partition 2d: which pairs the fold sends: dedup (default: each "
                        "vertex at most once per search from a process; raw pairs counted at "
                        "two 4-byte ids, 8 bytes, where ids fit) or paper (paper 001, "
                        "Algorithm II: every edge from the frontier to a vertex the process "
                        "does not know to be visited; raw pairs counted, and sent by "
                        "--compress none, at two 8-byte ids, 16 bytes, as the paper does)")
    p.set_defaults(handler=_cmd_run)


def _cmd_run(args) -> int:
    """`graph500 run`, embedded or (under mpiexec, or --distributed) on every rank: bad
    parameters are reported once and every rank exits 2; a failure on any rank ends them all;
    one process prints the results."""
    from ..backend.threads import shared_machine
    from ..benchmark import ExecutionSpec, GraphSpec, Launch, OutputSpec, RunConfig, SearchSpec
    from ..io import check_writable
    from ..report import Progress

    graph = GraphSpec(scale=args.scale, edgefactor=args.edgefactor, seed=tuple(args.seed),
                      input=args.input, input_format=args.format, num_vertices=args.num_vertices,
                      unit_weights=args.unit_weights, input_weights=args.input_weights,
                      sort_vertices=args.sort_vertices)
    search = SearchSpec(kernel=args.kernel, options=search_options(args),
                        sssp_algorithm=args.sssp_algorithm, num_roots=args.num_roots,
                        validate=args.validate, validation=args.validation)
    if args.algorithm is not None:  # else the engine's default
        search.algorithm = args.algorithm
    execution = ExecutionSpec(threads=args.threads, backend=args.backend,
                              distributed=args.distributed, partition=args.partition,
                              grid=args.grid, compress=args.compress, fold=args.fold,
                              prune=args.prune, pipeline=args.pipeline, network=args.network)
    output = OutputSpec(record_levels=args.levels or bool(args.json or args.plot))
    launch = Launch(RunConfig(graph, search, execution, output))
    launch.check(lambda: check_writable(args.json) if args.json else None)
    if args.plot:
        from ..report.plots import check_plot_target

        launch.check(lambda: check_plot_target(args.plot, "--plot"))
    # before the first parallel kernel: OpenMP reads its wait policy when it starts
    shared = shared_machine(args.threads) if launch.comm is None else None
    with launch.guard():
        result = launch.run(Progress(False if args.quiet else None))
        if not launch.reporting:  # its part is done (the engine's last collective says it
            return 0 if result.valid else 1  # is ending): rank 0 holds the results
        if shared:
            result.labels.append(shared)
        results_next(more=bool(args.json))
        _print_run(result, args)
    if args.json or args.plot:
        # after the results are printed, and outside the guard: a failed write is one line
        # and exit status 2, never an abort of every rank
        from ..io import write_json
        from ..report import plot_result, result_json

        doc = result_json(result)
        if args.json:
            write_json(doc, args.json)
        if args.plot:
            plot_result(doc, args.plot)
    return 0 if result.valid else 1


def _print_run(result, args) -> None:
    from ..report import (format_dist_levels, format_levels, format_network, format_official,
                          format_phases)

    for label in result.labels:
        print(f"# NOTE: {label}")
    for line in format_network(result):
        print(f"# NOTE: {line}")
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
                   f"2D {dist['grid'][0]}x{dist['grid'][1]} mesh, --compress "
                   f"{dist['compress']}, --fold {dist['fold']}")
            print(format_dist_levels(first.levels, f"{title} ({p} process"
                                     f"{'es' if p > 1 else ''}, {dist['algorithm']}, {how})"))
    if not result.valid:
        failed = result.first_failure
        if failed is not None:
            print(f"validation failed for root {failed.root}: {failed.message}", file=sys.stderr)
        print("No results printed for invalid run.")
    else:
        print(format_official(result.official()))
    sys.stdout.flush()
