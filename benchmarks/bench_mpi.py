"""The distributed engine under mpiexec: strong and weak scaling in the form of thesis Tables
4.3 and 4.8, with the computation / communication split of Table 4.2 and the message sizes
of Fig. 4.13, for every pruning mode; the embedded run on the same machine beside it.

Every configuration is one fresh ``mpiexec -n P python -m pygraph500 run --json ...`` (64
roots, every tree validated, one thread per process unless ``--threads``); the embedded
runs are ``python -m pygraph500 run --threads T`` (default algorithm, and topdown-queue).

    python benchmarks/bench_mpi.py [--scale 20] [--weak-base 18] [--procs 1 2 4]
        [--prunes sort-unique none bitmap] [--algorithms topdown-queue direction-optimizing]
        [--roots 64] [--backend cpu|gpu] [--json FILE]

``--backend gpu`` runs every process on the GPU of its node-local rank (the multi-GPU form
of the thesis's system; the embedded runs then use the GPU too); the output names the
exchange (CUDA-aware MPI or staged through host memory).

Columns: MTEPS (harmonic mean), speed-up over P = 1, comp / comm ms (per search: the sum
over levels of a process's computation or communication time, averaged over the processes;
the median over the searches), bytes sent per traversed edge (all processes, all searches,
over the sum of the TEPS numerators), NLF / pruned (the largest level of the first search,
all processes: the frontier before and after pruning, thesis Table 4.2), construction s.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np


def _mpiexec() -> str:
    found = shutil.which("mpiexec", path=os.path.dirname(sys.executable) + os.pathsep
                         + os.environ.get("PATH", ""))
    if not found:
        raise SystemExit("no mpiexec: pip install -e '.[mpi]'")
    return found


def run_json(cmd: list[str], out: str, env: dict | None = None) -> tuple[dict, float]:
    """Run ``cmd`` (which writes its JSON to ``out``; ``env``: its whole environment): the
    document and the wall seconds; SystemExit with the command's output when it fails."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    with open(out) as f:
        return json.load(f), wall


