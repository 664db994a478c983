"""An emulated network under any communicator: what a run on this box would take on another
network, at the same P.

``Network`` is the network's description, parsed from ``latency=2us,bandwidth=10GB/s
[,topology=full][,compute=cpu]`` (``parse_network``; the variable ``PYGRAPH500_NETWORK``
holds one, ``network_from_environment``). ``EmulatedComm(inner, network)`` forwards every call
of the ``Comm`` contract to ``inner`` (SerialComm, ThreadComm, MPIComm: the results are the
real ones) and keeps this rank's virtual clock beside it; ``emulated(comm)`` wraps a
communicator when the variable is set and returns it unchanged, at no cost, when it is not.

The virtual clock of a rank is compute + communication + wait:

- **compute** is measured: the rank's CPU seconds between two communication calls. A rank on
  a thread other than the main one (``ThreadComm``: P ranks in one process) reads
  ``time.thread_time``, a rank alone in its process (MPI, SerialComm) ``time.process_time``:
  CPU seconds, not wall seconds, so a rank that waits for a core (64 ranks on 2 cores) is not
  charged for the wait. Both assume a rank computes on one thread (the default of ``mpiexec
  -n P`` with P at least the cores; ``numba.set_num_threads(1)`` in a rank thread): numba's
  worker threads are missed by the first and added up by the second. ``compute=wall`` reads
  ``time.perf_counter`` instead, for ranks with cores of their own or with a GPU (whose
  kernels no CPU clock sees). The seconds inside the wrapped calls (the real exchange, the
  clock exchange below) are not compute: the clock is read on entering and on leaving.
- **communication** is modelled: a message of n bytes costs ``latency + n / bandwidth`` on
  its link. Topology ``full``, the only one modelled: every pair of ranks has a link of its
  own, so messages to different peers travel at once and never share a link. The models
  below price every message by ``Network.cost(source, dest, nbytes)``: another topology
  (a ring, a 2D torus) is a ``cost`` that counts the hops between the two ranks, plus, where
  messages in flight together share a link, a booking of each link's busy time, which a full
  topology never needs and which is not built.
- **blocked** time follows from the messages' dependencies: a message arrives at the sender's
  clock when it was sent plus its cost; a rank's clock after receiving is the latest of its
  own and the arrivals, so an exchange started at t and waited for at t' >= t costs max(0,
  arrival - t'), what a non-blocking exchange overlapped with compute needs. It splits into
  **wait** and **communication** by a second clock beside the first, the rank's time on a
  free network (no latency, infinite bandwidth: ``FREE``), kept by the same models from
  the same compute: wait is what the rank would be blocked there too (for late peers), and
  communication what the network adds, the difference. Over a run the communication is the
  virtual time less the free network's; in one operation it can be below zero (a peer's
  lateness covers a delay the network caused the rank before).

The collectives are modelled as MPI libraries run them (not the best schedule on an ideal
network):

- ``alltoallv``: the counts (8 bytes to each peer, all at once), then one message to each
  peer with rows (none for a peer sent no rows), sent when the rank has every count; the own
  block never leaves.
- ``allreduce``, ``barrier``: dissemination, ceil(log2 P) rounds; in round k rank i receives
  from rank i + 2**k mod P the whole vector (nothing for a barrier). For P a power of two
  this is recursive doubling's log2 P rounds of ``latency + bytes / bandwidth``.
- ``allgather``, ``allgatherv``, ``split``: Bruck's allgather, the same rounds, round k
  carrying the min(2**k, P - 2**k) blocks the sender holds (each rank sends P - 1 blocks when
  they are equal). ``split`` is an allgather of (color, key): 16 bytes a rank.
- ``bcast``: a binomial tree from the root; a sender's messages leave one round apart.
- ``isend`` / ``recv_packet``: a packet leaves when its link is idle (one after another to
  one peer), arrives ``latency + n / bandwidth`` later (on the free network: when sent); a
  send's ``wait`` ends when its bytes have left. A message to oneself costs nothing. A
  receive takes the packet of the earliest arrival among those the real communicator has
  delivered; one that does not block (``block=False``, a poll, as MPI's Iprobe inside a
  computation) returns None while that arrival is still ahead of the rank's clock, so a rank
  that polls between two pieces of work never waits for a packet still on the wire:
  communication overlapped with compute costs only what is left of it when the rank blocks.

Bytes are a Python object's pickled size (what MPIComm sends), an array's bytes, 8 for a
number. To know when messages arrive, every collective first allgathers the ranks' clocks on
the real communicator, and every packet carries its two arrival times in 16 trailing bytes;
neither is counted nor timed. A sub-communicator (``split``) shares its rank's clock.
"""
from __future__ import annotations

