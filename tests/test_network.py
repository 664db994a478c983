"""The emulated network (``distributed.network``): the parser, the virtual clocks of a scripted
exchange, the bytes counted, and the distributed BFS under the wrapper.

Oracles: virtual times worked out by hand for P = 2 (the numbers below) and, for any P, by
``expected_clocks``: the rules of the module docstring written out rank by rank in plain
loops; the bytes the script sends (counts times item sizes); the unwrapped searches' parents;
the bytes model of the 1D searcher (``LEVEL_FIELDS``' ``sent_bytes``, plus the 8 (P - 1)
bytes of counts per top-down level its docstring adds); the 2D searcher's ``fold_bytes``.
"""
import json
import os
import pickle
import subprocess
import sys

import numba
import numpy as np
import pytest

from pygraph500 import kronecker, validate
from pygraph500.distributed import (DistSearcher, SerialComm, ThreadComm, build_dist,
                                    generate_local, search1d)
from pygraph500.distributed.build2d import build_2d, mesh_comms
from pygraph500.distributed.grid import Grid2D
from pygraph500.distributed.network import (NETWORK_VARIABLE, EmulatedComm, Network, RankClock,
                                            emulated, network_from_environment, network_report,
                                            parse_network, virtual_time)
from pygraph500.distributed.search2d import Searcher2D
from pygraph500.errors import InputError

US = 1e-6
NET = Network(latency=1 * US, bandwidth=1e9)  # 1 us a message, 1 ns a byte
BCAST = b"x" * 100                              # pickled: 115 bytes
BCAST_BYTES = len(pickle.dumps(BCAST, protocol=pickle.HIGHEST_PROTOCOL))
PACKET = 1000
SIZES = [2, 4, 8]


# ---- the parser -------------------------------------------------------------------------------

@pytest.mark.parametrize("text,want", [
    ("latency=2us,bandwidth=10GB/s", Network(2e-6, 10e9)),
    (" latency = 500ns , bandwidth = 1.25GB/s ", Network(500e-9, 1.25e9)),
    ("bandwidth=100MB/s,latency=1ms,topology=full", Network(1e-3, 100e6)),
    ("latency=0s,bandwidth=12KB/s,compute=wall", Network(0.0, 12e3, compute="wall")),
    ("latency=1.5e-6s,bandwidth=3e9B/s", Network(1.5e-6, 3e9)),
    ("latency=.5us,bandwidth=2 GB/s", Network(0.5e-6, 2e9)),
])
def test_parse_network(text, want):
    got = parse_network(text)
    assert got.latency == pytest.approx(want.latency, rel=1e-15, abs=0)
    assert got.bandwidth == pytest.approx(want.bandwidth, rel=1e-15)
    assert (got.topology, got.compute) == (want.topology, want.compute)
    again = parse_network(str(got))  # its text reads back
    assert again.latency == pytest.approx(got.latency, rel=1e-12, abs=0)
    assert again.bandwidth == pytest.approx(got.bandwidth, rel=1e-12)


def test_network_text():
    assert str(parse_network("latency=1500ns,bandwidth=25GB/s")) == \
        "latency=1.5us,bandwidth=25GB/s,topology=full,compute=cpu"
    assert str(Network(0.0, 1.25e9, compute="wall")) == \
        "latency=0ns,bandwidth=1.25GB/s,topology=full,compute=wall"


