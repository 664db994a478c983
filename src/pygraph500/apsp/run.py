"""The `graph500 apsp` run: build the input, solve, optionally check against scipy, report."""
from __future__ import annotations

import time

import numpy as np

from ..backend.memory import require_memory
from ..errors import InputError
from .matrix import from_edges, kronecker_weighted, random_graph, unreachable
from .solve import estimate_bytes, shortest_paths

__all__ = ["scipy_distances", "compare_with_scipy", "run_apsp"]


def scipy_distances(W: np.ndarray) -> tuple[np.ndarray, float]:
    """scipy.sparse.csgraph.floyd_warshall on W (float64, inf where unreachable) and its
    time. The matrix goes in as a sparse graph with inf as 'no edge', so zero weights stay
    edges (a dense input would drop them)."""
    from scipy.sparse.csgraph import csgraph_from_dense, floyd_warshall

    Wf = W.astype(np.float64)
    if W.dtype.kind == "i":
        Wf[W == unreachable(W.dtype)] = np.inf
    G = csgraph_from_dense(Wf, null_value=np.inf)
    t0 = time.perf_counter()
    dist = floyd_warshall(G, directed=True)
    return dist, time.perf_counter() - t0


def compare_with_scipy(W: np.ndarray, dist: np.ndarray, reference=None) -> dict:
    """Whether ``dist`` (ours, public encoding) equals scipy's distances for W: unreachable
    pairs must match exactly, finite ones within the dtype's rounding (float32 sums differ
    from float64 ones by a few ulps; integer weights are exact). ``reference``: scipy's
    (distances, seconds) when already computed."""
    ref, seconds = reference if reference is not None else scipy_distances(W)
    ours = dist.astype(np.float64)
    if dist.dtype.kind == "i":
        ours[dist == unreachable(dist.dtype)] = np.inf
    rtol = 1e-5 if dist.dtype == np.float32 else 1e-12
    same_inf = np.isinf(ref) == np.isinf(ours)
    close = np.isclose(ours, ref, rtol=rtol, atol=rtol)
    bad = np.argwhere(~(same_inf & close))
    out = {"agree": not bad.size, "scipy_seconds": seconds, "mismatches": int(len(bad))}
    if bad.size:
        i, j = map(int, bad[0])
        out["first_mismatch"] = {"i": i, "j": j, "ours": float(ours[i, j]),
                                 "scipy": float(ref[i, j])}
    return out


def run_apsp(*, n: int | None = None, kronecker: int | None = None, input: str | None = None,
             density: float = 0.25,
             max_weight: int = 1000, weights: str = "int", seed: int = 0,
             algorithm: str = "blocked", dtype: str | None = None, backend: str = "cpu",
             directed: bool = True, check: bool = False, thread_tile=None) -> dict:
    """One APSP run as `graph500 apsp` does it; returns the facts it reports (and writes to
    JSON): input, algorithm, dtype, backend, seconds, min-plus operations per second (on the
    GPU also the copies' seconds, apart, and blocked's elements per thread ``thread_tile``)
    and, with ``check``, scipy's verdict and time."""
    if sum(x is not None for x in (n, kronecker, input)) != 1:
        raise InputError("give one of --n (the paper's random graph), --kronecker SCALE or "
                         "--input FILE")
    user = None
    if input is not None:  # read first: the vertex count is known after
        from ..io import read_graph

        user = read_graph(input)
        size = user.num_vertices
    else:
        size = n if kronecker is None else (1 << kronecker if 1 <= kronecker <= 16 else 0)
    if isinstance(size, int) and size > 0:  # before the matrix exists: it is n^2 too
        dt = np.dtype(dtype or ("float32" if kronecker is not None and weights == "float"
                                else "float64" if user is not None else "int32"))
        need = size * size * dt.itemsize + estimate_bytes(size, dt, algorithm)
        require_memory(need, f"{algorithm} on {size} vertices ({dt.name})")
    if user is not None:
        e = user.edges
        w = user.weights if user.weights is not None else np.ones(e.num_edges)
        W = from_edges(e.src, e.dst, w, e.num_vertices, dtype=dtype or "float64",
                       directed=user.directed)
        source = {"graph": "file", "input": input, "format": user.format,
                  "directed": user.directed, "weighted": user.weights is not None,
                  "relabelled": user.relabelled}
    elif kronecker is not None:
        if not 1 <= kronecker <= 16:
            raise InputError(f"--kronecker SCALE must be in 1..16 (a dense 2^SCALE matrix), "
                             f"got {kronecker}")
        W = kronecker_weighted(kronecker, weights=weights, weight_seed=seed, dtype=dtype)
        source = {"graph": "kronecker", "scale": kronecker, "weights": weights, "seed": seed}
    else:
        W = random_graph(n, density=density, max_weight=max_weight, seed=seed,
                         dtype=dtype or "int32", directed=directed)
        source = {"graph": "random", "density": density, "max_weight": max_weight,
                  "seed": seed, "directed": directed}
    res = shortest_paths(W, algorithm=algorithm, backend=backend, thread_tile=thread_tile)
    reachable = res.dist != unreachable(res.dist.dtype)
    out = {"n": res.n, "algorithm": algorithm, "dtype": res.dist.dtype.name, "backend": backend,
           "seconds": res.seconds, "ops_per_second": res.ops_per_second, **source,
           "reachable_pairs": int(reachable.sum())}
    if res.products is not None:
        out["products"] = res.products
    if backend == "gpu":  # not in seconds: the kernels are timed alone
        out["copy_seconds"] = res.copy_seconds
    if res.thread_tile is not None:
        out["thread_tile"] = "x".join(map(str, res.thread_tile))
    if check:
        out["check"] = compare_with_scipy(W, res.dist)
    return out