import os
import pickle
import re
import threading
import time
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .comm import Comm, is_array, send_counts

__all__ = ["NETWORK_VARIABLE", "TOPOLOGIES", "COMPUTE_CLOCKS", "Network", "FREE",
           "parse_network", "network_from_environment", "emulated", "EmulatedComm",
           "RankClock", "virtual_time", "network_report", "rounds", "dissemination",
           "bruck_bytes", "binomial", "alltoallv_ready"]

NETWORK_VARIABLE = "PYGRAPH500_NETWORK"
TOPOLOGIES = ("full",)
COMPUTE_CLOCKS = ("cpu", "wall")
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
RATE_UNITS = {"B/s": 1.0, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9}
COUNT_BYTES = 8          # one alltoallv count
TRAILER = 16             # a packet's arrival times (the network's, the free one's), float64
_QUANTITY = re.compile(r"((?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(\S+)")


@dataclass(frozen=True)
class Network:
    """An emulated network: ``latency`` seconds and ``bandwidth`` bytes per second on every
    link, the ``topology`` of the links, and the clock that measures compute (``cpu``: the
    rank's CPU seconds, ``wall``: seconds of the wall clock)."""

    latency: float
    bandwidth: float
    topology: str = "full"
    compute: str = "cpu"

    def cost(self, source: int, dest: int, nbytes):
        """Seconds a message of ``nbytes`` takes from rank ``source`` to ``dest`` (a full
        topology: the same on every link; arrays of bytes give arrays of seconds)."""
        return self.latency + np.asarray(nbytes, dtype=np.float64) / self.bandwidth

    def __str__(self) -> str:
        return (f"latency={_shown(self.latency, TIME_UNITS)},"
                f"bandwidth={_shown(self.bandwidth, RATE_UNITS)},"
                f"topology={self.topology},compute={self.compute}")


# The free network: what a rank's time would be with no communication cost (``RankClock``).
FREE = Network(latency=0.0, bandwidth=float("inf"))


def _shown(value: float, units: dict) -> str:
    """``value`` in the largest of ``units`` it is at least one of (12 digits)."""
    unit = max((u for u, f in units.items() if value >= f), key=units.get,
               default=min(units, key=units.get))
    return f"{value / units[unit]:.12g}{unit}"


def _quantity(part: str, value: str, units: dict, source: str) -> float:
    """A number with one of ``units`` (InputError naming ``part`` otherwise)."""
    m = _QUANTITY.fullmatch(value)
    if m is None:
        raise InputError(f"{source}: {part!r}: {value!r} is not a number with a unit "
                         f"(e.g. 2us, 10GB/s)", source)
    if m.group(2) not in units:
        raise InputError(f"{source}: {part!r}: unknown unit {m.group(2)!r} (one of "
                         f"{', '.join(units)})", source)
    return float(m.group(1)) * units[m.group(2)]


def _setting(name: str, value: str, part: str, source: str):
    """The value of one ``name=value`` part."""
    if name == "latency":
        return _quantity(part, value, TIME_UNITS, source)
    if name == "bandwidth":
        rate = _quantity(part, value, RATE_UNITS, source)
        if rate <= 0:
            raise InputError(f"{source}: {part!r}: the bandwidth must be more than 0", source)
        return rate
    choices = TOPOLOGIES if name == "topology" else COMPUTE_CLOCKS
    if value not in choices:
        what = "is not modelled" if name == "topology" else "is not a clock"
        raise InputError(f"{source}: {part!r}: {name} {value!r} {what} (one of "
                         f"{', '.join(choices)})", source)
    return value