def run(procs: int | None, scale: int, roots: int, threads: int, algorithm: str,
        prune: str | None, backend: str = "cpu") -> dict:
    """One run; procs None is the embedded run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [sys.executable, "-m", "pygraph500", "run", "--scale", str(scale), "--roots",
               str(roots), "--threads", str(threads), "--algorithm", algorithm, "--json", out,
               "--quiet", "--backend", backend]
        if procs is not None:
            cmd = [_mpiexec(), "-n", str(procs)] + cmd + ["--prune", prune, "--distributed"]
        doc, wall = run_json(cmd, out)
    off = doc["official"]
    row = {"procs": procs or 1, "embedded": procs is None, "scale": scale,
           "algorithm": algorithm, "prune": prune or "-", "threads": threads,
           "teps": off["bfs  harmonic_mean_TEPS"], "construction": off["construction_time"],
           "generation": off["graph_generation"], "median_bfs": off["bfs  median_time"],
           "wall": wall, "labels": doc["labels"]}
    if procs is None:
        return row
    comp, comm, sent, nedge = [], [], 0, 0
    for r in doc["runs"]:
        lv = r["levels"]
        size = len(lv[0]["per_rank"]["queue"])
        comp.append(np.mean([sum(x["per_rank"]["comp_time"][k] for x in lv) for k in range(size)]))
        comm.append(np.mean([sum(x["per_rank"]["comm_time"][k] for x in lv) for k in range(size)]))
        sent += sum(x["sent_bytes"] for x in lv)
        nedge += r["nedge"]
    first = doc["runs"][0]["levels"]
    big = max(first, key=lambda x: x["nlf"])
    row.update(comp_ms=1e3 * float(np.median(comp)), comm_ms=1e3 * float(np.median(comm)),
               bytes_per_edge=sent / nedge, nlf=big["nlf"], nlf_pruned=big["nlf_pruned"],
               big_level=big["level"], big_direction=big["direction"],
               library=doc["distributed"]["mpi_library"], device=doc["distributed"]["device"],
               exchange=doc["distributed"]["device_exchange"])
    return row


def table(title: str, rows: list[dict], base: dict[tuple, float]) -> str:
    head = ("| P | SCALE | algorithm | --prune | MTEPS | speed-up | comp ms | comm ms | "
            "bytes sent / edge | NLF | pruned | construction s |")
    lines = [f"#### {title}", "", head, "|---" * (head.count("|") - 1) + "|"]
    for r in rows:
        if r["embedded"]:
            lines.append(f"| embedded | {r['scale']} | {r['algorithm']} ({r['threads']} threads) "
                         f"| - | {r['teps'] / 1e6:.1f} | | | | | | | {r['construction']:.2f} |")
            continue
        b = base.get((r["algorithm"], r["prune"]))
        speed = f"{r['teps'] / b:.2f}" if b else ""
        lines.append(
            f"| {r['procs']} | {r['scale']} | {r['algorithm']} | {r['prune']} | "
            f"{r['teps'] / 1e6:.1f} | {speed} | {r['comp_ms']:.1f} | {r['comm_ms']:.1f} | "
            f"{r['bytes_per_edge']:.3f} | {r['nlf']:,} | {r['nlf_pruned']:,} | "
            f"{r['construction']:.2f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20, help="strong scaling SCALE (default 20)")
    ap.add_argument("--weak-base", type=int, default=18,
                    help="weak scaling: SCALE = base + log2 P (default 18)")
    ap.add_argument("--procs", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--prunes", nargs="+", default=["sort-unique", "none", "bitmap"])
    ap.add_argument("--algorithms", nargs="+", default=["topdown-queue", "direction-optimizing"])
    ap.add_argument("--do-prunes", nargs="+", default=["sort-unique"],
                    help="pruning modes run with direction-optimizing (default sort-unique)")
    ap.add_argument("--roots", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1, help="threads per process (default 1)")
    ap.add_argument("--embedded-threads", type=int, default=2)
    ap.add_argument("--backend", choices=["cpu", "gpu"], default="cpu",
                    help="gpu: one GPU per process (and the embedded runs on the GPU)")
    ap.add_argument("--json", help="write every row as JSON")
    args = ap.parse_args()

    cores = os.cpu_count() or 1
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} {platform.processor() or platform.machine()}, "
          f"{cores} cores, Python {platform.python_version()}; {args.roots} roots, every tree "
          f"validated; {args.threads} thread(s) per process")
    over = [p for p in args.procs if p * args.threads > cores]
    if over:
        print(f"# NOTE: P = {', '.join(map(str, over))} oversubscribe this machine's {cores} "
              f"cores: the processes share cores, so those times are not those of P dedicated "
              f"cores (communication includes waiting for descheduled processes)")
    combos = [(a, p) for a in args.algorithms
              for p in (args.prunes if a == "topdown-queue" else args.do_prunes)]
    rows: dict[str, list[dict]] = {"strong": [], "weak": []}
    cache: dict[tuple, dict] = {}

    def get(procs, scale, algorithm, prune, threads):
        key = (procs, scale, algorithm, prune, threads)
        if key not in cache:
            cache[key] = run(procs, scale, args.roots, threads, algorithm, prune, args.backend)
            r = cache[key]
            print(f"# done: P={procs or 'embedded'} SCALE {scale} {algorithm} {prune or ''}: "
                  f"{r['teps'] / 1e6:.1f} MTEPS, wall {r['wall']:.0f} s", flush=True)
        return cache[key]

    # the embedded peers of Algorithm 4: the CPU's queue BFS, or the GPU's sort-unique BFS
    queue_peer = "topdown-queue" if args.backend == "cpu" else "sort-unique"
    for algorithm in ("direction-optimizing", queue_peer):
        rows["strong"].append(get(None, args.scale, algorithm, None, args.embedded_threads))
    for algorithm, prune in combos:
        for p in args.procs:
            rows["strong"].append(get(p, args.scale, algorithm, prune, args.threads))
    for p in args.procs:
        scale = args.weak_base + int(round(np.log2(p)))
        rows["weak"].append(get(None, scale, "direction-optimizing", None, args.embedded_threads))
        for algorithm, prune in combos:
            rows["weak"].append(get(p, scale, algorithm, prune, args.threads))

    base = {(r["algorithm"], r["prune"]): r["teps"] for r in rows["strong"]
            if not r["embedded"] and r["procs"] == min(args.procs)}
    wbase = {(r["algorithm"], r["prune"]): r["teps"] for r in rows["weak"]
             if not r["embedded"] and r["procs"] == min(args.procs)}
    dist = next((r for r in rows["strong"] if not r["embedded"]), {})
    print(f"# MPI: {dist.get('library', '')}; rank 0's device: {dist.get('device', '')}")
    if dist.get("exchange"):
        print(f"# messages: {dist['exchange']}")
    print()
    print(table(f"Strong scaling, SCALE {args.scale} (thesis Table 4.3)", rows["strong"], base))
    print()
    print(table(f"Weak scaling, SCALE {args.weak_base} + log2 P (thesis Table 4.8)", rows["weak"],
                wbase))
    print()

    # the issue's targets
    strong = [r for r in rows["strong"] if not r["embedded"]]
    emb = {r["algorithm"]: r["teps"] for r in rows["strong"] if r["embedded"]}
    print("#### Targets")
    print()
    for p in args.procs:
        su = next((r for r in strong if r["procs"] == p and r["algorithm"] == "topdown-queue"
                   and r["prune"] == "sort-unique"), None)
        no = next((r for r in strong if r["procs"] == p and r["algorithm"] == "topdown-queue"
                   and r["prune"] == "none"), None)
        if su and no and no["bytes_per_edge"] > 0:
            print(f"- P = {p}, SCALE {args.scale}: bytes sent, sort-unique / none = "
                  f"{su['bytes_per_edge'] / no['bytes_per_edge']:.3f} (target <= 0.333)")
    for r in strong:
        if r["procs"] == 2:
            print(f"- P = 2 x {r['threads']} thread, {r['algorithm']} --prune {r['prune']}: "
                  f"hmean TEPS / embedded direction-optimizing ({args.embedded_threads} threads) "
                  f"= {r['teps'] / emb['direction-optimizing']:.2f}; / embedded {queue_peer} = "
                  f"{r['teps'] / emb[queue_peer]:.2f} (target >= 0.5)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
