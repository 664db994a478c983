"""The package as a user installs it: the wheel built from this tree, installed into a fresh
virtual environment outside the repository (no editable path, no test extras). The build
must not warn about deprecated metadata. The install is made read-only, as a system-wide
one is: numba then caches in its user-wide directory (primitives.numba_cache), a cold run's
parallel warm-up leaves every kernel the run needs there, the benchmark and the Python API
run from it, and an edit makes that cache stale. One cold compile (a minute or more) serves
every test here, so they share the install and run in this order."""
import os
import shutil
import subprocess
import sys
import textwrap

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

_PRELUDE = """
import os, sys
import pygraph500
from numba.core import event
from pygraph500 import RunConfig, run_benchmark
from pygraph500.primitives.numba_cache import cache_dir, compiled_before
assert pygraph500.__file__.startswith(sys.argv[1]), pygraph500.__file__
compiled = []
class Compiles(event.Listener):
    def on_start(self, ev):
        pass
    def on_end(self, ev):
        f = ev.data["dispatcher"].py_func
        if f.__module__.startswith("pygraph500"):
            compiled.append(f.__module__ + "." + f.__qualname__)
config = RunConfig.of(scale=6, num_roots=2)
"""

# Cold: the parts of the warm-up in four processes (as on a 4-core machine), then the whole
# run, which must compile nothing more: the workers' kernels come from the cache.
_COLD = _PRELUDE + """
import pygraph500.benchmark.compile_ahead as ca
from pygraph500.benchmark.embedded import EmbeddedEngine
assert not compiled_before()
ca.usable_cores = lambda: 4
engine = EmbeddedEngine(config)
ca.compile_ahead(engine)
engine.warm_up()  # the search part's kernels are in memory; all others must load
event.register("numba:compile", Compiles())
assert all(r.valid for r in run_benchmark(config).runs)
assert compiled_before()
print(cache_dir())
print("COMPILED", compiled)
"""

_WARM = _PRELUDE + """
assert compiled_before()
event.register("numba:compile", Compiles())
assert all(r.valid for r in run_benchmark(config).runs)
print("COMPILED", compiled)
"""

_EDITED = _PRELUDE + """
from pygraph500.primitives.direction import go_bottom_up
assert not compiled_before()
event.register("numba:compile", Compiles())
go_bottom_up(1, 0, 1, 1, 15.0)
print("COMPILED", compiled)
"""


def _run(cmd, cwd, env=None, timeout=600):
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{cmd}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _files(top, suffix):
    return [os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs if f.endswith(suffix)]


@pytest.fixture(scope="module")
def install(tmp_path_factory):
    """The wheel installed read-only in a fresh venv: (its python, the package's folder, the
    environment of a user whose HOME and cache folders are empty, the folders)."""
    tmp = tmp_path_factory.mktemp("wheel")
    tree = tmp / "tree"  # a clean copy: no stale build/ or caches in the wheel
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "site", "*.egg-info", "__pycache__", ".*cache",
        ".hypothesis", ".device", ".whl", "benchmarks", "tests"))
    wheels = tmp / "wheels"
    build = _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o",
                  str(wheels), str(tree)], cwd=tmp)
    assert "deprecat" not in (build.stdout + build.stderr).lower()
    (wheel,) = wheels.glob("pygraph500-*.whl")

    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp)
    bin_dir = venv / "bin"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["HOME"] = str(tmp / "pip-home")  # pip's own cache: not the user's below
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-compile", str(wheel)],
         cwd=tmp, env=env)
    python = str(bin_dir / "python")
    package = _run([python, "-c", "import os, pygraph500; "
                    "print(os.path.dirname(pygraph500.__file__))"],
                   cwd=tmp, env=env).stdout.strip()
    assert package.startswith(str(venv)), package
    # Nothing can be written beside the modules: each __pycache__ is a file (this holds even
    # for root, whom permission bits do not stop), and the tree is read-only.
    for top, dirs, _ in os.walk(package):
        shutil.rmtree(os.path.join(top, "__pycache__"), ignore_errors=True)
        if "__pycache__" in dirs:
            dirs.remove("__pycache__")
        open(os.path.join(top, "__pycache__"), "w").close()
    for top, dirs, files in os.walk(package):
        for name in files + dirs:
            os.chmod(os.path.join(top, name), 0o555 if name in dirs else 0o444)
    xdg, home = tmp / "xdg", tmp / "home"
    home.mkdir()
    env.update(XDG_CACHE_HOME=str(xdg), HOME=str(home))
    return python, package, env, tmp


def test_a_read_only_install_caches_in_the_user_dir_and_warms_up_the_run(install):
    python, package, env, tmp = install
    lines = _run([python, "-c", textwrap.dedent(_COLD), package], tmp, env).stdout.splitlines()
    assert eval(lines[-1].split(" ", 1)[1]) == []
    where = lines[-2]
    assert where.startswith(str(tmp / "xdg" / "numba"))
    assert _files(str(tmp / "xdg"), ".nbi") and not _files(package, ".nbi")
    assert any(f.startswith("compiled-") for f in os.listdir(where))

    lines = _run([python, "-c", textwrap.dedent(_WARM), package], tmp, env).stdout.splitlines()
    assert eval(lines[-1].split(" ", 1)[1]) == []  # everything loaded from the user-wide cache
    assert not os.listdir(tmp / "home")


def test_the_wheel_runs_the_benchmark_and_the_api(install):
    python, package, env, tmp = install
    run = _run([os.path.join(os.path.dirname(python), "graph500"), "run", "--scale", "10"],
               cwd=tmp, env=env)
    assert "SCALE:                          10" in run.stdout.replace("\t", " ") or \
        "SCALE: 10" in " ".join(run.stdout.split()), run.stdout
    assert "bfs  harmonic_mean_TEPS" in run.stdout, run.stdout

    api = _run([python, "-c", CHECK.format(prefix=os.path.dirname(os.path.dirname(python)))],
               cwd=tmp, env=env)
    assert "python api ok 0.1.0" in api.stdout


def test_an_edit_makes_the_cache_stale(install):
    """An edit to any numba module makes the whole cache stale: compiled again, and said so.
    (Last here: every kernel would compile again after it.)"""
    python, package, env, tmp = install
    edited = os.path.join(package, "graph", "build.py")
    os.chmod(edited, 0o644)
    with open(edited, "a") as f:
        f.write("\n# edited\n")
    lines = _run([python, "-c", textwrap.dedent(_EDITED), package], tmp, env).stdout.splitlines()
    assert eval(lines[-1].split(" ", 1)[1]) == ["pygraph500.primitives.direction.go_bottom_up"]
