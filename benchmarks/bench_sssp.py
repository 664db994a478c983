"""SSSP (Graph500 kernel 3) side by side: our algorithms and the Python graph libraries on the
same weighted graphs and the same roots.

Graphs: Graph500 Kronecker graphs (edgefactor 16, seeds 2 and 3) with the Graph500 weights
(``kronecker(..., weights=True)``: the reference's float32 draw per tuple, uniform in [0, 1])
at ``--scales``, kernel 1 (``build_csr``: symmetric, self-loops dropped, the lightest weight
of duplicates), the reference's search keys (``choose_roots``; ``--roots K``: the first K);
optionally (``--high-diameter``) a 1000 x 1000 grid and a path of 1,000,000 vertices with
uniform [0, 1) float32 weights (roots: a corner or end, and the middle).

Systems, each on the same weighted CSR:

- ours: every algorithm of ``pygraph500.sssp.ALGORITHMS`` (or ``--algorithms``), numba's
  threads (2 on the development VM); with ``--one-thread`` the default one on one thread too;
- ``scipy``: ``scipy.sparse.csgraph.dijkstra(A, indices=root, min_only=True)`` on a
  ``csr_matrix`` with float64 data and int32 indices built once, untimed (what csgraph works
  on, so the call converts nothing);
- ``networkit``: ``networkit.distance.Dijkstra(G, root, storePaths=False).run()`` (serial;
  networkit has no parallel SSSP), ``G`` built once from the same edges, untimed.
- python-graphblas has no SSSP of its own (graphblas-algorithms would): not run.

Timing: one warm-up search per system and graph, then one timed search per root
(``time.perf_counter`` around the call only), at most ``--budget`` seconds of timed searches
per system and graph (the roots are cut to what fits; the table says how many ran). Every
result is checked untimed against scipy's distances on the first root and against ours
(reached set, distances within rtol 1e-5; 1e-2 on the grid and the path, where float32 sums
over up to half a million hops part from float64 ones) on every root a system ran.
``bellman-ford`` (one round per hop) is left out of the grid and the path unless named. TEPS as Graph500 counts
them for kernel 3: the numerator of a root is the number of input tuples with both ends
reached, self-loops not counted (``count_component_edges`` with our parent array), the same
for every system; harmonic mean = 1 / mean(time / nedge). ``/ scipy`` is the system's
harmonic-mean TEPS over scipy's on the roots both ran (> 1: faster than scipy).

The load average (``os.getloadavg``) is printed before every graph: the development VM is
shared, and a busy second core slows every parallel phase. As ``graph500 run`` does, the
script makes the threads wait with a bounded spin when other processes hold the cores at
its start (``backend.threads.shared_machine``; the output says so).

    python benchmarks/bench_sssp.py [--scales 18 20 22] [--roots K] [--budget S]
                                    [--high-diameter] [--peers scipy networkit] [--one-thread]
                                    [--json FILE]

Output: markdown tables on stdout (paste into benchmarks/RESULTS.md), progress on stderr.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time

import numpy as np
from bench_bfs import (fmt_ratio, hmean_teps, machine_info,  # this folder: one copy of each
                       pick_algorithms)

PEERS = ["scipy", "networkit"]
PEER_THREADS = 1  # both peers' SSSP are serial


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---- graphs ------------------------------------------------------------------------------------

def make_graph(spec: dict):
    """(edges, graph, roots, root labels) of a graph spec."""
    from pygraph500.benchmark.roots import choose_roots
    from pygraph500.generator import kronecker
    from pygraph500.graph import EdgeList, build_csr

    kind = spec["kind"]
    rng = np.random.default_rng(12345)
    if kind == "kronecker":
        edges = kronecker(spec["scale"], 16, weights=True)
        graph = build_csr(edges)
        roots = choose_roots(graph.degree() > 0)[:spec["roots"]]
        return edges, graph, [int(r) for r in roots], [str(int(r)) for r in roots]
    if kind == "grid":
        s = spec["side"]
        ids = np.arange(s * s, dtype=np.int64).reshape(s, s)
        src = np.concatenate((ids[:, :-1].ravel(), ids[:-1, :].ravel()))
        dst = np.concatenate((ids[:, 1:].ravel(), ids[1:, :].ravel()))
        roots, labels = [0, (s // 2) * s + s // 2], ["corner", "centre"]
        n = s * s
    else:
        n = spec["n"]
        src = np.arange(n - 1, dtype=np.int64)
        dst = src + 1
        roots, labels = [0, n // 2], ["end", "middle"]
    edges = EdgeList(src, dst, n, rng.random(src.shape[0], dtype=np.float32))
    return edges, build_csr(edges), roots, labels


def graph_title(spec: dict) -> str:
    if spec["kind"] == "kronecker":
        return f"Kronecker SCALE {spec['scale']}, edgefactor 16, Graph500 weights"
    if spec["kind"] == "grid":
        return f"grid {spec['side']} x {spec['side']}, uniform [0, 1) weights"
    return f"path of {spec['n']:,} vertices, uniform [0, 1) weights"


# ---- systems: prepare (untimed) -> search (timed) -> distances (untimed) -----------------------

class Ours:
    def __init__(self, algo, threads=None):
        import numba
        from pygraph500.sssp import ALGORITHMS

        self.name = f"ours: {algo}" + (f", {threads} thread" if threads else "")
        self.algo = algo
        self.fn = ALGORITHMS[algo]
        self.limit = threads  # None: numba's threads
        # dijkstra is serial, bellman-ford NumPy (one thread); delta-stepping uses numba's
        self.threads = (1 if algo in ("dijkstra", "bellman-ford")
                        else threads or numba.get_num_threads())

    def prepare(self, graph, edges):
        self.graph = graph

    def search(self, root):
        if self.limit is None:
            return self.fn(self.graph, root)
        import numba

        old = numba.get_num_threads()
        numba.set_num_threads(self.limit)
        try:
            return self.fn(self.graph, root)
        finally:
            numba.set_num_threads(old)

    def distances(self, res):
        return res.distance.astype(np.float64)


class Scipy:
    name = "scipy"
    threads = 1

    def prepare(self, graph, edges):
        import scipy.sparse as sp
        from scipy.sparse.csgraph import dijkstra

        n = graph.num_vertices
        self.a = sp.csr_matrix((graph.weights.astype(np.float64), graph.indices, graph.indptr),
                               shape=(n, n))
        self.dijkstra = dijkstra

    def search(self, root):
        return self.dijkstra(self.a, indices=root, min_only=True)

    def distances(self, res):
        return res


class NetworKit:
    name = "networkit"
    threads = 1

    def prepare(self, graph, edges):
        import networkit as nk

        n = graph.num_vertices
        rows = np.repeat(np.arange(n, dtype=np.uint64), np.diff(graph.indptr))
        keep = rows < graph.indices
        self.nk = nk
        self.g = nk.Graph(n, weighted=True, directed=False)
        self.g.addEdges((graph.weights[keep].astype(np.float64),
                         (rows[keep], graph.indices[keep].astype(np.uint64))))

    def search(self, root):
        d = self.nk.distance.Dijkstra(self.g, root, storePaths=False)
        d.run()
        return d

    def distances(self, res):
        d = np.asarray(res.getDistances(), dtype=np.float64)
        d[d >= np.finfo(np.float64).max] = np.inf
        return d


# ---- one graph ---------------------------------------------------------------------------------

def run_graph(spec: dict, systems: list, args) -> dict:
    from pygraph500.sssp import ALGORITHMS, DEFAULT_ALGORITHM
    from pygraph500.validate.bfs_tree import count_component_edges

    title = graph_title(spec)
    load = os.getloadavg()
    _log(f"== {title} (load average {load[0]:.2f})")
    t0 = time.perf_counter()
    edges, graph, roots, labels = make_graph(spec)
    doc = {"title": title, "spec": spec, "load_before": load, "num_vertices": graph.num_vertices,
           "num_tuples": edges.num_edges, "num_directed_edges": graph.num_directed_edges,
           "setup_s": time.perf_counter() - t0, "roots": roots, "root_labels": labels,
           "systems": {}}
    # numerators and the reference distances (untimed): our default algorithm, checked
    # against scipy on the first root below
    ref, nedge, reached = [], [], []
    for r in roots:
        res = ALGORITHMS[DEFAULT_ALGORITHM](graph, r)
        nedge.append(count_component_edges(edges, res.parent))
        reached.append(res.num_reached)
        ref.append(res.distance.astype(np.float64))
    doc.update(nedge=nedge, reached=reached)
    _log(f"[{title}] {len(roots)} roots, setup {doc['setup_s']:.1f} s")
    # float32 sums (ours) against float64 ones (the peers): rounding grows with the hops of a
    # path, a few on a Kronecker graph, up to half a million on the path
    rtol = 1e-5 if spec["kind"] == "kronecker" else 1e-2
    for sysobj in systems:
        if spec["kind"] != "kronecker" and getattr(sysobj, "algo", "") == "bellman-ford" \
                and not args.algorithms:
            doc["systems"][sysobj.name] = {
                "system": sysobj.name, "status": "skipped",
                "reason": "one round per hop of the longest shortest path (a million on the "
                          "path): name it with --algorithms to run it"}
            continue
        out = {"system": sysobj.name, "threads": sysobj.threads}
        doc["systems"][sysobj.name] = out
        try:
            t0 = time.perf_counter()
            sysobj.prepare(graph, edges)
            out["build_s"] = time.perf_counter() - t0
            gc.collect()
            t0 = time.perf_counter()
            res = sysobj.search(roots[0])  # warm-up (and compile, for ours)
            warm = time.perf_counter() - t0
            if sysobj.name == "scipy":
                _check(sysobj.distances(res), ref[0], "scipy vs ours", rtol)
            if warm > args.budget:
                out.update(status="skipped", reason=f"the warm-up search took {warm:.0f} s, "
                                                    f"more than the {args.budget:g} s budget")
                continue
            times = []
            spent = 0.0
            for i, r in enumerate(roots):
                if i and spent + max(times) > args.budget:
                    break
                t0 = time.perf_counter()
                res = sysobj.search(r)
                dt = time.perf_counter() - t0
                times.append(dt)
                spent += dt
                _check(sysobj.distances(res), ref[i], f"{sysobj.name}, root {r}", rtol)
                del res
            out.update(status="ok", times=times, warmup_s=warm)
            _log(f"[{title}] {sysobj.name}: {len(times)} roots, median "
                 f"{np.median(times) * 1e3:.1f} ms")
        except Exception as exc:  # one system failing must not lose the others' figures
            out.update(status="failed", reason=f"{type(exc).__name__}: {exc}")
            _log(f"[{title}] {sysobj.name} FAILED: {out['reason']}")
        finally:
            for attr in ("graph", "a", "g"):
                if hasattr(sysobj, attr):
                    setattr(sysobj, attr, None)
            gc.collect()
    doc["load_after"] = os.getloadavg()
    return doc


def _check(dist, ref, what: str, rtol: float) -> None:
    fin = np.isfinite(ref)
    if not np.array_equal(np.isfinite(dist), fin):
        raise AssertionError(f"{what}: reached sets differ")
    if not np.allclose(dist[fin], ref[fin], rtol=rtol, atol=1e-6):
        raise AssertionError(f"{what}: distances differ (rtol {rtol:g})")




def print_graph(doc: dict, default: str) -> None:
    print(f"\n### {doc['title']}\n")
    ns = len(doc["roots"])
    lb, la = doc["load_before"], doc["load_after"]
    print(f"N = {doc['num_vertices']:,}, {doc['num_tuples']:,} input tuples, "
          f"{doc['num_directed_edges']:,} adjacency entries, {ns} roots, reached "
          f"{min(doc['reached']):,}-{max(doc['reached']):,} vertices. Load average before / "
          f"after: {lb[0]:.2f} / {la[0]:.2f} (1 min).\n")
    sc = doc["systems"].get("scipy")
    sc_t = sc["times"] if sc and sc.get("status") == "ok" else None
    kron = doc["spec"]["kind"] == "kronecker"
    if kron:
        print("| system | threads | roots | hmean MTEPS | median ms | / scipy |")
        print("|---|---|---|---|---|---|")
    else:
        labels = doc["root_labels"]
        print("| system | threads | " + " | ".join(f"ms, {x}" for x in labels) + " | / scipy |")
        print("|---" * (3 + len(labels)) + "|")
    notes = []
    for name, r in doc["systems"].items():
        if r.get("status") != "ok":
            notes.append(f"- {name}: {r.get('status')}: {r.get('reason', '')}")
            continue
        t = r["times"]
        k = len(t)
        teps = hmean_teps(t, doc["nedge"])
        r.update(hmean_teps=teps, median_s=float(np.median(t)))
        label = f"**{name}** (default)" if name == f"ours: {default}" else name
        ratio = float("nan")
        if sc_t:
            common = min(k, len(sc_t))
            ratio = hmean_teps(t[:common], doc["nedge"]) / hmean_teps(sc_t[:common], doc["nedge"])
        r["over_scipy"] = ratio
        if kron:
            print(f"| {label} | {r['threads']} | {k if k == ns else f'{k}/{ns}'} | "
                  f"{teps / 1e6:.1f} | {np.median(t) * 1e3:.1f} | {fmt_ratio(ratio)} |")
        else:
            cells = [f"{x * 1e3:.1f}" for x in t] + ["-"] * (ns - k)
            print(f"| {label} | {r['threads']} | " + " | ".join(cells)
                  + f" | {fmt_ratio(ratio)} |")
    print()
    for line in notes:
        print(line)



def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=int, nargs="*", default=[18, 20, 22],
                    help="Kronecker SCALEs (default 18 20 22; SCALE 22 takes minutes: leave "
                         "it out with --scales 18 20)")
    ap.add_argument("--roots", type=int, default=16,
                    help="the first K of the 64 search keys (default 16)")
    ap.add_argument("--budget", type=float, default=60.0,
                    help="seconds of timed searches per system and graph (default 60)")
    ap.add_argument("--high-diameter", action="store_true",
                    help="also a 1000 x 1000 grid and a path of 1,000,000 vertices")
    ap.add_argument("--peers", nargs="*", default=PEERS, choices=PEERS, metavar="PEER")
    ap.add_argument("--algorithms", nargs="*", default=None, metavar="NAME",
                    help="our algorithms to run (default: every registered one)")
    ap.add_argument("--one-thread", action="store_true",
                    help="also run the default algorithm on one thread (the per-core ratio to "
                         "scipy, less disturbed by other processes than a parallel one)")
    ap.add_argument("--json", default=None, metavar="FILE", help="write the results as JSON")
    args = ap.parse_args(argv)

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    from importlib.util import find_spec

    import numba
    from pygraph500.sssp import ALGORITHMS, DEFAULT_ALGORITHM

    from pygraph500.backend.threads import shared_machine

    algos = pick_algorithms(ap, args.algorithms if args.algorithms is not None
                            else list(ALGORITHMS), ALGORITHMS, DEFAULT_ALGORITHM)
    systems = [Ours(a) for a in algos]
    if args.one_thread and numba.get_num_threads() > 1:
        systems.insert(1, Ours(DEFAULT_ALGORITHM, threads=1))
    shared = shared_machine(None)  # as `graph500 run` does: a bounded spin on a busy machine
    missing = []
    for p in args.peers:
        if find_spec(p) is None:
            missing.append(f"- {p}: skipped: not installed (pip install {p})")
        else:
            systems.append(Scipy() if p == "scipy" else NetworKit())
    if "networkit" in args.peers and find_spec("networkit"):
        import networkit

        networkit.setNumberOfThreads(numba.get_num_threads())

    specs = [{"kind": "kronecker", "scale": s, "roots": args.roots} for s in args.scales]
    if args.high_diameter:
        specs += [{"kind": "grid", "side": 1000}, {"kind": "path", "n": 1_000_000}]

    info = machine_info()
    print(f"## SSSP (kernel 3) side by side ({info['date']})\n")
    print("`" + " ".join(["python benchmarks/bench_sssp.py"] + sys.argv[1:]) + "`")
    print(f"\nMachine: {info['cpu']}, {info['cores']} cores, {info['os']}; Python "
          f"{info['python']}, numpy {info['numpy']}, scipy {info['scipy']}, numba "
          f"{info['numba']} ({numba.get_num_threads()} threads), networkit {info['networkit']}.")
    print(f"Times: per root, the search call only, after one warm-up search; at most "
          f"{args.budget:g} s of timed searches per system and graph. TEPS numerator: input "
          f"tuples with both ends reached (self-loops not counted), the same for every system; "
          f"hmean = 1 / mean(time / nedge). `/ scipy`: hmean TEPS over scipy's on the same "
          f"roots (> 1: faster than scipy).")
    for line in missing:
        print(line)
    if shared:
        print(f"- note: {shared}")
    sys.stdout.flush()

    graphs = []
    for spec in specs:
        doc = run_graph(spec, systems, args)
        graphs.append(doc)
        print_graph(doc, DEFAULT_ALGORITHM)
        sys.stdout.flush()
        gc.collect()
    if args.json:
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"machine": info, "argv": sys.argv[1:], "graphs": graphs}, f, indent=1)
        os.replace(tmp, args.json)


if __name__ == "__main__":
    main()
