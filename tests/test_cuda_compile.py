"""Every numba.cuda kernel compiles for a real device (PTX for sm_90, the H100/H200), with no
device here: numba's CUDA simulator runs Python, so a kernel can pass every simulator test
and still not type on a device (``cuda.syncthreads_count`` of a bool did exactly that).

The argument types are not written by hand: a small search of every kernel-backed algorithm
(direction-optimizing's two kernels, gpu-queue, sort-unique's two, the hybrid's warp kernel, the distributed
array engine's bottom-up level, APSP's three algorithms in each dtype) runs under the
simulator with its launches recorded (kernel, and each argument's dtype, dimensions and layout, or scalar
type), and each distinct launch is compiled here by numba-cuda's NVVM (the ``ptx`` extra).
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                                reason="numba-cuda not installed (the ptx extra)")

RECORD = """
import json
import numpy as np
from numba.cuda.simulator import kernel as sim
from pygraph500 import build_csr, kronecker
from pygraph500.apsp import shortest_paths
from pygraph500.bfs.array import bfs_direction_optimizing_array
from pygraph500.bfs.array.queue_based import bfs_gpu_queue, bfs_sort_unique
from pygraph500.backend.arrays import get_backend
from pygraph500.bfs.hybrid import bfs_hybrid
from pygraph500.distributed import SerialComm, build_dist, generate_local
from pygraph500.distributed.array_bfs import DistArraySearcher, device_graph

def describe(a):
    if isinstance(a, tuple):  # a record of arrays and scalars
        return ["tuple", [describe(x) for x in a]]
    if hasattr(a, "ndim") and not isinstance(a, np.generic):  # NumPy, the simulator's arrays
        layout = "C" if a.flags["C_CONTIGUOUS"] else "F" if a.flags["F_CONTIGUOUS"] else "A"
        return ["array", str(a.dtype), a.ndim, layout]
    if isinstance(a, (bool, np.bool_)):
        return ["bool"]
    if isinstance(a, np.generic):
        return ["scalar", str(a.dtype)]
    return ["scalar", "int64" if isinstance(a, int) else "float64"]

seen = set()
call = sim.FakeCUDAKernel.__call__
def recorded(self, *args):
    if not self._device:
        seen.add(json.dumps([self.fn.__module__, self.fn.__name__, [describe(a) for a in args]]))
    return call(self, *args)
sim.FakeCUDAKernel.__call__ = recorded

g = build_csr(kronecker(6, 16))
for depth in (True, False):
    bfs_direction_optimizing_array(g, 1, kernel=True, alpha=2.0, depth=depth)
    bfs_gpu_queue(g, 1, kernel=True, depth=depth)
    bfs_sort_unique(g, 1, kernel=True, depth=depth)
bfs_hybrid(build_csr(kronecker(4, 4)), 1, tasks=2, warp=True, alpha=1e-9)
comm = SerialComm()
dist = build_dist(comm, generate_local(comm, 6))
DistArraySearcher(comm, device_graph(dist, get_backend("cpu")), get_backend("cpu"),
                  algorithm="direction-optimizing", kernel=True).search(1)
rng = np.random.default_rng(1)
W = np.where(rng.random((5, 5)) < 0.4, rng.integers(1, 9, (5, 5)), np.inf)  # two 4 x 4 tiles
np.fill_diagonal(W, 0)
for algorithm in ("blocked", "min-plus", "floyd-warshall"):
    for dtype in ("int32", "float32", "float64"):  # with or without paths: the same types
        shortest_paths(W, algorithm=algorithm, backend="gpu", dtype=dtype,
                       return_predecessors=True)
print(json.dumps(sorted(json.loads(s) for s in seen)))
"""

KERNELS = {"queue_level", "bottom_up_level", "top_down_level", "settle", "gather_keys",
           "settle_sorted", "warp_task_level", "_fw_step", "_product", "_phases12", "_phase3"}


def _numba_type(desc):
    from numba import from_dtype, types

    if desc[0] == "tuple":
        return types.BaseTuple.from_types([_numba_type(d) for d in desc[1]])
    if desc[0] == "array":
        return types.Array(from_dtype(np.dtype(desc[1])), desc[2], desc[3])
    if desc[0] == "bool":
        return types.boolean
    return from_dtype(np.dtype(desc[1]))


def test_every_kernel_compiles_for_sm_90(monkeypatch):
    """Each launch the simulator made (every kernel of the package, each with the argument
    types it is launched with) compiles to PTX for sm_90. A device function called by a
    kernel is compiled for the current device's compute capability, asked of the driver:
    with no device here, the device is said to be sm_90."""
    from types import SimpleNamespace

    import numba.cuda.dispatcher
    from numba import cuda

    monkeypatch.setattr(numba.cuda.dispatcher, "get_current_device",
                        lambda: SimpleNamespace(compute_capability=(9, 0)))

    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYGRAPH500_CUDA_TILE="4")
    proc = subprocess.run([sys.executable, "-c", RECORD], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    launches = json.loads(proc.stdout.strip().splitlines()[-1])
    assert {name for _, name, _ in launches} == KERNELS
    for module, name, args in launches:
        sig = tuple(_numba_type(a) for a in args)
        for kernel in _kernels(module, name):
            ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
            assert ".target sm_90" in ptx, (name, sig)


def _kernels(module, name):
    """The kernel a module defines, or those a factory makes: blocked APSP's for the default
    thread tile on PAD-sided tiles and the paper's best on TILE-sided ones, each with and
    without predecessors and clamping (``apsp.gpu.blocked_kernels``)."""
    found = getattr(importlib.import_module(module), name, None)
    if found is not None:
        return [found]
    from pygraph500.apsp.gpu import DEFAULT_THREAD_TILE, PAD, TILE, blocked_kernels

    return [k for tile, side in ((DEFAULT_THREAD_TILE, PAD), ((4, 2), TILE))
            for flags in ((False, False), (True, True))
            for k in blocked_kernels(*tile, *flags, side) if k.py_func.__name__ == name]
