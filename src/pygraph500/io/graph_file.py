"""A user's graph file: ``GraphFile``, and reading, writing and converting one in any
registered format (see ``registry``).

Reading. Text, g500, packed48 and npy files are read in chunks (``chunked_io.CHUNK_BYTES``) into
arrays allocated once at their final size, so a read needs the edge arrays plus one chunk:
never twice the file. ``progress(phase, done, total)`` is told the bytes read. Matrix Market
goes through ``scipy.io.mmread`` (whole file) and npz through ``numpy.load``.

Vertex ids. Ids are non-negative integers. With ``num_vertices`` given they must be below it.
Otherwise ``relabel`` decides: ``"auto"`` (default) keeps them when the id range is at most
twice the number of endpoints (``max id + 1 <= 4 M + 1024``: a dense array over the ids costs
no more than the edges) and else compacts them to ``0..N-1`` in increasing id order; ``True``
always compacts, ``False`` never does. A compacted graph keeps ``labels`` (the user's id of each
vertex) and every result is reported through it, so users see their own ids. Matrix Market
vertices are the row/column numbers minus one (0-based, as ``scipy.io.mmread`` gives them).

Bad input raises InputError naming the file, the line (text) or byte offset (binary) and the
offending value, before anything is written; writes go through ``atomic_writer``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError, shown
from ..graph.relabel import compact_ids, compacting, lookup_labels
from ..graph.types import EdgeList
from .file_access import check_readable, readable_input
from .outputs import check_writable, same_file
from .registry import check_text, detect_format, format_named
from .weight_files import NO_WEIGHTS_HINT

__all__ = ["GraphFile", "read_graph", "write_graph", "convert_graph"]


@dataclass(frozen=True)
class GraphFile:
    """A user's edge list as read from (or to be written to) a file.

    ``edges``: the EdgeList over vertex numbers ``0..N-1`` (what kernel 1 and the searches
    take). ``labels``: the user's id of each vertex (int64, sorted) when the ids were
    compacted, else None (vertex number == user id); a DataFrame's string ids through the
    API (a str array, sorted: ``named``), which no file format holds. ``weights``: per
    edge, or None: float64 as the file holds them, or kernel 3's float32 ``edges.weight``
    (the default when the edges carry weights; ``read_graph(weights=True)`` sets both to
    one array). Writers store these.
    ``directed``: what the file said (SNAP header, Matrix Market symmetry, npz flag); the
    Graph500 searches always follow every edge both ways. ``path`` and ``format``: where it
    came from.

    >>> import numpy as np
    >>> from pygraph500 import EdgeList
    >>> g = GraphFile(EdgeList(np.array([0, 1]), np.array([1, 2]), 3), labels=np.array([7, 40, 10**12]))
    >>> g.vertex(40), g.user_ids(np.array([2, -1])).tolist()
    (1, [1000000000000, -1])
    """

    edges: EdgeList
    labels: np.ndarray | None = None
    weights: np.ndarray | None = None
    directed: bool = False
    path: str = ""
    format: str = ""
    _built: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        if self.weights is None and self.edges.weight is not None:
            object.__setattr__(self, "weights", self.edges.weight)

    @property
    def num_vertices(self) -> int:
        return self.edges.num_vertices

    @property
    def num_edges(self) -> int:
        return self.edges.num_edges

    def built(self, key, make):
        """``make()``, made on the first call with ``key`` and kept with this graph: the
        API's searches of one GraphFile build kernel 1's graph once, not on every call."""
        if key not in self._built:
            self._built[key] = make()
        return self._built[key]

    @property
    def relabelled(self) -> bool:
        return self.labels is not None

    @property
    def named(self) -> bool:
        """Whether the user's ids are strings (a DataFrame's, through the API), not
        integers."""
        return self.labels is not None and self.labels.dtype.kind in "US"

    def user_ids(self, vertices) -> np.ndarray:
        """The user's ids of ``vertices`` (vertex numbers); -1 stays -1 (None for string
        ids)."""
        v = np.asarray(vertices, dtype=np.int64)
        if self.labels is None:
            return v.copy()
        if self.named:
            return np.where(v < 0, None, self.labels[np.maximum(v, 0)].astype(object))
        return np.where(v < 0, -1, self.labels[np.maximum(v, 0)])

    def vertex(self, user_id) -> int:
        """The vertex number of the user's id; InputError when it names no vertex."""
        where = f" of {self.path}" if self.path else ""
        if self.named:
            at = int(np.searchsorted(self.labels, user_id)) if isinstance(user_id, str) else -1
            if not 0 <= at < self.labels.size or self.labels[at] != user_id:
                raise InputError(f"vertex {shown(user_id)} is not a vertex{where} (it is on "
                                 f"no edge)")
            return at
        try:
            uid = int(user_id)
        except (TypeError, ValueError):
            raise InputError(f"vertex id {shown(user_id)} is not an integer") from None
        if self.labels is None:
            if not 0 <= uid < self.num_vertices:
                raise InputError(f"vertex {uid} is not a vertex{where} (ids are 0..{self.num_vertices - 1})")
            return uid
        v = int(lookup_labels(self.labels, np.array([uid]))[0]) if -2**63 <= uid < 2**63 else -1
        if v < 0:
            raise InputError(f"vertex {uid} is not a vertex{where} (it is on no edge)")
        return v


