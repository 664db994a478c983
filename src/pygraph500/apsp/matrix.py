"""Dense weighted adjacency matrices for all-pairs shortest paths: inputs and encodings.

A distance matrix here is square, C-contiguous, of dtype int32, float32 or float64. The
public form (inputs and results) says "no edge / unreachable" with ``inf`` for floats and the
dtype's maximum for integers (``unreachable(dtype)``). Kernels work on an internal form:

- integers: no edge = ``big`` = max // 2, so that ``big + big`` cannot overflow; any value of
  at least ``big // 2`` after the run is unreachable (a real distance is at most
  (n - 1) * max |w|, which ``check_range`` keeps below ``big // 4``);
- floats: ``inf`` (inf + w = inf for every finite w);
- with negative weights, every sum is clamped at ``floor`` (-big, or -max/4 for floats):
  a negative cycle then cannot overflow (or reach -inf + inf = nan) before it is reported.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError, shown

__all__ = ["DTYPES", "unreachable", "random_graph", "from_edges", "kronecker_weighted",
           "as_matrix", "Encoding"]

DTYPES = {"int32": np.int32, "float32": np.float32, "float64": np.float64}


def _dtype(dtype) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise InputError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}") from None
    if dt.name not in DTYPES:
        raise InputError(f"dtype must be one of {', '.join(DTYPES)}, got {dt.name}")
    return dt


def unreachable(dtype) -> float | int:
    """The value meaning 'no path' in results of ``dtype``: inf, or the integer maximum."""
    dt = np.dtype(dtype)
    return np.inf if dt.kind == "f" else int(np.iinfo(dt).max)


def random_graph(n: int, density: float = 0.25, max_weight: int = 1000, seed: int = 0,
                 dtype="int32", directed: bool = True) -> np.ndarray:
    """The paper's test input: ``n`` vertices, each ordered pair an edge with probability
    ``density``, integer weights uniform in 1..``max_weight``, 0 on the diagonal, no edge =
    ``unreachable(dtype)``. Connected by construction: the edges of a random Hamiltonian
    cycle are always added (strongly connected when directed). Reproducible by ``seed``.

    >>> W = random_graph(4, density=0.5, seed=1)
    >>> W.shape, W.dtype.name, int(W[0, 0])
    ((4, 4), 'int32', 0)
    """
    dt = _dtype(dtype)
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise InputError(f"n must be a positive integer, got {shown(n)}")
    if not 0.0 <= float(density) <= 1.0:
        raise InputError(f"density must be in [0, 1], got {shown(density)}")
    if not isinstance(max_weight, (int, np.integer)) or max_weight < 1:
        raise InputError(f"max_weight must be a positive integer, got {shown(max_weight)}")
    rng = np.random.default_rng(seed)
    W = np.full((n, n), unreachable(dt), dtype=dt)
    for lo in range(0, n, 1024):  # in row blocks: no n x n temporary of float64
        hi = min(n, lo + 1024)
        mask = rng.random((hi - lo, n)) < density
        w = rng.integers(1, max_weight + 1, size=(hi - lo, n))
        W[lo:hi][mask] = w[mask]
    perm = rng.permutation(n)
    cyc = rng.integers(1, max_weight + 1, size=n)
    if n > 1:
        W[perm, np.roll(perm, -1)] = cyc
    if not directed:
        W = np.minimum(W, W.T)
    np.fill_diagonal(W, 0)
    return W


def from_edges(src, dst, weights, num_vertices: int, dtype="float64",
               directed: bool = True) -> np.ndarray:
    """The dense matrix of a weighted edge list: the lightest of parallel edges is kept,
    ``directed=False`` adds each edge both ways; the diagonal is min(0, self-loop)."""
    dt = _dtype(dtype)
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    w = np.asarray(weights)
    if not (src.shape == dst.shape == w.shape) or src.ndim != 1:
        raise InputError(f"src, dst and weights must be 1-D arrays of one length, got "
                         f"{src.shape}, {dst.shape}, {w.shape}")
    n = int(num_vertices)
    if n < 1:
        raise InputError(f"num_vertices must be positive, got {num_vertices}")
    bad = np.flatnonzero((src < 0) | (src >= n) | (dst < 0) | (dst >= n))
    if bad.size:
        i = int(bad[0])
        raise InputError(f"edge {i} ({int(src[i])}, {int(dst[i])}) is outside 0..{n - 1}")
    if not np.all(np.isfinite(w)):
        i = int(np.flatnonzero(~np.isfinite(w))[0])
        raise InputError(f"edge {i} has a weight that is not finite: {shown(w[i])}")
    if dt.kind == "i" and not np.all(np.asarray(w) == np.round(w)):
        raise InputError("integer dtype asked for, but some weights are not integers")
    W = np.full((n, n), unreachable(dt), dtype=dt)
    wv = w.astype(dt)
    np.minimum.at(W, (src, dst), wv)
    if not directed:
        np.minimum.at(W, (dst, src), wv)
    d = np.arange(n)
    W[d, d] = np.minimum(W[d, d], 0)
    return W


def kronecker_weighted(scale: int, edgefactor: int = 16, seed=(2, 3), weights: str = "int",
                       weight_seed: int = 0, dtype=None) -> np.ndarray:
    """The Graph500 Kronecker graph of ``scale`` as a dense undirected weighted matrix:
    integer weights 1..255 (``weights="int"``, int32) or uniform floats in [0, 1)
    (``"float"``, float32), one weight per generated tuple, reproducible by ``weight_seed``."""
    from ..generator import kronecker

    if weights not in ("int", "float"):
        raise InputError(f"weights must be 'int' or 'float', got {weights!r}")
    edges = kronecker(scale, edgefactor, seed=tuple(seed))
    rng = np.random.default_rng(weight_seed)
    if weights == "int":
        w = rng.integers(1, 256, size=edges.num_edges)
    else:
        w = rng.random(edges.num_edges, dtype=np.float32)
    dt = dtype or ("int32" if weights == "int" else "float32")
    return from_edges(edges.src, edges.dst, w, edges.num_vertices, dtype=dt, directed=False)


def as_matrix(graph, dtype=None) -> np.ndarray:
    """A dense square matrix from an ndarray (no edge = ``unreachable``) or a scipy.sparse
    matrix (stored entries are edges, zero weights included; missing ones are not)."""
    try:
        import scipy.sparse as sp
    except ImportError:  # pragma: no cover - scipy is a dependency
        sp = None
    if sp is not None and sp.issparse(graph):
        coo = sp.coo_matrix(graph)
        if coo.shape[0] != coo.shape[1]:
            raise InputError(f"the matrix must be square, got shape {coo.shape}")
        dt = _dtype(dtype or (coo.dtype if coo.dtype.name in DTYPES else "float64"))
        return from_edges(coo.row, coo.col, coo.data, coo.shape[0], dtype=dt)
    W = np.asarray(graph)
    if W.ndim != 2 or W.shape[0] != W.shape[1]:
        raise InputError(f"the matrix must be square, got shape {W.shape}")
    if W.shape[0] == 0:
        raise InputError("the matrix is empty (0 vertices)")
    dt = _dtype(dtype or (W.dtype if W.dtype.name in DTYPES else "float64"))
    if W.dtype.kind == "f" and np.isnan(W).any():
        i, j = np.argwhere(np.isnan(W))[0]
        raise InputError(f"weight at ({i}, {j}) is NaN")
    if W.dtype.kind == "f" and dt.kind == "i":
        finite = np.isfinite(W)
        if not np.all(W[finite] == np.round(W[finite])):
            raise InputError("integer dtype asked for, but some weights are not integers")
        out = np.full(W.shape, unreachable(dt), dtype=dt)  # (the max is not a float32)
        out[finite] = W[finite]
    elif W.dtype.kind in "iu" and dt.kind == "f":
        none = W == np.iinfo(W.dtype).max
        out = np.where(none, np.inf, W).astype(dt)
    else:
        out = W.astype(dt, copy=True)
    d = np.arange(out.shape[0])
    out[d, d] = np.minimum(out[d, d], 0)
    return out


class Encoding:
    """The internal encoding of a matrix of one dtype (see the module docstring)."""

    def __init__(self, dtype, negative: bool):
        self.dtype = np.dtype(dtype)
        self.is_int = self.dtype.kind == "i"
        if self.is_int:
            self.big = self.dtype.type(np.iinfo(self.dtype).max // 2)
            self.floor = self.dtype.type(-self.big)
        else:
            self.big = self.dtype.type(np.inf)
            self.floor = self.dtype.type(-np.finfo(self.dtype).max / 4)
        self.clamp = bool(negative)

    def check_range(self, W: np.ndarray) -> None:
        """Integers: every path weight must stay far below ``big`` (see module docstring)."""
        if not self.is_int:
            return
        finite = W[W != np.iinfo(self.dtype).max]
        top = int(np.abs(finite).max()) if finite.size else 0
        if top * max(1, W.shape[0] - 1) >= int(self.big) // 4:
            raise InputError(
                f"weights up to {top} on {W.shape[0]} vertices may overflow {self.dtype.name} "
                "path sums; use --dtype float64 (or int weights closer to zero)")

    def encode(self, W: np.ndarray, size: int) -> np.ndarray:
        """W in the internal form, padded with isolated vertices to ``size`` x ``size``."""
        n = W.shape[0]
        D = np.full((size, size), self.big, dtype=self.dtype)
        if self.is_int:
            D[:n, :n] = np.where(W == np.iinfo(self.dtype).max, self.big, W)
        else:
            D[:n, :n] = W
        d = np.arange(n, size)
        D[d, d] = 0
        return D

    def decode(self, D: np.ndarray, n: int) -> np.ndarray:
        """The public form of the first ``n`` rows and columns (a copy when padded)."""
        out = D[:n, :n]
        if out.shape[0] != D.shape[0]:
            out = np.ascontiguousarray(out)
        if self.is_int:
            out[out >= self.big // 2] = np.iinfo(self.dtype).max
        return out