@pytest.mark.parametrize("text,message", [
    ("latency=2xs,bandwidth=1GB/s", "'latency=2xs': unknown unit 'xs' (one of ns, us, ms, s)"),
    ("latency=2us,bandwidth=10Gb/s", "'bandwidth=10Gb/s': unknown unit 'Gb/s'"),
    ("latency=fast,bandwidth=1GB/s", "'latency=fast': 'fast' is not a number with a unit"),
    ("latency=-1us,bandwidth=1GB/s", "'latency=-1us': '-1us' is not a number"),
    ("latency=2us,bandwidth=0GB/s", "'bandwidth=0GB/s': the bandwidth must be more than 0"),
    ("latency=2us", "no bandwidth (e.g. bandwidth=10GB/s)"),
    ("bandwidth=1GB/s", "no latency (e.g. latency=2us)"),
    ("latency=2us,latency=3us,bandwidth=1GB/s", "'latency=3us': latency given twice"),
    ("latency=2us,bandwidth=1GB/s,speed=3", "'speed=3': unknown setting 'speed'"),
    ("latency=2us,bandwidth=1GB/s,topology=ring", "'topology=ring': topology 'ring' is not "
                                                  "modelled (one of full)"),
    ("latency=2us,bandwidth=1GB/s,compute=gpu", "'compute=gpu': compute 'gpu' is not a clock"),
    ("latency=2us,,bandwidth=1GB/s", "'': expected name=value"),
    ("2us,bandwidth=1GB/s", "'2us': expected name=value"),
    ("", "'': expected name=value"),
])
def test_parse_network_refuses_bad_text(text, message):
    with pytest.raises(InputError) as err:
        parse_network(text, "--network")
    assert str(err.value).startswith("--network: ")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_environment_variable(monkeypatch):
    comm = SerialComm()
    monkeypatch.delenv(NETWORK_VARIABLE, raising=False)
    assert network_from_environment() is None
    assert emulated(comm) is comm and emulated(None) is None  # unset: the plain communicator
    assert virtual_time(comm) is None and network_report(comm) is None
    monkeypatch.setenv(NETWORK_VARIABLE, "  ")
    assert emulated(comm) is comm
    monkeypatch.setenv(NETWORK_VARIABLE, "latency=3us,bandwidth=2GB/s")
    wrapped = emulated(comm)
    assert isinstance(wrapped, EmulatedComm) and wrapped.inner is comm
    assert wrapped.network == Network(3e-6, 2e9) and emulated(wrapped) is wrapped
    assert (wrapped.rank, wrapped.size, wrapped.library) == (0, 1, comm.library)
    monkeypatch.setenv(NETWORK_VARIABLE, "latency=3us")
    with pytest.raises(InputError, match=f"^{NETWORK_VARIABLE}: 'latency=3us': no bandwidth"):
        emulated(comm)


# ---- the clock --------------------------------------------------------------------------------

class FakeClock:
    """A compute clock the script advances by hand (no real time is read)."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_settle_splits_the_blocked_time_by_the_free_network():
    """A rank at 5 s whose free network clock is at 3 s (2 s of communication so far) waits
    for data ready at ``ready``, at ``free_ready`` on the free network: blocked until ready,
    of it waiting what the free clock is blocked, the rest communication; below zero when a
    peer's lateness covers the delay the network caused before."""
    for ready, free_ready, blocked, waited in [(9.0, 4.0, 4.0, 1.0), (9.0, 8.0, 4.0, 5.0),
                                               (4.0, 2.0, 0.0, 0.0)]:
        clock = RankClock(lambda: 0.0)
        clock.now, clock.free = 5.0, 3.0
        clock.settle("x", ready, free_ready)
        assert (clock.now, clock.free) == (5.0 + blocked, 3.0 + waited)
        assert (clock.communication, clock.wait) == (blocked - waited, waited)
        assert clock.ops["x"][3:] == [blocked, blocked - waited]


def test_late_packets_are_communication_once():
    """Ranks 0 and 1 send rank 2 a packet of 1000 bytes (2 us) at 5 and 10 us. Rank 2 blocks
    from 0 for both: 7 us for the first (5 waiting for rank 0, 2 communication), 5 for the
    second (all waiting: on a free network it would arrive at 10 us too, 5 after the
    first). The network adds 2 us in all, not one packet's time for each."""
    def body(comm):
        fake = FakeClock()
        e = EmulatedComm(comm, NET, clock=fake)
        if comm.rank < 2:
            fake.t = (5 + 5 * comm.rank) * US
            e.isend(np.zeros(1000, dtype=np.uint8), 2).wait()
            return None
        e.recv_packet()
        e.recv_packet()
        return e.summary()

    got = ThreadComm.run(3, body)[2]
    assert (got["virtual_time"], got["communication"], got["wait"]) == \
        pytest.approx((12 * US, 2 * US, 10 * US), rel=1e-9)


