"""BFS side by side: our algorithms and the Python graph libraries on the same graphs.

For every graph one worker process (this script, re-run with a hidden option) generates the
edge list, builds our CSR (kernel 1, compared with scipy.sparse doing the same conversion on
Kronecker graphs), picks the roots, and then runs every system on them: each of our algorithms
(``pygraph500.bfs.ALGORITHMS``, whatever is registered) and the peers

- ``scipy``: ``scipy.sparse.csgraph.breadth_first_order(A, root, directed=True,
  return_predecessors=True)`` on our (already symmetric) CSR, float64 data and int32 indices
  so the call converts nothing;
- ``graphblas``: python-graphblas (SuiteSparse:GraphBLAS), the level-synchronous BFS of the
  GraphBLAS C API spec: ``q<!visited, replace> = q any.pair A`` per level, levels recorded;
- ``graphblas-parents``: the same loop over ``any.secondi``, which yields a parent tree (the
  output Graph500 asks for), as LAGraph's push step does;
- ``igraph``: ``igraph.Graph.bfs(root)`` (vertex order, layers and parents as lists);
- ``networkit``: ``networkit.distance.BFS(G, root, storePaths=False).run()`` (the distances
  are not fetched inside the timing), ``networkit.setNumberOfThreads(2)``;
- ``networkx``: ``dict(nx.bfs_predecessors(G, root))``, Kronecker SCALE <= 18 only, 4 roots.

Every system builds its own graph object from the same CSR (the deduplicated, self-loop-free
edge set) untimed; then one warm-up search from the first root, then one timed search per root
(``time.perf_counter`` around the search call only). Our parent arrays are validated with
``pygraph500.validate.validate`` for every root (untimed); for peers the number of reached
vertices must equal ours at every root, and the first root's parent tree, where the peer gives
one, is validated too. TEPS are counted the Graph500 way: the numerator of a root is
``count_component_edges(edges, parent)`` from our default algorithm's tree, the same for every
system, and the harmonic mean is ``1 / mean(time_i / nedge_i)``.

Graphs: Graph500 Kronecker (edgefactor 16, seeds 2 and 3) at ``--scales`` with the reference's
64 search keys (``--roots K``: the first K), a 1000 x 1000 grid (roots: corner, middle of an
edge, centre) and a path of 1,000,000 vertices (roots: an end, a quarter, the middle); on the
last two the number of levels dominates, and the tables give milliseconds per root (the
median of ``--repeats`` searches, 5 by default: one search takes milliseconds, and one timing
is mostly noise on a shared VM) and ``scipy / system`` per root (worst root shown).

Slow systems are bounded: ``--budget`` seconds of timed searches per system and graph (the
roots are cut to what fits after the warm-up; the table says how many ran), a warm-up search
longer than the budget skips the system, and a system still running after
``--system-timeout`` seconds is killed with its worker, which is restarted (same graph,
regenerated) for the systems left. A missing peer package is skipped with a line saying so.

    python benchmarks/bench_bfs.py [--scales 18 20 22] [--roots K] [--skip-high-diameter]
                                   [--peers scipy igraph ...] [--json FILE]

Output: markdown tables on stdout (paste into benchmarks/RESULTS.md), progress on stderr.
"""
from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

PEERS = ["scipy", "graphblas", "graphblas-parents", "igraph", "networkit", "networkx"]
# peer -> (module to import, distribution name on PyPI)
PEER_PACKAGES = {
    "scipy": ("scipy", "scipy"),
    "graphblas": ("graphblas", "python-graphblas"),
    "graphblas-parents": ("graphblas", "python-graphblas"),
    "igraph": ("igraph", "python-igraph"),
    "networkit": ("networkit", "networkit"),
    "networkx": ("networkx", "networkx"),
}
PEER_THREADS = 2  # networkit and GraphBLAS (OpenMP); scipy, igraph and networkx are serial
OURS = "ours:"


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# Graphs
# --------------------------------------------------------------------------------------------

