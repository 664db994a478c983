"""Our BFS (kernel 2) and SSSP (kernel 3) against GAP's, on the same graph from the same roots.

GAP is the GAP Benchmark Suite (Beamer et al.) in ``../shared/peers`` (or ``shared/peers``,
or ``--peers-dir``): its source, ``gap.sh`` and the patch giving its SSSP float32 weights. It
is built once with ``gap.sh build`` into ``--gap-dir`` (default ``.peers-build/`` in the
repository), in a folder named by a hash of that source, so a changed patch builds again. No
C++ compiler (or no ``make`` / ``patch``): one line says GAP is skipped, and the script exits 0.

Graph, per ``--scales`` (default 20 22): Graph500 Kronecker, edgefactor 16, the seeds and the
64 search keys of ``graph500 run`` (``RunConfig``'s defaults, ``EmbeddedEngine.roots``), with
kernel 3's float32 weights: generated once by our generator and built by our kernel 1 as
``graph500 run --kernel both`` builds it (``EmbeddedEngine``: the BFS searches the same
adjacency as ``--kernel bfs``; the rows also carry the weights). GAP gets the same tuples as
text written by the project's edge-list writer ("u v" for BFS, "u v w" with the shortest
text that reads back to the same float32), converted once by GAP's own converter (``-s``:
symmetrised, self-loops and duplicate edges dropped, the lightest weight of duplicates kept:
our kernel 1's graph; the edge count GAP prints must equal our CSR's) into its serialized
``.sg``, and into ``.wsg`` where the f32 build can serialize float weights (the stock reader
takes int32 weights only; else every GAP SSSP process reads the ``.wel`` text, a load of
seconds, still untimed). The files are cached in the build's folder, keyed by SCALE and seeds.

Timed, per search:

- ours: the engine's ``search`` through ``benchmark.loop.timed``, as ``graph500 run`` times
  it (``perf_counter`` around the call; the parent array only, no depths), default BFS and
  SSSP algorithms, after the engine's warm-up (every kernel compiled on a tiny graph) and one
  untimed search from the first root;
- GAP: the "Trial Time" its ``bfs`` / ``sssp`` print, one process per root
  (``-f GRAPH -r ROOT -n 1``; SSSP also ``-d DELTA`` for every ``--deltas``): the graph's
  load is not in it. GAP's ``-r`` keeps one source for all of a process's trials, hence a
  process per root. ``--gap-warm``: ``-n 2`` and the second trial, so that GAP's threads are
  started and its arrays' pages touched before the timed trial, as ours are after the
  warm-up; that trial repeats the root's search on warm caches.

BFS uses the 64 roots, SSSP the first ``--sssp-roots`` (16). ``--rounds`` (3) rounds, each
every system on all its roots, ours first in even rounds and GAP first (its deltas in the
reverse order) in odd ones. A system's figure is the median over the rounds of its mean
seconds per search; GAP's SSSP figure is its best delta's. ``GAP / ours`` > 1: ours faster.

Threads: ``--threads N`` (default 2; ``--all-cores``: every core) for both: GAP gets
``OMP_NUM_THREADS=N``, ours ``RunConfig(threads=N)`` (numba's pool); the shared-machine guard
of ``graph500 run`` (``shared_machine``) runs first and its wait policy, if it sets one, is in
the environment GAP inherits too.

Checks (untimed): our first root's BFS tree and SSSP answer pass the Graph500 validators; the
tree reaches as many vertices as the giant component holds (scipy's connected_components on
our CSR); GAP's ``-a`` reach (BFS tree size, SSSP reached count) from that root is set beside
ours (a difference is marked **differs**).

    python benchmarks/bench_peers.py [--scales 20 22] [--rounds 3] [--threads N | --all-cores]
                                     [--sssp-roots 16] [--deltas 0.005 0.01 0.02 0.05 0.1]
                                     [--gap-warm] [--gap-dir DIR] [--peers-dir DIR]
                                     [--kernels bfs sssp] [--json FILE]

Output: markdown tables on stdout (for benchmarks/RESULTS.md), progress on stderr.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_bfs import fmt_ratio, machine_info  # noqa: E402  (this folder: one copy of each)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DELTAS = [0.005, 0.01, 0.02, 0.05, 0.1]
BINARIES = ("int/bfs", "int/converter", "f32/sssp", "f32/converter")

# GAP's output lines read here (src/benchmark.h, bfs.cc, sssp.cc, builder.h of gapbs)
TRIAL = re.compile(r"^Trial Time:\s+([0-9.eE+-]+)\s*$", re.M)
LOAD = re.compile(r"^(Read|Build) Time:\s+([0-9.eE+-]+)\s*$", re.M)
GRAPH = re.compile(r"^Graph has (\d+) nodes and (\d+) (un)?directed edges", re.M)
REACH = re.compile(r"^(?:BFS Tree has (\d+) nodes|SSSP Tree reaches (\d+) nodes)", re.M)


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---- GAP's output ------------------------------------------------------------------------------

def parse_gap(text: str) -> dict:
    """What one GAP run printed: its trials' seconds, the load's seconds (reading plus
    building; 0 for none printed), the graph's vertex and edge counts (``undirected``: whether
    it counted undirected edges), and the ``-a`` reach (None where not printed)."""
    graph = GRAPH.search(text)
    reach = REACH.search(text)
    return {"trials": [float(t) for t in TRIAL.findall(text)],
            "load_s": sum(float(s) for _, s in LOAD.findall(text)),
            "nodes": int(graph.group(1)) if graph else None,
            "edges": int(graph.group(2)) if graph else None,
            "undirected": bool(graph and graph.group(3)),
            "reached": int(reach.group(1) or reach.group(2)) if reach else None}


def run_gap(cmd: list[str], threads: int) -> dict:
    """Run a GAP binary on ``threads`` OpenMP threads; its parsed output (RuntimeError with
    the output's tail when it fails or prints no trial)."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    out = parse_gap(proc.stdout)
    if proc.returncode != 0 or not out["trials"]:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit status {proc.returncode}): "
                           f"{proc.stdout[-500:]}")
    return out


