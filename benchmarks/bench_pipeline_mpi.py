"""The distributed BFS with ``--pipeline`` and without, 1D and 2D, under real MPI on this
machine, in the same processes: every root searched by both searchers in turn (interleaved,
so the machine's load changes alike for both), each search's time the slowest rank's wall
seconds; per partition and algorithm the median over the searches, on / off. Separate
``graph500 run`` processes differ by 15-20 % on a noisy VM; searches interleaved in one
process differ by a few. 2D runs on the mesh of ``mesh_shape(--procs)`` (1 x 2 for two).

    python benchmarks/bench_pipeline_mpi.py [--procs 2] [--scale 18] [--roots 16]
        [--rounds 3] [--partitions 1d 2d] [--algorithms direction-optimizing topdown-queue]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mpi import _mpiexec  # noqa: E402  (this folder: one copy of each)
from bench_network import _roots, measured, rank_graph, searcher  # noqa: E402


def on_ranks(args) -> None:
    """One rank's part: both searchers per partition and algorithm, interleaved; rank 0
    prints."""
    import numba

    from pygraph500.distributed import world

    numba.set_num_threads(1)
    comm = world(force=True)
    roots = _roots(args.scale, args.roots)
    for partition in args.partitions:
        graph, grid = rank_graph(comm, args.scale, partition,
                                 transpose="direction-optimizing" in args.algorithms)
        for algorithm in args.algorithms:
            searchers = {p: searcher(comm, graph, grid, algorithm, p) for p in (True, False)}
            times = {p: [] for p in searchers}
            for s in searchers.values():  # warm-up: the buffers grow to their largest level
                s.search(roots[0])
            for _ in range(args.rounds):
                for root in roots:
                    for p, s in searchers.items():
                        times[p].append(measured(comm, s, root))
            if comm.rank == 0:
                on, off = np.median(times[True]), np.median(times[False])
                print(f"{partition:<4} {algorithm:<22} {on * 1e3:9.3f} {off * 1e3:9.3f} "
                      f"{on / off:7.3f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--scale", type=int, default=18)
    ap.add_argument("--roots", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--partitions", nargs="+", choices=("1d", "2d"), default=["1d", "2d"])
    ap.add_argument("--algorithms", nargs="+",
                    default=["direction-optimizing", "topdown-queue"])
    ap.add_argument("--ranks", action="store_true", help=argparse.SUPPRESS)  # under mpiexec
    args = ap.parse_args()
    if args.ranks:
        on_ranks(args)
        return
    print(f"# mpiexec -n {args.procs}, SCALE {args.scale}, {args.roots} roots x {args.rounds} "
          f"rounds, one thread per process, load average {os.getloadavg()[0]:.2f}; median ms "
          f"a search (the slowest rank's), with --pipeline and without")
    print(f"{'part':<4} {'algorithm':<22} {'on':>9} {'off':>9} {'on/off':>7}", flush=True)
    cmd = [_mpiexec(), "-n", str(args.procs), sys.executable, os.path.abspath(__file__),
           "--ranks", "--scale", str(args.scale), "--roots", str(args.roots), "--rounds",
           str(args.rounds), "--partitions", *args.partitions, "--algorithms", *args.algorithms]
    raise SystemExit(subprocess.run(cmd, stdin=subprocess.DEVNULL).returncode)


if __name__ == "__main__":
    main()