def make_graph(spec: dict):
    """EdgeList, roots (int64) and root labels for a graph spec; Kronecker roots are None
    (the search keys are chosen on the CSR)."""
    from pygraph500.graph import EdgeList

    kind = spec["kind"]
    if kind == "kronecker":
        from pygraph500.generator import kronecker

        return kronecker(spec["scale"], 16), None, None
    if kind == "grid":
        s = spec["side"]
        ids = np.arange(s * s, dtype=np.int64).reshape(s, s)
        src = np.concatenate((ids[:, :-1].ravel(), ids[:-1, :].ravel()))
        dst = np.concatenate((ids[:, 1:].ravel(), ids[1:, :].ravel()))
        roots = np.array([0, s // 2, (s // 2) * s + s // 2], dtype=np.int64)
        return EdgeList(src, dst, s * s), roots, ["corner", "edge middle", "centre"]
    if kind == "path":
        n = spec["n"]
        src = np.arange(n - 1, dtype=np.int64)
        roots = np.array([0, n // 4, n // 2], dtype=np.int64)
        return EdgeList(src, src + 1, n), roots, ["end", "quarter", "middle"]
    raise ValueError(kind)


def graph_title(spec: dict) -> str:
    if spec["kind"] == "kronecker":
        return f"Kronecker SCALE {spec['scale']}, edgefactor 16"
    if spec["kind"] == "grid":
        return f"grid {spec['side']} x {spec['side']}"
    return f"path of {spec['n']:,} vertices"


def undirected_pairs(graph):
    """(u, v) with u < v for every edge of the CSR: the deduplicated, loop-free edge set."""
    n = graph.num_vertices
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(graph.indptr))
    keep = rows < graph.indices
    return rows[keep], graph.indices[keep].astype(np.int64)


def scipy_kernel1(edges):
    """Kernel 1 the scipy.sparse way: self-loops out, both directions, COO -> CSR (tocsr sums
    duplicates), canonical form (sorted, deduplicated)."""
    import scipy.sparse as sp

    n = int(edges.num_vertices)
    keep = edges.src != edges.dst
    s, d = edges.src[keep], edges.dst[keep]
    del keep
    rows = np.concatenate((s, d))
    cols = np.concatenate((d, s))
    del s, d
    a = sp.coo_matrix((np.ones(rows.shape[0]), (rows, cols)), shape=(n, n)).tocsr()
    a.sum_duplicates()  # a no-op when tocsr already left it canonical
    return a


# --------------------------------------------------------------------------------------------
# Systems: prepare (untimed) -> search (timed) -> reached / parent (untimed checks)
# --------------------------------------------------------------------------------------------

class OverBudget(Exception):
    pass


class System:
    name = ""
    threads = 1
    gives_parent = True

    def prepare(self, ctx):  # build the system's own graph object
        raise NotImplementedError

    def search(self, root: int, deadline: float):
        raise NotImplementedError

    def reached(self, res) -> int:
        raise NotImplementedError

    def parent(self, res, root: int):
        return None

    def close(self):
        pass


class Ours(System):
    def __init__(self, algo: str):
        from pygraph500.bfs import ALGORITHMS
        import numba

        self.name = OURS + algo
        self.fn = ALGORITHMS[algo]
        self.threads = numba.get_num_threads()

    def prepare(self, ctx):
        self.graph = ctx["graph"]

    def search(self, root, deadline):
        # The parent array is kernel 2's output (and all a peer like scipy returns): no depth.
        return self.fn(self.graph, root, depth=False)

    def reached(self, res):
        return int(np.count_nonzero(res.parent != -1))

    def parent(self, res, root):
        return res.parent

    def close(self):
        self.graph = None


class Scipy(System):
    name = "scipy"

    def prepare(self, ctx):
        import scipy.sparse as sp
        from scipy.sparse.csgraph import breadth_first_order

        g = ctx["graph"]
        n = g.num_vertices
        self.bfo = breadth_first_order
        # float64 data and int32 indices: what csgraph works on, so the call converts nothing
        self.a = sp.csr_matrix((np.ones(g.num_directed_edges), g.indices, g.indptr), shape=(n, n))

    def search(self, root, deadline):
        return self.bfo(self.a, root, directed=True, return_predecessors=True)

    def reached(self, res):
        return int(res[0].shape[0])

    def parent(self, res, root):
        p = res[1].astype(np.int64)
        p[p < 0] = -1  # -9999: not reached (and the root)
        p[root] = root
        return p

    def close(self):
        self.a = None


class GraphBLAS(System):
    """Level-synchronous BFS, push only: q<!visited.S, replace> = q (any.pair) A."""
    name = "graphblas"
    threads = PEER_THREADS
    gives_parent = False

    def prepare(self, ctx):
        import graphblas as gb

        gb.ss.config["nthreads"] = self.threads
        g = ctx["graph"]
        n = g.num_vertices
        self.gb = gb
        self.n = n
        self.a = gb.Matrix.from_csr(g.indptr, g.indices, True, dtype=bool, nrows=n, ncols=n)
        self.a.wait()

    def search(self, root, deadline):
        gb = self.gb
        n = self.n
        semiring = gb.semiring.any_pair
        visited = gb.Vector(bool, n)
        level = gb.Vector(gb.dtypes.INT32, n)
        q = gb.Vector(bool, n)
        q[root] = True
        visited[root] = True
        level[root] = 0
        depth = 0
        while True:
            q(~visited.S, replace=True) << q.vxm(self.a, semiring)
            if q.nvals == 0:
                break
            depth += 1
            visited(q.S) << True
            level(q.S) << depth
            if depth & 255 == 0 and time.perf_counter() > deadline:
                raise OverBudget(f"a search passed {depth} levels within the budget")
        return visited, level

    def reached(self, res):
        return int(res[0].nvals)

    def close(self):
        self.a = None


class GraphBLASParents(GraphBLAS):
    """The same loop over any.secondi: q(j) = some k with q(k) and A(k, j), i.e. a parent."""
    name = "graphblas-parents"
    gives_parent = True

    def search(self, root, deadline):
        gb = self.gb
        semiring = gb.semiring.ss.any_secondi
        parent = gb.Vector(gb.dtypes.INT64, self.n)
        q = gb.Vector(gb.dtypes.INT64, self.n)
        parent[root] = root
        q[root] = root
        depth = 0
        while True:
            q(~parent.S, replace=True) << q.vxm(self.a, semiring)
            if q.nvals == 0:
                break
            depth += 1
            parent(q.S) << q
            if depth & 255 == 0 and time.perf_counter() > deadline:
                raise OverBudget(f"a search passed {depth} levels within the budget")
        return parent

    def reached(self, res):
        return int(res.nvals)

    def parent(self, res, root):
        idx, vals = res.to_coo()
        p = np.full(self.n, -1, dtype=np.int64)
        p[idx.astype(np.int64)] = vals
        return p


class IGraph(System):
    name = "igraph"

    def prepare(self, ctx):
        import igraph

        g = ctx["graph"]
        u, v = ctx["pairs"]()
        self.g = igraph.Graph(n=g.num_vertices, directed=False)
        step = 1 << 22  # lists of Python tuples: a chunk at a time bounds the memory
        for i in range(0, u.shape[0], step):
            self.g.add_edges(list(zip(u[i:i + step].tolist(), v[i:i + step].tolist())))

    def search(self, root, deadline):
        return self.g.bfs(root)

    def reached(self, res):
        return len(res[0])

    def parent(self, res, root):
        p = np.asarray(res[2], dtype=np.int64)
        p[p < 0] = -1  # -1 at the root, -2 where not reached
        p[root] = root
        return p

    def close(self):
        self.g = None


class NetworKit(System):
    name = "networkit"
    threads = PEER_THREADS
    gives_parent = False

    def prepare(self, ctx):
        import networkit as nk

        nk.setNumberOfThreads(self.threads)
        self.nk = nk
        g = ctx["graph"]
        u, v = ctx["pairs"]()
        self.g = nk.graph.Graph(g.num_vertices, weighted=False, directed=False)
        self.g.addEdges((u, v))

    def search(self, root, deadline):
        bfs = self.nk.distance.BFS(self.g, root, storePaths=False)
        bfs.run()
        return bfs

    def reached(self, res):
        d = np.asarray(res.getDistances())
        return int(np.count_nonzero(d < 1e300))  # unreached: DBL_MAX

    def close(self):
        self.g = None


class NetworkX(System):
    name = "networkx"

    def prepare(self, ctx):
        import networkx as nx

        self.nx = nx
        n = ctx["graph"].num_vertices
        u, v = ctx["pairs"]()
        self.n = n
        self.g = nx.Graph()
        self.g.add_nodes_from(range(n))
        step = 1 << 20
        for i in range(0, u.shape[0], step):
            self.g.add_edges_from(zip(u[i:i + step].tolist(), v[i:i + step].tolist()))

    def search(self, root, deadline):
        return dict(self.nx.bfs_predecessors(self.g, root))

    def reached(self, res):
        return len(res) + 1

    def parent(self, res, root):
        p = np.full(self.n, -1, dtype=np.int64)
        if res:
            p[np.fromiter(res.keys(), np.int64, len(res))] = np.fromiter(res.values(), np.int64, len(res))
        p[root] = root
        return p

    def close(self):
        self.g = None


PEER_CLASSES = {"scipy": Scipy, "graphblas": GraphBLAS, "graphblas-parents": GraphBLASParents,
                "igraph": IGraph, "networkit": NetworKit, "networkx": NetworkX}


# --------------------------------------------------------------------------------------------
# Worker: one graph, one process
# --------------------------------------------------------------------------------------------

def worker(args) -> None:
    try:
        _worker(args)
    except BaseException as exc:  # tell the parent why, then fail as usual
        with open(args._out, "a") as out:
            out.write(json.dumps({"event": "error", "t": time.time(),
                                  "error": f"{type(exc).__name__}: {exc}"}) + "\n")
        raise


def _worker(args) -> None:
    spec = json.loads(args._worker)
    systems = args._systems.split(",") if args._systems else []
    out = open(args._out, "a", buffering=1)

    def emit(rec):
        rec["t"] = time.time()
        out.write(json.dumps(rec) + "\n")
        out.flush()

    import numba
    from pygraph500.benchmark import choose_roots
    from pygraph500.bfs import ALGORITHMS, DEFAULT_ALGORITHM
    from pygraph500.generator import kronecker
    from pygraph500.graph import build_csr
    from pygraph500.validate import count_component_edges, validate

    # load (or compile) the numba code first, so nothing below times code loading
    tiny = kronecker(4, 1)
    tg = build_csr(tiny)
    r0 = int(tiny.src[0])
    ours = {DEFAULT_ALGORITHM} | {s[len(OURS):] for s in systems if s.startswith(OURS)}
    for algo in ours:
        try:
            validate(tiny, ALGORITHMS[algo](tg, r0).parent, r0)
        except Exception:  # reported where it matters, in the timed run
            pass
    count_component_edges(tiny, ALGORITHMS[DEFAULT_ALGORITHM](tg, r0).parent)

    title = graph_title(spec)
    t0 = time.perf_counter()
    edges, roots, labels = make_graph(spec)
    gen_s = time.perf_counter() - t0
    _log(f"[{title}] generated {edges.num_edges:,} tuples in {gen_s:.2f} s")

    rec = {"event": "graph", "spec": spec, "num_vertices": int(edges.num_vertices),
           "num_tuples": int(edges.num_edges), "generation_s": gen_s}
    k1 = None
    if spec["kind"] == "kronecker" and not args._skip_k1:
        build_csr(edges)  # warm-up: first touch of the output sizes, as the other side below
        ours_t, scipy_t = [], []
        for _ in range(args.k1_repeats):
            gc.collect()
            t0 = time.perf_counter()
            g = build_csr(edges)
            ours_t.append(time.perf_counter() - t0)
            del g
            gc.collect()
            t0 = time.perf_counter()
            a = scipy_kernel1(edges)
            scipy_t.append(time.perf_counter() - t0)
            del a
        k1 = {"ours_s": min(ours_t), "scipy_s": min(scipy_t), "ours_all": ours_t,
              "scipy_all": scipy_t, "repeats": args.k1_repeats}
        _log(f"[{title}] kernel 1: build_csr {k1['ours_s']:.3f} s, scipy {k1['scipy_s']:.3f} s")
    t0 = time.perf_counter()
    graph = build_csr(edges)
    rec["build_csr_s"] = time.perf_counter() - t0
    rec["num_directed_edges"] = graph.num_directed_edges
    if k1 is not None:
        a = scipy_kernel1(edges)  # the two kernel-1 outputs must be the same graph
        k1["same_graph"] = bool(np.array_equal(a.indptr, graph.indptr)
                                and np.array_equal(a.indices, graph.indices))
        del a
        gc.collect()
    rec["kernel1"] = k1
    if roots is None:
        roots = choose_roots(graph.degree() > 0)
        if args.roots:
            roots = roots[:args.roots]
        labels = [str(int(r)) for r in roots]
    roots = [int(r) for r in roots]

    # numerators and reach counts from our default algorithm (untimed); they depend only on
    # the root's component, so if the default fails here another of ours gives them
    source, failures = None, []
    for algo in [DEFAULT_ALGORITHM, "reference"] + list(ALGORITHMS):
        if algo not in ALGORITHMS or algo in failures:
            continue
        try:
            nedge, reached, depth = [], [], []
            for r in roots:
                res = ALGORITHMS[algo](graph, r)
                if r == roots[0] and not validate(edges, res.parent, r).valid:
                    raise ValueError(f"invalid tree from root {r}")
                nedge.append(count_component_edges(edges, res.parent))
                reached.append(int(np.count_nonzero(res.parent != -1)))
                depth.append(int(res.depth[res.parent != -1].max()) + 1
                             if res.depth is not None else len(res.levels))
                del res
            source = algo
            break
        except Exception as exc:
            failures.append(algo)
            _log(f"[{title}] numerators: {algo} failed ({type(exc).__name__}: {exc})")
    if source is None:
        raise RuntimeError("none of our algorithms gives a valid tree for the numerators")
    rec.update(roots=roots, root_labels=labels, nedge=nedge, reached=reached, levels=depth,
               numerator_source=source, numba_threads=numba.get_num_threads())
    emit(rec)
    _log(f"[{title}] {len(roots)} roots, up to {max(depth)} levels")

    pairs_cache = {}

    def pairs():
        if "p" not in pairs_cache:
            pairs_cache["p"] = undirected_pairs(graph)
        return pairs_cache["p"]

    ctx = {"graph": graph, "edges": edges, "pairs": pairs}
    for name in systems:
        emit({"event": "start", "system": name})
        r = run_system(name, spec, ctx, roots, reached, nedge, args, emit, title, validate)
        pairs_cache.clear()
        gc.collect()
        emit({"event": "done", "system": name, "result": r})
    emit({"event": "end", "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
    out.close()


def run_system(name, spec, ctx, roots, ref_reached, nedge, args, emit, title, validate) -> dict:
    edges = ctx["edges"]
    rec = {"system": name, "status": "ok"}
    if name == "networkx" and spec["kind"] == "kronecker" and spec["scale"] > args.networkx_max_scale:
        return {**rec, "status": "skipped", "reason": f"SCALE > {args.networkx_max_scale}"}
    sysobj = Ours(name[len(OURS):]) if name.startswith(OURS) else PEER_CLASSES[name]()
    rec["threads"] = sysobj.threads
    try:
        t0 = time.perf_counter()
        sysobj.prepare(ctx)
        rec["build_s"] = time.perf_counter() - t0
        emit({"event": "built", "system": name})
        t0 = time.perf_counter()
        res = sysobj.search(roots[0], t0 + args.budget)
        rec["warmup_s"] = warm = time.perf_counter() - t0
        res = None
        emit({"event": "warmed", "system": name})
        cap = len(roots)
        if name == "networkx":
            cap = min(cap, args.networkx_roots)
        # a search of a high-diameter graph takes milliseconds: one timing is mostly this
        # VM's noise, so each root is timed --repeats times and the median kept
        reps = 1 if spec["kind"] == "kronecker" else max(1, args.repeats)
        if warm * cap * reps > args.budget:
            cap = max(1, int(args.budget / max(warm * reps, 1e-9)))
        times, problems = [], []
        for i, r in enumerate(roots[:cap]):
            runs = []
            for _ in range(reps):
                res = None  # the previous result is freed before the next search
                gc.collect()
                t0 = time.perf_counter()
                res = sysobj.search(r, t0 + args.budget)
                runs.append(time.perf_counter() - t0)
            times.append(float(np.median(runs)))
            got = sysobj.reached(res)
            if got != ref_reached[i]:
                problems.append(f"root {r}: reached {got}, ours {ref_reached[i]}")
            if isinstance(sysobj, Ours) or (i == 0 and sysobj.gives_parent):
                verdict = validate(edges, sysobj.parent(res, r), r)
                if not verdict.valid:
                    problems.append(f"root {r}: invalid tree ({verdict.rule})")
            if problems:
                break
        rec.update(times=times, roots_run=len(times))
        if problems:
            rec.update(status="wrong", reason="; ".join(problems))
    except ImportError as exc:
        rec.update(status="skipped", reason=f"cannot be imported ({exc})")
    except OverBudget as exc:
        rec.update(status="skipped", reason=f"one search takes over the {args.budget:g} s budget "
                   f"({exc})")
    except Exception as exc:  # a peer misbehaving must not end the benchmark
        rec.update(status="failed", reason=f"{type(exc).__name__}: {exc}")
    finally:
        sysobj.close()
    if rec["status"] == "ok":
        t = np.array(rec["times"])
        _log(f"[{title}] {name}: median {np.median(t) * 1e3:.2f} ms over {len(t)} roots")
    else:
        _log(f"[{title}] {name}: {rec['status']}: {rec.get('reason', '')}")
    return rec


# --------------------------------------------------------------------------------------------
# Parent: spawn workers, watch them, print tables
# --------------------------------------------------------------------------------------------

def run_graph(spec: dict, systems: list[str], args) -> dict:
    """Run one graph in a worker process; restart it for the systems left if one hangs."""
    doc = {"spec": spec, "title": graph_title(spec), "order": list(systems), "systems": {},
           "workers": []}
    remaining = list(systems)
    first = True
    while True:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "events.jsonl")
            cmd = [sys.executable, os.path.abspath(__file__), "--_worker", json.dumps(spec),
                   "--_systems", ",".join(remaining), "--_out", out,
                   "--budget", str(args.budget), "--k1-repeats", str(args.k1_repeats),
                   "--networkx-max-scale", str(args.networkx_max_scale),
                   "--networkx-roots", str(args.networkx_roots)]
            if args.roots:
                cmd += ["--roots", str(args.roots)]
            if not first:
                cmd.append("--_skip-k1")
            env = dict(os.environ)
            src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
            env["PYTHONPATH"] = os.path.abspath(src) + os.pathsep + env.get("PYTHONPATH", "")
            proc = subprocess.Popen(cmd, stdout=sys.stderr, stderr=sys.stderr, env=env)
            events, pos, current, killed = [], 0, None, None
            while True:
                rc = proc.poll()
                if os.path.exists(out):
                    with open(out) as f:
                        f.seek(pos)
                        chunk = f.read()
                    cut = chunk.rfind("\n") + 1
                    pos += cut
                    for line in chunk[:cut].splitlines():
                        ev = json.loads(line)
                        events.append(ev)
                        if ev["event"] in ("start", "built", "warmed"):
                            current = (ev["system"], ev["event"], ev["t"],
                                       current[3] if current and ev["event"] != "start" else ev["t"])
                        elif ev["event"] == "done":
                            current = None
                if rc is not None:
                    break
                now = time.time()
                if current is not None:
                    name, phase, since, started = current
                    if phase == "built" and now - since > args.budget + 30:
                        killed = (name, f"the warm-up search passed the {args.budget:g} s budget "
                                        f"(killed after {now - since:.0f} s)")
                    elif now - started > args.system_timeout:
                        killed = (name, f"still running after {args.system_timeout:g} s (killed)")
                    if killed:
                        proc.kill()
                        proc.wait()
                        current = None
                        continue
                time.sleep(0.2)
        graph_ev = next((e for e in events if e["event"] == "graph"), None)
        end_ev = next((e for e in events if e["event"] == "end"), None)
        err_ev = next((e for e in events if e["event"] == "error"), None)
        if graph_ev is None:
            if first:
                why = f": {err_ev['error']}" if err_ev else ""
                doc["error"] = f"worker failed before the graph was ready (exit status {rc}){why}"
                return doc
            break  # a restarted worker failed in setup: the systems left are marked below
        if first:
            doc["graph"] = graph_ev
        doc["workers"].append({"systems": remaining,
                               "maxrss_mb": end_ev["maxrss_mb"] if end_ev else None,
                               "exit": rc})
        done = [e["system"] for e in events if e["event"] == "done"]
        for e in events:
            if e["event"] == "done":
                doc["systems"][e["system"]] = e["result"]
        started = [e["system"] for e in events if e["event"] == "start"]
        if killed:
            doc["systems"][killed[0]] = {"system": killed[0], "status": "skipped",
                                         "reason": killed[1]}
        elif end_ev is None and started and started[-1] not in done:
            why = f": {err_ev['error']}" if err_ev else ""
            doc["systems"][started[-1]] = {"system": started[-1], "status": "failed",
                                           "reason": f"worker died (exit status {rc}){why}"}
        remaining = [s for s in remaining if s not in doc["systems"]]
        first = False
        if not remaining or (end_ev is None and not killed and not started):
            break
    for name in remaining:
        doc["systems"].setdefault(name, {"system": name, "status": "failed",
                                         "reason": "its worker process failed before it ran"})
    return doc


def pick_algorithms(ap, names, known, default) -> list[str]:
    """``names`` checked against the registry ``known`` (an unknown one is a usage error of
    ``ap``), the default algorithm first."""
    unknown = [a for a in names if a not in known]
    if unknown:
        ap.error(f"unknown algorithm(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return [default] + [a for a in names if a != default]


def hmean_teps(times, nedge) -> float:
    t = np.asarray(times, dtype=np.float64)
    m = np.asarray(nedge[:len(t)], dtype=np.float64)
    return 1.0 / float(np.mean(t / m))


def label(name: str, default: str) -> str:
    if name.startswith(OURS):
        algo = name[len(OURS):]
        return f"**ours: {algo}** (default)" if algo == default else f"ours: {algo}"
    return name


def fmt_ratio(x: float) -> str:
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:.0f}"


def print_graph(doc: dict, default: str) -> None:
    """The graph's markdown tables; also stores each system's summary figures in ``doc``."""
    print(f"\n### {doc['title']}\n")
    if "error" in doc:
        print(f"ERROR: {doc['error']}")
        return
    g = doc["graph"]
    ns = len(g["roots"])
    src = g.get("numerator_source", default)
    alt = "" if src == default else f" TEPS numerators and reach counts from `{src}` (the " \
                                    f"default failed)."
    print(f"N = {g['num_vertices']:,}, {g['num_tuples']:,} input tuples, "
          f"{g['num_directed_edges'] // 2:,} distinct undirected edges, {ns} roots, "
          f"{min(g['levels'])}-{max(g['levels'])} levels (eccentricity + 1).{alt}\n")
    k1 = g.get("kernel1")
    if k1:
        print("| kernel 1 (edge list -> symmetric deduplicated CSR) | s | ours faster by |")
        print("|---|---|---|")
        print(f"| ours: `build_csr` | {k1['ours_s']:.3f} | |")
        print(f"| scipy: `coo_matrix(...).tocsr()` (loops removed, both directions) | "
              f"{k1['scipy_s']:.3f} | {fmt_ratio(k1['scipy_s'] / k1['ours_s'])}x |")
        extra = "" if k1["same_graph"] else " **The two CSR graphs differ!**"
        print(f"\nBest of {k1['repeats']}; both give the same CSR arrays: "
              f"{'yes' if k1['same_graph'] else 'NO'}.{extra}\n")
    systems = doc["systems"]
    ref = systems.get(OURS + default)
    ref_t = ref["times"] if ref and ref["status"] == "ok" else None
    sc = systems.get("scipy")
    sc_t = sc["times"] if sc and sc["status"] == "ok" else None
    notes = []
    high = doc["spec"]["kind"] != "kronecker"
    if not high:
        print("| system | threads | roots | build s | hmean MTEPS | median ms | default / this |")
        print("|---|---|---|---|---|---|---|")
    else:
        labels = g["root_labels"]
        print("| system | threads | build s | " + " | ".join(f"ms, {lb}" for lb in labels)
              + " | hmean MTEPS | scipy / this (worst root) |")
        print("|---" * (5 + len(labels)) + "|")
    slower_than_scipy = []
    for name in doc["order"]:
        r = systems.get(name)
        if r is None:
            continue
        if r["status"] != "ok":
            notes.append(f"- {name}: {r['status']}: {r.get('reason', '')}")
            continue
        t = r["times"]
        k = len(t)
        teps = hmean_teps(t, g["nedge"])
        r.update(hmean_teps=teps, median_s=float(np.median(t)))  # for the JSON too
        if not high:
            ratio = hmean_teps(ref_t[:k], g["nedge"]) / teps if ref_t else float("nan")
            r["default_over_this"] = ratio
            print(f"| {label(name, default)} | {r['threads']} | {k if k == ns else f'{k}/{ns}'} | "
                  f"{r['build_s']:.2f} | {teps / 1e6:.1f} | {np.median(t) * 1e3:.2f} | "
                  f"{fmt_ratio(ratio)} |")
        else:
            cells = [f"{x * 1e3:.1f}" for x in t] + ["-"] * (ns - k)
            worst = min(sc_t[i] / t[i] for i in range(min(k, len(sc_t)))) if sc_t else float("nan")
            r["scipy_over_this_worst_root"] = worst
            if name.startswith(OURS) and worst <= 1:
                slower_than_scipy.append(name[len(OURS):])
            print(f"| {label(name, default)} | {r['threads']} | {r['build_s']:.2f} | "
                  + " | ".join(cells) + f" | {teps / 1e6:.1f} | {fmt_ratio(worst)} |")
    print()
    if high and sc_t:
        if slower_than_scipy:
            print(f"NOT faster than scipy on every root: {', '.join(slower_than_scipy)}.\n")
        else:
            print("Every one of our algorithms is faster than scipy on every root.\n")
    for line in notes:
        print(line)
    rss = [w["maxrss_mb"] for w in doc["workers"] if w["maxrss_mb"] is not None]
    more = (f" ({len(doc['workers'])} worker processes: a killed system's worker was restarted)"
            if len(doc["workers"]) > 1 else "")
    if rss:
        print(f"{'' if not notes else chr(10)}Peak memory of the process (ru_maxrss): "
              f"{max(rss):.0f} MB{more}.")


def machine_info() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            mem = f"{int(f.readline().split()[1]) / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    info = {"date": datetime.date.today().isoformat(), "cpu": cpu, "cores": os.cpu_count(),
            "memory": mem, "os": f"{platform.system()} {platform.release()}",
            "python": platform.python_version()}
    dists = ["pygraph500", "numpy", "scipy", "numba", "python-graphblas", "suitesparse-graphblas",
             "igraph", "networkit", "networkx"]
    for d in dists:
        try:
            info[d] = version(d)
        except PackageNotFoundError:
            info[d] = "not installed"
    return info


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=int, nargs="*", default=[18, 20, 22],
                    help="Kronecker SCALEs (default 18 20 22; none: only the high-diameter graphs)")
    ap.add_argument("--roots", type=int, default=None,
                    help="use the first K of the 64 search keys on Kronecker graphs")
    ap.add_argument("--skip-high-diameter", action="store_true",
                    help="leave out the grid and the path")
    ap.add_argument("--peers", nargs="*", default=PEERS, choices=PEERS, metavar="PEER",
                    help=f"peers to run (default all: {' '.join(PEERS)})")
    ap.add_argument("--algorithms", nargs="*", default=None, metavar="NAME",
                    help="our algorithms to run (default: every registered one)")
    ap.add_argument("--json", default=None, metavar="FILE", help="write the results as JSON")
    ap.add_argument("--budget", type=float, default=120.0,
                    help="seconds of timed searches per system and graph (default 120): the "
                         "roots are cut to what fits; a longer warm-up search skips the system")
    ap.add_argument("--system-timeout", type=float, default=900.0,
                    help="kill a system still running after this many seconds (default 900)")
    ap.add_argument("--repeats", type=int, default=5,
                    help="grid and path: timed searches per root, the median kept (5)")
    ap.add_argument("--k1-repeats", type=int, default=3, help="kernel 1 timings, best of (3)")
    ap.add_argument("--networkx-max-scale", type=int, default=18)
    ap.add_argument("--networkx-roots", type=int, default=4)
    # development sizes for the high-diameter graphs
    ap.add_argument("--grid", type=int, default=1000, help=argparse.SUPPRESS)
    ap.add_argument("--path", type=int, default=1_000_000, help=argparse.SUPPRESS)
    # worker mode
    ap.add_argument("--_worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--_systems", default="", help=argparse.SUPPRESS)
    ap.add_argument("--_out", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--_skip-k1", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._worker:
        worker(args)
        return

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    from importlib.util import find_spec

    from pygraph500.bfs import ALGORITHMS, DEFAULT_ALGORITHM

    algos = pick_algorithms(ap, args.algorithms if args.algorithms is not None
                            else list(ALGORITHMS), ALGORITHMS, DEFAULT_ALGORITHM)
    missing = {}
    peers = []
    for p in args.peers:
        mod, dist = PEER_PACKAGES[p]
        try:
            found = find_spec(mod) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing[p] = f"skipped: package {dist} is not installed (pip install '.[bench]')"
        else:
            peers.append(p)
    systems = [OURS + a for a in algos] + peers

    specs = [{"kind": "kronecker", "scale": s} for s in args.scales]
    if not args.skip_high_diameter:
        specs += [{"kind": "grid", "side": args.grid}, {"kind": "path", "n": args.path}]

    info = machine_info()
    import numba

    print(f"## BFS side by side ({info['date']})\n")
    print("`" + " ".join(["python benchmarks/bench_bfs.py"] + sys.argv[1:]) + "`")
    print(f"\nMachine: {info['cpu']}, {info['cores']} cores, {info['memory']}, {info['os']}; "
          f"Python {info['python']}, numpy {info['numpy']}, scipy {info['scipy']}, "
          f"numba {info['numba']} ({numba.get_num_threads()} threads); python-graphblas "
          f"{info['python-graphblas']} (SuiteSparse:GraphBLAS {info['suitesparse-graphblas']}), "
          f"igraph {info['igraph']}, networkit {info['networkit']}, networkx {info['networkx']}.")
    print(f"Times: per root, the search call only, after one warm-up search; at most "
          f"{args.budget:g} s of timed searches per system and graph. TEPS numerator: input "
          f"tuples with both ends in the root's component (self-loops not counted), the same "
          f"for every system; hmean = 1 / mean(time / nedge). `default / this`: our default "
          f"algorithm's harmonic-mean TEPS over this system's (> 1: ours is faster).")
    for p, why in missing.items():
        print(f"\n- {p}: {why}")
    sys.stdout.flush()

    graphs = []
    for spec in specs:
        _log(f"== {graph_title(spec)}")
        doc = run_graph(spec, systems, args)
        graphs.append(doc)
        print_graph(doc, DEFAULT_ALGORITHM)
        sys.stdout.flush()

    if args.json:
        result = {"machine": info, "parameters": {
            "argv": sys.argv[1:], "budget_s": args.budget, "roots": args.roots,
            "default_algorithm": DEFAULT_ALGORITHM, "systems": systems,
            "missing": missing, "teps_counting": "tuples with both ends reached, no self-loops",
        }, "graphs": graphs}
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump(result, f, indent=1)
        os.replace(tmp, args.json)


if __name__ == "__main__":
    main()