# ---- building GAP and its inputs ---------------------------------------------------------------

def peers_dir(given: str | None) -> str | None:
    """``given``, else the first of ../shared/peers and shared/peers (from the repository)
    that holds gap.sh."""
    for d in ([given] if given else [os.path.join(REPO, "..", "shared", "peers"),
                                     os.path.join(REPO, "shared", "peers")]):
        if os.path.isfile(os.path.join(d, "gap.sh")):
            return os.path.abspath(d)
    return None


def missing_tools() -> list[str]:
    """The tools gap.sh build needs that this machine lacks (a C++ compiler, make, patch)."""
    lack = [] if shutil.which("g++") or shutil.which("c++") else ["C++ compiler (g++, c++)"]
    return lack + [t for t in ("make", "patch", "bash") if not shutil.which(t)]


def source_key(peers: str) -> str:
    """12 hex digits of a hash of what gap.sh builds from: the script, the patch, the source."""
    h = hashlib.sha256()
    names = ["gap.sh", "gapbs-float-weights.patch", os.path.join("gapbs", "Makefile")]
    src = os.path.join(peers, "gapbs", "src")
    names += sorted(os.path.join("gapbs", "src", f) for f in os.listdir(src))
    for name in names:
        path = os.path.join(peers, name)
        if os.path.isfile(path):
            h.update(name.encode() + b"\0")
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()[:12]


def build_gap(peers: str, cache: str) -> str:
    """GAP's build folder for this source (``gap.sh build`` run there when a binary is
    missing)."""
    build = os.path.join(os.path.abspath(cache), f"gap-{source_key(peers)}")
    if all(os.path.isfile(os.path.join(build, b)) for b in BINARIES):
        return build
    _log(f"building GAP into {build} ...")
    env = dict(os.environ)
    env.setdefault("CXX", "g++" if shutil.which("g++") else "c++")
    t0 = time.perf_counter()
    subprocess.run(["bash", os.path.join(peers, "gap.sh"), "build", build], env=env,
                   check=True, stdout=sys.stderr)
    _log(f"built GAP in {time.perf_counter() - t0:.0f} s")
    return build


