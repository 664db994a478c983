"""``make gpu-check``: the first run on a machine with a CUDA device, in one command.

With a device (CuPy sees one and numba.cuda is usable): ``pytest -m gpu`` (the tests that
need one), then issue 16's targets (at SCALE 24 sort-unique >= 2 G TEPS and the array
direction-optimizing >= 20 G TEPS, beside its sort-unique top-down form; blocked APSP,
n = 8192, float32 <= 1 s), then ``graph500 run --backend gpu`` as a user runs it (the
default search at SCALE 22, the hybrid at SCALE 20; every tree validated), then
``benchmarks/bench_array_bfs.py --backend gpu`` and ``benchmarks/bench_apsp.py --backend
gpu`` (each as it is).
Without one, the report says so on its first lines and runs the device-free checks of the
same code instead (the numpy-checked budget tests, the numba CUDA simulator tests). Every
step's command, status, time and output go to one report file, written again after each
step (a run cut short still leaves what it did). The exit status is 1 only when something
broken was found (a step failed, or a device is there without CuPy or numba-cuda); targets
missed are reported, not failed.

    python benchmarks/gpu_check.py [--report gpu-check-report.txt] [--quick]
                                   [--only tests targets run benches]

The steps run in that order (the device tests, the targets, the user's run, then the
side-by-side benchmarks), so that a short lease spends itself on what matters most;
``--only`` picks some.
``--quick``: small sizes (SCALE 16 and 12, n = 1024), to try the script itself.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
# Targets of issue 16 (one H100): G TEPS at SCALE 24; seconds of blocked APSP, n = 8192.
BFS_TARGETS = {"sort-unique": 2e9, "direction-optimizing": 20e9}
APSP_TARGET_S = 1.0
STEPS = ["tests", "targets", "run", "benches"]
# The user's command on the device, validated: the default search, and paper 002's hybrid (its
# array side's top-down levels are Algorithm 3's warp kernel there).
RUNS = {"direction-optimizing": "22", "hybrid": "20"}
DEVICE_FREE = ["tests/test_gpu_budget.py",
               "tests/test_array_bfs.py::test_gpu_queue_kernel_under_the_simulator",
               "tests/test_array_bfs.py::test_sort_unique_kernels_under_the_simulator",
               "tests/test_array_bfs.py::test_direction_optimizing_kernels_under_the_simulator",
               "tests/test_hybrid.py::test_warp_kernel_under_the_simulator",
               "tests/test_dist_device.py::test_bottom_up_kernel_on_every_rank_under_the_simulator",
               "tests/test_apsp.py::test_cuda_kernels_under_the_simulator",
               "tests/test_apsp.py::test_cuda_threads_run_along_rows_and_copies_are_timed_apart",
               "tests/test_cuda_compile.py"]


def versions() -> str:
    """The versions a device run depends on (a device image brings its own)."""
    out = []
    for name in ("numpy", "numba", "numba_cuda", "cupy", "scipy"):
        try:
            out.append(f"{name} {__import__(name).__version__}")
        except Exception:
            out.append(f"{name} -")
    return ", ".join(out)


def device_status() -> tuple[bool, bool, str]:
    """(a device is usable, the machine shows a GPU, one line on what was found)."""
    from pygraph500.backend.arrays import gpu_status

    cupy, cupy_line = gpu_status()
    try:
        from numba import cuda

        numba_ok = bool(cuda.is_available())
    except Exception:  # a broken driver
        numba_ok = False
    shown = False
    gpus = ""
    if shutil.which("nvidia-smi"):
        smi = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
        shown = smi.returncode == 0 and "GPU" in smi.stdout
        gpus = smi.stdout.strip().replace("\n", "; ") if shown else ""
    line = (f"CuPy: {cupy_line}; numba.cuda usable: {numba_ok}; nvidia-smi shows a GPU: "
            f"{shown}{' (' + gpus + ')' if gpus else ''}")
    return cupy is not None and numba_ok, shown, line


def step(report: list, name: str, cmd: list[str], timeout: int, ok_codes=(0,)) -> dict:
    """Run ``cmd`` in the repository; its status, time and output go to ``report``."""
    print(f"gpu-check: {name} ...", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        code, out = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as exc:
        text = [t.decode(errors="replace") if isinstance(t, bytes) else t or ""
                for t in (exc.stdout, exc.stderr)]  # bytes, whatever text= said
        code, out = "timeout", "".join(text) + f"\n(stopped after {timeout} s)"
    seconds = time.perf_counter() - t0
    ok = code in ok_codes
    entry = {"name": name, "ok": ok, "code": code, "seconds": seconds, "output": out}
    report.append(entry)
    print(f"gpu-check: {name}: {'ok' if ok else 'FAILED'} ({seconds:.0f} s)", file=sys.stderr)
    return entry


def bfs_targets(out: str) -> list[str]:
    """Lines on the BFS targets from bench_array_bfs's table (hmean MTEPS, column 2)."""
    lines = []
    for row in out.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if cells and cells[0] in BFS_TARGETS and len(cells) > 1:
            teps = float(cells[1]) * 1e6
            met = teps >= BFS_TARGETS[cells[0]]
            lines.append(f"{cells[0]}: {teps / 1e9:.2f} G TEPS (target "
                         f"{BFS_TARGETS[cells[0]] / 1e9:.0f}): {'met' if met else 'MISSED'}")
    return lines or ["BFS targets: no result rows found"]


