"""The determinate BFS of paper 003 (Fresh Breeze, trees of chunks) against our default and
scipy, its task counts against the paper's Table 2, and its Fig. 9-style estimate.

1. **TEPS** at ``--scales`` (default 14 16 18; Graph500 Kronecker, edgefactor 16, seeds 2 3;
   the reference's roots, the first ``--roots``): ``determinate`` with ``--workers`` threads
   (default: numba's), our default (``direction-optimizing``) and scipy's
   ``breadth_first_order(return_predecessors=True)`` on a csr_matrix built once, untimed.
   One warm-up search per system (for determinate it builds the chunk graph: timed apart,
   as "chunk graph"); then one timed search per root. TEPS numerator: the validator's
   ``nedge`` of our default's tree (input tuples in the component), the same for every
   system; harmonic mean = 1 / mean(time / nedge). Every determinate tree is validated and
   compared with the canonical tree of ``direction-optimizing`` with ``deterministic=True``
   (the same rule: the smallest neighbour one level up). Also per search: tasks run,
   chunks allocated, and the time per task (search time x workers / tasks).
2. **Table 2** (``--table2``): tasks per search at 32 .. 1024 vertices (SCALE 5 .. 10,
   edgefactor 8: average degree 16 as the paper's graphs), mean over ``--table2-roots``
   roots: MergeSparseVectors under the search, and UpdateParent's work (the UpdateParent
   task and the MergeSparseVectors it spawns), beside the paper's counts.
3. **Fig. 9-style estimate**: the paper prices each task in cycles of a 1 GHz Fresh Breeze
   core, 40 cores, and divides by measured utilisation (61 % at 1024 vertices). Its
   figure's values are not in the text, so the table gives, with our task counts: the
   cycles per task at which that model reproduces the paper's simulated TEPS (Table 1 x
   40), the model's TEPS at ``--cycles`` cycles per task (default 50: section 2.5's estimate
   for a simple task), what our time per task (SCALE 14, per worker) implies here, and the
   harmonic-mean TEPS measured here (``--workers``, level loop included).

    python benchmarks/bench_determinate.py [--scales 14 16 18] [--roots 4] [--workers W]
                                           [--table2] [--scaling 5 14 16] [--json FILE]

``--scaling``: search time with 1 .. W workers from the highest-degree root (median of 5).

Output: markdown on stdout (for benchmarks/RESULTS.md), progress on stderr.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
from bench_bfs import fmt_ratio, hmean_teps, machine_info  # this folder: one copy of each

# The paper's Table 2 (vertex count: MergeSparseVectors, UpdateParent) and Table 1 (TEPS per
# core, 40 simulated cores).
PAPER_TABLE2 = {32: (18, 5), 64: (49, 12), 128: (147, 26), 256: (426, 42), 512: (1417, 97),
                1024: (4106, 167)}
PAPER_TEPS_PER_CORE = {32: 150399, 64: 218644, 128: 300782, 256: 310549, 512: 300980,
                       1024: 242748}
PAPER_CORES = 40
PAPER_UTILISATION = 0.61


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _tasks(levels, prefix="") -> int:
    return int(sum(np.sum(v) for k, v in levels.extra.items()
                   if k.startswith(prefix or ("tasks_", "update_"))))


def teps_table(scale: int, args) -> dict:
    import scipy.sparse as sp
    from scipy.sparse.csgraph import breadth_first_order

    from pygraph500.benchmark.roots import choose_roots
    from pygraph500.bfs import ALGORITHMS
    from pygraph500.generator import kronecker
    from pygraph500.graph import build_csr
    from pygraph500.validate import validate

    edges = kronecker(scale, 16, (2, 3))
    g = build_csr(edges)
    roots = [int(r) for r in choose_roots(g.degree() > 0)[:args.roots]]
    a = sp.csr_matrix((np.ones(g.num_directed_edges, np.int8), g.indices, g.indptr),
                      shape=(g.num_vertices,) * 2)
    default = ALGORITHMS["direction-optimizing"]
    det = ALGORITHMS["determinate"]
    doc = {"scale": scale, "roots": roots, "load": os.getloadavg()[0]}
    default(g, roots[0])
    breadth_first_order(a, roots[0], directed=False, return_predecessors=True)
    t0 = time.perf_counter()
    det(g, roots[0], workers=args.workers)
    doc["chunk_graph_s"] = time.perf_counter() - t0  # the chunk graph, then one search
    from pygraph500.bfs.determinate import chunk_graph
    doc["graph_chunks"] = chunk_graph(g).graph_chunks
    times = {"determinate": [], "default": [], "scipy": []}
    nedge, tasks, chunks = [], [], []
    for r in roots:
        _log(f"SCALE {scale} root {r}")
        t0 = time.perf_counter()
        res = det(g, r, workers=args.workers, depth=False)
        times["determinate"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        default(g, r, depth=False)
        times["default"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        breadth_first_order(a, r, directed=False, return_predecessors=True)
        times["scipy"].append(time.perf_counter() - t0)
        report = validate(edges, res.parent, r)
        assert report.valid, report.message
        canon = default(g, r, deterministic=True).parent
        assert np.array_equal(canon, res.parent), "determinate differs from deterministic"
        nedge.append(report.nedge)
        tasks.append(_tasks(res.levels))
        chunks.append(int(np.sum(res.levels.extra["chunks"])))
    doc["times"] = times
    doc["nedge"] = nedge
    doc["tasks"] = tasks
    doc["chunks"] = chunks
    doc["hmean_teps"] = {k: hmean_teps(v, nedge) for k, v in times.items()}
    doc["ns_per_task"] = float(np.median(np.array(times["determinate"]) * args.workers
                                         / np.array(tasks)) * 1e9)
    return doc


def worker_scaling(scale: int, ef: int, workers: int) -> dict:
    """Median of 5 searches from the highest-degree root with 1 .. ``workers`` workers."""
    from pygraph500.bfs import ALGORITHMS
    from pygraph500.generator import kronecker
    from pygraph500.graph import build_csr

    g = build_csr(kronecker(scale, ef, (2, 3)))
    root = int(np.argmax(g.degree()))
    out = {}
    for w in range(1, workers + 1):
        ALGORITHMS["determinate"](g, root, workers=w)
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            ALGORITHMS["determinate"](g, root, workers=w, depth=False)
            times.append(time.perf_counter() - t0)
        out[w] = float(np.median(times))
    return out


def table2(args) -> list[dict]:
    from pygraph500.benchmark.roots import choose_roots
    from pygraph500.bfs import ALGORITHMS
    from pygraph500.generator import kronecker
    from pygraph500.graph import build_csr
    from pygraph500.validate import validate

    rows = []
    for scale in range(5, 11):
        edges = kronecker(scale, 8, (2, 3))
        g = build_csr(edges)
        roots = [int(r) for r in choose_roots(g.degree() > 0)[:args.table2_roots]]
        msv, upd, allt, reached, nedge, secs = [], [], [], [], [], []
        ALGORITHMS["determinate"](g, roots[0], workers=args.workers)  # the chunk graph
        for r in roots:
            t0 = time.perf_counter()
            res = ALGORITHMS["determinate"](g, r, workers=args.workers)
            secs.append(time.perf_counter() - t0)
            x = res.levels.extra
            msv.append(int(np.sum(x["tasks_MergeSparseVectors"])))
            upd.append(int(np.sum(x["update_UpdateParent"]))
                       + int(np.sum(x.get("update_MergeSparseVectors", 0))))
            allt.append(_tasks(res.levels))
            reached.append(int((res.parent >= 0).sum()))
            nedge.append(validate(edges, res.parent, r).nedge)
        n = 1 << scale
        rows.append({"vertices": n, "msv": float(np.mean(msv)), "update": float(np.mean(upd)),
                     "tasks": float(np.mean(allt)), "reached": float(np.mean(reached)),
                     "nedge": float(np.mean(nedge)), "levels": len(res.levels),
                     "hmean_teps": hmean_teps(secs, nedge),
                     "edges_generated": int(edges.num_edges)})
    return rows


def main(argv=None) -> None:
    import numba

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scales", type=int, nargs="*", default=[14, 16, 18])
    p.add_argument("--roots", type=int, default=4)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--table2", action="store_true", help="also the paper's Table 2 and Fig. 9")
    p.add_argument("--table2-roots", type=int, default=16)
    p.add_argument("--cycles", type=float, default=50.0)
    p.add_argument("--scaling", type=int, nargs="*", metavar="SCALE",
                   help="also time 1 .. --workers workers from the highest-degree root at these "
                        "scales (5 means 32 vertices, edgefactor 8: the per-level hand-off)")
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args(argv)
    args.workers = args.workers or numba.get_num_threads()
    info = machine_info()
    print(f"Machine: {info['cpu']}, {info['cores']} cores, {info['memory']}; {info['date']}; "
          f"workers {args.workers}, numba threads {numba.get_num_threads()}\n")
    if args.scaling:
        print("| SCALE | " + " | ".join(f"{w} worker{'s' * (w > 1)} ms" for w in
                                       range(1, args.workers + 1)) + " | speed-up |")
        print("|---|" + "---|" * (args.workers + 1))
        for sc in args.scaling:
            t = worker_scaling(sc, 8 if sc <= 10 else 16, args.workers)
            print(f"| {sc} | " + " | ".join(f"{t[w] * 1e3:.2f}" for w in t)
                  + f" | {t[1] / t[args.workers]:.2f} |")
        print()
    docs = [teps_table(s, args) for s in args.scales]
    print("| SCALE | chunk graph (build + 1st search) | graph chunks | determinate MTEPS | "
          "default MTEPS | scipy MTEPS | default / determinate | scipy / determinate | "
          "tasks per search | chunks per search | ns per task x worker | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d in docs:
        h = d["hmean_teps"]
        print(f"| {d['scale']} | {d['chunk_graph_s']:.2f} s | {d['graph_chunks']:,} "
              f"({d['graph_chunks'] * 128 / 2**20:.0f} MiB) | {h['determinate'] / 1e6:.3f} | "
              f"{h['default'] / 1e6:.1f} | {h['scipy'] / 1e6:.1f} | "
              f"{fmt_ratio(h['default'] / h['determinate'])} | "
              f"{fmt_ratio(h['scipy'] / h['determinate'])} | {np.mean(d['tasks']):,.0f} | "
              f"{np.mean(d['chunks']):,.0f} | {d['ns_per_task']:.0f} | {d['load']:.2f} |")
    out = {"machine": info, "teps": docs}
    if args.table2:
        rows = table2(args)
        ns = docs[0]["ns_per_task"] if docs else float("nan")
        print("\n| vertices | paper MergeSparseVectors | ours | paper UpdateParent | ours | "
              "ours: all tasks | levels | reached | nedge | paper simulated TEPS (Table 1 x 40) "
              "| cycles per task that gives it | estimate at "
              f"{args.cycles:.0f} cycles per task | here, from counts x ns per task | "
              "here, measured |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            pm, pu = PAPER_TABLE2[r["vertices"]]
            busy = PAPER_CORES * PAPER_UTILISATION * 1e9  # task cycles per second
            fb = r["nedge"] * busy / (r["tasks"] * args.cycles)
            paper = PAPER_TEPS_PER_CORE[r["vertices"]] * PAPER_CORES
            implied = r["nedge"] * busy / (r["tasks"] * paper)
            here = r["nedge"] / (r["tasks"] * ns / 1e9 / args.workers)
            print(f"| {r['vertices']} | {pm} | {r['msv']:.0f} | {pu} | {r['update']:.0f} | "
                  f"{r['tasks']:.0f} | {r['levels']} | {r['reached']:.0f} | {r['nedge']:.0f} | "
                  f"{paper / 1e6:.1f} M | {implied:.0f} | {fb / 1e6:.0f} M | "
                  f"{here / 1e6:.1f} M | {r['hmean_teps'] / 1e6:.2f} M |")
        out["table2"] = rows
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1, default=float)


if __name__ == "__main__":
    main()
