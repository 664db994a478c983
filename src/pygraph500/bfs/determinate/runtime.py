"""A spawn/join task runtime on threads (the Fresh Breeze tasking model, paper 003 section
2.2), compiled with numba so that a task costs tens of nanoseconds, not a Python call.

A *task* is a row of ``task``: (function, five arguments, the join it contributes to, its
slot there, its context). A *join* (``CreateJoin``) is a row of ``join``: a join chunk in
the chunk store that collects the workers' results, the number still to come, the
continuation function, and where the continuation's own result goes. ``join_update``
(``JoinUpdate``) writes a result into its slot; the last one spawns the continuation with
the join chunk as its argument (``JoinFetch``). The master does not wait: a task spawns and
quits, as in the paper.

Workers: W threads each run ``_worker`` (``nogil``) over per-worker deques guarded by spin
locks: the owner pushes and pops at the tail (depth first: few ready tasks, hot chunks),
thieves take from the head (the oldest, usually the largest subtree). ``pending`` counts
tasks spawned and not finished; a worker leaves when it reaches 0. In the *randomised*
schedule (a test mode) every worker pops a random ready task and steals from a random
victim, driven by its own seeded generator: with W = 1 that is a random interleaving of the
ready tasks; with more, thread timing adds its own.

Every array is sized by the caller; running out sets a bit of ``ctr[FLAG]`` and the workers
leave at once (the caller grows the arrays and starts the search again: its inputs are
write-once, so nothing is lost but time).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...primitives import cas, fence, fetch_add, fetch_or
from .chunks import SLOTS, UNDEF

__all__ = ["TASK_COLUMNS", "JOIN_COLUMNS", "CTR_SIZE", "MTOP", "TTOP", "JTOP", "PENDING", "FLAG",
           "RESULT", "DQ_STRIDE", "OUT_OF_CHUNKS", "OUT_OF_TASKS", "OUT_OF_JOINS",
           "OUT_OF_DEQUE"]

# task columns
T_FN, T_A0, T_A1, T_A2, T_A3, T_A4, T_JOIN, T_SLOT, T_CTX = range(9)
TASK_COLUMNS = 9
# join columns
J_CHUNK, J_LEFT, J_CONT, J_DJOIN, J_DSLOT, J_CTX, J_ARG = range(7)
JOIN_COLUMNS = 8
# ctr: shared counters, each on its own cache line
MTOP, TTOP, JTOP, PENDING, FLAG, RESULT = 0, 8, 16, 24, 32, 40
CTR_SIZE = 48
OUT_OF_CHUNKS, OUT_OF_TASKS, OUT_OF_JOINS, OUT_OF_DEQUE = 1, 2, 4, 8
# dqs: per worker (head, tail, lock) on its own cache line
DQ_STRIDE = 8
_HEAD, _TAIL, _LOCK = 0, 1, 2


@njit(inline="always")
def _random(rng, me):
    """xorshift64 step of worker ``me``'s generator."""
    x = rng[me, 0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[me, 0] = x
    return x


@njit(inline="always")
def _lock(dqs, w):
    while not cas(dqs, w * DQ_STRIDE + _LOCK, 0, 1):
        pass
    fence()


@njit(inline="always")
def _try_lock(dqs, w):
    if cas(dqs, w * DQ_STRIDE + _LOCK, 0, 1):
        fence()
        return True
    return False


@njit(inline="always")
def _unlock(dqs, w):
    fence()
    cas(dqs, w * DQ_STRIDE + _LOCK, 1, 0)


@njit(inline="always")
def alloc_chunk(mem, ctr):
    """A new chunk, every slot UNDEF; UNDEF (and the flag set) when the store is full."""
    h = fetch_add(ctr, MTOP, 1)
    if h >= mem.shape[0]:
        fetch_or(ctr, FLAG, OUT_OF_CHUNKS)
        return UNDEF
    for j in range(SLOTS):
        mem[h, j] = UNDEF
    return h


@njit(inline="always")
def _push(dq, dqs, me, t, ctr):
    cap = dq.shape[1]
    _lock(dqs, me)
    head = dqs[me * DQ_STRIDE + _HEAD]
    tail = dqs[me * DQ_STRIDE + _TAIL]
    ok = tail - head < cap
    if ok:
        dq[me, tail & (cap - 1)] = t
        dqs[me * DQ_STRIDE + _TAIL] = tail + 1
    _unlock(dqs, me)
    if not ok:
        fetch_or(ctr, FLAG, OUT_OF_DEQUE)
    return ok


@njit(inline="always")
def take(dq, dqs, me, rng, randomised):
    """The owner's next task (the newest; a random one when ``randomised``), or -1."""
    cap = dq.shape[1]
    t = -1
    _lock(dqs, me)
    head = dqs[me * DQ_STRIDE + _HEAD]
    tail = dqs[me * DQ_STRIDE + _TAIL]
    if tail > head:
        last = (tail - 1) & (cap - 1)
        if randomised:
            r = (head + np.int64(_random(rng, me) % np.uint64(tail - head))) & (cap - 1)
            x = dq[me, r]
            dq[me, r] = dq[me, last]
            dq[me, last] = x
        t = dq[me, last]
        dqs[me * DQ_STRIDE + _TAIL] = tail - 1
    _unlock(dqs, me)
    return t


@njit(inline="always")
def steal(dq, dqs, me, nworkers, rng, randomised):
    """The oldest task of another worker (victims in turn from ``me + 1``, or from a random
    one), or -1. A busy victim's lock is not waited for."""
    cap = dq.shape[1]
    start = me + 1
    if randomised:
        start = np.int64(_random(rng, me) % np.uint64(nworkers))
    for k in range(nworkers):
        v = (start + k) % nworkers
        if v == me or not _try_lock(dqs, v):
            continue
        t = -1
        head = dqs[v * DQ_STRIDE + _HEAD]
        if dqs[v * DQ_STRIDE + _TAIL] > head:
            t = dq[v, head & (cap - 1)]
            dqs[v * DQ_STRIDE + _HEAD] = head + 1
        _unlock(dqs, v)
        if t >= 0:
            return t
    return -1


@njit(inline="always")
def spawn(task, ctr, dq, dqs, me, fn, a0, a1, a2, a3, a4, jn, slot, ctx):
    """Spawn(slot, fn(a0..a4)) contributing to join ``jn``; False when out of room."""
    t = fetch_add(ctr, TTOP, 1)
    if t >= task.shape[0]:
        fetch_or(ctr, FLAG, OUT_OF_TASKS)
        return False
    task[t, T_FN] = fn
    task[t, T_A0] = a0
    task[t, T_A1] = a1
    task[t, T_A2] = a2
    task[t, T_A3] = a3
    task[t, T_A4] = a4
    task[t, T_JOIN] = jn
    task[t, T_SLOT] = slot
    task[t, T_CTX] = ctx
    fetch_add(ctr, PENDING, 1)
    fence()  # the record is complete before its id is visible
    return _push(dq, dqs, me, t, ctr)


@njit(inline="always")
def create_join(mem, join, ctr, count, cont, djoin, dslot, ctx, arg):
    """CreateJoin(count, cont): a join chunk for ``count`` results; the continuation's own
    result goes to slot ``dslot`` of join ``djoin``. Returns the join's id, or -1."""
    j = fetch_add(ctr, JTOP, 1)
    if j >= join.shape[0]:
        fetch_or(ctr, FLAG, OUT_OF_JOINS)
        return -1
    c = alloc_chunk(mem, ctr)
    if c == UNDEF:
        return -1
    join[j, J_CHUNK] = c
    join[j, J_LEFT] = count
    join[j, J_CONT] = cont
    join[j, J_DJOIN] = djoin
    join[j, J_DSLOT] = dslot
    join[j, J_CTX] = ctx
    join[j, J_ARG] = arg
    fence()
    return j


@njit(inline="always")
def join_update(mem, task, join, ctr, dq, dqs, me, jn, slot, value):
    """JoinUpdate(value) into slot ``slot`` of join ``jn``; the last contribution spawns
    the continuation (its arguments: the join chunk, the join's argument)."""
    mem[join[jn, J_CHUNK], slot] = value
    fence()  # the result is in place before the count says so
    if fetch_add(join, (jn, J_LEFT), -1) == 1:
        fence()
        spawn(task, ctr, dq, dqs, me, join[jn, J_CONT], join[jn, J_CHUNK], join[jn, J_ARG],
              0, 0, 0, join[jn, J_DJOIN], join[jn, J_DSLOT], join[jn, J_CTX])
