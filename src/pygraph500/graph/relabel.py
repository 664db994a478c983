"""Answers of a search on a relabelled graph, given back in the input's labels.

A graph built with vertex sorting numbers its vertices by decreasing degree; the benchmark
searches it from the new id of each root and reports parents (and depths) in the original
labels, so validation runs on the original edge list. The translation is part of the timed
search: a user of the tree needs it in their labels.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .types import CSRGraph


@njit(cache=True, parallel=True)
def _to_original(parent, depth, original_label, new_label, parent_out, depth_out):
    """Gather form (random reads, sequential writes): v's answer is row new_label[v]'s."""
    for v in prange(parent.shape[0]):
        i = new_label[v]
        p = parent[i]
        parent_out[v] = original_label[p] if p >= 0 else -1
        depth_out[v] = depth[i]


def search_in_original_labels(bfs, graph: CSRGraph, root: int, **options):
    """Run ``bfs(graph, root)`` with ``root`` in original labels; answer in original labels."""
    if not graph.relabelled:
        return bfs(graph, root, **options)
    result = bfs(graph, int(graph.new_label[root]), **options)
    parent = np.empty_like(result.parent)
    # Without a depth array, the parent array stands in for it (and the copy is dropped).
    depth_in = result.depth if result.depth is not None else result.parent
    depth = np.empty_like(depth_in)
    _to_original(result.parent, depth_in, graph.original_label, graph.new_label, parent, depth)
    result.parent, result.root = parent, root
    if result.depth is not None:
        result.depth = depth
    return result


def degree_in_original_labels(graph: CSRGraph) -> np.ndarray:
    """Vertex degrees indexed by original label (what root selection looks at)."""
    degree = graph.degree()
    return degree[graph.new_label] if graph.relabelled else degree
