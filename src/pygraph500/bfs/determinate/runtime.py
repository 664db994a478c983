"""A spawn/join task runtime on threads (the Fresh Breeze tasking model, paper 003 section
2.2), compiled with numba so that a task costs a few hundred nanoseconds, not a Python call.

A *task* is a row of ``task``: (function, five arguments, the join it contributes to, its
slot there, its context). A *join* (``CreateJoin``) is a row of ``join``: a join chunk in
the chunk store that collects the workers' results, the number still to come, the
continuation function, and where the continuation's own result goes. ``join_update``
(``JoinUpdate``) writes a result into its slot; the last one spawns the continuation with
the join chunk as its argument (``JoinFetch``). The master does not wait: a task spawns and
quits, as in the paper. Every task contributes exactly once, as its last act, so a level's
task trees are finished when their root joins' continuations have run: the caller's
``Finish`` tasks count themselves in ``ctr[DONE]`` and the workers stop there.

Workers: W threads each run the worker loop (``tasks.work``, ``nogil``) over per-worker
deques guarded by spin locks (taken with an acquiring compare-and-swap, released with a
releasing store: what a task record or a join chunk holds is seen by whoever takes it). The
owner pushes and pops at the tail (depth first: few ready tasks, hot chunks), thieves take
from the head (the oldest, usually the largest subtree). In the *randomised* schedule (a
test mode) every worker pops a random ready task and steals from a random victim, drawn
from its own seeded generator: with W = 1 a random interleaving of the ready tasks; with
more, thread timing adds its own.

Rows of ``task``, ``join`` and chunks are handed to each worker in blocks of ``BLOCK`` (one
shared counter update per block, not per row). Running out of any array sets a bit of
``ctr[FLAG]`` and the workers leave at once; the caller grows the arrays and starts the
search again (its inputs are write-once, so nothing is lost but time).

A task is spawned from its row as a tuple, a join created from its row (``spawn``,
``create_join``); the worker loop (``tasks.work``) takes the arrays as one record, ``rt``:
(mem, task, join, ctr, dq, ws), mem being the chunk store. The helpers a task calls take
the arrays themselves: a record unpacked in each would add reference counting to every
call (7 % of a search).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...primitives import cas_acquire, fetch_add, fetch_add_acq_rel, fetch_or, store_release
from .chunk_trees import SLOTS, UNDEF

__all__ = ["TASK_COLUMNS", "JOIN_COLUMNS", "CTR_SIZE", "MTOP", "TTOP", "JTOP", "DONE", "FLAG",
           "RESULT", "WS_STRIDE", "OUT_OF_CHUNKS", "OUT_OF_TASKS", "OUT_OF_JOINS",
           "OUT_OF_DEQUE", "alloc_chunk", "take", "steal", "spawn", "create_join",
           "join_update"]

# task columns
T_FN, T_A0, T_A1, T_A2, T_A3, T_A4, T_JOIN, T_SLOT, T_CTX = range(9)
TASK_COLUMNS = 9
# join columns
J_CHUNK, J_LEFT, J_CONT, J_DJOIN, J_DSLOT, J_CTX, J_ARG = range(7)
JOIN_COLUMNS = 8
# ctr: shared counters, each on its own cache line
MTOP, TTOP, JTOP, DONE, FLAG, RESULT = 0, 8, 16, 24, 32, 40
CTR_SIZE = 48
OUT_OF_CHUNKS, OUT_OF_TASKS, OUT_OF_JOINS, OUT_OF_DEQUE = 1, 2, 4, 8
# ws: per worker, its deque's (head, tail, lock) on one cache line (thieves touch it) and its
# own allocation blocks (next, end) for tasks, chunks and joins on the next
WS_STRIDE = 16
_HEAD, _TAIL, _LOCK = 0, 1, 2
_TASKS, _CHUNKS, _JOINS = 8, 10, 12
BLOCK = 64


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
def _lock(ws, w):
    while not cas_acquire(ws, w * WS_STRIDE + _LOCK, 0, 1):
        pass


@njit(inline="always")
def _unlock(ws, w):
    store_release(ws, w * WS_STRIDE + _LOCK, 0)


@njit(inline="always")
def _row(ws, me, ctr, which, top, capacity, flag):
    """The next row of worker ``me``'s block (a new block of BLOCK rows from ``ctr[top]``
    when it is used up), or -1 with ``flag`` raised when ``capacity`` is reached."""
    at = me * WS_STRIDE + which
    r = ws[at]
    if r >= ws[at + 1]:
        r = fetch_add(ctr, top, BLOCK)
        if r + BLOCK > capacity:
            fetch_or(ctr, FLAG, flag)
            return -1
        ws[at + 1] = r + BLOCK
    ws[at] = r + 1
    return r


@njit(inline="always")
def alloc_chunk(mem, ctr, ws, me):
    """A new chunk, every slot UNDEF; UNDEF (and the flag raised) when the store is full."""
    h = _row(ws, me, ctr, _CHUNKS, MTOP, mem.shape[0], OUT_OF_CHUNKS)
    if h < 0:
        return UNDEF
    for j in range(SLOTS):
        mem[h, j] = UNDEF
    return h


@njit(inline="always")
def _push(dq, ws, me, t, ctr):
    cap = dq.shape[1]
    _lock(ws, me)
    head = ws[me * WS_STRIDE + _HEAD]
    tail = ws[me * WS_STRIDE + _TAIL]
    ok = tail - head < cap
    if ok:
        dq[me, tail & (cap - 1)] = t
        ws[me * WS_STRIDE + _TAIL] = tail + 1
    _unlock(ws, me)
    if not ok:
        fetch_or(ctr, FLAG, OUT_OF_DEQUE)
    return ok


@njit(inline="always")
def take(dq, ws, me, rng, randomised):
    """The owner's next task (the newest; a random one when ``randomised``), or -1."""
    cap = dq.shape[1]
    t = -1
    _lock(ws, me)
    head = ws[me * WS_STRIDE + _HEAD]
    tail = ws[me * WS_STRIDE + _TAIL]
    if tail > head:
        last = (tail - 1) & (cap - 1)
        if randomised:
            r = (head + np.int64(_random(rng, me) % np.uint64(tail - head))) & (cap - 1)
            x = dq[me, r]
            dq[me, r] = dq[me, last]
            dq[me, last] = x
        t = dq[me, last]
        ws[me * WS_STRIDE + _TAIL] = tail - 1
    _unlock(ws, me)
    return t