def parse_network(text: str, source: str = "--network") -> Network:
    """The Network of ``latency=2us,bandwidth=10GB/s[,topology=full][,compute=cpu|wall]``
    (time in ns, us, ms or s; rates in B/s, KB/s, MB/s or GB/s, powers of 1000). Bad text is
    an InputError that names ``source`` and the bad part."""
    settings: dict = {}
    for part in (p.strip() for p in text.split(",")):
        name, eq, value = (s.strip() for s in part.partition("="))
        if not eq or not name:
            raise InputError(f"{source}: {part!r}: expected name=value (latency=2us, "
                             f"bandwidth=10GB/s, topology=full, compute=cpu)", source)
        if name not in ("latency", "bandwidth", "topology", "compute"):
            raise InputError(f"{source}: {part!r}: unknown setting {name!r} (latency, "
                             f"bandwidth, topology, compute)", source)
        if name in settings:
            raise InputError(f"{source}: {part!r}: {name} given twice", source)
        settings[name] = _setting(name, value, part, source)
    for name, example in (("latency", "latency=2us"), ("bandwidth", "bandwidth=10GB/s")):
        if name not in settings:
            raise InputError(f"{source}: {text!r}: no {name} (e.g. {example})", source)
    return Network(**settings)


def network_from_environment() -> Network | None:
    """The Network of ``PYGRAPH500_NETWORK``; None when it is unset or empty."""
    text = os.environ.get(NETWORK_VARIABLE, "").strip()
    return parse_network(text, NETWORK_VARIABLE) if text else None


# ---- the models: every rank's time after a collective, from every rank's clock --------------

def rounds(size: int) -> int:
    """ceil(log2 size): the rounds of dissemination, Bruck's allgather, a binomial tree."""
    return (size - 1).bit_length()


def dissemination(clocks: np.ndarray, sent: list, net: Network) -> np.ndarray:
    """Every rank's time after dissemination rounds: in round k rank i receives ``sent[k][s]``
    bytes from s = i + 2**k mod P."""
    c = np.asarray(clocks, dtype=np.float64)
    ranks = np.arange(c.shape[0])
    for k, nbytes in enumerate(sent):
        s = (ranks + (1 << k)) % c.shape[0]
        c = np.maximum(c, c[s] + net.cost(s, ranks, np.asarray(nbytes)[s]))
    return c


def bruck_bytes(blocks) -> list:
    """Per round of Bruck's allgather, the bytes each rank sends: in round k rank s sends its
    blocks s .. s + m - 1 (mod P), m = min(2**k, P - 2**k); ``blocks``: every rank's bytes."""
    b = np.asarray(blocks, dtype=np.int64)
    p = b.shape[0]
    ends = np.concatenate(([0], np.cumsum(np.concatenate((b, b)))))
    ranks = np.arange(p)
    out = []
    for k in range(rounds(p)):
        m = min(1 << k, p - (1 << k))
        out.append(ends[ranks + m] - ends[ranks])
    return out


def binomial(clocks: np.ndarray, root: int, nbytes: int, net: Network) -> np.ndarray:
    """Every rank's time after a binomial-tree broadcast of ``nbytes`` from ``root``: the rank
    v places after the root (mod P) receives from v - 2**k in round k = floor(log2 v); a rank
    sends in each round after the one it received in, its messages one cost apart."""
    c = np.asarray(clocks, dtype=np.float64)
    p = c.shape[0]
    have = np.empty(p)
    have[0] = c[root]
    for v in range(1, p):
        k = v.bit_length() - 1
        parent = v - (1 << k)
        step = float(net.cost((parent + root) % p, (v + root) % p, nbytes))
        have[v] = max(c[(v + root) % p], have[parent] + (k - parent.bit_length() + 1) * step)
    return np.roll(have, root)


