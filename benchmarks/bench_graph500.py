"""End-to-end Graph500 benchmark at several SCALEs, one fresh process per SCALE.

For each SCALE it runs ``python -m pygraph500 run --scale S --json ...`` and reports what the
issue asks for: generation rate, construction time, harmonic-mean TEPS, validation time per
root, total wall time (JIT compilation or cache loading included) and peak resident memory of
that process. (No figures of the reference C implementation are compared: its code cannot be
built here, and quoted figures are not a measurement.)

    python benchmarks/bench_graph500.py [--scales 16 18 20 22] [--algorithm NAME]
                                        [--kernel bfs|sssp|both] [--validation csr|tuples]
                                        [--sort-vertices none|degree] [--memory]

With ``--kernel sssp|both`` the rows also give kernel 3's harmonic-mean TEPS, median SSSP
time and SSSP validation time per root (and the ratio of the two validations).
``--memory`` adds what the peak holds: the interpreter with the compiled kernels loaded (the
peak of a SCALE 4 run), the graph's arrays (CSR, tuple counts), what validation keeps (the int64
parent array, int8 depths that are also the levels, the levels packed two or four a byte,
the rows pass's sieve, a bit for each 8: 9.52 bytes a vertex), and the peak beyond the
interpreter over the last two.
``--scales 20 21 22 23 24 25 26 --memory`` is the SCALE 20 to 26 table of RESULTS.md (SCALE
26 needs about 11 GiB and ten minutes on 2 cores).
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

def run_one(scale: int, algorithm: str | None, threads: int | None, kernel: str = "bfs",
            validation: str | None = None, sort_vertices: str | None = None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [sys.executable, "-m", "pygraph500", "run", "--scale", str(scale), "--json", out,
               "--quiet"]
        if algorithm:
            cmd += ["--algorithm", algorithm]
        if threads:
            cmd += ["--threads", str(threads)]
        cmd += ["--kernel", kernel]
        if validation:
            cmd += ["--validation", validation]
        if sort_vertices:
            cmd += ["--sort-vertices", sort_vertices]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        stdout, stderr = proc.stdout.read().decode(), proc.stderr.read().decode()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"SCALE {scale} failed:\n{stdout}\n{stderr}")
        with open(out) as f:
            doc = json.load(f)
    off = doc["official"]
    m = doc["parameters"]["num_edges"]
    sssp = {}
    if kernel != "bfs":
        sssp = {"sssp_teps": off["sssp harmonic_mean_TEPS"],
                "median_sssp": off["sssp median_time"],
                "sssp_validate": off["sssp mean_validate"]}
    if kernel == "sssp":
        off = {**off, **{f"bfs  {k}": float("nan") for k in
                         ("harmonic_mean_TEPS", "median_time", "mean_validate")}}
    return {**sssp,
        "scale": scale,
        "algorithm": doc["parameters"]["algorithm"],
        "threads": doc["parameters"]["threads"],
        "generation": off["graph_generation"],
        "gen_rate": m / off["graph_generation"],
        "construction": off["construction_time"],
        "hmean_teps": off["bfs  harmonic_mean_TEPS"],
        "median_bfs": off["bfs  median_time"],
        "validate_per_root": off["bfs  mean_validate"],
        "wall": wall,
        "peak_mb": usage.ru_maxrss / 1024,
        "graph_mb": doc["parameters"].get("graph_bytes", 0) / 2**20,
        "keep_mb": (9.5 + 1 / 64) * doc["parameters"]["num_vertices"] / 2**20,
        "validation": doc["parameters"].get("validation"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[16, 18, 20, 22])
    ap.add_argument("--algorithm", default=None)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--kernel", choices=["bfs", "sssp", "both"], default="bfs")
    ap.add_argument("--validation", choices=["csr", "tuples"], default=None)
    ap.add_argument("--sort-vertices", choices=["none", "degree"], default=None,
                    help="kernel 1's relabelling (graph500 run's option)")
    ap.add_argument("--memory", action="store_true", help="what the peak memory holds")
    args = ap.parse_args()

    print(f"# {time.strftime('%Y-%m-%d')} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}")
    head = ("| SCALE | algorithm | threads | generation s | Medges/s | construction s | "
            "hmean MTEPS | median BFS ms | validate s/root | wall s | peak MB |")
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    rows = []
    sssp_rows = []
    for scale in args.scales:
        r = run_one(scale, args.algorithm, args.threads, args.kernel, args.validation,
                    args.sort_vertices)
        rows.append(r)
        print(f"| {r['scale']} | {r['algorithm']} | {r['threads']} | {r['generation']:.2f} | "
              f"{r['gen_rate'] / 1e6:.1f} | {r['construction']:.3f} | "
              f"{r['hmean_teps'] / 1e6:.0f} | "
              f"{r['median_bfs'] * 1e3:.1f} | {r['validate_per_root']:.3f} | {r['wall']:.1f} | "
              f"{r['peak_mb']:.0f} |", flush=True)
        if "sssp_teps" in r:
            sssp_rows.append(r)
    if args.memory:
        base = run_one(4, args.algorithm, args.threads)["peak_mb"]
        print(f"\nmemory (MiB; validation {rows[0]['validation']}; the interpreter with the "
              f"compiled kernels loaded: {base:.0f}, the peak of a SCALE 4 run):")
        print("| SCALE | peak | graph (CSR, tuple counts) | validation keeps | "
              "(peak - interpreter) / (graph + validation) |")
        print("|---|---|---|---|---|")
        for r in rows:
            need = r["graph_mb"] + r["keep_mb"]
            print(f"| {r['scale']} | {r['peak_mb']:.0f} | {r['graph_mb']:.0f} | "
                  f"{r['keep_mb']:.0f} | {(r['peak_mb'] - base) / need:.2f} |")
    if sssp_rows:
        print("\nkernel 3 in the same runs:")
        print("| SCALE | sssp hmean MTEPS | median SSSP ms | sssp validate s/root | "
              "sssp / bfs validation |")
        print("|---|---|---|---|---|")
        for r in sssp_rows:
            print(f"| {r['scale']} | {r['sssp_teps'] / 1e6:.1f} | {r['median_sssp'] * 1e3:.1f} | "
                  f"{r['sssp_validate']:.3f} | "
                  f"{r['sssp_validate'] / r['validate_per_root']:.2f} |")


if __name__ == "__main__":
    main()
