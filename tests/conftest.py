import os
import signal

import numba
import numpy as np
import pytest

# The signal tests send SIGINT, SIGTERM and SIGHUP to the commands they start, which keep a
# signal ignored when they were started ignoring it (as `nohup` asks). A shell's background
# job without job control (`(make test &)`) starts with SIGINT ignored, and the children
# would inherit that: the test process takes the default handlers instead, so its children
# start with the defaults however the suite was launched.
for _signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    if signal.getsignal(_signum) is signal.SIG_IGN:
        signal.signal(_signum, signal.default_int_handler if _signum == signal.SIGINT
                      else signal.SIG_DFL)

# The Graph500 reference's own output, shipped with the tests (a copy of
# ../shared/testdata/graph500-reference, where new vectors arrive first); GRAPH500_TESTDATA
# points the tests at another copy.
TESTDATA = os.path.join(os.path.dirname(__file__), "data", "graph500-reference")
# Each case: (name, scale, edgefactor, seed). scale11-ef16-seed4-9 goes through the v3
# generator's rejection path (a redrawn 4-way Bernoulli value).
REFERENCE_CASES = [
    ("scale5-ef8-seed7-11", 5, 8, (7, 11)),
    ("scale8-ef16-seed2-3", 8, 16, (2, 3)),
    ("scale11-ef16-seed4-9", 11, 16, (4, 9)),
]


def _testdata_dir():
    path = os.environ.get("GRAPH500_TESTDATA", TESTDATA)
    if not os.path.isdir(path):  # a broken override is an error, never a silent skip
        raise FileNotFoundError(f"reference test vectors not found at {path} (GRAPH500_TESTDATA)")
    return path


def load_reference(name):
    """(edges as (M, 2) int64, roots) of one reference test vector."""
    d = _testdata_dir()
    edges = np.loadtxt(os.path.join(d, f"{name}.edges.txt"), dtype=np.int64, comments="#", ndmin=2)
    roots = np.loadtxt(os.path.join(d, f"{name}.roots.txt"), dtype=np.int64, comments="#", ndmin=1)
    return edges, roots


def load_reference_weighted(name):
    """(edges as (M, 2) int64, float32 weights) of a reference vector made with -DSSSP."""
    path = os.path.join(_testdata_dir(), f"{name}.weighted.txt")
    with open(path) as f:
        cols = np.array([line.split() for line in f if line.strip() and line[0] != "#"])
    return cols[:, :2].astype(np.int64), cols[:, 2].astype(np.float32)


THREADS = [1, 2] if numba.config.NUMBA_NUM_THREADS >= 2 else [1]


@pytest.fixture(params=THREADS, ids=lambda t: f"threads{t}")
def threads(request):
    """Run the test with 1 and with 2 numba threads."""
    old = numba.get_num_threads()
    numba.set_num_threads(request.param)
    yield request.param
    numba.set_num_threads(old)


def rmat_like(rng, scale, m):
    """Skewed test edges (R-MAT, a = 0.57, b = c = 0.19): a few hubs, many low degrees."""
    src = np.zeros(m, dtype=np.int64)
    dst = np.zeros(m, dtype=np.int64)
    for _ in range(scale):
        r = rng.random(m)
        src = 2 * src + (r > 0.76)
        dst = 2 * dst + (((r > 0.57) & (r <= 0.76)) | (r > 0.95))
    return src, dst