@njit(inline="always")
def steal(dq, ws, me, nworkers, rng, randomised):
    """The oldest task of another worker (victims in turn from ``me + 1``, or from a random
    one), or -1. A busy victim's lock is not waited for."""
    cap = dq.shape[1]
    start = me + 1
    if randomised:
        start = np.int64(_random(rng, me) % np.uint64(nworkers))
    for k in range(nworkers):
        v = (start + k) % nworkers
        if v == me or not cas_acquire(ws, v * WS_STRIDE + _LOCK, 0, 1):
            continue
        t = -1
        head = ws[v * WS_STRIDE + _HEAD]
        if ws[v * WS_STRIDE + _TAIL] > head:
            t = dq[v, head & (cap - 1)]
            ws[v * WS_STRIDE + _HEAD] = head + 1
        _unlock(ws, v)
        if t >= 0:
            return t
    return -1


@njit(inline="always")
def spawn(task, ctr, dq, ws, me, row):
    """Spawn(slot, fn(a0..a4)) contributing to join ``jn``, ``row`` being the task's row
    (fn, a0, a1, a2, a3, a4, jn, slot, ctx); False when out of room."""
    fn, a0, a1, a2, a3, a4, jn, slot, ctx = row
    t = _row(ws, me, ctr, _TASKS, TTOP, task.shape[0], OUT_OF_TASKS)
    if t < 0:
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
    return _push(dq, ws, me, t, ctr)  # the lock's release publishes the record


@njit(inline="always")
def create_join(join, ctr, ws, me, row):
    """CreateJoin(count, cont) on the (new, UNDEF-filled) join ``chunk``, ``row`` being the
    join's row (chunk, count, cont, djoin, dslot, ctx, arg): the continuation's own result
    goes to slot ``dslot`` of join ``djoin``. Returns the join's id, or -1."""
    chunk, count, cont, djoin, dslot, ctx, arg = row
    j = _row(ws, me, ctr, _JOINS, JTOP, join.shape[0], OUT_OF_JOINS)
    if j < 0 or chunk == UNDEF:
        return -1
    join[j, J_CHUNK] = chunk
    join[j, J_LEFT] = count
    join[j, J_CONT] = cont
    join[j, J_DJOIN] = djoin
    join[j, J_DSLOT] = dslot
    join[j, J_CTX] = ctx
    join[j, J_ARG] = arg
    return j  # published by the spawns that name it (their lock release)


@njit(inline="always")
def join_update(mem, task, join, ctr, dq, ws, me, update):
    """JoinUpdate(value) into slot ``slot`` of join ``jn`` (``update``: jn, slot, value);
    the last contribution spawns the continuation (its arguments: the join chunk, the
    join's argument). The count is lowered with acquire-release ordering, so the last
    contributor sees every slot."""
    jn, slot, value = update
    mem[join[jn, J_CHUNK], slot] = value
    if fetch_add_acq_rel(join, (jn, J_LEFT), -1) == 1:
        spawn(task, ctr, dq, ws, me, (join[jn, J_CONT], join[jn, J_CHUNK], join[jn, J_ARG],
                                      0, 0, 0, join[jn, J_DJOIN], join[jn, J_DSLOT],
                                      join[jn, J_CTX]))
