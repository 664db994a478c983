"""Paper 002's hybrid BFS (``--algorithm hybrid``): the task-count study, auto lambda against
our default, and the stand-in array side of controlled speed.

1. **Tasks** (the paper's Fig. 9: TEPS against the number of tasks): for each T of
   ``--tasks``, the CPU engine alone (lambda = N), the array side alone (lambda = 0) and
   auto, on the Kronecker graph of ``--scale`` (the array side alone on NumPy at
   ``--array-scale``, default 16: NumPy is some 20x slower than the compiled engine and its
   bottom-up gathers whole lists, too much memory at SCALE 20). TEPS: harmonic mean over
   the roots of nedge / search time, after one warm-up search per configuration (for auto
   it is the calibration: the tuner measures both sides there).
2. **Auto against the default**: ``hybrid`` (auto lambda, ``--default-tasks``) and
   ``direction-optimizing`` from the same roots, interleaved (A, B, A, B ...), ``--repeats``
   rounds; the median ratio of their search times, per root and over all. The target: auto
   costs < 10 % where nothing is to be gained (NumPy here: auto must put no level there).
3. **Stand-in** (``--speed``, default 2): the array side replaced by a STAND-IN, the CPU
   engine's kernels on its own copy of the state with a clock modelled at ``--speed`` times
   the CPU engine's speed; the searches' times are the levels' modelled times (max of the
   two sides plus the host's work). CPU alone, stand-in alone, auto, and fixed at a 2/3
   share; the target: auto >= 1.3x the best single side. Also with ``clock="work"`` (every
   side charged by its work: deterministic), as the tests do.

Every tree is validated (untimed). ``--backend gpu``: the array side on CuPy (CUDA); without
a device the script says so in one line and exits 2. ``--json FILE``: every figure, and the
level records (sides per task, times, transfers) of one search per configuration.

    python benchmarks/bench_hybrid.py [--scale 20] [--array-scale 16] [--roots 8]
        [--tasks 1 2 4 8 16 32 64 128 256 512 1024] [--default-tasks 128] [--repeats 3]
        [--speed 2] [--backend cpu|gpu] [--skip tasks auto standin] [--json FILE]

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


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class Graph:
    """A Kronecker graph (edge factor ``ef``), its roots and each root's TEPS numerator."""

    def __init__(self, scale: int, roots: int, ef: int = 16):
        from pygraph500 import build_csr, kronecker
        from pygraph500.benchmark import choose_roots

        self.scale, self.ef = scale, ef
        self.edges = kronecker(scale, ef)
        self.g = build_csr(self.edges)
        self.roots = choose_roots(self.g.degree() > 0, (2, 3), roots).tolist()
        self.nedge = {}

    def check(self, res, root) -> int:
        from pygraph500 import validate

        report = validate(self.edges, res.parent, root)
        if not report.valid:
            raise SystemExit(f"bench_hybrid.py: invalid tree from root {root}: {report.message}")
        self.nedge[root] = report.nedge
        return report.nedge


def search(graph: Graph, root: int, modelled: bool = False, **options):
    """(result, seconds): wall time around the call, or the levels' modelled time."""
    from pygraph500.bfs import ALGORITHMS

    name = options.pop("algorithm", "hybrid")
    t0 = time.perf_counter()
    res = ALGORITHMS[name](graph.g, root, depth=False, **options)
    wall = time.perf_counter() - t0
    return res, float(res.levels.time.sum()) if modelled else wall


def teps(graph: Graph, options: dict, modelled: bool = False):
    """(harmonic-mean TEPS, the levels of the first timed search) after a warm-up."""
    search(graph, graph.roots[0], modelled, **options)
    times, nedge, first = [], [], None
    for root in graph.roots:
        res, seconds = search(graph, root, modelled, **options)
        nedge.append(graph.check(res, root))
        times.append(seconds)
        first = first or res.levels.as_dicts()
    return hmean_teps(times, nedge), first


def task_study(args, backend) -> dict:
    big, small = Graph(args.scale, args.roots), None
    if args.array_scale != args.scale:
        small = Graph(args.array_scale, args.roots)
    rows, levels = [], {}
    for t in args.tasks:
        row = {"tasks": t}
        for name, graph, lam in (("cpu", big, big.g.num_vertices), ("array", small or big, 0),
                                 ("auto", big, None)):
            _log(f"tasks {t}: {name} (load {_load()})")
            row[name], levels[f"{name} T={t}"] = teps(graph, dict(tasks=t, lam=lam,
                                                                  backend=backend))
        rows.append(row)
    print(f"\n### Tasks (paper 002 Fig. 9): TEPS against T; CPU engine and auto at SCALE "
          f"{args.scale}, array side alone at SCALE {args.array_scale} (backend {backend})\n")
    print("| T | CPU engine alone (lambda = N) | array side alone (lambda = 0) | auto | "
          "auto / CPU |")
    print("|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['tasks']} | {r['cpu'] / 1e6:.1f} M | {r['array'] / 1e6:.2f} M | "
              f"{r['auto'] / 1e6:.1f} M | {fmt_ratio(r['auto'] / r['cpu'])} |")
    return {"rows": rows, "levels": levels}


