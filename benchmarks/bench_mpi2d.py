"""1D against 2D partitioning (paper 001) under mpiexec on this machine, and a simulation of
the bytes each process sends at P = 64..4096.

Part 1, measured: for every SCALE and P, one ``mpiexec -n P python -m pygraph500 run --json``
with ``--partition 1d`` (``--distributed``) and one with ``--partition 2d`` (mesh of
``distributed.grid.mesh_shape``: 1x1, 1x2, 2x2, 2x3), for direction-optimizing (the
default) and topdown-queue (every level top-down, as paper 001's U-BFS), one thread per
process, every tree validated; at P = 4 also 2D with ``--compress none``, at P = 2 also the
2x1 mesh; and the embedded default on 2 threads. Per run: harmonic-mean TEPS, comp / comm ms per search (the sum over
levels, mean over processes, median over searches), and bytes per traversed edge (all
processes and searches, over the TEPS numerators): expand (frontier allgathers), fold sent,
the fold's pairs uncompressed (two vertex ids each; ``--fold paper``: every edge sent and
16 bytes a raw pair, as paper 001), and all bytes sent; the median
validation seconds per root and kernel 1's seconds (construction_time). Then the per-level
table of the first search at P = 4 for both partitions.

Part 2, simulated (``--model``): every BFS level of the first ``--model-roots`` searches of the
SCALE graph, embedded (default algorithm: which levels run top-down and which bottom-up), and
for each P and each partition the bytes every process would send, counted exactly on the
graph's edges:

- 1D top-down: one pair (8 bytes) per distinct (owner of u, v) with v remote, u in the
  frontier (sort-unique keeps one pair per vertex per process and level).
- 1D bottom-up: the frontier bitmap allgathered: N / P bits from each process to P - 1.
- 2D top-down: expand, each process's frontier part (4 bytes a vertex or its bitmap, whichever
  is smaller) to R - 1 processes; fold, one pair per distinct (edge-block rank, v) with v not
  that rank's own, at the compressed bytes per pair measured in part 1 (``--pair-bytes``).
- 2D bottom-up: expand as above, the done bitmaps handed round the row (C - 1 of L bits a
  process), and one pair for each vertex found whose owner has no frontier neighbour of it
  in its own processor-column (the owner looks first; the next process finds the rest).

Assumptions: the strong scaling of one graph (the measured SCALE), pruning within a level
only (the 2D sent-bitmap also prunes across levels: the 2D figures are upper bounds),
collectives counted as each process's part times its peers (ring allgather), no headers.

    python benchmarks/bench_mpi2d.py [--scales 18 20] [--procs 1 2 4 6] [--roots 16]
        [--fold paper] [--model --model-scale 20 --model-procs 64 256 1024 4096]
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mpi import _mpiexec, run_json  # noqa: E402


def embedded(scale: int, roots: int, threads: int) -> float:
    """The embedded default's harmonic-mean TEPS on ``threads`` threads."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        doc, _ = run_json([sys.executable, "-m", "pygraph500", "run", "--scale", str(scale),
                           "--roots", str(roots), "--threads", str(threads), "--json", out,
                           "--quiet"], out)
    return doc["official"]["bfs  harmonic_mean_TEPS"]