def read_graph(path: str, *, format: str | None = None, num_vertices: int | None = None,
               relabel="auto", directed: bool | None = None, progress=None,
               weights: bool = False) -> GraphFile:
    """Read a user's edge list (any format of ``registry.FORMATS``) into a GraphFile.

    ``format``: a format name (default: from the name, see ``detect_format``).
    ``num_vertices``: the vertex count (ids must be below it; no relabelling). ``relabel``:
    "auto", True or False (see the module docstring). ``directed``: overrides what the file
    says. ``progress(phase, done, total)``: told the bytes read. ``weights``: kernel 3's
    float32 weights, one per tuple in file order, as ``edges.weight`` (text: the third column
    of every line; Matrix Market: the values; npz: ``weight``); InputError naming the line or
    entry for a missing, negative, NaN or float32-overflowing one, and for formats without
    weights. Without it a weight column is read as float64 ``weights`` only (for conversion).

    >>> g = read_graph("karate.txt")                         # doctest: +SKIP
    >>> g.num_vertices, g.num_edges, g.relabelled            # doctest: +SKIP
    (34, 78, False)
    """
    if relabel not in ("auto", True, False):
        raise InputError(f"relabel must be 'auto', True or False, got {relabel!r}")
    if num_vertices is not None:
        if int(num_vertices) < 1:
            raise InputError(f"num_vertices must be >= 1, got {num_vertices}", "num_vertices")
        if relabel is True:
            raise InputError("relabelling and a given vertex count exclude each other")
        num_vertices = int(num_vertices)
    fmt = None if format is None else format_named(format)
    with readable_input(path) as local:
        if fmt is None:
            fmt = format_named(detect_format(local))
        graph = _read_file(local, fmt, num_vertices, relabel, directed, progress, weights)
    return dataclasses.replace(graph, path=path)