def alltoallv_ready(clocks: np.ndarray, me: int, recv_bytes: np.ndarray,
                    net: Network) -> float:
    """Rank ``me``'s time after an alltoallv: every rank has the counts when its last one
    arrives, then sends its rows; ``recv_bytes[j]``: the bytes rank j sends to ``me``."""
    c = np.asarray(clocks, dtype=np.float64)
    p = c.shape[0]
    if p == 1:
        return float(c[0])
    ranks = np.arange(p)
    counts = np.add.outer(c, np.zeros(p)) + net.cost(ranks[:, None], ranks, COUNT_BYTES)
    np.fill_diagonal(counts, -np.inf)  # [from, to]: when each count arrives
    counted = np.maximum(c, counts.max(axis=0))
    senders = np.flatnonzero((recv_bytes > 0) & (ranks != me))
    arrivals = counted[senders] + net.cost(senders, me, recv_bytes[senders])
    return float(max(counted[me], arrivals.max(initial=counted[me])))


# ---- one rank's clock and totals --------------------------------------------------------------

class RankClock:
    """A rank's virtual clock (``now``), its clock on the free network (``free``) and totals,
    shared by its communicator and those split from it. ``read``: the compute clock
    (seconds)."""

    def __init__(self, read):
        self.read = read
        self.mark = read()
        self.now = self.free = self.compute = self.communication = self.wait = 0.0
        # operation -> [calls, messages, bytes, seconds blocked, of them communication]
        self.ops: dict = {}

    def enter(self) -> float:
        """The clock now: the compute since the last call added."""
        t = self.read()
        dt = max(0.0, t - self.mark)
        self.mark = t
        self.now += dt
        self.free += dt
        self.compute += dt
        return self.now

    def leave(self) -> None:
        """Back to compute: what the call itself took is not compute."""
        self.mark = self.read()

    def count(self, op: str, messages: int, nbytes: int) -> None:
        row = self.ops.setdefault(op, [0, 0, 0, 0.0, 0.0])
        row[0] += 1
        row[1] += int(messages)
        row[2] += int(nbytes)

    def settle(self, op: str, ready: float, free_ready: float) -> None:
        """The rank waits for data ready at ``ready``, at ``free_ready`` on the free network:
        blocked max(0, ready - now); of it waiting what the free network's clock is blocked,
        the rest communication (see the module docstring)."""
        blocked = max(0.0, ready - self.now)
        waited = max(0.0, free_ready - self.free)
        comm = blocked - waited
        self.communication += comm
        self.wait += waited
        self.now += blocked
        self.free += waited
        row = self.ops.setdefault(op, [0, 0, 0, 0.0, 0.0])
        row[3] += blocked
        row[4] += comm

    def summary(self) -> dict:
        ops = {k: dict(zip(("calls", "messages", "bytes", "seconds", "communication"), v))
               for k, v in sorted(self.ops.items())}
        return {"virtual_time": self.now, "compute": self.compute,
                "communication": self.communication, "wait": self.wait,
                "bytes": sum(v["bytes"] for v in ops.values()),
                "messages": sum(v["messages"] for v in ops.values()), "ops": ops}


def default_clock(network: Network):
    """The compute clock of a rank made on this thread (see the module docstring)."""
    if network.compute == "wall":
        return time.perf_counter
    if threading.current_thread() is threading.main_thread():
        return time.process_time
    return time.thread_time


