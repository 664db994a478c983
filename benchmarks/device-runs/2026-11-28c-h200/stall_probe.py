"""Run ``graph500 <argv>`` logging every CuPy (NVRTC) and numba compile with the time, the
search it fell in, and the pygraph500 frames that asked for it: $OUT/compiles.RANK.txt."""
import atexit
import os
import re
import sys
import time
import traceback

import cupy.cuda.compiler as cc
import numba.core.dispatcher as nd

from pygraph500.benchmark import distributed as bd

T0 = time.perf_counter()
LOG = []
STATE = {"search": "before"}


def _ours():
    return " < ".join(f"{os.path.basename(f.filename)}:{f.lineno}:{f.name}"
                      for f in reversed(traceback.extract_stack()[:-2])
                      if "pygraph500" in f.filename)[:600]


def _what(kind, a):
    """The kernels a compile builds: the __global__ names in its source, and its options."""
    if kind != "nvrtc" or not a or not isinstance(a[0], str):
        return ""
    names = re.findall(r"__global__\s+void\s+(\w+)", a[0])
    return f" kernels={','.join(names)[:200]} opts={a[1] if len(a) > 1 else ''}"[:400]


def _wrap(owner, name, kind):
    orig = getattr(owner, name)

    def wrapper(*a, **k):
        t = time.perf_counter()
        out = orig(*a, **k)
        LOG.append(f"{t - T0:8.3f} {time.perf_counter() - t:6.3f}s {kind} [{STATE['search']}] "
                   f"{_ours()}{_what(kind, a)}")
        return out
    setattr(owner, name, wrapper)


_wrap(cc, "_compile_with_cache_cuda", "nvrtc")
_wrap(nd.Dispatcher, "_compile_for_args", "numba")
orig_search = bd.DistributedEngine.search


def search(self, root):
    STATE["search"] = f"root {root}"
    LOG.append(f"{time.perf_counter() - T0:8.3f} search {root}")
    return orig_search(self, root)


bd.DistributedEngine.search = search
rank = os.environ.get("OMPI_COMM_WORLD_RANK", "0")
atexit.register(lambda: open(f"{os.environ['OUT']}/compiles.{rank}.txt", "w").write(
    "\n".join(LOG) + "\n"))
from pygraph500.cli import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
