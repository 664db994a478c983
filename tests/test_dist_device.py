"""The distributed engine with one device per rank (issue 5 item 7), NumPy standing in for the
devices: the array searcher's trees are valid for every P, pruning mode, algorithm and
exchange (direct or staged), and its per-level counts equal the compiled engine's (the same
levels, frontiers, pruned and sent entries); each rank takes the device of its node-local
rank; the exchange is chosen from the MPI's CUDA support and says so."""
import numpy as np
import pytest

from pygraph500 import validate
from pygraph500.backend.arrays import GPU_STANDIN, get_backend
from pygraph500.benchmark import RunConfig
from pygraph500.benchmark.distributed import check_distributed, run_distributed
from pygraph500.distributed import (DIST_ALGORITHMS, PRUNE_MODES, DistSearcher, SerialComm,
                                    ThreadComm, build_dist, generate_local)
from pygraph500.distributed.array_bfs import DistArraySearcher, device_graph, estimate_device_bytes
from pygraph500.distributed.device import CUDA_AWARE, DeviceExchange, cuda_aware
from pygraph500.errors import InputError, ResourceError
from pygraph500.report.result import result_json

from test_distributed import SCALE, SIZES, gather_parent, graph  # noqa: F401,F811 - the fixture

INT_FIELDS = ("queue", "nlf", "nlf_pruned", "local", "sent", "sent_bytes", "received",
              "received_bytes", "enqueued_local", "enqueued_received")


@pytest.fixture(autouse=True)
def _no_outside_settings(monkeypatch):
    monkeypatch.delenv(GPU_STANDIN, raising=False)
    monkeypatch.delenv(CUDA_AWARE, raising=False)


def _both(comm, roots, prune, algorithm, direct, scale=SCALE, kernel=None):
    """Every root searched by the array engine and by the compiled one (``kernel``: the
    array engine's bottom-up levels by the numba.cuda kernel, under the simulator)."""
    edges = generate_local(comm, scale)
    host = build_dist(comm, edges, compact_columns=prune == "bitmap")
    be = get_backend("cpu")
    arr = DistArraySearcher(comm, device_graph(host, be), be, DeviceExchange(comm, be, direct),
                            prune, algorithm, kernel)
    ref = DistSearcher(comm, host, prune, algorithm)
    out = []
    for root in roots.tolist():
        a, r = arr.search(root), ref.search(root)
        out.append((gather_parent(comm, host.part, be.to_host(a.parent)), a.levels, r.levels))
    return out


@pytest.mark.parametrize("direct", [True, False], ids=["direct", "staged"])
@pytest.mark.parametrize("algorithm", DIST_ALGORITHMS)
@pytest.mark.parametrize("prune", PRUNE_MODES)
@pytest.mark.parametrize("size", SIZES)
def test_array_engine_trees_valid_and_counts_equal_the_compiled_engine(size, prune, algorithm,
                                                                      direct, graph):
    edges, _, roots = graph
    runs = ThreadComm.run(size, _both, roots, prune, algorithm, direct)
    for per_root in runs:
        for root, (parent, arr, ref) in zip(roots.tolist(), per_root):
            assert validate(edges, parent, root).valid
            assert arr["direction"].tolist() == ref["direction"].tolist()
            assert arr["queue"].tolist() == ref["queue"].tolist()
            top = arr["direction"] == 0  # bottom-up levels examine lists differently
            # bitmap: the array engine also keeps one copy of each own vertex (a claim over
            # all entries), the compiled one only of each remote vertex
            for f in INT_FIELDS if prune != "bitmap" else set(INT_FIELDS) - {"nlf_pruned",
                                                                              "local"}:
                np.testing.assert_array_equal(arr[f][top], ref[f][top], err_msg=f)
    for i in range(len(roots)):  # what is sent is received
        assert (sum(pr[i][1]["sent"].sum() for pr in runs)
                == sum(pr[i][1]["received"].sum() for pr in runs))


SIM_SCRIPT = """
import json, sys, threading
import numpy as np
from numba.cuda.simulator import kernel as sim
sys.path.insert(0, sys.argv[1])
from pygraph500.distributed import ThreadComm
from test_dist_device import _both
lock = threading.Lock()  # the simulator runs one kernel at a time (it swaps module globals)
call = sim.FakeCUDAKernel.__call__
def one_at_a_time(self, *args):
    if self._device:
        return call(self, *args)
    with lock:
        return call(self, *args)
sim.FakeCUDAKernel.__call__ = one_at_a_time
out = []
for size in (1, 2, 3):
    runs = ThreadComm.run(size, _both, np.array([1, 5, 9]), "sort-unique",
                          "direction-optimizing", True, 7, True)
    out.append([[p.tolist(), a["direction"].tolist(), r["direction"].tolist()]
                for p, a, r in runs[0]])
print(json.dumps(out))
"""