def _read_file(path, fmt, num_vertices, relabel, directed, progress, weights) -> GraphFile:
    """``read_graph`` on a regular file of a known format."""
    size = check_readable(path)
    if weights and not fmt.weighted:
        raise InputError(f"{path}: the {fmt.name} format has no weights; {NO_WEIGHTS_HINT}")
    if size == 0:
        raise InputError(f"{path}: empty file (no edges)")
    check_text(fmt, path)
    report = _in_mib(progress) if progress else (lambda *a: None)
    limit = -1 if num_vertices is None else num_vertices
    extra = {"weights": True} if weights else {}  # only weighted formats' readers take it
    src, dst, w, file_directed, n_hint, labels = fmt.read(path, size, limit, report, **extra)
    if src.shape[0] == 0:
        raise InputError(f"{path}: no edges")
    hi = int(max(src.max(), dst.max())) + 1
    if labels is not None:  # an npz written by write_graph: already compact
        n = max(hi, n_hint or 0)
    elif num_vertices is not None:
        n = num_vertices
    else:
        n = max(hi, n_hint or 0)
        if compacting(relabel, n, src.shape[0]):
            report("relabelling", 0, 1)
            labels = compact_ids(src, dst, hi)
            n = int(labels.shape[0])
            report("relabelling", 1, 1)
    if directed is None:
        directed = bool(file_directed)
    edges = EdgeList(src, dst, n, weight=w if weights else None)
    return GraphFile(edges, labels, w, bool(directed), path, fmt.name)


def _in_mib(progress):
    """``progress`` told bytes, shown in whole MiB for files of a MiB or more ("reading
    (MiB): 96/222"); the total is reached only at the end. Other phases pass through."""
    def report(phase, done, total):
        if phase not in ("reading", "scanning") or total <= 1:
            progress(phase, done, total)
        elif total >= 1 << 20:
            whole = -(-total >> 20)
            progress(f"{phase} (MiB)", whole if done >= total else min(done >> 20, whole - 1), whole)
        else:
            progress(f"{phase} (bytes)", done, total)
    return report


def write_graph(graph: GraphFile, path: str, *, format: str | None = None, progress=None) -> list[str]:
    """Write ``graph`` to ``path`` (atomically) in the user's ids; returns notes on anything
    the format cannot hold (weights, directedness), for the caller to show.

    Every format writes the user's ids (``labels`` applied), except npz, which stores the
    vertex numbers and ``labels`` so it reads back without relabelling.

    >>> g = read_graph("web-Google.txt")                     # doctest: +SKIP
    >>> write_graph(g, "web-Google.p48")                     # doctest: +SKIP
    []
    >>> write_graph(g, "web-Google.bin")  # a weighted graph would give a note  # doctest: +SKIP
    []
    """
    fmt = format_named(detect_format(path, for_writing=True) if format is None else format)
    if graph.named:
        raise InputError(f"{path}: the graph's ids are strings; the {fmt.name} format holds "
                         f"integer ids")
    check_writable(path)
    report = progress or (lambda *a: None)
    notes = []
    if graph.weights is not None and not fmt.weighted:
        notes.append(f"weights dropped: the {fmt.name} format has no weight column")
    if graph.directed and not fmt.directed:
        notes.append(f"the {fmt.name} format holds undirected Graph500 tuples: edge directions "
                     "are kept as (v0, v1) order only")
    fmt.write(graph, path, report)
    return notes


def convert_graph(src_path: str, dst_path: str, *, in_format: str | None = None,
                  out_format: str | None = None, num_vertices: int | None = None,
                  directed: bool | None = None, progress=None) -> tuple[GraphFile, list[str]]:
    """Read ``src_path`` and write it to ``dst_path`` (formats from the names unless given).

    Ids are the user's on both sides. Returns the graph read and the notes of ``write_graph``.

    >>> graph, notes = convert_graph("ca-GrQc.txt.gz", "ca-GrQc.mtx")   # doctest: +SKIP
    >>> graph.num_edges, notes                                        # doctest: +SKIP
    (28980, [])
    """
    out_fmt = format_named(out_format or detect_format(dst_path, for_writing=True)).name
    check_writable(dst_path)
    if same_file(src_path, dst_path):
        raise InputError(f"convert: input {src_path} and output {dst_path} are the same file")
    graph = read_graph(src_path, format=in_format, num_vertices=num_vertices, directed=directed,
                       progress=progress)
    notes = write_graph(graph, dst_path, format=out_fmt, progress=progress)
    return graph, notes
