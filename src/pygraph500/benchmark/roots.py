"""Search keys chosen by the reference rule (src/main.c of Graph500 v3.0.1).

Try ``k`` draws two doubles at stream position ``2k`` (make_random_numbers) and proposes
``int((d0 + d1) * N) % N``; a proposal is skipped when it repeats an earlier root or has no
neighbour other than itself; the search gives up once ``2N`` stream positions are used, so a
small graph may yield fewer than requested (SCALE 5, edgefactor 8 yields 20).
"""
from __future__ import annotations

import numpy as np

from ..generator.mrg import make_random_numbers

NUM_ROOTS = 64


def _proposals(num_vertices: int, seed1: int, seed2: int, start_try: int, count: int) -> np.ndarray:
    """Root proposals of tries [start_try, start_try + count) as int64."""
    d = make_random_numbers(2 * count, seed1, seed2, 2 * start_try).reshape(count, 2)
    # The reference truncates (d0 + d1) * N to int64, then takes it modulo N.
    return ((d[:, 0] + d[:, 1]) * num_vertices).astype(np.int64) % num_vertices


def choose_roots(has_neighbour: np.ndarray, seed=(2, 3), num_roots: int = NUM_ROOTS) -> np.ndarray:
    """The reference's search keys for a graph whose non-isolated vertices are ``has_neighbour``.

    ``has_neighbour[v]`` is True when v has an edge to a vertex other than itself (a CSRGraph's
    ``degree() > 0``). Returns up to ``num_roots`` distinct roots, in the reference's order.
    """
    return choose_roots_with(int(has_neighbour.shape[0]), lambda v: has_neighbour[v], seed,
                             num_roots)


def choose_roots_with(num_vertices: int, has_neighbour_of, seed=(2, 3),
                      num_roots: int = NUM_ROOTS) -> np.ndarray:
    """``choose_roots`` where the graph is known only through ``has_neighbour_of(vertices)``
    (an int64 array of proposals -> booleans), asked once per batch of 256 proposals: the
    distributed run answers it with one collective per batch, so roots are chosen once, the
    same on every rank and the same as the embedded run's."""
    seed1, seed2 = (int(s) for s in seed)
    max_tries = num_vertices  # positions 0, 2, ..., 2N - 2: the reference stops past 2N
    roots: list[int] = []
    seen: set[int] = set()
    tried = 0
    batch = 256
    while len(roots) < num_roots and tried < max_tries:
        count = min(batch, max_tries - tried)
        proposals = _proposals(num_vertices, seed1, seed2, tried, count)
        flags = np.asarray(has_neighbour_of(proposals), dtype=bool).tolist()
        for r, has in zip(proposals.tolist(), flags):
            if r not in seen and has:
                roots.append(r)
                seen.add(r)
                if len(roots) == num_roots:
                    break
        tried += count
    return np.array(roots, dtype=np.int64)
