"""NumPy ``.npz`` edge lists: ``src``, ``dst`` (or ``edges`` (M, 2)), optional ``weight``,
``num_vertices``, ``labels``, ``directed``. The one format that stores vertex numbers and
``labels`` as they are, so a relabelled graph reads back without relabelling."""
from __future__ import annotations

import numpy as np

from ..errors import InputError, excerpt, plain_text
from . import chunked_io
from .outputs import atomic_writer
from .npy_array import NUMPY_FILE_ERRORS
from .weight_files import NO_WEIGHTS_HINT, float32_weights

__all__ = ["read_npz", "write_npz"]


def read_npz(path, size, limit, report, weights=False):
    """(src, dst, weights, directed, n_hint, labels) of an .npz archive (numpy.load).
    ``weights``: the ``weight`` (or ``weights``) array is required, checked, float32."""
    try:
        with np.load(path, allow_pickle=False) as z:
            keys = set(z.files)
            if {"src", "dst"} <= keys:
                src = np.asarray(z["src"])
                dst = np.asarray(z["dst"])
            elif "edges" in keys:
                e = np.asarray(z["edges"])
                if e.ndim != 2 or e.shape[1] < 2:
                    raise InputError(f"{path}: 'edges' must be an (M, 2) array, got shape {list(e.shape)}")
                src, dst = e[:, 0], e[:, 1]
            else:
                found = ", ".join(excerpt(k.encode("utf-8", "backslashreplace"))
                                  for k in sorted(keys))
                raise InputError(f"{path}: an .npz edge list holds 'src' and 'dst' (or 'edges'); "
                                 f"found [{found}]")
            w = z["weight"] if "weight" in keys else (z["weights"] if "weights" in keys else None)
            n_hint = int(z["num_vertices"]) if "num_vertices" in keys else None
            labels = np.asarray(z["labels"]) if "labels" in keys else None
            directed = bool(z["directed"]) if "directed" in keys else False
    except InputError:
        raise
    except NUMPY_FILE_ERRORS as exc:
        raise InputError(f"{path}: not a NumPy .npz archive of an edge list: "
                         f"{plain_text(str(exc))}") from None
    report("reading", size, size)
    for name, a in (("src", src), ("dst", dst)):
        if a.ndim != 1 or not np.issubdtype(a.dtype, np.integer):
            raise InputError(f"{path}: {name!r} must be a 1-D integer array, got {a.dtype}{list(a.shape)}")
    if src.shape != dst.shape:
        raise InputError(f"{path}: 'src' and 'dst' differ in length ({src.size} and {dst.size})")
    src = src.astype(np.int64, copy=False)
    dst = dst.astype(np.int64, copy=False)
    for name, a in (("src", src), ("dst", dst)):
        bad = chunked_io.bad_ids(a, limit)
        if labels is not None:
            bad |= a >= labels.shape[0]
        if bad.any():
            j = int(np.argmax(bad))
            raise InputError(f"{path}: {name}[{j}] = {int(a[j])} is not a valid vertex number")
    if weights and w is None:
        raise InputError(f"{path}: no 'weight' array (one weight per edge) beside the edges; "
                         f"{NO_WEIGHTS_HINT}")
    if w is not None:
        w = np.asarray(w)
        if w.shape != src.shape or not np.issubdtype(w.dtype, np.number):
            raise InputError(f"{path}: 'weight' must be numbers, one per edge ({src.size}), "
                             f"got {w.dtype}{list(w.shape)}")
        if weights:
            w = float32_weights(w, path, lambda j: f"weight[{j}]", copy=False)
        else:
            w = w.astype(np.float64, copy=False)
    if labels is not None:
        if limit >= 0:
            raise InputError(f"{path}: holds relabelled vertices ('labels'); --num-vertices does not apply")
        labels = labels.astype(np.int64, copy=False)
        if labels.ndim != 1 or (labels.size > 1 and np.any(np.diff(labels) <= 0)) or \
                (labels.size and labels[0] < 0):
            raise InputError(f"{path}: 'labels' must be increasing non-negative ids")
        n_hint = labels.shape[0]
    return src, dst, w, directed, n_hint, labels


def write_npz(graph, path, report) -> None:
    """Write a GraphFile as an .npz archive (atomically): vertex numbers, ``labels`` when
    relabelled, weights and directedness."""
    arrays = {"src": graph.edges.src, "dst": graph.edges.dst,
              "num_vertices": np.int64(graph.num_vertices), "directed": np.bool_(graph.directed)}
    if graph.labels is not None:
        arrays["labels"] = graph.labels
    if graph.weights is not None:
        arrays["weight"] = graph.weights
    with atomic_writer(path) as f:
        np.savez(f, **arrays)
    report("writing", 1, 1)
