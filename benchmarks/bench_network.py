"""The emulated network (``distributed.network``) against real MPI on this machine, then what
it predicts for more ranks on other networks.

1. ``mpiexec -n 2``: a ping-pong between ranks 0 and 1 (mpi4py, from Python, as the searches
   send) measures this machine's shared-memory latency (half the round trip of 8 bytes,
   the median of 2000) and bandwidth (the slope of half round trips of 64 KB to 4 MB, each
   the fastest of 50, least squares: a long copy is the one other processes disturb).
2. ``mpiexec -n P`` for each ``--procs``: the 1D BFS at ``--scale`` from the same roots,
   each root searched ``--repeats`` times on the plain communicator (measured: the slowest
   rank's wall seconds, as the engine times a search; the fastest of the repeats is the one
   the machine's other processes disturbed least) and on the emulation at the measured
   parameters (predicted: the slowest rank's virtual seconds, the fastest of the repeats
   too: other processes add CPU seconds as well), interleaved. The emulation's compute is
   the ranks' CPU seconds (``compute=cpu``: what dedicated cores would give) and, beside it,
   their wall seconds (``compute=wall``: the same descheduled time the measured run has, so
   only the network model differs) and, third, the CPU seconds at the latency and bandwidth
   a ping-pong measures inside that run (with more ranks than cores, a message waits for
   its receiver to be scheduled). The means over the roots.
3. ``ThreadComm`` in this process for each ``--model-procs`` and ``--partitions`` (1d, 2d:
   the mesh of ``mesh_shape(P)``; oversubscribed: one thread per rank, one numba thread
   each): the predicted time per search on each ``--networks`` with and without the
   overlap of ``graph500 run --pipeline`` (1D, "pipelined": a top-down level's exchange per
   owner block, thesis 5.2, against "at-once", one alltoallv; 2D, "pipelined": the fold's
   packets sent while the scan goes on and the claims kept until the level's last packets
   have left, paper 001 4.3, against "at-once": sent when the scan ends), each root's
   fastest of ``--repeats``, split into compute,
   communication and waiting; the communication seconds of the exchange (``xchg``: the
   ranks' mean time blocked that the network adds, beyond what they would wait for late
   peers on a free network, in the alltoallv or the packets of 1D, the fold's packets of 2D
   and, bottom-up, the rotation's bitmaps), the share of them the overlap hides (1 -
   pipelined / at-once), and the bytes sent.

    python benchmarks/bench_network.py [--scale 16] [--roots 8] [--repeats 5] [--procs 2 4]
        [--model-procs 2 4 8 16 32 64] [--model-roots 8] [--partitions 1d 2d]
        [--packet-bytes 65536]
        [--networks latency=1us,bandwidth=10GB/s latency=5us,bandwidth=1GB/s]
        [--algorithm direction-optimizing] [--prune sort-unique] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

PING_SIZES = [1 << 16, 1 << 18, 1 << 20, 1 << 22]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mpi import _mpiexec  # noqa: E402  (this folder: one copy of each)

NETWORKS = ["latency=1us,bandwidth=10GB/s", "latency=5us,bandwidth=1GB/s"]
# The exchange overlapped with the computation (``--pipeline``: 1D thesis 5.2, 2D the fold
# during the scan) or not (the default).
EXCHANGES = {"pipelined": True, "at-once": False}
# The operations of the exchange the overlap changes (blocked seconds: ``xchg``).
EXCHANGE_OPS = ("alltoallv", "isend", "recv_packet")


def _launch(procs: int, *args: str) -> dict:
    """This script's ``args`` part on ``procs`` ranks; what rank 0 wrote."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        cmd = [_mpiexec(), "-n", str(procs), sys.executable, os.path.abspath(__file__),
               *args, "--out", out]
        p = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if p.returncode != 0:
            raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
        with open(out) as f:
            return json.load(f)


# ---- on the ranks -------------------------------------------------------------------------------

def _half_round_trip(comm, nbytes: int, reps: int, pick=np.median) -> float:
    """Seconds of half a round trip of ``nbytes`` between ranks 0 and 1 (``pick`` of
    ``reps``)."""
    from mpi4py import MPI

    buf = np.zeros(nbytes, dtype=np.uint8)
    times = []
    comm.Barrier()
    for _ in range(reps):
        t0 = MPI.Wtime()
        if comm.rank == 0:
            comm.Send(buf, 1)
            comm.Recv(buf, 1)
        elif comm.rank == 1:
            comm.Recv(buf, 0)
            comm.Send(buf, 0)
        times.append((MPI.Wtime() - t0) / 2)
    return float(pick(times))