def _pickled(obj) -> int:
    return len(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def _row_bytes(a) -> int:
    """Bytes of one row of a host or device array."""
    return int(a.dtype.itemsize) * int(np.prod(a.shape[1:], dtype=np.int64))


class _Request:
    """A send in flight: its real request and when its bytes have left the sender (on the
    network, and on the free network: when it was sent)."""

    def __init__(self, comm: "EmulatedComm", req, done: float, free_done: float):
        self.comm, self.req, self.done, self.free_done = comm, req, done, free_done

    def wait(self) -> None:
        clock = self.comm.clock
        clock.enter()
        self.req.wait()
        clock.settle("isend", self.done, self.free_done)
        clock.leave()


class EmulatedComm(Comm):
    """``inner`` with this rank's virtual clock on ``network`` (see the module docstring):
    every call forwarded, its results the real ones. ``clock``: the compute clock (a function
    returning seconds; default by ``network.compute`` and the rank's thread), or a RankClock
    to share (a split). ``virtual_time()`` is the rank's clock, ``summary()`` its totals."""

    def __init__(self, inner: Comm, network: Network, clock=None):
        self.inner, self.network = inner, network
        self.rank, self.size = inner.rank, inner.size
        self.local_rank, self.local_size = inner.local_rank, inner.local_size
        self.library = inner.library
        if not isinstance(clock, RankClock):
            clock = RankClock(clock or default_clock(network))
        self.clock = clock
        self._links: dict = {}  # peer -> when the link to it is idle (packets)
        # (arrival, order received, tag, source, body, free network arrival): not yet read
        self._held: list = []
        self._received = 0

    def virtual_time(self) -> float:
        """This rank's virtual clock now (seconds since the communicator was wrapped)."""
        t = self.clock.enter()
        self.clock.leave()
        return t

    def summary(self) -> dict:
        """This rank's totals: virtual_time, compute, communication, wait (seconds), bytes
        and messages sent, and per operation its calls, messages, bytes, seconds blocked and
        the communication among them (the rest: waiting for late peers)."""
        self.virtual_time()
        return self.clock.summary()

    def _clocks(self, t: float) -> np.ndarray:
        """Every rank's clock and free network clock, (2, P) (the real communicator's
        allgather, not counted)."""
        pair = np.array([t, self.clock.free])
        return np.asarray(self.inner.allgather(pair)).reshape(-1, 2).T

    def _finish(self, op: str, clocks: np.ndarray, model) -> None:
        """Settle a collective: ``model(clocks, network)`` is this rank's time after it, on
        the network and (with the free clocks) on the free one."""
        self.clock.settle(op, model(clocks[0], self.network), model(clocks[1], FREE))
        self.clock.leave()

    def _rounds(self, op: str, clocks: np.ndarray, sent: list) -> None:
        """A dissemination-pattern collective: ``sent[k]`` the bytes of each rank in round k."""
        me = self.rank
        self.clock.count(op, len(sent), sum(int(s[me]) for s in sent))
        self._finish(op, clocks, lambda c, net: dissemination(c, sent, net)[me])

    def alltoallv(self, send, sendcounts, out=None, displs=None):
        t = self.clock.enter()
        clocks = self._clocks(t)
        recv, rc = self.inner.alltoallv(send, sendcounts, out=out, displs=displs)
        row, me, p = _row_bytes(send), self.rank, self.size
        sc = send_counts(sendcounts, p).copy()
        sc[me] = 0
        recv_bytes = np.asarray(rc, dtype=np.int64) * row
        recv_bytes[me] = 0
        self.clock.count("alltoallv counts", p - 1, COUNT_BYTES * (p - 1))
        self.clock.count("alltoallv", np.count_nonzero(sc), int(sc.sum()) * row)
        self._finish("alltoallv", clocks, lambda c, net: alltoallv_ready(c, me, recv_bytes, net))
        return recv, rc

    def _gathered(self, op: str, clocks: np.ndarray, blocks) -> None:
        self._rounds(op, clocks, bruck_bytes(blocks))

    def allgather(self, obj):
        t = self.clock.enter()
        clocks = self._clocks(t)
        out = self.inner.allgather(obj)
        blocks = ([int(obj.nbytes)] * self.size if is_array(obj)
                  else [_pickled(o) for o in out])
        self._gathered("allgather", clocks, blocks)
        return out

    def allgatherv(self, array):
        t = self.clock.enter()
        clocks = self._clocks(t)
        out, counts = self.inner.allgatherv(array)
        self._gathered("allgatherv", clocks, np.asarray(counts) * _row_bytes(out))
        return out, counts

    def allreduce(self, value, op="sum"):
        t = self.clock.enter()
        clocks = self._clocks(t)
        out = self.inner.allreduce(value, op)
        n = int(value.nbytes) if is_array(value) else 8
        self._rounds("allreduce", clocks, [np.full(self.size, n)] * rounds(self.size))
        return out

    def barrier(self):
        t = self.clock.enter()
        clocks = self._clocks(t)
        self.inner.barrier()
        self._rounds("barrier", clocks, [np.zeros(self.size, np.int64)] * rounds(self.size))

    def bcast(self, obj, root=0):
        t = self.clock.enter()
        clocks = self._clocks(t)
        out = self.inner.bcast(obj, root)
        n, p = _pickled(out), self.size
        v = (self.rank - root) % p
        children = sum(1 for k in range(v.bit_length(), rounds(p)) if v + (1 << k) < p)
        self.clock.count("bcast", children, children * n)
        self._finish("bcast", clocks, lambda c, net: binomial(c, root, n, net)[self.rank])
        return out

    def split(self, color, key=0):
        t = self.clock.enter()
        clocks = self._clocks(t)
        sub = self.inner.split(color, key)
        self._gathered("split", clocks, [16] * self.size)
        return EmulatedComm(sub, self.network, self.clock)

    def abort(self, code=1):
        return self.inner.abort(code)

    def isend(self, packet, dest, tag=0):
        t = self.clock.enter()
        body = np.ascontiguousarray(packet, dtype=np.uint8).reshape(-1)
        dest, n = int(dest), int(body.shape[0])
        done = arrival = t  # a packet to oneself never leaves
        if dest != self.rank:
            start = max(t, self._links.get(dest, t))  # after the packets before it
            done = self._links[dest] = start + n / self.network.bandwidth
            arrival = float(start + self.network.cost(self.rank, dest, n))
            self.clock.count("isend", 1, n)
        free = self.clock.free
        wire = np.concatenate((body, np.array([arrival, free], dtype=np.float64).view(np.uint8)))
        req = self.inner.isend(wire, dest, tag)
        self.clock.leave()
        return _Request(self, req, done, free)

    def recv_packet(self, tag=0, block=True):
        t = self.clock.enter()
        while (got := self.inner.recv_packet(tag, False)) is not None:
            self._hold(tag, *got)
        mine = [h for h in self._held if h[2] == tag]
        first = min(mine, default=None)
        if first is None and block:
            self._hold(tag, *self.inner.recv_packet(tag, True))
            first = self._held[-1]
        if first is None or (not block and first[0] > t):  # none here yet, virtually
            self.clock.leave()
            return None
        self._held.remove(first)
        arrival, _, _, source, body, free_arrival = first
        self.clock.count("recv_packet", 0, 0)
        self.clock.settle("recv_packet", arrival, free_arrival)
        self.clock.leave()
        return source, body

    def _hold(self, tag: int, source: int, wire: np.ndarray) -> None:
        """Keep a packet the real communicator delivered until its virtual arrival (the
        times in its last bytes: on the network, on the free network); the order received
        breaks ties (one source's packets arrive in the order sent)."""
        arrival, free = np.frombuffer(wire[-TRAILER:].tobytes(), dtype=np.float64).tolist()
        self._held.append((arrival, self._received, tag, source, wire[:-TRAILER], free))
        self._received += 1


def emulated(comm, network: Network | None = None, clock=None):
    """``comm`` on ``network`` (default: ``PYGRAPH500_NETWORK``); ``comm`` itself when no
    network is given nor set, or when it is None (an embedded run)."""
    if comm is None or isinstance(comm, EmulatedComm):
        return comm
    network = network or network_from_environment()
    return comm if network is None else EmulatedComm(comm, network, clock)


def virtual_time(comm) -> float | None:
    """The rank's virtual clock on an emulated network; None on a plain communicator."""
    return comm.virtual_time() if isinstance(comm, EmulatedComm) else None


def network_report(comm) -> dict | None:
    """What a run's document says of its emulated network (collective, on the real
    communicator: not counted): the network, the slowest rank's virtual time, every rank's
    totals (``per_rank``: lists by rank) and the totals per operation over the ranks. None on
    a plain communicator."""
    if not isinstance(comm, EmulatedComm):
        return None
    every = comm.inner.allgather(comm.summary())
    ops: dict = {}
    for s in every:
        for op, row in s["ops"].items():
            total = ops.setdefault(op, dict.fromkeys(row, 0))
            for k, v in row.items():
                total[k] += v
    keys = ("virtual_time", "compute", "communication", "wait", "bytes", "messages")
    return {"network": str(comm.network), "virtual_time": max(s["virtual_time"] for s in every),
            "per_rank": {k: [s[k] for s in every] for k in keys}, "ops": ops}
