"""The array-backend BFS algorithms (thesis chapter 4, seed 004) at several SCALEs.

For each SCALE: the Graph500 Kronecker graph (edgefactor 16, seeds 2 and 3), kernel 1 on
the backend (``build_csr_array``, timed beside the compiled ``build_csr``), then each
array-backend algorithm from the first ``--roots`` search keys of the reference rule (one
untimed warm-up search first). Every tree is validated (untimed). Reported per algorithm:
harmonic-mean TEPS (Graph500 counting), the time per phase (expand, binary search, prune,
update) summed over the levels and averaged over the searches, and the memory peak (the
device's memory pool on a GPU, the process's resident peak so far on the CPU). For ``sort-unique``
the per-level thesis Table 4.1 of the first search (NLF before and after pruning) follows.
Our compiled default (``direction-optimizing`` on the CPU) is timed on the same roots for
scale. ``--compare-forms`` adds a row for each form a GPU runs as kernels measured in its
whole-array form: ``sort-unique`` by whole-array steps, and ``direction-optimizing`` with
sort-unique top-down levels beside its bottom-up kernel (elsewhere each pair of rows runs
the same code).

    python benchmarks/bench_array_bfs.py [--scales 16 18 20 22] [--roots 8]
                                         [--backend cpu|gpu] [--algorithms ...]
                                         [--compare-forms]

Markdown on stdout (for benchmarks/RESULTS.md), progress on stderr.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import resource
import sys
import time
from functools import partial

import numpy as np

from pygraph500 import build_csr, kronecker, validate
from pygraph500.backend.arrays import get_backend
from pygraph500.benchmark import choose_roots
from pygraph500.benchmark.stats import teps_summary
from pygraph500.bfs import ALGORITHMS
from pygraph500.bfs.array import ARRAY_ALGORITHMS, bfs_direction_optimizing_array
from pygraph500.bfs.array.steps import PHASES
from pygraph500.graph.build_array import build_csr_array
from pygraph500.validate import count_component_edges


def _log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _peak_bytes(backend) -> int:
    if backend.on_cuda:  # CuPy's pool (not the NumPy of a stand-in)
        return int(backend.xp.get_default_memory_pool().total_bytes())
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# --compare-forms: the whole-array form of each algorithm a GPU runs as kernels
WHOLE_ARRAY_FORMS = {
    "sort-unique": ("sort-unique, whole-array steps",
                    partial(ARRAY_ALGORITHMS["sort-unique"], kernel=False)),
    "direction-optimizing": ("direction-optimizing, sort-unique top-down",
                             partial(bfs_direction_optimizing_array, top_down_kernel=False)),
}


def run_scale(scale, backend, names, nroots, compare_forms=False):
    edges = kronecker(scale)
    t0 = time.perf_counter()
    host = build_csr(edges)
    k1_compiled = time.perf_counter() - t0
    t0 = time.perf_counter()
    graph = build_csr_array(edges, backend)
    backend.synchronize()
    k1_array = time.perf_counter() - t0
    roots = choose_roots(host.degree() > 0, (2, 3), 64)[:nroots].tolist()
    rows, table41 = [], None
    fns = {name: ARRAY_ALGORITHMS.get(name) for name in names}
    if "direction-optimizing" in names:
        fns["direction-optimizing"] = bfs_direction_optimizing_array
    if compare_forms:
        fns.update(WHOLE_ARRAY_FORMS[name] for name in names if name in WHOLE_ARRAY_FORMS)
    fns["ours, compiled default"] = None
    for name, fn in fns.items():
        if fn is None:
            g, call = host, (lambda r: ALGORITHMS["direction-optimizing"](host, r, depth=False))
        else:
            g, call = graph, (lambda r, fn=fn: fn(graph, r, backend=backend, depth=False,
                                                  on_device=True))
        call(roots[0])  # warm-up
        times, nedges, phases, slowest = [], [], np.zeros(len(PHASES)), ""
        for r in roots:
            t0 = time.perf_counter()
            res = call(r)
            times.append(time.perf_counter() - t0)  # the device synchronised, as in the run
            res.parent = backend.to_host(res.parent)
            report = validate(edges, res.parent, r)
            if not report.valid:
                raise SystemExit(f"{name} at SCALE {scale}, root {r}: invalid ({report.rule})")
            nedges.append(count_component_edges(edges, res.parent))
            x = res.levels.extra
            if x:
                phases += [x[f"t_{p}"].sum() for p in PHASES]
                if times[-1] == max(times):  # the slowest search's levels, for the log
                    slowest = " | ".join("/".join(f"{x[f't_{p}'][k] * 1e3:.1f}" for p in PHASES)
                                         for k in range(len(x["CLQ"])))
                if name == "sort-unique" and table41 is None:
                    table41 = {k: x[k] for k in ("CLQ", "NLF", "LV", "NLQ", "UR")}
        hm = teps_summary(times, nedges)["harmonic_mean"]
        rows.append({"name": name, "hmean": hm, "median_s": float(np.median(times)),
                     "phases": phases / len(roots), "peak": _peak_bytes(backend)})
        _log(f"SCALE {scale} {name}: {hm / 1e6:.1f} MTEPS, median {np.median(times):.3f} s; "
             f"each search (s): {' '.join(f'{t:.4f}' for t in times)}"
             + (f"; the slowest one's levels (ms, {'/'.join(PHASES)}): {slowest}" if slowest
                else ""))
    return {"scale": scale, "k1_compiled": k1_compiled, "k1_array": k1_array, "rows": rows,
            "table41": table41, "roots": len(roots)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[16, 18, 20, 22])
    ap.add_argument("--roots", type=int, default=8)
    ap.add_argument("--backend", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--algorithms", nargs="+",
                    default=[*ARRAY_ALGORITHMS, "direction-optimizing"],
                    choices=[*ARRAY_ALGORITHMS, "direction-optimizing"])
    ap.add_argument("--compare-forms", action="store_true",
                    help="also the whole-array forms of the algorithms a GPU runs as kernels "
                         "(sort-unique; direction-optimizing's top-down levels)")
    args = ap.parse_args(argv)
    backend = get_backend(args.backend)
    import numba

    print(f"### Array-backend BFS, {datetime.date.today()}: {backend.device}; host "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, numba "
          f"{numba.__version__} ({numba.get_num_threads()} threads for the compiled default)\n")
    for scale in args.scales:
        r = run_scale(scale, backend, args.algorithms, args.roots, args.compare_forms)
        print(f"#### SCALE {scale}: {r['roots']} roots; kernel 1 on the backend "
              f"{r['k1_array']:.2f} s (compiled build_csr {r['k1_compiled']:.2f} s)\n")
        print("| algorithm | hmean MTEPS | median s | expand s | binary search s | prune s | "
              "update s | memory peak MB |")
        print("|---|---|---|---|---|---|---|---|")
        for row in r["rows"]:
            ph = " | ".join(f"{t:.4f}" for t in row["phases"]) if row["phases"].any() \
                else " - | - | - | -"
            print(f"| {row['name']} | {row['hmean'] / 1e6:.1f} | {row['median_s']:.4f} | {ph} | "
                  f"{row['peak'] / 2**20:.0f} |")
        t = r["table41"]
        if t is not None:
            print("\nsort-unique, first search, thesis Table 4.1 (NLF before pruning, NLQ after; "
                  "LV: unvisited part of the NLF; UR = NLQ / LV):\n")
            print("| level | " + " | ".join(str(k) for k in range(len(t["CLQ"]))) + " |")
            print("|---" * (len(t["CLQ"]) + 1) + "|")
            for key in ("CLQ", "NLF", "LV", "NLQ"):
                print(f"| {key} | " + " | ".join(str(int(v)) for v in t[key]) + " |")
            print("| UR | " + " | ".join(f"{v:.2f}" for v in t["UR"]) + " |")
        print()


if __name__ == "__main__":
    main()