def script(comm, fake):
    """Compute (the fake clock), alltoallv, allreduce, allgather, bcast, barrier, a ring of
    packets; the virtual time after each step and the bytes sent by each operation."""
    r, p = comm.rank, comm.size
    times = []
    fake.t += (r + 1) * US
    counts = np.array([r + j + 1 for j in range(p)], dtype=np.int64)
    send = np.arange(2 * counts.sum(), dtype=np.int32).reshape(-1, 2)  # 8-byte rows
    recv, rc = comm.alltoallv(send, counts)
    assert recv.shape[0] == rc.sum() == sum(j + r + 1 for j in range(p))
    times.append(comm.virtual_time())
    fake.t += 2 * (p - r) * US
    assert comm.allreduce(np.array([r, 1], dtype=np.int64)).tolist() == [p * (p - 1) // 2, p]
    times.append(comm.virtual_time())
    fake.t += 0.5 * US
    assert comm.allgather(np.full(3, r, dtype=np.float64)).shape == (p, 3)
    times.append(comm.virtual_time())
    assert comm.bcast(BCAST if r == p - 1 else None, root=p - 1) == BCAST
    times.append(comm.virtual_time())
    comm.barrier()
    times.append(comm.virtual_time())
    req = comm.isend(np.full(PACKET, r, dtype=np.uint8), (r + 1) % p, tag=3)
    fake.t += 1 * US
    source, packet = comm.recv_packet(3)
    assert source == (r - 1) % p and packet.tolist() == [source] * PACKET
    req.wait()
    times.append(comm.virtual_time())
    return times, comm.summary()


def _run(comm, _):
    fake = FakeClock()
    return script(EmulatedComm(comm, NET, clock=fake), fake)


def cost(nbytes):
    return NET.latency + nbytes / NET.bandwidth


def expected_clocks(p):
    """Every rank's virtual time after each step of ``script``, rank by rank."""
    steps = []
    c = [(r + 1) * US for r in range(p)]
    if p > 1:  # counts to every peer, then r + j + 1 rows of 8 bytes from j to r
        counted = [max([c[r]] + [c[j] + cost(8) for j in range(p) if j != r]) for r in range(p)]
        c = [max([counted[r]] + [counted[j] + cost(8 * (r + j + 1)) for j in range(p) if j != r])
             for r in range(p)]
    steps.append(c)
    rounds = (p - 1).bit_length()
    c = [c[r] + 2 * (p - r) * US for r in range(p)]
    for k in range(rounds):  # dissemination: the 16-byte vector from r + 2**k
        c = [max(c[r], c[(r + 2 ** k) % p] + cost(16)) for r in range(p)]
    steps.append(c)
    c = [t + 0.5 * US for t in c]
    for k in range(rounds):  # Bruck: min(2**k, p - 2**k) blocks of 24 bytes from r + 2**k
        m = min(2 ** k, p - 2 ** k)
        c = [max(c[r], c[(r + 2 ** k) % p] + cost(24 * m)) for r in range(p)]
    steps.append(c)
    have = {0: c[p - 1]}  # binomial tree from p - 1 (relative rank v is rank v - 1 mod p)
    for v in range(1, p):
        k = v.bit_length() - 1
        parent = v - 2 ** k
        first = parent.bit_length()  # the round the parent sends first (the root: 0)
        have[v] = max(c[(v - 1) % p], have[parent] + (k - first + 1) * cost(BCAST_BYTES))
    c = [have[(r + 1) % p] for r in range(p)]
    steps.append(c)
    for k in range(rounds):  # barrier: dissemination, no bytes
        c = [max(c[r], c[(r + 2 ** k) % p] + cost(0)) for r in range(p)]
    steps.append(c)
    if p == 1:  # a packet to oneself costs nothing
        steps.append([c[0] + US])
    else:
        steps.append([max(c[r] + US, c[(r - 1) % p] + cost(PACKET)) for r in range(p)])
    return [list(by_rank) for by_rank in zip(*steps)]


def test_scripted_exchange_on_two_ranks_by_hand():
    """P = 2, latency 1 us, 1 ns a byte: the numbers worked out by hand (in us)."""
    assert BCAST_BYTES == 115
    runs = ThreadComm.run(2, _run, None)
    # rank 0 computes 1 us, rank 1 2 us; the counts (8 bytes, 1.008 us) reach rank 0 at
    # 3.008 and rank 1 at 2.008, then 2 rows each way (16 bytes): rank 0 has them at
    # 2.008 + 1.016, rank 1 at 3.008 + 1.016; 4 and 2 us of compute, the allreduce's one
    # round (1.016), 0.5 us, the allgather's (1.024), the bcast from rank 1 (1.115), the
    # barrier's round (1), 1 us of compute beside a packet of 1000 bytes (2 us) each way
    want = [[3.024, 7.040, 9.564, 9.679, 9.679, 12.679],
            [4.024, 8.040, 8.564, 8.564, 10.679, 11.679]]
    for (times, summary), w in zip(runs, want):
        np.testing.assert_allclose(np.array(times) / US, w, rtol=1e-12)
    assert [s["compute"] / US for _, s in runs] == pytest.approx([6.5, 5.5], rel=1e-12)


def _check_bytes(p, r, summary):
    """The bytes each operation of ``script`` sent from rank r, from its counts."""
    ops = summary["ops"]
    rounds = (p - 1).bit_length()
    v = (r - (p - 1)) % p  # relative rank in the bcast's tree
    children = sum(1 for k in range(v.bit_length(), rounds) if v + 2 ** k < p)
    want = {"alltoallv counts": (p - 1, 8 * (p - 1)),
            "alltoallv": (p - 1, 8 * sum(r + j + 1 for j in range(p) if j != r)),
            "allreduce": (rounds, 16 * rounds), "allgather": (rounds, 24 * (p - 1)),
            "bcast": (children, BCAST_BYTES * children), "barrier": (rounds, 0)}
    if p > 1:
        want["isend"] = (1, PACKET)
    for op, (messages, nbytes) in want.items():
        assert (ops[op]["calls"], ops[op]["messages"], ops[op]["bytes"]) == (1, messages, nbytes)
    assert summary["bytes"] == sum(b for _, b in want.values())
    assert summary["messages"] == sum(m for m, _ in want.values())


@pytest.mark.parametrize("size", [1] + SIZES)
def test_scripted_exchange_virtual_times(size):
    runs = (ThreadComm.run(size, _run, None) if size > 1
            else [_run(SerialComm(), None)])
    want = expected_clocks(size)
    for r, (times, summary) in enumerate(runs):
        np.testing.assert_allclose(times, want[r], rtol=1e-12, atol=0)
        assert summary["virtual_time"] == times[-1]
        parts = summary["compute"] + summary["communication"] + summary["wait"]
        assert parts == pytest.approx(times[-1], rel=1e-12)
        assert summary["compute"] == pytest.approx((r + 1 + 2 * (size - r) + 1.5) * US)
        assert min(summary["communication"], summary["wait"]) >= 0
        _check_bytes(size, r, summary)


def _report(comm):
    fake = FakeClock()
    wrapped = EmulatedComm(comm, NET, clock=fake)
    script(wrapped, fake)
    return network_report(wrapped)


def test_network_report():
    """The run document's part: every rank's totals and the operations' sums over ranks."""
    runs = ThreadComm.run(4, _run, None)
    reports = ThreadComm.run(4, _report)
    assert all(rep == reports[0] for rep in reports)
    rep = reports[0]
    assert rep["network"] == str(NET)
    assert rep["virtual_time"] == max(s["virtual_time"] for _, s in runs)
    for key in ("virtual_time", "compute", "communication", "wait", "bytes", "messages"):
        assert rep["per_rank"][key] == [s[key] for _, s in runs]
    assert rep["ops"]["alltoallv"]["bytes"] == sum(s["ops"]["alltoallv"]["bytes"]
                                                   for _, s in runs)


def test_packets_to_one_peer_follow_each_other():
    """Two packets back to back on one link: the second leaves when the first has left."""
    def body(comm):
        fake = FakeClock()
        e = EmulatedComm(comm, NET, clock=fake)
        if comm.rank == 0:
            reqs = [e.isend(np.zeros(n, dtype=np.uint8), 1) for n in (500, 300)]
            for q in reqs:
                q.wait()  # the second's bytes have left at 800 ns
            return e.virtual_time()
        fake.t = 0.2 * US
        times = []
        for _ in range(2):
            e.recv_packet()
            times.append(e.virtual_time())
        return times

    sender, receiver = ThreadComm.run(2, body)
    assert sender == pytest.approx(0.8 * US, rel=1e-12)
    assert receiver == pytest.approx([1.5 * US, 1.8 * US], rel=1e-12)


def test_a_poll_takes_only_packets_that_have_arrived():
    """Rank 0 sends 500 then 300 bytes to rank 2 at 0 (arriving at 1.5 and 1.8 us), rank 1
    sends 100 bytes at 0.1 us (arriving at 1.2 us) after them in real time. Rank 2 polls at
    1.0 us (nothing yet), then at 1.6 us: rank 1's packet, then rank 0's first, never
    blocked; the blocking receive waits 0.2 us for the last, all of it communication."""
    def body(comm):
        fake = FakeClock()
        e = EmulatedComm(comm, NET, clock=fake)
        if comm.rank == 0:
            reqs = [e.isend(np.full(n, 0, dtype=np.uint8), 2) for n in (500, 300)]
        comm.barrier()  # real order: rank 0's packets first
        if comm.rank == 1:
            fake.t = 0.1 * US
            reqs = [e.isend(np.full(100, 1, dtype=np.uint8), 2)]
        comm.barrier()
        if comm.rank != 2:
            for q in reqs:
                q.wait()
            return None
        fake.t = 1.0 * US
        got = [e.recv_packet(block=False)]
        fake.t = 1.6 * US
        got += [e.recv_packet(block=False) for _ in range(3)]
        after_polls = e.summary()
        got.append(e.recv_packet())
        return got, after_polls, e.summary()

    got, polled, end = ThreadComm.run(3, body)[2]
    assert got[0] is None and got[3] is None
    assert [(s, p.shape[0]) for s, p in got[1:3] + got[4:]] == [(1, 100), (0, 500), (0, 300)]
    assert (polled["virtual_time"], polled["communication"], polled["wait"]) == \
        pytest.approx((1.6 * US, 0.0, 0.0), abs=1e-15)
    assert (end["virtual_time"], end["communication"], end["wait"]) == \
        pytest.approx((1.8 * US, 0.2 * US, 0.0), rel=1e-9, abs=1e-15)


# ---- the distributed BFS under the wrapper ------------------------------------------------------

SCALE = 10
ROOTS = (2, 3, 7)


def _bfs(comm, network, algorithm, prune, pipeline=False):
    """Searches from ROOTS (on ``network`` when given; top-down levels ``pipeline``d or all
    at once): per root (parent, levels, bytes sent by each operation), the rank's totals."""
    numba.set_num_threads(1)  # thread_time sees the rank's kernels on its own thread
    wrap = network is not None
    if wrap:
        comm = EmulatedComm(comm, network)
    graph = build_dist(comm, generate_local(comm, SCALE), compact_columns=prune == "bitmap")
    searcher = DistSearcher(comm, graph, prune, algorithm, pipeline=pipeline)
    out = []
    for root in ROOTS:
        before = comm.summary()["ops"] if wrap else {}
        res = searcher.search(root)
        after = comm.summary()["ops"] if wrap else {}
        sent = {op: after[op]["bytes"] - before.get(op, {"bytes": 0})["bytes"] for op in after}
        out.append((res.parent, res.levels, sent))
    return out, comm.summary() if wrap else None


@pytest.mark.parametrize("algorithm,prune", [("direction-optimizing", "sort-unique"),
                                             ("topdown-queue", "none")])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("pipeline", [False, True])
def test_bfs_under_the_wrapper(size, algorithm, prune, pipeline):
    network = parse_network("latency=2us,bandwidth=10GB/s")
    plain = ThreadComm.run(size, _bfs, None, algorithm, prune)
    wrapped = ThreadComm.run(size, _bfs, network, algorithm, prune, pipeline)
    for r in range(size):
        _check_bfs(size, algorithm, plain[r][0], wrapped[r][0], pipeline)
        summary = wrapped[r][1]
        assert summary["compute"] > 0 and summary["communication"] > 0
        assert summary["virtual_time"] == pytest.approx(
            summary["compute"] + summary["communication"] + summary["wait"], rel=1e-9)


@pytest.mark.parametrize("prune", ["sort-unique", "none", "bitmap"])
@pytest.mark.parametrize("pipeline_rows", [0, 4, 1 << 30])
def test_pipelined_blocks_claimed_as_they_arrive(monkeypatch, prune, pipeline_rows):
    """With ``--pipeline``, every top-down level pruned and sent block by block
    (PIPELINE_ROWS 0), those of large frontiers only (4) or none (a huge PIPELINE_ROWS: each
    level pruned whole, then sent), the blocks claimed in the order their packets arrive on
    a network where each rank's packets leave at different times: the parents, rows and
    bytes of the plain all-at-once run, copies among the rows (prune none) included."""
    monkeypatch.setattr(search1d, "PIPELINE_ROWS", pipeline_rows)
    calls = {"_pipelined": 0, "_split": 0}  # every pipelined level; those sent in blocks
    for name in calls:
        def counted(self, *args, _name=name, _method=getattr(DistSearcher, name)):
            calls[_name] += 1
            return _method(self, *args)
        monkeypatch.setattr(DistSearcher, name, counted)
    network = parse_network("latency=3us,bandwidth=0.1GB/s")
    plain = ThreadComm.run(8, _bfs, None, "topdown-queue", prune)
    wrapped = ThreadComm.run(8, _bfs, network, "topdown-queue", prune, True)
    for r in range(8):
        _check_bfs(8, "topdown-queue", plain[r][0], wrapped[r][0], True)
    levels, blocks = calls["_pipelined"], calls["_split"]
    assert levels > 0 and (blocks > 0) == (pipeline_rows < 1 << 30)
    assert (blocks == levels) == (pipeline_rows == 0)


def _check_bfs(size, algorithm, plain, wrapped, pipeline=False):
    """One rank's searches: the plain (all at once) run's parents and, per level, the same
    rows pruned, kept, sent and received; the bytes model's bytes, exactly (a pipelined
    level's rows go as packets, with no counts exchange)."""
    rounds = (size - 1).bit_length()
    for (parent, blocking, _), (got, levels, sent) in zip(plain, wrapped):
        np.testing.assert_array_equal(got, parent)
        for name in ("direction", "queue", "nlf", "nlf_pruned", "local", "sent", "sent_bytes",
                     "received", "enqueued_local", "enqueued_received"):
            np.testing.assert_array_equal(levels[name], blocking[name])
        assert len(levels["direction"]) > 1  # the root has neighbours
        topdown = int((levels["direction"] == 0).sum())
        rows = "isend" if pipeline else "alltoallv"
        assert sent.get(rows, 0) + sent.get("allgather", 0) == levels["sent_bytes"].sum()
        assert sent.get("alltoallv counts", 0) == (0 if pipeline else 8 * (size - 1) * topdown)
        # the termination's two int64 per level (and the root's degree, with Beamer)
        first = 8 * rounds if algorithm == "direction-optimizing" else 0
        assert sent["allreduce"] == 16 * rounds * len(levels["direction"]) + first


def _bfs_2d(comm, wrap, algorithm, roots, pipeline=False):
    numba.set_num_threads(1)
    if wrap:
        comm = EmulatedComm(comm, NET)
    grid = Grid2D(1 << SCALE, 2, 2, comm.rank)
    row_comm, col_comm = mesh_comms(comm, grid)
    graph = build_2d(comm, grid, generate_local(comm, SCALE), row_comm, col_comm,
                     transpose=algorithm == "direction-optimizing")
    searcher = Searcher2D(comm, graph, row_comm, col_comm, algorithm, pipeline=pipeline)
    out = []
    for root in roots:
        before = comm.summary()["ops"].get("isend", {"bytes": 0})["bytes"] if wrap else 0
        res = searcher.search(root)
        after = comm.summary()["ops"].get("isend", {"bytes": 0})["bytes"] if wrap else 0
        out.append((res.parent, res.levels, after - before, searcher.done.nbytes))
    return out


@pytest.mark.parametrize("pipeline", [False, True])
@pytest.mark.parametrize("algorithm", ["topdown-queue", "direction-optimizing"])
def test_2d_search_under_the_wrapper(algorithm, pipeline):
    """Sub-communicators and packets, the fold after the scan or overlapped with it: valid
    trees reaching what the plain run reaches; the packets' bytes are the fold's (its
    rotation's bitmaps besides, bottom-up)."""
    edges = kronecker(SCALE)
    plain = ThreadComm.run(4, _bfs_2d, False, algorithm, ROOTS, pipeline)
    wrapped = ThreadComm.run(4, _bfs_2d, True, algorithm, ROOTS, pipeline)
    for t, root in enumerate(ROOTS):
        parents = []
        for run in (plain, wrapped):
            parent = np.empty(1 << SCALE, dtype=np.int64)
            for p in range(4):
                parent[p::4] = run[p][t][0]
            assert validate(edges, parent, root).valid
            parents.append(parent)
        assert ((parents[0] >= 0) == (parents[1] >= 0)).all()
        for p in range(4):
            _, levels, sent, bitmap = wrapped[p][t]
            # 2 processor-columns: one bitmap passed per bottom-up level
            assert sent == levels["fold_bytes"].sum() + bitmap * levels["direction"].sum()


# ---- under mpiexec ---------------------------------------------------------------------------

HERE = os.path.dirname(os.path.abspath(__file__))


def mpi_main(out_path):
    """Run by ``test_under_mpiexec`` on every rank: the script and a BFS on the
    communicator ``PYGRAPH500_NETWORK`` wraps."""
    from pygraph500.distributed import world

    fake = FakeClock()
    comm = emulated(world(force=True), clock=fake)
    assert isinstance(comm, EmulatedComm) and comm.network == NET
    times, summary = script(comm, fake)
    plain = _bfs(comm.inner, None, "direction-optimizing", "sort-unique")[0]
    wrapped = _bfs(comm.inner, NET, "direction-optimizing", "sort-unique")[0]
    _check_bfs(comm.size, "direction-optimizing", plain, wrapped)  # raises on a difference
    every = comm.inner.allgather((times, summary))
    if comm.rank == 0:
        with open(out_path, "w") as f:
            json.dump(every, f)


@pytest.mark.mpi
def test_under_mpiexec(tmp_path):
    pytest.importorskip("mpi4py")
    sys.path.insert(0, os.path.join(HERE, "mpi"))
    from test_mpi import MPIEXEC, _env

    out = tmp_path / "out.json"
    code = f"import sys; sys.path.insert(0, {HERE!r}); import test_network; " \
           f"test_network.mpi_main({str(out)!r})"
    env = _env(**{NETWORK_VARIABLE: "latency=1us,bandwidth=1GB/s"})
    p = subprocess.run([MPIEXEC, "-n", "2", sys.executable, "-c", code], capture_output=True,
                       text=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    every = json.loads(out.read_text())
    want = expected_clocks(2)
    for r, (times, summary) in enumerate(every):
        np.testing.assert_allclose(times, want[r], rtol=1e-12, atol=0)
        _check_bytes(2, r, summary)


# ---- the run ------------------------------------------------------------------------------------

def test_a_run_on_an_emulated_network(tmp_path, capsys):
    """`graph500 run --network`: the distributed engine (even in one process), each search's
    emulated time in the JSON, a NOTE beside the measured time; a bad spec is one line."""
    from pygraph500 import cli

    out = tmp_path / "r.json"
    spec = "latency=5us,bandwidth=1GB/s"
    assert cli.main(["run", "--scale", "9", "--roots", "4", "--threads", "1", "--network",
                     spec, "--pipeline", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    net = doc["distributed"]["network"]
    assert doc["distributed"]["pipeline"] is True
    assert doc["parameters"]["num_mpi_processes"] == 1 and doc["valid"]
    assert net["network"] == str(parse_network(spec))
    times = net["search_times"]["bfs"]
    assert len(times) == 4 and all(0 < t <= net["virtual_time"] for t in times)
    note = [ln for ln in capsys.readouterr().out.splitlines() if "emulated network" in ln]
    assert len(note) == 1 and note[0].startswith(f"# NOTE: emulated network {net['network']}")
    assert cli.main(["run", "--scale", "9", "--network", "latency=2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["graph500: error: --network: 'latency=2': '2' is not a number with a unit "
                   "(e.g. 2us, 10GB/s)"]
