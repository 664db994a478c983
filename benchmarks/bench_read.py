"""Peak memory of reading an edge-list file, per format: a chunked read should need the
edge arrays plus one chunk (``io.chunked_io.CHUNK_BYTES``), never twice the file.

The Kronecker edge list of ``--scale`` (edgefactor 16, seeds 2 and 3) is written once in each
format (untimed) into a temporary directory (``--dir``). Each file is then read by a fresh
process (this script, re-run with a hidden option), which first reads a tiny file of the same
format (so that the reader's compiled code is loaded), then resets its peak resident set
(``/proc/self/clear_refs``) and reads the file with ``pygraph500.read_graph``. Columns: the
file's size; what the read returns (the int64 edge arrays, and weights or labels if any);
"read peak", the reader's own memory (anonymous pages, ``RssAnon``, sampled every 0.5 ms by
this process) above the one before the read; "resident peak", the kernel's peak resident set
(``VmHWM``) above the one before, which also counts the file's pages while a reader maps it
(npy: they are the page cache's, not the process's); the read's seconds; ratios to the file.

    python benchmarks/bench_read.py [--scale 20] [--formats g500 snap csv packed48 npy npz mtx]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time

SUFFIX = {"g500": ".bin", "snap": ".txt", "csv": ".csv", "packed48": ".p48", "npy": ".npy",
          "npz": ".npz", "mtx": ".mtx"}
MIB = 2**20


def _status_kib(field: str, pid: str = "self") -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def read_once(path: str, fmt: str, tiny: str) -> None:
    """In the reading process: load the reader on ``tiny``, say "ready", read ``path``, print
    the measures as JSON, and wait for stdin to close (the sampler's last look)."""
    from pygraph500.io import read_graph

    read_graph(tiny, format=fmt)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # the peak resident set (VmHWM) starts again from the current one
    before = {k: _status_kib(k) for k in ("VmRSS", "RssAnon")}
    print("ready", flush=True)
    t0 = time.perf_counter()
    g = read_graph(path, format=fmt)
    seconds = time.perf_counter() - t0
    arrays = sum(a.nbytes for a in (g.edges.src, g.edges.dst, g.weights, g.labels)
                 if a is not None)
    print(json.dumps({"seconds": seconds, "resident_peak": (_status_kib("VmHWM") - before[
        "VmRSS"]) * 1024, "anon_before": before["RssAnon"] * 1024, "array_bytes": arrays}),
        flush=True)
    sys.stdin.read()


def measure(path: str, fmt: str, tiny: str) -> dict:
    """Read ``path`` in a fresh process, sampling its own memory (RssAnon) meanwhile."""
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--_read", path, fmt,
                             tiny], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        if proc.stdout.readline().strip() != "ready":
            raise SystemExit(f"reading {fmt} failed before the read")
        result = []
        reader = threading.Thread(target=lambda: result.append(proc.stdout.readline()))
        reader.start()
        anon = 0
        while reader.is_alive():
            anon = max(anon, _status_kib("RssAnon", str(proc.pid)) * 1024)
            time.sleep(0.0005)
        anon = max(anon, _status_kib("RssAnon", str(proc.pid)) * 1024)
    finally:
        proc.stdin.close()
        proc.wait()
    if proc.returncode != 0 or not result or not result[0].strip():
        raise SystemExit(f"reading {fmt} failed")
    r = json.loads(result[0])
    r["read_peak"] = anon - r["anon_before"]
    return r


def write_files(scale: int, formats: list[str], where: str) -> dict:
    """{format: (file, tiny file)} of the Kronecker graph of ``scale`` (and of SCALE 4)."""
    from pygraph500 import kronecker
    from pygraph500.io import GraphFile, write_graph

    out = {}
    graphs = {"big": GraphFile(kronecker(scale)), "tiny": GraphFile(kronecker(4))}
    for fmt in formats:
        paths = {}
        for name, g in graphs.items():
            paths[name] = os.path.join(where, f"{name}{SUFFIX[fmt]}")
            t0 = time.perf_counter()
            write_graph(g, paths[name], format=fmt)
            if name == "big":
                print(f"# wrote {fmt}: {os.path.getsize(paths[name]) / MIB:.0f} MiB in "
                      f"{time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
        out[fmt] = (paths["big"], paths["tiny"])
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--formats", nargs="+", choices=list(SUFFIX), default=list(SUFFIX))
    ap.add_argument("--dir", default=None, help="where the files go (default: a temporary one)")
    ap.add_argument("--_read", nargs=3, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._read:
        read_once(*args._read)
        return
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}; Kronecker SCALE "
          f"{args.scale}; load {os.getloadavg()[0]:.2f}\n")
    print("| format | file MiB | arrays MiB | read peak MiB | resident peak MiB | read s | "
          "arrays / file | read peak / file |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(dir=args.dir) as where:
        for fmt, (path, tiny) in write_files(args.scale, args.formats, where).items():
            size = os.path.getsize(path)
            r = measure(path, fmt, tiny)
            print(f"| {fmt} | {size / MIB:.0f} | {r['array_bytes'] / MIB:.0f} | "
                  f"{r['read_peak'] / MIB:.0f} | {r['resident_peak'] / MIB:.0f} | "
                  f"{r['seconds']:.2f} | {r['array_bytes'] / size:.2f} | "
                  f"{r['read_peak'] / size:.2f} |", flush=True)
            os.remove(path)


if __name__ == "__main__":
    main()
