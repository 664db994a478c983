"""The link between the host and the array side: every transfer goes through it and is
counted (bytes and number, per direction and per kind, per level).

Kinds (what a task's data is, paper 002 section V-A):

- ``graph``: the vertex array (``indptr``, once: the degree of any vertex, which the
  counts need) and a task's adjacency lists, sent the first time the task runs on the
  array side; both stay there for every later search (the paper's graph caching);
- ``visited``: a task's words of the visited bitmap VB, sent when the host's copy changed
  since the array side last had it and the array side needs it;
- ``frontier``: a task's words of the frontier VF / next frontier NVF (host -> array side:
  what the CPU found that the array side needs; array side -> host: what it found);
- ``control``: the level's plan (a byte per task: run, and which slices follow) and the
  array side's per-task counts (found vertices, and the entries it examined);
- ``parent``: at the end of a search, the parents of the vertices the array side claimed
  (8 bytes each, in vertex order: the host knows which from the frontier words it got).

On a GPU a transfer is a copy over PCIe; on NumPy and for the stand-in it is a copy between
two arrays of the host (the array side never reads the host's arrays in place), so the
protocol is exercised as it would be on a device. ``seconds`` (the stand-in's model) charges
each transfer ``LATENCY`` plus its bytes over ``BANDWIDTH``.
"""
from __future__ import annotations

import numpy as np

__all__ = ["KINDS", "Link", "LATENCY", "BANDWIDTH"]

KINDS = ("graph", "visited", "frontier", "control", "parent")
LATENCY = 10e-6    # seconds per transfer (a cudaMemcpy's fixed cost, PCIe)
BANDWIDTH = 12e9   # bytes per second (PCIe 3.0 x16 in practice)
_COLUMNS = ("h2d_bytes", "h2d_count", "d2h_bytes", "d2h_count",
            *(f"{k}_bytes" for k in KINDS))


class Link:
    """Counts the transfers of one search, per level (``start_level`` opens a row).
    ``upload(a)`` / ``download(a)``: the array side's copy functions."""

    def __init__(self, upload, download):
        self.upload, self.download = upload, download
        self.rows: list[list[int]] = []
        self.seconds = 0.0  # modelled time of the current level's transfers
        self.graph_seconds = 0.0  # ... of its graph parts (sent once: the tuner leaves it out)

    def start_level(self) -> None:
        self.rows.append([0] * len(_COLUMNS))
        self.seconds = self.graph_seconds = 0.0

    def _count(self, direction: int, kind: str, nbytes: int) -> None:
        row = self.rows[-1]
        row[2 * direction] += nbytes
        row[2 * direction + 1] += 1
        row[4 + KINDS.index(kind)] += nbytes
        seconds = LATENCY + nbytes / BANDWIDTH
        self.seconds += seconds
        if kind == "graph":
            self.graph_seconds += seconds

    def h2d(self, kind: str, host: np.ndarray):
        """``host`` copied to the array side (counted)."""
        self._count(0, kind, int(host.nbytes))
        return self.upload(host)

    def d2h(self, kind: str, device) -> np.ndarray:
        """``device`` copied to the host (counted)."""
        out = self.download(device)
        self._count(1, kind, int(out.nbytes))
        return out

    def columns(self) -> dict:
        """The per-level counters as columns (one entry per level)."""
        table = np.array(self.rows, dtype=np.int64).reshape(-1, len(_COLUMNS))
        return {name: table[:, j] for j, name in enumerate(_COLUMNS)}