def measure_link(reps: int = 2000) -> dict:
    """Latency and bandwidth between ranks 0 and 1 of MPI.COMM_WORLD (collective: the other
    ranks wait in the barriers, polling as MPI's waits do)."""
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    latency = _half_round_trip(comm, 8, reps)
    sizes = np.array(PING_SIZES, dtype=np.float64)
    times = np.array([_half_round_trip(comm, int(n), max(5, reps // 40), np.min)
                      for n in PING_SIZES])
    slope, _ = np.polyfit(sizes, times, 1)
    return {"latency": latency, "bandwidth": 1.0 / slope,
            "times": dict(zip(PING_SIZES, times.tolist()))}


def pingpong(out: str) -> None:
    from mpi4py import MPI

    link = measure_link()
    if MPI.COMM_WORLD.rank == 0:
        with open(out, "w") as f:
            json.dump(link, f)


def _roots(scale: int, count: int) -> list:
    """``count`` search keys of the SCALE graph (the reference's rule)."""
    from pygraph500 import build_csr, choose_roots, kronecker

    return [int(r) for r in choose_roots(build_csr(kronecker(scale)).degree() > 0, (2, 3),
                                         count)]


def _graph(comm, scale: int, count: int):
    """This rank's part of the SCALE graph (1D) and ``count`` search keys."""
    return rank_graph(comm, scale, "1d")[0], _roots(scale, count)


def measured(comm, searcher, root: int) -> float:
    """The slowest rank's wall seconds of one search on the plain communicator."""
    comm.barrier()
    t0 = time.perf_counter()
    searcher.search(root)
    return float(comm.allreduce(time.perf_counter() - t0, "max"))


def _exchanged(summary: dict) -> float:
    """A rank's communication seconds in the exchange's operations (``EXCHANGE_OPS``): what
    the network adds to the time blocked there, not waiting for late peers."""
    return sum(summary["ops"].get(op, {"communication": 0.0})["communication"]
               for op in EXCHANGE_OPS)


def emulated_search(comm, searcher, root: int) -> list:
    """One search on an EmulatedComm: every rank's (virtual seconds, compute, communication,
    wait, bytes, communication in the exchange), gathered on the real communicator (not
    counted)."""
    comm.barrier()
    s0 = comm.summary()
    searcher.search(root)
    s1 = comm.summary()
    mine = [s1[k] - s0[k] for k in ("virtual_time", "compute", "communication", "wait",
                                    "bytes")] + [_exchanged(s1) - _exchanged(s0)]
    return comm.inner.allgather(mine)


def _per_search(per_rank: list) -> list:
    """One search from every rank's (virtual, compute, communication, wait, bytes, exchange's
    communication): the slowest rank's virtual seconds, the busiest rank's compute, the
    ranks' mean communication and waiting, the bytes of all ranks, the ranks' mean exchange
    communication."""
    a = np.array(per_rank, dtype=np.float64)
    return [a[:, 0].max(), a[:, 1].max(), a[:, 2].mean(), a[:, 3].mean(), a[:, 4].sum(),
            a[:, 5].mean()]


def _best(repeats: list) -> list:
    """Of one root's repeated searches (``_per_search`` rows), the fastest: contention with
    other processes only adds to a search's seconds, CPU seconds included."""
    return min(repeats, key=lambda r: r[0])


def mpi_searches(out: str, scale: int, roots: int, repeats: int, latency: float,
                 bandwidth: float, algorithm: str, prune: str) -> None:
    import numba

    from pygraph500.distributed import DistSearcher, world
    from pygraph500.distributed.network import EmulatedComm, Network

    numba.set_num_threads(1)
    comm = world(force=True)
    graph, keys = _graph(comm, scale, roots)
    here = measure_link(500)  # at this P: oversubscribed when P exceeds the cores
    plain = DistSearcher(comm, graph, prune, algorithm)
    wrapped = {c: EmulatedComm(comm, Network(latency, bandwidth, compute=c))
               for c in ("cpu", "wall")}
    wrapped["here"] = EmulatedComm(comm, Network(here["latency"], here["bandwidth"]))
    emulators = {c: DistSearcher(e, graph, prune, algorithm) for c, e in wrapped.items()}
    measured(comm, plain, keys[0])  # warm-up
    rows = []
    for root in keys:
        row = {"root": root, "measured": [], **{c: [] for c in wrapped}}
        for _ in range(repeats):  # interleaved: the machine's load changes alike for all
            row["measured"].append(measured(comm, plain, root))
            for c, e in wrapped.items():
                row[c].append(_per_search(emulated_search(e, emulators[c], root)))
        rows.append(row)
    if comm.rank == 0:
        with open(out, "w") as f:
            json.dump({"link": here, "searches": rows}, f)


def rank_graph(comm, scale: int, partition: str, transpose: bool = False):
    """This rank's part of the Graph500 graph at ``scale``: (graph, None) for 1D, (graph,
    grid) for 2D on the mesh of ``mesh_shape`` (``transpose`` keeps the column lists a
    bottom-up level reads)."""
    from pygraph500.distributed import build_dist, generate_local
    from pygraph500.distributed.build2d import build_2d, mesh_comms
    from pygraph500.distributed.grid import Grid2D, mesh_shape

    edges = generate_local(comm, scale)
    if partition == "1d":
        return build_dist(comm, edges), None
    grid = Grid2D(1 << scale, *mesh_shape(comm.size), comm.rank)
    return build_2d(comm, grid, edges, *mesh_comms(comm, grid), transpose=transpose), grid


def searcher(comm, graph, grid, algorithm: str, pipeline: bool, prune: str = "sort-unique",
             packet_bytes: int | None = None):
    """A searcher over ``comm`` for a graph of ``rank_graph`` (``prune`` is 1D's,
    ``packet_bytes`` 2D's)."""
    from pygraph500.distributed import DistSearcher
    from pygraph500.distributed.build2d import mesh_comms
    from pygraph500.distributed.search2d import Searcher2D

    if grid is None:
        return DistSearcher(comm, graph, prune, algorithm, pipeline=pipeline)
    return Searcher2D(comm, graph, *mesh_comms(comm, grid), algorithm,
                      packet_bytes=packet_bytes, pipeline=pipeline)


def _searchers(comm, scale: int, runs: list, algorithm: str, prune: str, partition: str,
               packet_bytes: int | None):
    """This rank's graph at ``scale`` and, per run (network, exchange), its EmulatedComm and
    searcher (2D with fold packets of ``packet_bytes``)."""
    from pygraph500.distributed.network import EmulatedComm, parse_network

    wrapped = {run: EmulatedComm(comm, parse_network(run[0])) for run in runs}
    graph, grid = rank_graph(comm, scale, partition,
                             transpose=algorithm == "direction-optimizing")
    return wrapped, {run: searcher(e, graph, grid, algorithm, EXCHANGES[run[1]], prune,
                                   packet_bytes)
                     for run, e in wrapped.items()}


def model_rank(comm, scale: int, roots: list, repeats: int, networks: list, algorithm: str,
               prune: str, partition: str = "1d", packet_bytes: int | None = None):
    import numba

    numba.set_num_threads(1)  # thread_time sees the rank's kernels on its own thread
    runs = [(text, exchange) for text in networks for exchange in EXCHANGES]
    wrapped, searchers = _searchers(comm, scale, runs, algorithm, prune, partition,
                                    packet_bytes)
    for searcher in searchers.values():
        for root in roots:  # warm-up: the searcher's buffers grow to their largest level
            searcher.search(root)
    out = {run: [[] for _ in roots] for run in runs}
    for i, root in enumerate(roots):
        for _ in range(repeats):  # interleaved: the machine's load changes alike for all
            for run, e in wrapped.items():
                out[run][i].append(_per_search(emulated_search(e, searchers[run], root)))
    return out


# ---- on the launching process -------------------------------------------------------------------

def validation(args, net: dict) -> list:
    rows = []
    print(f"# ms per search, the mean over {args.roots} roots of each root's {args.repeats} "
          f"searches: measured wall seconds of the slowest rank, the fastest of the "
          f"{args.repeats} (best) and their median (med); predicted (the fastest) at latency "
          f"{net['latency'] * 1e6:.2f} us, bandwidth {net['bandwidth'] / 1e9:.2f} GB/s with "
          f"compute=cpu (its split: the busiest rank's compute, the ranks' mean communication "
          f"and wait) and compute=wall, and (here) with "
          f"compute=cpu at the link a ping-pong measures inside that run; ratio = predicted / "
          f"best")
    print(f"{'P':>3} {'best':>8} {'med':>8} {'cpu':>8} {'ratio':>6} {'comp':>7} {'comm':>7} "
          f"{'wait':>7} {'wall':>8} {'ratio':>6} {'here':>8} {'ratio':>6}  link here")
    for procs in args.procs:
        got = _launch(procs, "--searches", "--scale", str(args.scale), "--roots",
                      str(args.roots), "--repeats", str(args.repeats), "--latency",
                      repr(net["latency"]), "--bandwidth", repr(net["bandwidth"]),
                      "--algorithm", args.algorithm, "--prune", args.prune)
        runs, link = got["searches"], got["link"]
        best = np.mean([min(r["measured"]) for r in runs])
        med = np.mean([np.median(r["measured"]) for r in runs])
        cpu, wall, here = (np.mean([_best(r[c]) for r in runs], axis=0)
                           for c in ("cpu", "wall", "here"))
        print(f"{procs:>3} {best * 1e3:>8.3f} {med * 1e3:>8.3f} {cpu[0] * 1e3:>8.3f} "
              f"{cpu[0] / best:>6.2f} {cpu[1] * 1e3:>7.3f} {cpu[2] * 1e3:>7.3f} "
              f"{cpu[3] * 1e3:>7.3f} {wall[0] * 1e3:>8.3f} {wall[0] / best:>6.2f} "
              f"{here[0] * 1e3:>8.3f} {here[0] / best:>6.2f}  {link['latency'] * 1e6:.2f} us, "
              f"{link['bandwidth'] / 1e9:.2f} GB/s", flush=True)
        rows.append({"procs": procs, **got})
    return rows


def model_table(args) -> list:
    from pygraph500 import build_csr, choose_roots, kronecker
    from pygraph500.distributed import ThreadComm

    keys = [int(r) for r in choose_roots(build_csr(kronecker(args.scale)).degree() > 0, (2, 3),
                                         args.model_roots)]
    print(f"# predicted ms per search (the median over {len(keys)} roots of each root's "
          f"fastest of {args.repeats} searches, after a warm-up search from every root): the "
          f"slowest rank's virtual time, the busiest rank's compute, the ranks' mean "
          f"communication and wait, and mean communication of the exchange (xchg; hidden: "
          f"1 - pipelined / at-once); MB sent by all ranks")
    print(f"{'P':>3} {'part':<4} {'network':<34} {'exchange':<9} {'ms':>9} {'comp':>8} "
          f"{'comm':>8} {'wait':>8} {'xchg':>8} {'hidden':>6} {'MB':>8}")
    rows = []
    for procs in args.model_procs:
        for partition in args.partitions:
            t0 = time.perf_counter()
            ranks = ThreadComm.run(procs, model_rank, args.scale, keys, args.repeats,
                                   args.networks, args.algorithm, args.prune, partition,
                                   args.packet_bytes, timeout=3600.0)
            per = {run: np.median([_best(r) for r in searches], axis=0)
                   for run, searches in ranks[0].items()}
            for (text, exchange), p in per.items():
                off = per[text, "at-once"][5]
                hidden = f"{1 - p[5] / off:>6.2f}" if exchange == "pipelined" and off else ""
                print(f"{procs:>3} {partition:<4} {text:<34} {exchange:<9} {p[0] * 1e3:>9.3f} "
                      f"{p[1] * 1e3:>8.3f} {p[2] * 1e3:>8.3f} {p[3] * 1e3:>8.3f} "
                      f"{p[5] * 1e3:>8.3f} {hidden:>6} {p[4] / 1e6:>8.3f}", flush=True)
                rows.append({"procs": procs, "partition": partition, "network": text,
                             "exchange": exchange, "searches": ranks[0][text, exchange]})
            print(f"#   (P = {procs}, {partition}: {time.perf_counter() - t0:.0f} s of this "
                  f"machine, load average {os.getloadavg()[0]:.2f})", flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=16)
    ap.add_argument("--roots", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--procs", type=int, nargs="*", default=[2, 4])
    ap.add_argument("--model-procs", type=int, nargs="*", default=[2, 4, 8, 16, 32, 64])
    ap.add_argument("--model-roots", type=int, default=8)
    ap.add_argument("--partitions", nargs="+", choices=["1d", "2d"], default=["1d"])
    ap.add_argument("--packet-bytes", type=int, help="2d: the fold's packets (default: "
                    "search2d.PACKET_BYTES, 64 KB)")
    ap.add_argument("--networks", nargs="+", default=NETWORKS)
    ap.add_argument("--algorithm", default="direction-optimizing")
    ap.add_argument("--prune", default="sort-unique")
    ap.add_argument("--json")
    # the parts run by mpiexec
    ap.add_argument("--pingpong", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--searches", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--latency", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--bandwidth", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.pingpong:
        return pingpong(args.out)
    if args.searches:
        return mpi_searches(args.out, args.scale, args.roots, args.repeats, args.latency,
                            args.bandwidth, args.algorithm, args.prune)
    cores = os.cpu_count() or 1
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} {platform.processor() or platform.machine()}, "
          f"{cores} cores, Python {platform.python_version()}; SCALE {args.scale}, "
          f"{args.algorithm}, --prune {args.prune}, 2D packets of "
          f"{args.packet_bytes or 'the default'} bytes, one thread per rank; load average "
          f"{os.getloadavg()[0]:.2f} at the start")
    net = _launch(2, "--pingpong") if args.procs else None
    if net is not None:
        print(f"# ping-pong (mpiexec -n 2): latency {net['latency'] * 1e6:.2f} us, bandwidth "
              f"{net['bandwidth'] / 1e9:.2f} GB/s")
    doc = {"scale": args.scale, "algorithm": args.algorithm, "prune": args.prune,
           "pingpong": net, "validation": validation(args, net) if net else [],
           "model": model_table(args), "load_end": os.getloadavg()[0]}
    print(f"# load average {doc['load_end']:.2f} at the end")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