def test_bottom_up_kernel_on_every_rank_under_the_simulator():
    """The distributed array engine's bottom-up levels by the numba.cuda kernel (what a
    device runs), under numba's CUDA simulator, P = 1, 2, 3: valid trees, the compiled
    engine's directions, scipy's depths, and each vertex found bottom-up has the first
    neighbour one level up in its list as its parent (as the embedded kernel)."""
    import json
    import os
    import subprocess
    import sys

    import scipy.sparse as sp
    from scipy.sparse.csgraph import shortest_path

    from pygraph500 import build_csr, kronecker

    here = os.path.dirname(os.path.abspath(__file__))
    proc = subprocess.run([sys.executable, "-c", SIM_SCRIPT, here], capture_output=True,
                          text=True, timeout=600, env=dict(os.environ, NUMBA_ENABLE_CUDASIM="1"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    edges = kronecker(7)
    g = build_csr(edges)
    a = sp.csr_matrix((np.ones(g.indices.size), g.indices, g.indptr), shape=(g.num_vertices,) * 2)
    checked = 0
    for per_size in json.loads(proc.stdout.strip().splitlines()[-1]):
        for root, (parent, arr_dirs, ref_dirs) in zip([1, 5, 9], per_size):
            parent = np.array(parent)
            assert validate(edges, parent, root).valid
            assert arr_dirs == ref_dirs and 1 in arr_dirs
            d = shortest_path(a, unweighted=True, indices=root)
            for lev in np.flatnonzero(np.array(arr_dirs) == 1):
                for v in np.flatnonzero(d == lev + 1):
                    nbrs = g.indices[g.indptr[v]:g.indptr[v + 1]]
                    assert parent[v] == nbrs[d[nbrs] == lev][0]
                    checked += 1
    assert checked > 0


def test_bitmap_never_sends_a_vertex_twice(graph):
    _, _, roots = graph
    sent = {}
    for prune in PRUNE_MODES:
        runs = ThreadComm.run(4, _both, roots, prune, "topdown-queue", True)
        sent[prune] = sum(lv["sent"].sum() for pr in runs for _, lv, _ in pr)
    assert sent["bitmap"] <= sent["sort-unique"] < sent["none"] / 2


def test_each_rank_takes_the_device_of_its_node_local_rank(monkeypatch):
    monkeypatch.setenv(GPU_STANDIN, "2")
    ids = ThreadComm.run(3, lambda comm: get_backend("gpu", local_rank=comm.local_rank).device_id)
    assert ids == [0, 1, 0]
    be = get_backend("gpu", local_rank=5)
    assert be.is_gpu and not be.on_device and "standing in for GPU 1 of 2" in be.device
    monkeypatch.setenv(GPU_STANDIN, "many")
    with pytest.raises(InputError, match=GPU_STANDIN):
        get_backend("gpu")


def test_exchange_mode_is_chosen_and_described(monkeypatch):
    comm = SerialComm()
    be = get_backend("cpu")
    aware, why = cuda_aware(comm)
    assert aware and "one process" in why
    monkeypatch.setenv(CUDA_AWARE, "0")
    ex = DeviceExchange(comm, be)
    assert not ex.direct and ex.describe().startswith("staged through host memory")
    monkeypatch.setenv(CUDA_AWARE, "1")
    assert DeviceExchange(comm, be).describe().startswith("device buffers handed to MPI")
    monkeypatch.setenv(CUDA_AWARE, "yes")
    with pytest.raises(InputError, match=CUDA_AWARE):
        cuda_aware(comm)


def _run(comm, config):
    return run_distributed(config, comm)


@pytest.mark.parametrize("cuda_aware_mpi", ["0", "1"])
def test_run_distributed_on_stand_in_devices(cuda_aware_mpi, graph, monkeypatch):
    monkeypatch.setenv(GPU_STANDIN, "2")
    monkeypatch.setenv(CUDA_AWARE, cuda_aware_mpi)
    config = RunConfig.of(scale=SCALE, num_roots=4, algorithm="direction-optimizing", threads=1,
                       backend="gpu")
    results = ThreadComm.run(3, _run, config)
    cpu = ThreadComm.run(3, _run, RunConfig.of(scale=SCALE, num_roots=4, threads=1))
    for rank, res in enumerate(results):
        assert res.valid and len(res.runs) == 4
        info = res.distributed
        assert info["per_rank"]["device_id"] == [0, 1, 0]
        assert f"standing in for GPU {[0, 1, 0][rank]} of 2" in info["device"]
        assert info["device_exchange"].startswith(
            "device buffers handed" if cuda_aware_mpi == "1" else "staged through host")
        assert any("one GPU per process" in label for label in res.labels)
        # the --json document says where it ran (a device run once said "cpu" there)
        params = result_json(res)["parameters"]
        assert (params["backend"], params["device"]) == ("gpu", info["device"])
    assert result_json(cpu[0])["parameters"]["backend"] == "cpu"
    assert [r.nedge for r in results[0].runs] == [r.nedge for r in cpu[0].runs]
    assert results[0].roots.tolist() == cpu[0].roots.tolist()


def test_gpu_without_a_device_and_device_memory(monkeypatch):
    from pygraph500.backend.arrays import gpu_status

    if gpu_status()[0] is None:
        with pytest.raises(InputError, match="^backend gpu"):
            check_distributed(RunConfig.of(scale=5, backend="gpu"), SerialComm())
    # auto without a device on every rank: the CPU engine, and it says so
    res = run_distributed(RunConfig.of(scale=6, num_roots=2, threads=1, backend="auto"),
                          SerialComm())
    if gpu_status()[0] is None:
        assert res.distributed["device_exchange"] is None
        assert any("--backend auto" in label for label in res.labels)
    monkeypatch.setenv(GPU_STANDIN, "1")
    with pytest.raises(ResourceError, match="needs about"):
        check_distributed(RunConfig.of(scale=36, backend="gpu"), SerialComm())
    from pygraph500.distributed import Partition1D
    part = Partition1D(1 << 20, 4, 0)
    assert (estimate_device_bytes(part, 1 << 23, "bitmap")
            > estimate_device_bytes(part, 1 << 23, "sort-unique") > 8 * (1 << 23))


def test_mpi_library_line_has_no_nul():
    """Open MPI's library version ends in a NUL: it reached the device run's labels and JSON."""
    from pygraph500.backend.info import mpi_library

    class OpenMPI:
        @staticmethod
        def Get_library_version():
            return "Open MPI v4.1.6, package: Debian OpenMPI,  ident: 4.1.6\x00"

    assert mpi_library(OpenMPI) == "Open MPI v4.1.6, package: Debian OpenMPI, ident: 4.1.6"


def test_device_warm_up_searches_from_a_root_on_every_rank(graph, monkeypatch):
    """With arrays on devices the warm-up searches the tiny graph once more from a root each
    rank owns, so that every rank runs a non-empty top-down level (and compiles its CuPy
    kernels) before the timed searches."""
    monkeypatch.setenv(GPU_STANDIN, "1")
    calls = {}
    search = DistArraySearcher.search

    def recorded(self, root):
        calls.setdefault(self.comm.rank, []).append(int(root))
        return search(self, root)

    monkeypatch.setattr(DistArraySearcher, "search", recorded)
    config = RunConfig.of(scale=SCALE, num_roots=2, algorithm="direction-optimizing", threads=1,
                          backend="gpu")
    results = ThreadComm.run(4, _run, config)
    assert all(res.valid for res in results)
    for rank in range(4):  # the tiny root, then one owned by each rank, on every rank
        assert [root % 4 for root in calls[rank][1:5]] == [0, 1, 2, 3]
    assert len({tuple(c) for c in calls.values()}) == 1



def _pipelined_and_not(comm, roots, prune, algorithm):
    """Every root searched by the array engine with the exchange pipelined and without:
    (rank's parents on and off, the whole tree, the levels on and off)."""
    be = get_backend("cpu")
    host = build_dist(comm, generate_local(comm, SCALE))
    g = device_graph(host, be)
    on, off = (DistArraySearcher(comm, g, be, DeviceExchange(comm, be, False), prune,
                                 algorithm, pipeline=p) for p in (True, False))
    out = []
    for root in roots.tolist():
        a, b = on.search(root), off.search(root)
        out.append((a.parent, b.parent, gather_parent(comm, host.part, a.parent), a.levels,
                    b.levels))
    return out


@pytest.mark.parametrize("size, prune, algorithm",
                         [(3, prune, "direction-optimizing") for prune in PRUNE_MODES]
                         + [(2, "sort-unique", "topdown-queue")])
def test_pipelined_array_exchange_moves_the_same_rows_to_the_same_parents(size, prune,
                                                                         algorithm, graph):
    """thesis 5.2 on the device engine (each peer's block pruned on its own stream while the
    one before it is sent): every rank's parents, and every level's counts and bytes, equal
    the one-alltoallv exchange's; the trees are valid."""
    edges, _, roots = graph
    for per_root in ThreadComm.run(size, _pipelined_and_not, roots, prune, algorithm):
        for root, (p_on, p_off, tree, on, off) in zip(roots.tolist(), per_root):
            np.testing.assert_array_equal(p_on, p_off)
            assert validate(edges, tree, root).valid
            assert (on["direction"] == 0).any()
            for f in ("direction",) + INT_FIELDS:
                np.testing.assert_array_equal(on[f], off[f], err_msg=f)