def write(path: str, header: list[str], report: list, summary: list[str]) -> None:
    with open(path, "w") as f:
        f.write("\n".join(header + [""] + summary + [""]) + "\n")
        for e in report:
            f.write(f"==== {e['name']}: {'ok' if e['ok'] else 'FAILED'} (exit {e['code']}, "
                    f"{e['seconds']:.1f} s)\n{e['output'].rstrip()}\n\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--report", default="gpu-check-report.txt")
    ap.add_argument("--quick", action="store_true", help="small sizes (to try the script)")
    ap.add_argument("--only", nargs="+", choices=STEPS, default=STEPS,
                    help="which steps, on a device (default: all, in this order)")
    ap.add_argument("--step-timeout", type=int, default=3600, metavar="S",
                    help="seconds one step may take before it is stopped (default 3600)")
    args = ap.parse_args(argv)
    path = args.report if os.path.isabs(args.report) else os.path.join(ROOT, args.report)
    usable, shown, line = device_status()
    header = [f"# gpu-check {datetime.datetime.now().isoformat(timespec='seconds')}: "
              f"{platform.node()}, {platform.processor() or platform.machine()}, "
              f"Python {platform.python_version()}; {versions()}", f"# {line}"]
    report, summary = [], []

    def run(name, cmd, timeout, ok_codes=(0,)):
        entry = step(report, name, cmd, min(timeout, args.step_timeout), ok_codes)
        write(path, header, report, summary)
        return entry

    if usable:
        header.append("# a CUDA device is usable: the device steps ran: " + ", ".join(
            s for s in STEPS if s in args.only))
        if "tests" in args.only:
            run("pytest -m gpu", [PY, "-m", "pytest", "-m", "gpu", "-q", "-rs"], 3600)
        if "targets" in args.only:
            scale = "16" if args.quick else "24"
            bfs = run(f"target: array BFS at SCALE {scale}",
                      [PY, "benchmarks/bench_array_bfs.py", "--backend", "gpu", "--scales", scale,
                       "--roots", "8", "--algorithms", *BFS_TARGETS, "--compare-forms"],
                      3600)
            summary += bfs_targets(bfs["output"]) if bfs["ok"] else ["BFS targets: the run failed"]
            with tempfile.TemporaryDirectory() as tmp:
                js = os.path.join(tmp, "apsp.json")
                n = "1024" if args.quick else "8192"
                apsp = run(f"target: blocked APSP n = {n} float32",
                           [PY, "benchmarks/bench_apsp.py", "--backend", "gpu", "--sizes", n,
                            "--algorithms", "blocked", "--dtypes", "float32", "--scipy-max-n",
                            "0", "--json", js], 3600)
                if apsp["ok"]:
                    s = json.load(open(js))[0]["seconds"]
                    summary.append(f"blocked APSP n = {n} float32: {s:.3f} s (target "
                                   f"{APSP_TARGET_S:.0f} s): "
                                   f"{'met' if s <= APSP_TARGET_S else 'MISSED'}")
                else:
                    summary.append("APSP target: the run failed")
        if "run" in args.only:
            for algorithm, scale in RUNS.items():
                run(f"graph500 run --backend gpu --algorithm {algorithm}",
                    [PY, "-m", "pygraph500", "run", "--backend", "gpu", "--scale",
                     "12" if args.quick else scale, "--algorithm", algorithm], 1800)
        if "benches" in args.only:
            quick_bfs = ["--scales", "16", "--roots", "2"] if args.quick else []
            run("bench_array_bfs --backend gpu",
                [PY, "benchmarks/bench_array_bfs.py", "--backend", "gpu", *quick_bfs], 3600)
            quick_apsp = ["--sizes", "512", "1024", "--scipy-max-n", "1024"] if args.quick else []
            run("bench_apsp --backend gpu",
                [PY, "benchmarks/bench_apsp.py", "--backend", "gpu", *quick_apsp], 3600)
    else:
        header.append("# NO USABLE CUDA DEVICE: the device tests, benchmarks and targets did "
                      "NOT run; the device-free checks of the same code ran instead")
        if shown:
            header.append("# a GPU is on this machine but not usable from Python: install the "
                          "gpu extra (pip install -e '.[gpu]': CuPy, numba-cuda)")
            report.append({"name": "device setup", "ok": False, "code": "-", "seconds": 0.0,
                           "output": line})
        run("pytest -m gpu (skipped without a device)",
            [PY, "-m", "pytest", "-m", "gpu", "-q", "-rs"], 600, ok_codes=(0, 5))
        run("device-free checks (numpy-checked budget, CUDA simulator)",
            [PY, "-m", "pytest", "-q", *DEVICE_FREE], 1800)
    failed = [e["name"] for e in report if not e["ok"]]
    summary.insert(0, "RESULT: " + (f"FAILED: {', '.join(failed)}" if failed else
                                    "every step passed" + ("" if usable else
                                                           " (no device: see above)")))
    write(path, header, report, summary)
    print("\n".join(header + summary + [f"gpu-check: report in {args.report}"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
