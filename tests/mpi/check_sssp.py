"""Run by test_mpi_sssp.py under ``mpiexec -n P``: distributed kernel 3 on real processes.

Every rank generates its weighted edge range, builds, runs delta-stepping from a few roots
and validates distributed; rank 0 also gathers the edges and results and checks them with the
embedded validator (the oracle), for the search's result and for a broken copy of it. Rank 0
prints one JSON line.
    python check_sssp.py SCALE NROOTS
"""
import json
import sys

import numpy as np

from pygraph500 import EdgeList
from pygraph500.distributed import (DistSSSPSearcher, abort_on_error, build_dist,
                                    count_component_edges_dist, generate_local,
                                    validate_sssp_dist, world)
from pygraph500.validate.shortest_paths import validate_sssp

FIELDS = ("valid", "rule", "message", "vertex", "edge_index", "nedge", "num_visited",
          "max_distance")


def gather(comm, local, n, dtype):
    allv, counts = comm.allgatherv(local)
    out = np.empty(n, dtype=dtype)
    off = 0
    for r in range(comm.size):
        out[r::comm.size] = allv[off:off + counts[r]]
        off += counts[r]
    return out


def main():
    scale, nroots = int(sys.argv[1]), int(sys.argv[2])
    comm = world(force=True)
    with abort_on_error(comm, "check_sssp"):
        edges = generate_local(comm, scale, weights=True)
        n = edges.num_vertices
        whole = EdgeList(comm.allgatherv(edges.src)[0], comm.allgatherv(edges.dst)[0], n,
                         comm.allgatherv(edges.weight)[0])
        graph = build_dist(comm, edges)
        searcher = DistSSSPSearcher(comm, graph)
        deg = np.bincount(np.concatenate([whole.src, whole.dst]), minlength=n)
        roots = np.argsort(-deg, kind="stable")[:nroots].tolist()
        out = {"size": comm.size, "delta": searcher.delta, "searches": []}
        for root in roots:
            res = searcher.search(root)
            mine = validate_sssp_dist(comm, graph.part, edges, res.parent, res.distance, root)
            nedge = count_component_edges_dist(comm, graph.part, edges, res.parent)
            parent = gather(comm, res.parent, n, np.int64)
            dist = gather(comm, res.distance, n, np.float32)
            theirs = validate_sssp(whole, parent, dist, root)
            phases = comm.allgather(res.num_phases)
            # broken: the largest distance made larger (tree-edge-distance)
            bad = dist.copy()
            v = int(np.argmax(np.where(parent >= 0, dist, -1)))
            bad[v] += np.float32(0.5)
            mine_bad = validate_sssp_dist(comm, graph.part, edges, res.parent,
                                          bad[comm.rank::comm.size].copy(), root)
            theirs_bad = validate_sssp(whole, parent, bad, root)
            out["searches"].append({
                "root": root, "phases": phases, "nedge": nedge,
                "dist": [getattr(mine, k) for k in FIELDS],
                "embedded": [getattr(theirs, k) for k in FIELDS],
                "dist_bad": [getattr(mine_bad, k) for k in FIELDS],
                "embedded_bad": [getattr(theirs_bad, k) for k in FIELDS],
                "distance_sum": float(dist[parent >= 0].astype(np.float64).sum())})
        if comm.rank == 0:
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