def f32_serializes(build: str) -> bool:
    """Whether the f32 build writes and reads ``.wsg`` with float weights (a two-edge probe)."""
    with tempfile.TemporaryDirectory() as tmp:
        wel, wsg = os.path.join(tmp, "p.wel"), os.path.join(tmp, "p.wsg")
        with open(wel, "w") as f:
            f.write("0 1 0.5\n1 2 0.25\n")
        conv = subprocess.run([os.path.join(build, "f32", "converter"), "-f", wel, "-s", "-w",
                               "-b", wsg], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if conv.returncode != 0:
            return False
        try:
            out = run_gap([os.path.join(build, "f32", "sssp"), "-f", wsg, "-r", "0", "-n", "1",
                           "-a"], 1)
        except RuntimeError:
            return False
        return out["reached"] == 3


def write_gap_text(edges, path: str, weights: bool) -> None:
    """The tuples as GAP's text edge list ("u v" or "u v w" lines, no comment line), by the
    project's edge-list writer."""
    from pygraph500.graph import EdgeList
    from pygraph500.io import GraphFile
    from pygraph500.io.snap_text import write_snap

    e = edges if weights else EdgeList(edges.src, edges.dst, edges.num_vertices)
    write_snap(GraphFile(e), path, lambda *a: None, header="", separator=" ")


def convert(converter: str, text: str, out: str, weighted: bool) -> None:
    """GAP's converter: ``text`` symmetrised into the serialized ``out``, renamed into place
    only when it succeeded."""
    tmp = os.path.join(os.path.dirname(out), "tmp-" + os.path.basename(out))
    cmd = [converter, "-f", text, "-s"] + (["-w"] if weighted else []) + ["-b", tmp]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stdout[-500:]}")
    os.replace(tmp, out)


def gap_inputs(build: str, key: str, edges, wsg: bool) -> dict:
    """GAP's BFS and SSSP graph files for these tuples, made once (cached under ``key``):
    ``{"bfs": .sg, "sssp": .wsg (``wsg``) or .wel, "sssp_flags": what its sssp needs}``."""
    folder = os.path.join(build, "graphs", key)
    os.makedirs(folder, exist_ok=True)
    sg = os.path.join(folder, "g.sg")
    wgraph = os.path.join(folder, "g.wsg" if wsg else "g.wel")
    for path, weighted in ((sg, False), (wgraph, True)):
        if os.path.isfile(path):
            continue
        t0 = time.perf_counter()
        if path.endswith(".wel"):
            write_gap_text(edges, path, weights=True)
        else:
            text = os.path.join(folder, "tmp.wel" if weighted else "tmp.el")
            write_gap_text(edges, text, weights=weighted)
            convert(os.path.join(build, "f32" if weighted else "int", "converter"), text, path,
                    weighted)
            os.remove(text)
        _log(f"[{key}] GAP's {os.path.basename(path)} made in {time.perf_counter() - t0:.0f} s")
    return {"bfs": sg, "sssp": wgraph,
            "sssp_flags": [] if wsg else ["-s"]}  # text: GAP symmetrises it as it reads


# ---- ours --------------------------------------------------------------------------------------

def our_graph(scale: int, threads: int):
    """An ``EmbeddedEngine`` of ``graph500 run --kernel both`` (SCALE, edgefactor 16, its
    default seeds and algorithms, ``threads``), warmed up, its graph generated and built, the
    tuples kept (for GAP's files and the validators); and its 64 roots."""
    from pygraph500.benchmark import RunConfig
    from pygraph500.benchmark.embedded import EmbeddedEngine

    engine = EmbeddedEngine(RunConfig.of(scale=scale, edgefactor=16, kernel="both",
                                         threads=threads, validation="tuples"))
    engine.warm_up()
    t0 = time.perf_counter()
    engine.load()
    engine.build()
    _log(f"[SCALE {scale}] generated and built in {time.perf_counter() - t0:.1f} s")
    return engine, [int(r) for r in engine.roots()]


