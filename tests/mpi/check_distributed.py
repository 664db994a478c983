"""Run by test_mpi.py under ``mpiexec -n P`` (and once alone, to fill numba's cache first).

Every rank generates its edge range, builds, searches with every algorithm and pruning mode,
validates distributed; rank 0 also gathers the edges and parents and checks them with the
embedded code (the oracle). Rank 0 prints one JSON line with what it found.
    python check_distributed.py SCALE NROOTS
"""
import hashlib
import json
import sys

import numpy as np

from pygraph500 import EdgeList, build_csr, choose_roots, validate
from pygraph500.benchmark.distributed import has_neighbour
from pygraph500.benchmark.roots import choose_roots_with
from pygraph500.distributed import (DIST_ALGORITHMS, PRUNE_MODES, DistSearcher, abort_on_error,
                             build_dist, generate_local, world)
from pygraph500.distributed.validate import validate_dist


def gather(comm, local, n):
    allp, counts = comm.allgatherv(local)
    out = np.empty(n, dtype=np.int64)
    off = 0
    for r in range(comm.size):
        out[r::comm.size] = allp[off:off + counts[r]]
        off += counts[r]
    return out


def broken(parent, root, depth):
    """Trees breaking three rules (checked against the embedded validator, not assumed)."""
    reached = np.flatnonzero((parent >= 0) & (np.arange(len(parent)) != root))
    a = parent.copy()
    a[reached[1]] = np.flatnonzero(parent < 0)[0]
    b = parent.copy()
    b[np.flatnonzero(depth >= 2)[0]] = root
    c = parent.copy()
    kids = set(parent[parent >= 0].tolist())
    c[next(v for v in reached if v not in kids)] = -1
    return [a, b, c]


def main():
    scale, nroots = int(sys.argv[1]), int(sys.argv[2])
    comm = world(force=True)
    with abort_on_error(comm, "check_distributed"):
        edges = generate_local(comm, scale)
        n = edges.num_vertices
        src, _ = comm.allgatherv(edges.src)
        dst, _ = comm.allgatherv(edges.dst)
        whole = EdgeList(src, dst, n)
        out = {"size": comm.size,
               "sha256": hashlib.sha256(np.stack([src, dst], axis=1).tobytes()).hexdigest()}
        graph = build_dist(comm, edges, compact_columns=True)
        roots = choose_roots_with(n, has_neighbour(comm, graph.part, graph.degree()), (2, 3),
                                  nroots)
        csr = build_csr(whole)
        out["roots"] = roots.tolist()
        out["roots_embedded"] = choose_roots(csr.degree() > 0, (2, 3), nroots).tolist()
        out["searches"] = []
        out["verdicts"] = []
        for algorithm in DIST_ALGORITHMS:
            for prune in PRUNE_MODES:
                searcher = DistSearcher(comm, graph, prune, algorithm)
                for root in roots.tolist():
                    result = searcher.search(root)
                    mine = validate_dist(comm, graph.part, edges, result.parent, root)
                    parent = gather(comm, result.parent, n)
                    theirs = validate(whole, parent, root)
                    sent = int(comm.allreduce(int(result.levels["sent_bytes"].sum())))
                    out["searches"].append({
                        "algorithm": algorithm, "prune": prune, "root": root,
                        "valid": theirs.valid, "rule": theirs.rule, "nedge": theirs.nedge,
                        "dist": [mine.valid, mine.rule, mine.nedge, mine.message],
                        "embedded": [theirs.valid, theirs.rule, theirs.nedge, theirs.message],
                        "sent_bytes": sent})
        # broken trees: the same verdicts from both validators
        root = int(roots[0])
        good = gather(comm, DistSearcher(comm, graph).search(root).parent, n)
        depth = validate(whole, good, root).depth
        for bad in broken(good, root, depth):
            mine = validate_dist(comm, graph.part, edges, bad[comm.rank::comm.size].copy(), root)
            theirs = validate(whole, bad, root)
            out["verdicts"].append({"dist": [mine.rule, mine.vertex, mine.message],
                                    "embedded": [theirs.rule, theirs.vertex, theirs.message]})
        if comm.rank == 0:
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
