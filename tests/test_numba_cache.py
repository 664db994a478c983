"""numba's cache of the package (primitives.numba_cache): package functions compile for types,
not literal values; a read-only install caches in numba's user-wide directory, where a cold
run's parallel warm-up leaves every kernel the run needs; an edit makes that cache stale."""
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit, types

import pygraph500
from pygraph500.primitives.direction import go_bottom_up

PACKAGE = os.path.dirname(pygraph500.__file__)


@njit
def _outside_callee(x, flag):  # not in the package: numba's own rule applies
    return x + 1 if flag else x


@njit
def _caller(nf):
    prev = 0  # a literal 0 on the first typing pass
    for _ in range(2):
        go_bottom_up(nf, prev, 100, 10, 15.0)
        _outside_callee(prev, True)
        prev += 1
    return prev


def test_package_functions_compile_for_types_not_literal_values():
    _caller(np.int64(5))
    assert go_bottom_up.signatures
    for sig in go_bottom_up.signatures:
        assert not any(isinstance(t, types.Literal) for t in sig), sig
    # the oracle: numba itself does compile the outside function for the literal values
    assert any(isinstance(t, types.Literal) for sig in _outside_callee.signatures for t in sig)


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


def _run(script, copy, env):
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script), copy], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    return lines, eval(lines[-1].split(" ", 1)[1])


def _files(top, suffix):
    return [os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs if f.endswith(suffix)]


@pytest.mark.slow
def test_read_only_install_caches_in_the_user_dir_and_parallel_warm_up_covers_the_run(
        tmp_path):
    copy = str(tmp_path / "ro")
    shutil.copytree(PACKAGE, os.path.join(copy, "pygraph500"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    # Nothing can be written beside the modules: each __pycache__ is a file (this holds even
    # for root, whom permission bits do not stop), and the tree is read-only.
    for top, dirs, _ in os.walk(copy):
        if top != copy:
            open(os.path.join(top, "__pycache__"), "w").close()
    for top, dirs, files in os.walk(copy):
        for name in files + dirs:
            os.chmod(os.path.join(top, name), 0o555 if name in dirs else 0o444)
    xdg, home = tmp_path / "xdg", tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=copy, XDG_CACHE_HOME=str(xdg), HOME=str(home))

    lines, compiled = _run(_COLD, copy, env)
    assert compiled == []
    where = lines[-2]
    assert where.startswith(str(xdg / "numba"))
    assert _files(str(xdg), ".nbi") and not _files(copy, ".nbi")
    assert any(f.startswith("compiled-") for f in os.listdir(where))

    _, compiled = _run(_WARM, copy, env)
    assert compiled == []  # everything loaded from the user-wide cache
    assert not os.listdir(home)

    # An edit to any numba module makes the whole cache stale: compiled again, and said so.
    edited = os.path.join(copy, "pygraph500", "graph", "build.py")
    os.chmod(edited, 0o644)
    with open(edited, "a") as f:
        f.write("\n# edited\n")
    _, compiled = _run(_EDITED, copy, env)
    assert compiled == ["pygraph500.primitives.direction.go_bottom_up"]