def giant_component(graph) -> int:
    """Vertices in the largest connected component of a CSRGraph."""
    from scipy.sparse.csgraph import connected_components

    _, labels = connected_components(graph.to_scipy(np.int8), directed=False)
    return int(np.bincount(labels).max())


def our_checks(engine, root: int) -> dict:
    """Our first root's BFS and SSSP, validated, and their reach (untimed)."""
    out = {}
    for kernel in ("bfs", "sssp"):
        engine.use_kernel(kernel)
        result = engine.fetch(engine.search(root))
        verdict = engine.validate(result, root)
        if not verdict.valid:
            raise RuntimeError(f"our {kernel} from {root} is invalid: {verdict.message}")
        out[kernel] = int(np.count_nonzero(result.parent >= 0))
    return out


def our_searches(engine, kernel: str, roots: list[int]) -> list[float]:
    """Seconds of each of our searches of ``kernel``, timed as the run loop times them."""
    from pygraph500.benchmark.loop import timed

    engine.use_kernel(kernel)
    times = []
    for root in roots:
        result, seconds = timed(engine, engine.search, root)
        engine.fetch(result)
        times.append(seconds)
    return times


def gap_searches(binary: str, graph: str, roots: list[int], threads: int, extra=(),
                 warm: bool = False) -> dict:
    """GAP's "Trial Time" per root (one process each, ``-n 1``; ``warm``: ``-n 2``, the
    second trial's) and its loads' seconds."""
    times, loads = [], []
    for root in roots:
        out = run_gap([binary, "-f", graph, "-r", str(root), "-n", "2" if warm else "1",
                       *extra], threads)
        times.append(out["trials"][-1])
        loads.append(out["load_s"])
    return {"times": times, "load_s": loads}


# ---- rounds ------------------------------------------------------------------------------------

def interleave(rounds: int, systems: list) -> dict:
    """``systems``: (name, fn) pairs, ``fn()`` one pass over the roots (a dict with ``times``).
    Each round runs them all, in the listed order in even rounds and reversed in odd ones;
    ``{name: [fn()'s dict of each round]}``."""
    out = {name: [] for name, _ in systems}
    for k in range(rounds):
        for name, fn in (systems if k % 2 == 0 else systems[::-1]):
            t0 = time.perf_counter()
            out[name].append(fn())
            _log(f"  round {k + 1}/{rounds} {name}: {np.mean(out[name][-1]['times']) * 1e3:.2f} "
                 f"ms a search ({time.perf_counter() - t0:.0f} s)")
    return out


def median_of_means(passes: list) -> float:
    """The median over rounds of the mean seconds per search."""
    return float(np.median([np.mean(p["times"]) for p in passes]))


def summarise(kernel: dict) -> None:
    """Add each system's median of means (seconds), GAP's best delta and the ratio GAP / ours
    to a kernel's record."""
    kernel["ours_s"] = median_of_means(kernel["ours"])
    gap = kernel["gap"]
    if isinstance(gap, dict):  # SSSP: one entry per delta
        kernel["gap_by_delta_s"] = {d: median_of_means(p) for d, p in gap.items()}
        kernel["gap_delta"] = min(kernel["gap_by_delta_s"], key=kernel["gap_by_delta_s"].get)
        kernel["gap_s"] = kernel["gap_by_delta_s"][kernel["gap_delta"]]
    else:
        kernel["gap_s"] = median_of_means(gap)
    kernel["gap_over_ours"] = kernel["gap_s"] / kernel["ours_s"]


