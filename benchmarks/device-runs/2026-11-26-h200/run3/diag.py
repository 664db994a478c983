"""Which CuPy kernels compile inside timed sort-unique searches (fresh CUPY_CACHE_DIR)."""
import glob, os, re, sys, time
import numpy as np
from pygraph500 import build_csr, kronecker
from pygraph500.backend.arrays import get_backend
from pygraph500.benchmark import choose_roots
from pygraph500.bfs.array import bfs_sort_unique
from pygraph500.graph.build_array import build_csr_array

cache = os.environ["CUPY_CACHE_DIR"]
scale = int(sys.argv[1])
be = get_backend(os.environ.get("DIAG_BACKEND", "gpu"))
edges = kronecker(scale)
host = build_csr(edges)
g = build_csr_array(edges, be)
roots = choose_roots(host.degree() > 0, (2, 3), 64)[:int(sys.argv[2])].tolist()
seen = set()

def new_files(tag):
    files = set(glob.glob(os.path.join(cache, "**", "*"), recursive=True))
    fresh = sorted(files - seen)
    seen.update(files)
    names = []
    for f in fresh:
        if f.endswith(".cu") or f.endswith(".cubin") or os.path.isfile(f):
            try:
                text = open(f, "rb").read().decode("latin-1")
            except Exception:
                continue
            names += re.findall(r'__global__\s+void\s+(\w+)', text) or [os.path.basename(f)]
    print(f"{tag}: {len(fresh)} new cache files: {sorted(set(names))[:40]}", flush=True)

new_files("setup")
bfs_sort_unique(g, roots[0], backend=be, depth=False, on_device=True)
new_files("warm-up")
for k, r in enumerate(roots):
    t0 = time.perf_counter()
    res = bfs_sort_unique(g, r, backend=be, depth=False, on_device=True)
    t = time.perf_counter() - t0
    x = res.levels.extra
    print(f"root {k}: {t:.4f} s; levels NLF {x['NLF'].tolist()} prune ms "
          f"{[round(float(v) * 1e3, 1) for v in x['t_prune']]}", flush=True)
    new_files(f"  after root {k}")