def auto_vs_default(args, backend) -> dict:
    graph = Graph(args.scale, args.roots)
    hybrid = dict(tasks=args.default_tasks, backend=backend)
    default = dict(algorithm="direction-optimizing")
    for options in (hybrid, default):  # warm-up; the hybrid's is its calibration
        search(graph, graph.roots[0], **options)
    times = {"hybrid": {r: [] for r in graph.roots}, "default": {r: [] for r in graph.roots}}
    dev_levels = 0
    _log(f"auto vs default at SCALE {args.scale} (load {_load()})")
    for _ in range(args.repeats):
        for root in graph.roots:
            res, sec = search(graph, root, **hybrid)
            graph.check(res, root)
            dev_levels += int(np.count_nonzero(res.levels.extra["dev_tasks"]))
            times["hybrid"][root].append(sec)
            res, sec = search(graph, root, **default)
            times["default"][root].append(sec)
    med = {k: {r: float(np.median(v)) for r, v in d.items()} for k, d in times.items()}
    ratios = [med["hybrid"][r] / med["default"][r] for r in graph.roots]
    nedge = [graph.nedge[r] for r in graph.roots]
    out = {"hybrid_teps": hmean_teps([med["hybrid"][r] for r in graph.roots], nedge),
           "default_teps": hmean_teps([med["default"][r] for r in graph.roots], nedge),
           "median_ratio": float(np.median(ratios)), "worst_ratio": float(max(ratios)),
           "array_side_levels": dev_levels}
    print(f"\n### Auto lambda against the default at SCALE {args.scale} (T = "
          f"{args.default_tasks}, array side: {backend}; {len(graph.roots)} roots x "
          f"{args.repeats} interleaved rounds, medians)\n")
    print("| | direction-optimizing | hybrid, auto lambda | hybrid time / default time |")
    print("|---|---:|---:|---:|")
    print(f"| harmonic-mean TEPS | {out['default_teps'] / 1e6:.1f} M | "
          f"{out['hybrid_teps'] / 1e6:.1f} M | median {out['median_ratio']:.3f}, worst root "
          f"{out['worst_ratio']:.3f} |")
    print(f"\nLevels the tuner gave to the array side in the timed searches: {dev_levels}.")
    return out


def standin(args) -> dict:
    graph = Graph(args.scale, args.roots)
    n = graph.g.num_vertices
    out = {}
    for clock in ("measured", "work"):
        common = dict(tasks=args.default_tasks, standin_speed=args.speed, clock=clock)
        row = {}
        for name, extra in (("cpu", dict(lam=n)), ("stand-in", dict(lam=0)), ("auto", {}),
                            ("fixed 2/3", dict(mode="fixed", gpu_share=2 / 3))):
            _log(f"stand-in {clock}: {name} (load {_load()})")
            row[name], row[f"levels {name}"] = teps(graph, {**common, **extra}, modelled=True)
        row["auto / best"] = row["auto"] / max(row["cpu"], row["stand-in"])
        out[clock] = row
    print(f"\n### STAND-IN array side at {args.speed:g}x the CPU engine's speed (no device; "
          f"modelled times), SCALE {args.scale}, T = {args.default_tasks}\n")
    print("| clock | CPU alone | stand-in alone | auto | fixed, 2/3 of the tasks there | "
          "auto / best single |")
    print("|---|---:|---:|---:|---:|---:|")
    for clock, r in out.items():
        print(f"| {clock} | {r['cpu'] / 1e6:.1f} M | {r['stand-in'] / 1e6:.1f} M | "
              f"{r['auto'] / 1e6:.1f} M | {r['fixed 2/3'] / 1e6:.1f} M | "
              f"{r['auto / best']:.2f} |")
    return out


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scale", type=int, default=20)
    p.add_argument("--array-scale", type=int, default=16)
    p.add_argument("--roots", type=int, default=8)
    p.add_argument("--tasks", type=int, nargs="*",
                   default=[1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
    p.add_argument("--default-tasks", type=int, default=128)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--speed", type=float, default=2.0)
    p.add_argument("--backend", choices=["cpu", "gpu"], default="cpu")
    p.add_argument("--skip", nargs="*", default=[], choices=["tasks", "auto", "standin"])
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args(argv)
    from pygraph500.backend.arrays import get_backend
    from pygraph500.backend.threads import shared_machine
    from pygraph500.errors import InputError

    shared = shared_machine(None)  # before the first parallel kernel (OpenMP's wait policy)

    try:
        backend = get_backend(args.backend)
    except InputError as exc:
        print(f"bench_hybrid.py: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    doc = {"machine": machine_info(), "array_side": backend.device, "load_start": _load()}
    print(f"Machine: {doc['machine']}; array side: {backend.device}; load average at start "
          f"{doc['load_start']}")
    if shared:
        print(f"NOTE: {shared}")
        doc["shared"] = shared
    if "tasks" not in args.skip:
        doc["tasks"] = task_study(args, args.backend)
    if "auto" not in args.skip:
        doc["auto"] = auto_vs_default(args, args.backend)
    if "standin" not in args.skip:
        doc["standin"] = standin(args)
    doc["load_end"] = _load()
    print(f"\nLoad average at the end: {doc['load_end']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1, default=str)


if __name__ == "__main__":
    main()