def gap_checks(gap: dict, inputs: dict, root: int, delta: float, threads: int) -> dict:
    """GAP's ``-a`` reach from ``root`` by BFS and SSSP, and the undirected edge counts its
    two graphs load with (untimed; they also bring the files into the page cache)."""
    b = run_gap([gap["bfs"], "-f", inputs["bfs"], "-r", str(root), "-n", "1", "-a"], threads)
    s = run_gap([gap["sssp"], "-f", inputs["sssp"], *inputs["sssp_flags"], "-r", str(root),
                 "-n", "1", "-d", str(delta), "-a"], threads)
    return {"gap_bfs_reach": b["reached"], "gap_sssp_reach": s["reached"],
            "gap_edges": [r["edges"] if r["undirected"] else None for r in (b, s)],
            "gap_sssp_load_s": s["load_s"]}


def run_scale(scale: int, gap: dict, args) -> dict:
    """One SCALE: our graph, GAP's files, the checks, then the BFS and the SSSP rounds."""
    load = os.getloadavg()
    engine, roots = our_graph(scale, args.threads)
    seed = engine.config.graph.seed
    graph = engine.graph
    edges = graph.num_directed_edges // 2
    inputs = gap_inputs(gap["build"], f"scale{scale}-ef16-seed{seed[0]}-{seed[1]}",
                        engine.edges, gap["wsg"])
    checks = {f"ours_{k}_reach": v for k, v in our_checks(engine, roots[0]).items()}
    engine.edges = None  # the tuples served GAP's files and the validators
    checks["giant_component"] = giant_component(graph)
    checks.update(gap_checks(gap, inputs, roots[0], args.deltas[0], args.threads))
    if any(e != edges for e in checks["gap_edges"]):
        raise RuntimeError(f"SCALE {scale}: GAP's graphs have {checks['gap_edges']} undirected "
                           f"edges, our CSR {edges}")
    doc = {"scale": scale, "seed": list(seed), "num_vertices": graph.num_vertices,
           "undirected_edges": edges, "roots": roots, "checks": checks, "load_before": load,
           "gap_files": {k: os.path.basename(inputs[k]) for k in ("bfs", "sssp")}}
    if "bfs" in args.kernels:
        _log(f"[SCALE {scale}] BFS, {len(roots)} roots")
        doc["bfs"] = interleave(args.rounds, [
            ("ours", lambda: {"times": our_searches(engine, "bfs", roots)}),
            ("gap", lambda: gap_searches(gap["bfs"], inputs["bfs"], roots, args.threads,
                                         warm=args.gap_warm))])
        summarise(doc["bfs"])
    if "sssp" in args.kernels:
        sssp_rounds(doc, engine, gap, inputs, roots[:args.sssp_roots], args)
    doc["load_after"] = os.getloadavg()
    return doc


def sssp_rounds(doc: dict, engine, gap: dict, inputs: dict, sroots: list[int], args) -> None:
    """The SCALE's SSSP rounds, ours and GAP's at each delta, into ``doc``."""
    doc["sssp_roots"] = sroots
    _log(f"[SCALE {doc['scale']}] SSSP, {len(sroots)} roots, GAP at deltas {args.deltas}")
    systems = [("ours", lambda: {"times": our_searches(engine, "sssp", sroots)})]
    systems += [(str(d), lambda d=d: gap_searches(gap["sssp"], inputs["sssp"], sroots,
                                                  args.threads,
                                                  ("-d", str(d), *inputs["sssp_flags"]),
                                                  args.gap_warm))
                for d in args.deltas]
    passes = interleave(args.rounds, systems)
    doc["sssp"] = {"ours": passes.pop("ours"), "gap": passes}
    summarise(doc["sssp"])


# ---- output ------------------------------------------------------------------------------------

