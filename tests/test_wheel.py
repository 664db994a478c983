"""The package as a user installs it: the wheel built from this tree, installed into a fresh
virtual environment outside the repository (no editable path, no test extras), runs the
benchmark and the Python API there. The build must not warn about deprecated metadata."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.slow

CHECK = """
import importlib.metadata as md
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path
import pygraph500
assert pygraph500.__file__.startswith({prefix!r}), pygraph500.__file__
meta = md.metadata("pygraph500")
assert meta["License-Expression"] == "MIT", meta["License-Expression"]
src = np.array([0, 1, 2, 3, 5]); dst = np.array([1, 2, 3, 4, 6])
dist, pred = pygraph500.bfs((src, dst), 0)
m = sp.coo_matrix((np.ones(5), (src, dst)), shape=(7, 7))
want = shortest_path(m, directed=False, unweighted=True, indices=0)
assert np.array_equal(np.where(np.isinf(want), -1, want).astype(int),
                      np.where(dist < 0, -1, dist).astype(int)), (dist, want)
print("python api ok", pygraph500.__version__)
"""


def _run(cmd, cwd, env=None, timeout=600):
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{cmd}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_the_wheel_installs_and_runs_in_a_fresh_venv(tmp_path):
    tree = tmp_path / "tree"  # a clean copy: no stale build/ or caches in the wheel
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "site", "*.egg-info", "__pycache__", ".*cache",
        ".hypothesis", ".device", ".whl", "benchmarks", "tests"))
    wheels = tmp_path / "wheels"
    build = _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o",
                  str(wheels), str(tree)], cwd=tmp_path)
    assert "deprecat" not in (build.stdout + build.stderr).lower()
    (wheel,) = wheels.glob("pygraph500-*.whl")

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    bin_dir = venv / "bin"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["HOME"] = str(tmp_path / "home")  # the compiled marker and caches: not the user's
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], cwd=tmp_path,
         env=env)

    run = _run([str(bin_dir / "graph500"), "run", "--scale", "10"], cwd=tmp_path, env=env)
    assert "SCALE:                          10" in run.stdout.replace("\t", " ") or \
        "SCALE: 10" in " ".join(run.stdout.split()), run.stdout
    assert "bfs  harmonic_mean_TEPS" in run.stdout, run.stdout

    api = _run([str(bin_dir / "python"), "-c", CHECK.format(prefix=str(venv))],
               cwd=tmp_path, env=env)
    assert "python api ok 0.1.0" in api.stdout
