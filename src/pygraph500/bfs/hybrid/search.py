"""``hybrid``: paper 002's task-based BFS on the CPU and an array side together.

One level loop. Each level, every task with work (frontier vertices top-down; unvisited
vertices with neighbours bottom-up) runs on one side: the compiled CPU engine (``cpu.py``)
or the array side (``device.ArrayDevice``: CuPy on a GPU, NumPy where none; or the
stand-in, ``standin.py``). Which one: the workload-aware scheme (a task with more than
lambda vertices goes to the array side; lambda given, or chosen per level by ``tuner``) or
the fixed-partitioned space (the first ``gpu_share`` of the tasks always there). The
direction of a level is Beamer's (``primitives.direction``, as ``direction-optimizing``) on
the sums of the tasks' counters; both sides run both directions.

Where the data is (the paper's Fig. 6, per task): the host always has the whole state (it
schedules: the array side's finds come back every level it runs); the array side keeps
copies, brought up to date only when it needs them, and only for the tasks that changed:

- the vertex array (indptr: any vertex's degree, which the counts need) goes there once, a
  task's adjacency lists the first time the task runs there; they stay for later searches;
- before the array side runs a level, it gets the visited words of the tasks where the CPU
  claimed vertices since it last had them (top-down: all such tasks, a claim may land
  anywhere; bottom-up: its own tasks), and the frontier words it needs (top-down: its tasks';
  bottom-up: all) that it did not find itself at the previous level;
- after it ran: its per-task counts, then the next-frontier words of the tasks where it found
  vertices (merged on the host: ``cpu.merge_found``);
- at the end: the parents of the vertices it claimed (in vertex order: the host knows which
  from the words it got).

Per task the host so knows the state of Fig. 6: where the task runs this level, whether
its lists are there (``Plan.on_side``), whether the array side's copy of its visited words
is stale (``vis_stale``) and whether its frontier words there are complete (``front_ok``,
after a level the array side ran). Every transfer is counted per level (``link.Link``). Both sides claim with their own visited
copy during a level, so a vertex may be claimed by both (it is a valid parent either way; the
host keeps its own): the ``duplicates`` column. On a GPU the array side's work is launched
before the CPU side's and read after it, so they overlap; on NumPy they run one after the
other (the array side's calls return when done): levels with both sides cost their sum.
"""
from __future__ import annotations

import time

import numba
import numpy as np

from ...backend.checked import PerLevel
from ...graph.types import index_dtype
from ...primitives.bitmaps import new_bitmap
from ...primitives.direction import go_bottom_up, go_top_down
from ..steps.search_state import mark_unreached
from ..types import BOTTOM_UP, TOP_DOWN, BFSResult, check_root
from .cpu import adopt_parents, load_kernels, merge_found, run_tasks, task_record
from .device import FRONTIER, GRAPH, RUN, VISITED
from .link import Link
from .records import LevelRecords
from .standin import LAUNCH
from .tasks import ranges
from .tuner import bottom_up_entries

__all__ = ["run_search", "WORK_SECONDS"]

# Beamer's tests, called from Python once a level: their Python bodies (no numba dispatch)
to_bottom_up, to_top_down = go_bottom_up.py_func, go_top_down.py_func
WORK_SECONDS = 2e-9  # clock "work": the CPU engine's seconds per unit of task work


class _ArrayState:
    """What the host knows of the array side's copies during a search (see the module)."""

    def __init__(self, t: int):
        self.started = False
        self.ran_last = False                       # it ran the previous level
        self.vis_stale = np.zeros(t, dtype=bool)    # CPU claims it has not seen, per task
        self.front_ok = np.zeros(t, dtype=bool)     # its next-frontier copy is complete