def print_scale(doc: dict) -> None:
    """The SCALE's markdown table and its checks."""
    b, s, c = doc.get("bfs"), doc.get("sssp"), doc["checks"]
    print(f"\n### SCALE {doc['scale']}, edgefactor 16, seeds {doc['seed'][0]} "
          f"{doc['seed'][1]}\n")
    print(f"N = {doc['num_vertices']:,}, {doc['undirected_edges']:,} undirected edges (GAP: "
          f"the same count). Load average before / after: {doc['load_before'][0]:.2f} / "
          f"{doc['load_after'][0]:.2f} (1 min).\n")
    print("| kernel | roots | ours ms | GAP ms | GAP delta | GAP / ours |")
    print("|---|---|---|---|---|---|")
    if b is not None:
        print(f"| BFS | {len(doc['roots'])} | {b['ours_s'] * 1e3:.2f} | {b['gap_s'] * 1e3:.2f} "
              f"| | {fmt_ratio(b['gap_over_ours'])} |")
    if s is not None:
        print(f"| SSSP | {len(doc['sssp_roots'])} | {s['ours_s'] * 1e3:.1f} | "
              f"{s['gap_s'] * 1e3:.1f} | {s['gap_delta']} | {fmt_ratio(s['gap_over_ours'])} |")
        by = s["gap_by_delta_s"]
        print("\nGAP's SSSP by delta, ms a search: "
              + ", ".join(f"{d}: {v * 1e3:.1f}" for d, v in by.items()) + ".")

    def same(x):
        return "" if x == c["ours_bfs_reach"] else " **differs**"

    print(f"\nReach from root {doc['roots'][0]}: our BFS tree {c['ours_bfs_reach']:,} "
          f"vertices (valid), giant component {c['giant_component']:,}"
          f"{same(c['giant_component'])}, GAP's BFS {c['gap_bfs_reach']:,}"
          f"{same(c['gap_bfs_reach'])}; our SSSP {c['ours_sssp_reach']:,} (valid)"
          f"{same(c['ours_sssp_reach'])}, GAP's SSSP {c['gap_sssp_reach']:,}"
          f"{same(c['gap_sssp_reach'])}.")
    if s is not None and len(by) > 1 and s["gap_delta"] in (min(by, key=float),
                                                             max(by, key=float)):
        print("\nGAP's best delta is at an end of the range swept: a wider --deltas may find "
              "a faster one.")
    if doc["gap_files"]["sssp"].endswith(".wel"):
        print(f"\nGAP's SSSP read the text edge list in each process ({c['gap_sssp_load_s']:.1f} s "
              f"a load, untimed): its f32 build serializes no float weights.")
    sys.stdout.flush()


def print_head(info: dict, args, gap: dict, shared: str | None) -> None:
    from pygraph500.bfs import DEFAULT_ALGORITHM as BFS_DEFAULT
    from pygraph500.sssp import DEFAULT_ALGORITHM as SSSP_DEFAULT

    trials = ("`-r ROOT -n 2`, the second trial: `--gap-warm`" if args.gap_warm
              else "`-r ROOT -n 1`")
    print(f"## Ours against GAP: BFS and SSSP on the same graph and roots ({info['date']})\n")
    print("`" + " ".join(["python benchmarks/bench_peers.py"] + sys.argv[1:]) + "`")
    print(f"\nMachine: {info['cpu']}, {info['cores']} cores, {info['memory']}, {info['os']}; "
          f"Python {info['python']}, numpy {info['numpy']}, numba {info['numba']}; GAP "
          f"({gap['compiler']}, -O3 -fopenmp) built from {gap['peers']} (source "
          f"{os.path.basename(gap['build'])}). Load average at the start "
          f"{os.getloadavg()[0]:.2f} (1 min). {args.threads} threads each: GAP "
          f"OMP_NUM_THREADS={args.threads}, ours numba's.")
    print(f"\nA figure is the median over {args.rounds} rounds of the mean time per search over "
          f"the roots (the reference's 64 for BFS, the first {args.sssp_roots} for SSSP); ours "
          f"as `graph500 run` times its searches (`{BFS_DEFAULT}`, `{SSSP_DEFAULT}`), GAP's "
          f"\"Trial Time\" from one process per root ({trials}; the graph's load not "
          f"counted); GAP's SSSP at its best delta of {' '.join(str(d) for d in args.deltas)}. "
          f"Rounds "
          f"alternate which system goes first. GAP / ours > 1: ours is faster.")
    if shared:
        print(f"\n- note: {shared} (GAP inherits the same environment)")
    sys.stdout.flush()


