"""`graph500 apsp`: the subcommand of this package, its arguments and its run (the command
line itself is ``pygraph500.cli``)."""
from __future__ import annotations

import argparse

from ..backend import set_threads
from ..io import check_writable, write_json
from . import ALGORITHMS, BACKENDS, DTYPES
from .run import run_apsp

__all__ = ["add", "cmd_apsp"]


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed {value} is negative; give an integer >= 0")
    return value


def add(sub) -> None:
    """The `graph500 apsp` subcommand's arguments, added to the command's subparsers."""
    ap = sub.add_parser(
        "apsp",
        description="Solve all-pairs shortest paths on a dense weighted graph: the paper's "
                    "random graph (--n) or the Graph500 Kronecker graph with random weights "
                    "(--kronecker SCALE). Prints the time of the algorithm and its rate in "
                    "min-plus operations per second (2 n^3 / time). Exit status 1 when --check "
                    "finds a difference from scipy.sparse.csgraph.floyd_warshall.")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--n", type=int, help="vertices of the paper's random graph")
    src.add_argument("--kronecker", type=int, metavar="SCALE",
                     help="the Graph500 Kronecker graph of 2^SCALE vertices, undirected")
    src.add_argument("--input", metavar="FILE",
                     help="a weighted edge list in any format `graph500 convert` reads (third "
                          "column = weight, else 1; sparse ids are compacted to 0..N-1)")
    ap.add_argument("--density", type=float, default=0.25,
                    help="--n: probability of each directed edge (default 0.25)")
    ap.add_argument("--max-weight", type=int, default=1000,
                    help="--n: integer weights uniform in 1..MAX (default 1000, the paper's)")
    ap.add_argument("--undirected", action="store_true",
                    help="--n: symmetric weights (default directed)")
    ap.add_argument("--weights", choices=["int", "float"], default="int",
                    help="--kronecker: integers 1..255 or floats in [0, 1) (default int)")
    ap.add_argument("--seed", type=_seed, default=0,
                    help="seed of the graph or its weights (an integer >= 0)")
    ap.add_argument("--algorithm", "-a", choices=ALGORITHMS, default="blocked",
                    help="blocked (default), min-plus (repeated squaring), floyd-warshall")
    ap.add_argument("--dtype", choices=list(DTYPES), default=None,
                    help="distance type (default int32; float32 for --weights float; float64 "
                         "for --input)")
    ap.add_argument("--backend", choices=BACKENDS, default="cpu",
                    help="cpu (numba, all cores) or gpu (numba.cuda)")
    ap.add_argument("--thread-tile", metavar="RXxRY", default=None,
                    help="--backend gpu, blocked: elements each thread computes, along j x "
                         "along i: 4x4 (default), 4x2 (the paper's best), 1x1, 2x1, 1x2, 2x2, "
                         "4x1, 2x4, 8x4, 4x8, 8x8")
    ap.add_argument("--threads", "-t", type=int, default=None,
                    help="CPU threads (default: all cores)")
    ap.add_argument("--check", action="store_true",
                    help="compare with scipy.sparse.csgraph.floyd_warshall (exit 1 if different)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.set_defaults(handler=cmd_apsp)


def cmd_apsp(args) -> int:
    """`graph500 apsp`: solve, print the time and rate, and (--check) compare with scipy."""

    if args.json:
        check_writable(args.json)
    threads = set_threads(args.threads)
    out = run_apsp(n=args.n, kronecker=args.kronecker, input=args.input, density=args.density,
                   max_weight=args.max_weight, weights=args.weights, seed=args.seed,
                   algorithm=args.algorithm, dtype=args.dtype, backend=args.backend,
                   directed=not args.undirected, check=args.check,
                   thread_tile=args.thread_tile)
    out["threads"] = threads
    tiles = f" thread_tile={out['thread_tile']}" if "thread_tile" in out else ""
    print(f"apsp: n={out['n']} algorithm={out['algorithm']} dtype={out['dtype']} "
          f"backend={out['backend']}{tiles} threads={threads}")
    print(f"time: {out['seconds']:.4f} s   rate: {out['ops_per_second'] / 1e9:.2f} billion "
          f"min-plus operations/s (2 n^3 / time)")
    if "copy_seconds" in out:
        print(f"copies host <-> device: {out['copy_seconds']:.4f} s (not in the time)")
    status = 0
    if "check" in out:
        c = out["check"]
        verdict = "agree" if c["agree"] else f"DIFFER at {c['mismatches']} pairs"
        print(f"check: scipy.sparse.csgraph.floyd_warshall {c['scipy_seconds']:.3f} s; "
              f"results {verdict}; speed-up {c['scipy_seconds'] / out['seconds']:.1f}x")
        if not c["agree"]:
            m = c["first_mismatch"]
            print(f"first difference: ({m['i']}, {m['j']}): ours {m['ours']}, "
                  f"scipy {m['scipy']}")
            status = 1
    if args.json:
        write_json(out, args.json)
    return status