def _send(plan, graph, side, link, st, root, on_dev, w_dev, direction, level, nf_k, visited,
          front):
    """The array side's level: what it lacks sent (counted), then its tasks launched."""
    ts, t = plan.ts, plan.ts.count
    if not st.started:
        side.start(root, graph)
        st.started = True
    code = np.zeros(t, dtype=np.int8)
    code[on_dev] |= RUN
    new_graph = on_dev & ~plan.on_side
    code[new_graph] |= GRAPH
    need_vis = st.vis_stale & (on_dev if direction == BOTTOM_UP else True)
    code[need_vis] |= VISITED
    has_front = st.front_ok & st.ran_last  # its next frontier of the last level is complete
    need_front = (True if direction == BOTTOM_UP else on_dev) & (nf_k > 0) & ~has_front
    code[need_front] |= FRONTIER
    code_d = link.h2d("control", code)
    ptr = idx = vis_w = front_w = None
    graph_s = 0.0
    g0 = time.perf_counter()
    if not plan.vertex_array:  # once: the whole vertex array (the degree of any vertex)
        ptr = link.h2d("graph", graph.indptr)
        plan.vertex_array = True
    if new_graph.any():  # the adjacency lists of the tasks new there
        tg = np.flatnonzero(new_graph)
        idx = link.h2d("graph", graph.indices[ranges(graph.indptr[ts.lo[tg]],
                                                      graph.indptr[ts.hi[tg]])])
        plan.on_side |= new_graph
    graph_s = time.perf_counter() - g0
    if need_vis.any():
        vis_w = link.h2d("visited", visited[ts.word_index(np.flatnonzero(need_vis))])
        st.vis_stale &= ~need_vis
    if need_front.any():
        front_w = link.h2d("frontier", front[ts.word_index(np.flatnonzero(need_front))])
    side.run(code_d, ptr, idx, vis_w, front_w, direction, level, st.ran_last,
             np.flatnonzero(on_dev), float(w_dev[on_dev].sum()))
    return graph_s


def _receive(ts, side, link, indptr, visited, nxt, claimed, owned, depth, level, only_cnt,
             only_deg):
    """The array side's results of a level merged on the host: (duplicates, entries it
    examined, seconds spent getting them: its side of the exchange, without the merge)."""
    r0 = time.perf_counter()
    counts = link.d2h("control", side.counts())  # per task: found, their degrees; examined
    found = counts[:ts.count]
    got = np.flatnonzero(found > 0)
    dups = 0
    if got.shape[0]:
        words = link.d2h("frontier", side.found_words(int(ts.words[got].sum())))
        fetch = time.perf_counter() - r0
        dups = merge_found(indptr, (visited, nxt, claimed, owned), depth, level,
                           (words, got, ts.word_offsets(got), counts[ts.count:]),
                           task_record(ts), (only_cnt, only_deg))
    else:
        fetch = time.perf_counter() - r0
    return int(dups), int(counts[-1]), fetch


def _split(opts, tuner, fixed, direction, n, n_k, w_k, w_dev):
    """A level's split: (on the array side: a flag per task, lambda, the predicted time,
    exploring?): the fixed mode's tasks, a given lambda, or the tuner's choice (lambda and
    prediction -1 where none applies)."""
    if fixed is not None:
        return fixed & (n_k > 0), -1.0, -1.0, False
    if opts.lam is not None:  # (inf and N alike: all on the CPU)
        return n_k > opts.lam, min(opts.lam, float(n)), -1.0, False
    choice = tuner.choose(direction, n_k, w_k, w_dev)
    return (choice.on_dev, -1.0 if choice.lam is None else float(choice.lam),
            -1.0 if choice.predicted is None else choice.predicted, choice.explore)


def _work_clock(tuner, speed, nthreads, on_dev, n_k, w_k, w_dev, link_seconds):
    """(CPU side, array side, each task's) seconds of a level charged by work: the CPU does
    1 / WORK_SECONDS units a second over its threads (a task, on one thread, P times
    slower), the stand-in ``speed`` times more, plus its launch and modelled transfers."""
    cpu = ~on_dev & (n_k > 0)
    t_cpu = WORK_SECONDS * tuner.cpu_work(w_k[cpu]) if cpu.any() else 0.0
    t_dev = (WORK_SECONDS * float(w_dev[on_dev].sum()) / speed + LAUNCH + link_seconds
             if on_dev.any() else 0.0)
    task_s = WORK_SECONDS * np.where(on_dev, w_dev / speed, nthreads * w_k) * (n_k > 0)
    return t_cpu, t_dev, task_s