def gap_setup(args) -> dict | None:
    """GAP built (or found built) and what its f32 build can read; None (a line printed)
    where it cannot be built here."""
    peers = peers_dir(args.peers_dir)
    lack = missing_tools()
    if peers is None or lack:
        why = (f"not found on PATH: {', '.join(lack)}" if lack else
               "no peers folder (../shared/peers or shared/peers; --peers-dir)")
        print(f"GAP skipped: {why}.")
        return None
    build = build_gap(peers, args.gap_dir)
    cxx = os.environ.get("CXX") or ("g++" if shutil.which("g++") else "c++")
    version = subprocess.run([cxx, "--version"], stdout=subprocess.PIPE, text=True).stdout
    return {"peers": peers, "build": build, "bfs": os.path.join(build, "int", "bfs"),
            "sssp": os.path.join(build, "f32", "sssp"), "wsg": f32_serializes(build),
            "compiler": version.splitlines()[0] if version else cxx}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[20, 22])
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--threads", type=int, default=None,
                    help="threads for both (default 2, or every core with --all-cores)")
    ap.add_argument("--all-cores", action="store_true")
    ap.add_argument("--sssp-roots", type=int, default=16,
                    help="SSSP from the first K of the 64 roots (default 16)")
    ap.add_argument("--deltas", type=float, nargs="+", default=DELTAS,
                    help="GAP's SSSP deltas, its best reported (default 0.005 0.01 0.02 0.05 0.1)")
    ap.add_argument("--gap-dir", default=os.path.join(REPO, ".peers-build"),
                    help="where GAP is built and its graph files cached (default .peers-build)")
    ap.add_argument("--peers-dir", default=None,
                    help="GAP's source, gap.sh and patch (default ../shared/peers or "
                         "shared/peers from the repository)")
    ap.add_argument("--gap-warm", action="store_true",
                    help="GAP runs each root twice in its process (-n 2) and the second trial "
                         "is kept: its threads started and arrays touched, as ours are after "
                         "the warm-up, but the root's search repeated on warm caches")
    ap.add_argument("--kernels", nargs="+", choices=("bfs", "sssp"), default=["bfs", "sssp"],
                    help="the kernels timed (default both; the checks run both)")
    ap.add_argument("--json", default=None, metavar="FILE", help="the per-round times as JSON")
    args = ap.parse_args(argv)
    if args.threads is None:
        args.threads = os.cpu_count() if args.all_cores else 2
    if args.rounds < 1 or args.sssp_roots < 1 or args.threads < 1:
        ap.error("--rounds, --sssp-roots and --threads must be at least 1")

    gap = gap_setup(args)
    if gap is None:
        return 0
    from pygraph500.backend.threads import check_threads, shared_machine
    from pygraph500.errors import InputError

    try:
        check_threads(args.threads)  # at most numba's NUMBA_NUM_THREADS
    except InputError as exc:
        ap.error(str(exc))
    shared = shared_machine(args.threads)  # before the first parallel kernel, as the CLI
    info = machine_info()
    print_head(info, args, gap, shared)
    docs = []
    for scale in args.scales:
        docs.append(run_scale(scale, gap, args))
        print_scale(docs[-1])
    end = os.getloadavg()
    print(f"\nLoad average at the end: {end[0]:.2f} (1 min).")
    if args.json:
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"machine": info, "argv": sys.argv[1:], "threads": args.threads,
                       "rounds": args.rounds, "shared_machine": shared, "load_end": end,
                       "gap": gap, "scales": docs}, f, indent=1)
        os.replace(tmp, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