def run(procs: int, scale: int, roots: int, partition: str, compress: str | None,
        algorithm: str, grid: str | None = None, fold: str | None = None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [_mpiexec(), "-n", str(procs), sys.executable, "-m", "pygraph500", "run",
               "--scale", str(scale), "--roots", str(roots), "--threads", "1", "--json", out,
               "--quiet", "--partition", partition, "--algorithm", algorithm]
        cmd += ["--distributed"] if partition == "1d" else []
        cmd += ["--compress", compress] if compress else []
        cmd += ["--grid", grid] if grid else []
        cmd += ["--fold", fold] if fold and partition == "2d" else []
        doc, wall = run_json(cmd, out)
    off = doc["official"]
    comp, comm = [], []
    tot = dict(expand=0, fold=0, raw=0, sent=0, pairs=0)
    nedge = 0
    for r in doc["runs"]:
        lv = r["levels"]
        size = len(lv[0]["per_rank"]["queue"])
        comp.append(np.mean([sum(x["per_rank"]["comp_time"][k] for x in lv) for k in range(size)]))
        comm.append(np.mean([sum(x["per_rank"]["comm_time"][k] for x in lv) for k in range(size)]))
        for x in lv:
            tot["expand"] += x["expand_bytes"]
            tot["fold"] += x["fold_bytes"]
            tot["raw"] += x["fold_bytes_raw"]
            tot["sent"] += x["sent_bytes"]
            tot["pairs"] += x["sent"]
        nedge += r["nedge"]
    grid = doc["parameters"].get("grid", [1, procs])
    return {"procs": procs, "scale": scale, "partition": partition, "algorithm": algorithm,
            "grid": f"{grid[0]}x{grid[1]}" if partition == "2d" else "-",
            "compress": compress or ("vlq" if partition == "2d" else "-"),
            "teps": off["bfs  harmonic_mean_TEPS"], "construction": off["construction_time"],
            "validate": off["bfs  median_validate"], "wall": wall,
            "comp_ms": 1e3 * float(np.median(comp)), "comm_ms": 1e3 * float(np.median(comm)),
            "nedge": nedge, **{k + "_per_edge": v / nedge for k, v in tot.items()},
            "pair_bytes": tot["fold"] / tot["pairs"] if tot["pairs"] else 0.0,
            "first_levels": doc["runs"][0]["levels"]}


def table(rows: list[dict]) -> str:
    head = ("| SCALE | algorithm | P | partition | mesh | compress | MTEPS | comp ms | comm ms | expand B/edge "
            "| fold B/edge | fold raw B/edge | all sent B/edge | fold B/pair | validate s | construction s |")
    lines = [head, "|---" * (head.count("|") - 1) + "|"]
    for r in rows:
        lines.append(
            f"| {r['scale']} | {r['algorithm']} | {r['procs']} | {r['partition']} | {r['grid']} | {r['compress']} | "
            f"{r['teps'] / 1e6:.1f} | {r['comp_ms']:.1f} | {r['comm_ms']:.1f} | "
            f"{r['expand_per_edge']:.3f} | {r['fold_per_edge']:.3f} | {r['raw_per_edge']:.3f} | "
            f"{r['sent_per_edge']:.3f} | {r['pair_bytes']:.2f} | {r['validate']:.3f} | "
            f"{r['construction']:.2f} |")
    return "\n".join(lines)


def level_table(r: dict) -> str:
    head = ("| level | dir | frontier | discovered | expand B | fold B | fold raw B | comp ms "
            "| comm ms |")
    lines = [f"{r['algorithm']}, {r['partition']}, P = {r['procs']} {r['grid']}, SCALE "
             f"{r['scale']}, first search:",
             "", head, "|---" * (head.count("|") - 1) + "|"]
    for x in r["first_levels"]:
        lines.append(f"| {x['level']} | {x['direction']} | {x['frontier']:,} | "
                     f"{x['discovered']:,} | {x['expand_bytes']:,} | {x['fold_bytes']:,} | "
                     f"{x['fold_bytes_raw']:,} | {x['comp_time'] * 1e3:.2f} | "
                     f"{x['comm_time'] * 1e3:.2f} |")
    return "\n".join(lines)


def simulate(scale: int, procs: list[int], roots: int, pair_bytes: float) -> list[dict]:
    """Bytes per process per search (mean over the roots) for 1D and 2D at every P."""
    from pygraph500 import bfs, build_csr, kronecker
    from pygraph500.bfs import ALGORITHMS
    from pygraph500.benchmark.roots import choose_roots
    from pygraph500.distributed.grid import mesh_shape

    csr = build_csr(kronecker(scale))
    n = csr.num_vertices
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(csr.indptr))
    dst = csr.indices.astype(np.int64)
    keys = choose_roots(np.diff(csr.indptr) > 0, (2, 3), roots)
    out = {p: {"1d": 0.0, "2d": 0.0} for p in procs}
    for root in keys:
        depth = np.asarray(bfs(csr, int(root)).distances)
        dirs = ALGORITHMS["direction-optimizing"](csr, int(root)).levels.direction_code
        dsrc, ddst = depth[src], depth[dst]
        for level, code in enumerate(dirs):
            front = np.flatnonzero(depth == level)
            if code == 0:   # top-down: entries u -> v from the frontier
                m = dsrc == level
                u, v = src[m], dst[m]
            else:           # bottom-up: v found this level, u its frontier neighbours
                m = (ddst == level) & (dsrc == level + 1)
                v, u = src[m], dst[m]
            for p in procs:
                r, c = mesh_shape(p)
                block = -(-n // p)
                if code == 0:
                    ou, ov = u % p, v % p
                    remote = ou != ov
                    pairs1 = np.unique(ou[remote] * n + v[remote]).shape[0]
                    bytes1 = 8.0 * pairs1
                    rank2 = ((u % p) // r) * r + ov % r
                    keep = rank2 != ov
                    pairs2 = np.unique(rank2[keep] * n + v[keep]).shape[0]
                else:
                    bytes1 = (p - 1) * block / 8.0 * p  # every process's bitmap to P - 1
                    # the owner looks first: a pair only for v without a frontier neighbour
                    # in the owner's processor-column
                    has_own = np.zeros(n, dtype=bool)
                    has_own[v[(u % p) // r == (v % p) // r]] = True
                    found = np.unique(v)
                    pairs2 = int((~has_own[found]).sum())
                fpart = np.bincount(front % p, minlength=p)
                expand = np.minimum(4.0 * fpart, block / 8.0).sum() * (r - 1)
                if code == 1:
                    expand += p * block / 8.0 * (c - 1)
                out[p]["1d"] += bytes1 / p
                out[p]["2d"] += (expand + pair_bytes * pairs2) / p
    return [{"procs": p, "mesh": "%dx%d" % mesh_shape(p), "bytes_1d": out[p]["1d"] / len(keys),
             "bytes_2d": out[p]["2d"] / len(keys)} for p in procs]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[18, 20])
    ap.add_argument("--procs", type=int, nargs="+", default=[1, 2, 4, 6])
    ap.add_argument("--algorithms", nargs="+", default=["direction-optimizing", "topdown-queue"])
    ap.add_argument("--roots", type=int, default=16)
    ap.add_argument("--no-runs", action="store_true", help="only the simulation")
    ap.add_argument("--model", action="store_true", help="also the simulation of part 2")
    ap.add_argument("--model-scale", type=int, default=20)
    ap.add_argument("--model-roots", type=int, default=4)
    ap.add_argument("--model-procs", type=int, nargs="+",
                    default=[4, 16, 64, 256, 1024, 4096])
    ap.add_argument("--fold", choices=["dedup", "paper"], default=None,
                    help="the 2D runs' --fold (default: the engine's, dedup; paper: every "
                         "edge sent, raw pairs at 16 bytes, as paper 001)")
    ap.add_argument("--pair-bytes", type=float, default=None,
                    help="2D fold bytes per pair in the simulation (default: measured)")
    args = ap.parse_args()
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}; {args.roots} roots, "
          f"every tree validated; 1 thread per process; load {os.getloadavg()[0]:.2f}")
    rows = []
    if not args.no_runs:
        peer = {scale: embedded(scale, args.roots, 2) for scale in args.scales}
        for algorithm in args.algorithms:
            for scale in args.scales:
                for p in args.procs:
                    extra = [("2d", "none", None)] if p == 4 else []
                    extra += [("2d", None, "2x1")] if p == 2 else []
                    for partition, compress, grid in [("1d", None, None), ("2d", None, None)] \
                            + extra:
                        row = run(p, scale, args.roots, partition, compress, algorithm, grid,
                                  args.fold)
                        rows.append(row)
                        print(f"# done: {algorithm} SCALE {scale} P={p} {partition} "
                              f"{compress or ''}: {row['teps'] / 1e6:.1f} MTEPS, wall "
                              f"{row['wall']:.0f} s", flush=True)
        print()
        print(table(rows))
        print()
        for r in rows:
            if (r["procs"] == 4 and r["scale"] == min(args.scales) and r["compress"] != "none"
                    and r["algorithm"] == args.algorithms[0]):
                print(level_table(r))
                print()
        print("#### Targets")
        for algorithm, scale in [(a, s) for a in args.algorithms for s in args.scales]:
            get = {(r["procs"], r["partition"], r["compress"]): r for r in rows
                   if r["scale"] == scale and r["algorithm"] == algorithm
                   and r["grid"] != "2x1"}
            vlq, none = get.get((4, "2d", "vlq")), get.get((4, "2d", "none"))
            if vlq and none and none["raw_per_edge"]:
                print(f"- {algorithm}, SCALE {scale}, P = 4: fold bytes with VLQ / uncompressed = "
                      f"{vlq['fold_per_edge'] / vlq['raw_per_edge']:.3f} (target <= 0.45; the "
                      f"paper: about 1/3); --compress none sends "
                      f"{none['fold_per_edge'] / none['raw_per_edge']:.3f} of it (headers)")
            for r in rows:
                if (r["scale"], r["algorithm"], r["procs"], r["partition"]) == (
                        scale, algorithm, 2, "2d") and r["compress"] == "vlq":
                    print(f"- {algorithm}, SCALE {scale}, P = 2 ({r['grid']}, 1 thread each): "
                          f"hmean TEPS / embedded default on 2 threads "
                          f"({peer[scale] / 1e6:.1f} MTEPS) = {r['teps'] / peer[scale]:.2f} "
                          f"(target >= 0.5)")
            for p in (4, 6):
                one, two = get.get((p, "1d", "-")), get.get((p, "2d", "vlq"))
                if one and two:
                    print(f"- {algorithm}, SCALE {scale}, P = {p}: bytes sent per traversed edge, "
                          f"2D / 1D = "
                          f"{two['sent_per_edge'] / one['sent_per_edge']:.3f} (target <= 0.7)")
        print()
    if args.model:
        measured = [r["pair_bytes"] for r in rows if r["partition"] == "2d"
                    and r["compress"] == "vlq" and r["pair_bytes"] > 0
                    and r["algorithm"] == "direction-optimizing"]  # what the model runs
        pb = args.pair_bytes or (float(np.mean(measured)) if measured else 3.0)
        sim = simulate(args.model_scale, args.model_procs, args.model_roots, pb)
        print(f"#### Simulated bytes per process per search, SCALE {args.model_scale} "
              f"({args.model_roots} roots; 2D fold at {pb:.2f} bytes a pair)")
        print()
        print("| P | mesh | 1D MB | 2D MB | 2D / 1D |")
        print("|---|---|---|---|---|")
        for s in sim:
            print(f"| {s['procs']} | {s['mesh']} | {s['bytes_1d'] / 1e6:.3f} | "
                  f"{s['bytes_2d'] / 1e6:.3f} | {s['bytes_2d'] / max(s['bytes_1d'], 1):.3f} |")


if __name__ == "__main__":
    main()