def run_search(plan, graph, root, opts, want_depth: bool) -> BFSResult:
    """One hybrid search (the module docstring); ``opts`` a checked ``HybridOptions``."""
    t_start = time.perf_counter()
    r = check_root(graph, root)
    ts, tuner = plan.ts, plan.tuner
    t, n = ts.count, ts.n
    indptr, indices = graph.indptr, graph.indices
    nthreads = numba.get_num_threads()
    work_clock = opts.clock == "work"
    parent = np.empty(n, dtype=np.int64)
    depth = np.empty(n if want_depth else 0, dtype=index_dtype(n))
    visited, front, nxt, claimed, owned = (new_bitmap(n) for _ in range(5))
    parent[r] = r
    if want_depth:
        depth[r] = 0
    bit = np.uint64(1) << np.uint64(r & 63)
    visited[r >> 6] |= bit
    front[r >> 6] |= bit
    rt = int(ts.owner(r))
    deg_r = int(indptr[r + 1] - indptr[r])
    nf_k = np.zeros(t, np.int64)
    mf_k = np.zeros(t, np.int64)
    nf_k[rt], mf_k[rt] = 1, deg_r
    cand_k = ts.linked_count.copy()
    mu_k = ts.edges.copy()
    cand_k[rt] -= deg_r > 0
    mu_k[rt] -= deg_r
    fixed = np.arange(t) < round(opts.share * t) if opts.mode == "fixed" else None
    side = None
    st = _ArrayState(t)
    found = np.zeros((nthreads, t), np.int64)
    degs = np.zeros((nthreads, t), np.int64)
    task_ns = np.zeros(t, np.int64)
    if tuner.searches == 0:  # the graph's first search: no cold call in a measured level
        load_kernels(indptr, indices, parent, depth, visited, front, nxt, ts, nthreads, found,
                     degs, task_ns)
    recs = LevelRecords()
    links = Link(None, None)
    checked = PerLevel(plan.checks)  # numpy-checked: the array side's syncs per level
    tuner.refit()
    bottom = False
    prev_nf, nf, mf, mu = 0, 1, deg_r, int(mu_k.sum())
    level = 0
    total_entries = max(1, int(indptr[n]))
    whole_lists = opts.standin is None  # the array side's bottom-up reads whole lists
    both_ways = opts.direction == "both"  # else every level top-down (the paper's)
    setup = 0.0 if work_clock else time.perf_counter() - t_start
    while nf > 0:
        checked.mark()
        t0 = time.perf_counter()
        if not bottom and both_ways and to_bottom_up(nf, prev_nf, mf, mu, opts.alpha):
            bottom = True
        direction = BOTTOM_UP if bottom else TOP_DOWN
        n_k = cand_k if bottom else nf_k
        if bottom:  # entries read: a CPU scan stops at its first hit; whole-list sides do not
            w_k = n_k + bottom_up_entries(n_k, mu_k, mf / total_entries)
            w_dev = n_k + mu_k if whole_lists else w_k
        else:
            w_k = w_dev = n_k + mf_k
        on_dev, lam, predicted, explore = _split(opts, tuner, fixed, direction, n, n_k, w_k,
                                                 w_dev)
        dev_tasks = np.flatnonzero(on_dev)
        cpu_tasks = np.flatnonzero(~on_dev & (n_k > 0))
        cpu_tasks = cpu_tasks[np.argsort(-w_k[cpu_tasks], kind="stable")]  # largest first
        if side is None and dev_tasks.shape[0]:
            side = plan.array_side(graph)
            links.upload, links.download = side.upload, side.download
        links.start_level()
        nxt[:] = 0
        dev_wall = graph_s = 0.0
        if dev_tasks.shape[0]:
            d0 = time.perf_counter()
            mark0 = None if side.modelled else side.backend.mark()
            graph_s = _send(plan, graph, side, links, st, r, on_dev, w_dev, direction, level,
                            nf_k, visited, front)
            mark1 = None if side.modelled else side.backend.mark()
            dev_wall = time.perf_counter() - d0
        c0 = time.perf_counter()
        cpu_ex = 0
        if cpu_tasks.shape[0]:
            found[:] = 0
            degs[:] = 0
            task_ns[cpu_tasks] = 0
            cpu_ex = run_tasks(bottom, float(w_k[cpu_tasks].sum()), indptr, indices, parent,
                               depth, visited, front, nxt, ts, cpu_tasks, level, nthreads,
                               found, degs, task_ns)
            new_k = found.sum(axis=0)
            newdeg_k = degs.sum(axis=0)
        else:
            new_k = np.zeros(t, np.int64)
            newdeg_k = np.zeros(t, np.int64)
        t_cpu = time.perf_counter() - c0
        dups = dev_ex = 0
        t_dev = 0.0
        task_s = np.zeros(t)
        if cpu_tasks.shape[0]:
            task_s[cpu_tasks] = task_ns[cpu_tasks] * 1e-9
        if dev_tasks.shape[0]:
            cpu_found = new_k > 0
            only_cnt = np.zeros(t, np.int64)
            only_deg = np.zeros(t, np.int64)
            dups, dev_ex, fetch = _receive(ts, side, links, indptr, visited, nxt, claimed,
                                           owned, depth, level, only_cnt, only_deg)
            new_k += only_cnt
            newdeg_k += only_deg
            st.vis_stale |= cpu_found
            st.front_ok = ~cpu_found
            dev_wall += fetch  # (the merge is the host's work: counted in the level's rest)
            if side.modelled:  # the stand-in: its kernels' time over its speed, + transfers
                t_dev = side.compute / opts.standin + LAUNCH + links.seconds
                task_s[dev_tasks] = side.task_ns[dev_tasks] * 1e-9 / opts.standin
            else:
                t_dev = side.backend.seconds(mark0, mark1) + fetch
                share = w_k[dev_tasks] / max(1, w_k[dev_tasks].sum())
                task_s[dev_tasks] = t_dev * share
        else:
            st.vis_stale |= new_k > 0
        st.ran_last = bool(dev_tasks.shape[0])
        wall = time.perf_counter() - t0
        if work_clock:
            t_cpu, t_dev, task_s = _work_clock(tuner, opts.standin, nthreads, on_dev, n_k, w_k,
                                               w_dev, links.seconds)
            level_time = max(t_cpu, t_dev)
        elif side is not None and side.modelled:
            level_time = max(t_cpu, t_dev) + (wall - t_cpu - dev_wall)
        else:
            level_time = wall
        if cpu_tasks.shape[0]:
            tuner.record("cpu", direction, tuner.cpu_work(w_k[cpu_tasks]), t_cpu)
        if dev_tasks.shape[0]:
            graph_t = links.graph_seconds if side.modelled or work_clock else graph_s
            tuner.record("dev", direction, float(w_dev[dev_tasks].sum()), t_dev - graph_t)
        side_code = np.where(on_dev, 2, np.where(n_k > 0, 1, 0)).astype(np.int64)
        total_w = max(1, int(w_k.sum()))
        recs.add(nf, cpu_ex + dev_ex, int(new_k.sum()), direction, level_time, side_code,
                 task_s, wall=wall, cpu_tasks=cpu_tasks.shape[0], dev_tasks=dev_tasks.shape[0],
                 cpu_time=t_cpu, dev_time=t_dev, dev_share=float(w_k[on_dev].sum()) / total_w,
                 duplicates=dups, explore=int(explore), **{"lambda": lam,
                                                          "predicted": predicted})
        cand_k -= new_k
        mu_k -= newdeg_k
        front, nxt = nxt, front
        prev_nf, nf, mf, mu = nf, int(new_k.sum()), int(newdeg_k.sum()), int(mu_k.sum())
        nf_k, mf_k = new_k, newdeg_k
        if bottom and to_top_down(nf, prev_nf, n, opts.beta, mf, mu, opts.alpha):
            bottom = False
        level += 1
    t_end = time.perf_counter()
    tuner.done()
    links.seconds = 0.0
    count = int(np.bitwise_count(claimed).sum())
    side_s = 0.0  # the stand-in's part of the end (its compaction, the copy): modelled
    if count:
        s0 = time.perf_counter()
        parents = links.d2h("parent", side.parents(count))
        side_s = time.perf_counter() - s0
        adopt_parents(parent, claimed, owned, parents, nthreads)
    if side is not None:
        side.release()
    mark_unreached(parent, depth, visited, nthreads)
    checked.mark()
    teardown = time.perf_counter() - t_end
    if work_clock:
        teardown = links.seconds
    elif side is not None and side.modelled:
        teardown += links.seconds - side_s
    counted = checked.columns()
    counted.pop("apart_syncs", None)
    levels = recs.table({**links.columns(), **counted}, setup, teardown)
    return BFSResult(parent=parent, root=r, depth=depth if want_depth else None, levels=levels)
