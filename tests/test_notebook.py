"""examples/quickstart.ipynb runs from top to bottom, as a newcomer would run it, and prints
what it says: networkx's distances matched, the official block of a SCALE 14 run.

The kernel is this interpreter (``sys.executable``) through a kernelspec made for the test,
so neither a registered ``python3`` kernel nor its absence (a fresh clone's venv) changes
which Python, and so which pygraph500, the notebook runs on. Matplotlib draws with Agg there.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
KernelSpecManager = pytest.importorskip("jupyter_client.kernelspec").KernelSpecManager
AsyncKernelManager = pytest.importorskip("jupyter_client.manager").AsyncKernelManager

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "quickstart.ipynb"
CELL_TIMEOUT = 600  # seconds; a cold numba cache compiles every kernel in the first searches


def this_python_kernel(kernels: Path) -> AsyncKernelManager:
    """A kernel manager whose ``python3`` kernel is ``sys.executable`` with MPLBACKEND=Agg,
    found only in ``kernels`` (no user's or system's kernelspec of that name is looked at)."""
    spec = kernels / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (pygraph500 tests)",
        "language": "python",
        "env": {"MPLBACKEND": "Agg"},
    }))
    specs = KernelSpecManager(kernel_dirs=[str(kernels)])
    return AsyncKernelManager(kernel_name="python3", kernel_spec_manager=specs)


def stream_text(cell) -> str:
    """What a code cell printed on stdout."""
    return "".join(o.get("text", "") for o in cell.get("outputs", [])
                   if o.get("output_type") == "stream" and o.get("name") == "stdout")


def test_committed_notebook_holds_no_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, "the notebook has no code cells"
    assert all(c.outputs == [] and c.execution_count is None for c in code)


@pytest.mark.slow
def test_quickstart_runs_and_prints_the_official_block(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    work = tmp_path / "work"
    work.mkdir()
    client = nbclient.NotebookClient(
        nb, km=this_python_kernel(tmp_path / "kernels"), kernel_name="python3",
        timeout=CELL_TIMEOUT, resources={"metadata": {"path": str(work)}})
    # CellExecutionError (the cell and its traceback) if any cell raises; the kernel is shut
    # down either way (nbclient keeps a kernel it was handed alive unless told cleanup_kc)
    client.execute(cleanup_kc=True)

    code = [c for c in nb.cells if c.cell_type == "code"]
    errors = [o for c in code for o in c.outputs if o.get("output_type") == "error"]
    assert errors == []
    assert all(c.execution_count is not None for c in code)
    printed = "\n".join(stream_text(c) for c in code)

    assert "BFS from node 0: all 34 distances match networkx" in printed
    assert "SSSP from node 0: all 34 distances match networkx's Dijkstra" in printed
    assert "64 searches, all validated" in printed
    block = dict(re.findall(r"^(\S.*?):\s+(?:!\s+)?(\S+)$", printed, re.MULTILINE))
    assert block["SCALE"] == "14"
    assert block["edgefactor"] == "16"
    assert block["NBFS"] == "64"
    assert float(block["bfs  harmonic_mean_TEPS"]) > 0
    nedge = str(component_edges(14))
    assert block["min_nedge"] == block["max_nedge"] == nedge


def component_edges(scale: int) -> int:
    """The TEPS numerator of a root in the largest component of the reference's SCALE
    ``scale`` graph (seed 2, 3; every root the run picks lies there at SCALE 14): its input
    tuples that are not self-loops, counted by scipy's components."""
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse.csgraph import connected_components

    from pygraph500 import kronecker

    edges = kronecker(scale)
    n = edges.num_vertices
    matrix = sp.coo_array((np.ones(edges.src.size), (edges.src, edges.dst)), shape=(n, n))
    _, label = connected_components(matrix, directed=False)
    inside = label[edges.src] == np.bincount(label).argmax()
    return int(np.count_nonzero(inside & (edges.src != edges.dst)))
