"""The Graph500 validation rules for a BFS parent array (spec section "Validation"): their
names, their order, the report, and every message, one source for the embedded validator
(``bfs_tree``) and the distributed one (``distributed.validate``).

``validate(edges, parent, root)`` checks, in this order, and reports the FIRST rule broken
with one offending vertex or edge (the smallest vertex label / edge index, so the report is
deterministic whatever the thread count):

====================  ========================================================================
rule                  what it demands
====================  ========================================================================
parent-length         ``len(parent) == edges.num_vertices``
parent-range          every parent is -1 or in ``[0, N)``
root-self-parent      ``parent[root] == root``
parent-visited        a reached vertex's parent is itself reached (its parent is not -1)
no-cycles             parent pointers from every reached vertex lead to the root
root-depth            ``depth[root] == 0``
tree-edge-in-graph    for every reached ``v != root``, ``{v, parent[v]}`` is an input tuple
tree-edge-levels      along every tree edge the levels differ by exactly one
edge-levels           across every input edge with both ends reached, levels differ by <= 1
component             no input edge joins a reached and an unreached vertex
====================  ========================================================================

Kernel 3 (SSSP, ``shortest_paths.validate_sssp(edges, parent, distance, root)``) checks
``SSSP_RULES`` in their order: parent-length, distance-length, parent-range, root-self-parent,
root-distance (``distance[root] == 0``), distance-range (a reached vertex's distance is finite
and >= 0), unreached-distance (parent -1 goes with distance -1 or inf), parent-visited,
no-cycles, tree-edge-in-graph, tree-edge-distance (some tuple ``(parent, v, w)`` gives
``d(v) == float32(d(parent) + w)``), edge-distances (for every tuple with both ends reached,
``d(v) <= float32(d(u) + w)`` and ``d(u) <= float32(d(v) + w)``, the reference's "triangle
rule" in its float32 arithmetic) and component. Its ``nedge`` is counted as for BFS.

Depths are computed from the parent pointers (as the reference ``makedepthmapforbfs`` does),
so ``root-depth`` and ``tree-edge-levels`` hold by construction unless the caller passes the
BFS's own ``depth`` claim, which is then checked by those two rules and used for the level
rules. A vertex outside the root's component that was given a parent fails
``parent-visited``, ``no-cycles`` or ``tree-edge-in-graph`` (its chain must end at an unreached
vertex, loop, or cross a non-edge into the component); a component vertex left out fails
``component``. Self-loops never break a level rule.

The TEPS numerator ``nedge`` follows the Graph500 3.0.1 reference (see TEPS_COUNTING_RULE).
Cost: a few parallel passes over the vertices (O(N log depth) pointer jumping for depths) and
one parallel pass over the edge tuples.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError, ValidationError

__all__ = ["RULES", "SSSP_RULES", "TEPS_COUNTING_RULE", "ValidationReport",
           "sssp_valid_report", "distance_length", "root_distance", "distance_range",
           "unreached_distance", "tree_edge_distance", "edge_distances", "invalid", "valid_report",
           "parent_length", "parent_range", "root_self_parent", "parent_visited", "no_cycles",
           "cycle_text", "root_depth", "tree_edge_in_graph", "tree_edge_levels", "edge_levels",
           "component", "check_root", "check_parent_array", "edge_outside"]

# The reference (src/validate.c) builds its own CSR from the tuples skipping v0 == v1, then
# for every half-edge whose ends are not both unreached adds 1 when v0 < v1: each non-loop
# tuple once, duplicates included. Its BFS side (get_edge_count_for_teps in bfs_reference.c)
# counts CSR entries with column <= v at reached v, again loop-free, and validation fails if
# the two disagree. The spec's text ("counting any multiple edges and self-loops") differs
# only in the self-loops; ValidationReport.num_self_loops gives that difference.
TEPS_COUNTING_RULE = (
    "nedge = input edge tuples with both endpoints reached by the BFS, duplicates counted, "
    "self-loops not counted (Graph500 3 reference src/validate.c)"
)

# Kernel 3 (SSSP): the reference's validate_result(isbfs=0) rules, with the float32 arithmetic
# of the reference (its sums are float + float in C), plus no-cycles, which the reference does
# not check (with zero weights, or weights lost to rounding in fl(d + w) == d, parent pointers
# could close a cycle that every distance test accepts).
SSSP_RULES = (
    "parent-length",
    "distance-length",
    "parent-range",
    "root-self-parent",
    "root-distance",
    "distance-range",
    "unreached-distance",
    "parent-visited",
    "no-cycles",
    "tree-edge-in-graph",
    "tree-edge-distance",
    "edge-distances",
    "component",
)

RULES = (
    "parent-length",
    "parent-range",
    "root-self-parent",
    "parent-visited",
    "no-cycles",
    "root-depth",
    "tree-edge-in-graph",
    "tree-edge-levels",
    "edge-levels",
    "component",
)


@dataclass
class ValidationReport:
    """Outcome of ``validate``. ``nedge`` is 0 unless ``valid``.

    ``vertex`` / ``edge`` (``(u, v)``) / ``edge_index`` (position in the EdgeList) name one
    offender of ``rule``. ``depth`` (-1 where unreached; int8 when every depth fits, else
    int64) is the depth map computed from the parent pointers, present once the no-cycles
    rule has passed. ``num_self_loops`` is the number of self-loop tuples at reached
    vertices: the spec's wording counts them, the reference does not (``nedge +
    num_self_loops`` is the spec's reading).
    """

    valid: bool
    rule: str | None
    message: str
    vertex: int | None = None
    edge: tuple[int, int] | None = None
    edge_index: int | None = None
    nedge: int = 0
    num_self_loops: int = 0
    num_visited: int = 0
    max_depth: int = -1
    depth: np.ndarray | None = None
    max_distance: float | None = None  # kernel 3: the largest distance of a reached vertex

    def raise_if_invalid(self) -> "ValidationReport":
        if not self.valid:
            err = ValidationError(self.message)
            err.report = self
            raise err
        return self



def invalid(rule: str, message: str, **kw) -> ValidationReport:
    """The report of a broken ``rule``; its message starts with the rule's name."""
    return ValidationReport(valid=False, rule=rule, message=f"{rule}: {message}", **kw)


def valid_report(root, num_visited, max_depth, nedge, **kw) -> ValidationReport:
    return ValidationReport(
        valid=True, rule=None,
        message=(f"valid: root {root}, {num_visited} vertices reached, max depth {max_depth}, "
                 f"nedge {nedge}"),
        nedge=nedge, num_visited=num_visited, max_depth=max_depth, **kw)


def parent_length(entries, n) -> ValidationReport:
    return invalid("parent-length", f"parent has {entries} entries, the graph has {n} vertices")


def parent_range(v, p, n, **kw) -> ValidationReport:
    return invalid("parent-range", f"vertex {v} has parent {p}, outside {{-1}} and [0, {n})",
                   vertex=v, **kw)


def root_self_parent(root, p, **kw) -> ValidationReport:
    return invalid("root-self-parent", f"root {root} has parent {p}, expected {root}",
                   vertex=root, **kw)


def parent_visited(v, p, **kw) -> ValidationReport:
    return invalid("parent-visited",
                   f"vertex {v} has parent {p}, but vertex {p} is unreached (parent -1)",
                   vertex=v, **kw)


def cycle_text(length, low, parent_of_low) -> str:
    return f"they enter a cycle of length {length} through vertex {low} (parent {parent_of_low})"


def no_cycles(start, root, text, low, **kw) -> ValidationReport:
    """``text``: how the pointers fail (``cycle_text``, or what is known of a long cycle)."""
    return invalid("no-cycles", f"parent pointers from vertex {start} never reach root {root}: "
                   f"{text}", vertex=int(low), **kw)


def root_depth(root, d, **kw) -> ValidationReport:
    return invalid("root-depth", f"root {root} has depth {d}, expected 0", vertex=root, **kw)


def tree_edge_in_graph(v, p, **kw) -> ValidationReport:
    return invalid("tree-edge-in-graph", f"tree edge ({v}, parent {p}) is not an input edge",
                   vertex=v, edge=(v, p), **kw)


def tree_edge_levels(v, p, lv, lp, **kw) -> ValidationReport:
    return invalid("tree-edge-levels", f"tree edge ({v}, parent {p}) has levels {lv} and {lp}; "
                   f"they must differ by exactly 1", vertex=v, edge=(v, p), **kw)


def _real(x) -> str:
    """A distance or weight as a message shows it: float32 values exactly, as Python floats
    (``0.10000000149011612``, ``inf``), never a NumPy scalar's repr."""
    return repr(float(x))


def _edge_name(i, u, v, w=None) -> str:
    """'input edge #i (u, v)', or without '#i' when checked on the CSR (no tuple index)."""
    ends = f"({u}, {v}" + (f", weight {_real(w)})" if w is not None else ")")
    return f"input edge {'' if i is None else f'#{i} '}{ends}"


def edge_levels(i, u, v, lu, lv, **kw) -> ValidationReport:
    """``i``: the tuple's index, or None for an edge of kernel 1's CSR."""
    return invalid("edge-levels", f"{_edge_name(i, u, v)} joins levels {lu} and {lv}; they "
                   f"differ by more than 1", vertex=u, edge=(u, v), edge_index=i, **kw)


def component(i, u, v, lu, lv, what="level", **kw) -> ValidationReport:
    """Edge #i joins a reached and an unreached vertex (level, or distance, -1)."""
    inside, outside, lin = (u, v, lu) if lu >= 0 else (v, u, lv)
    return invalid("component", f"{_edge_name(i, u, v)} joins reached vertex {inside} "
                   f"({what} {lin}) and unreached vertex {outside}",
                   vertex=outside, edge=(u, v), edge_index=i, **kw)


# ---- kernel 3 (SSSP) rules: distances are float32, sums fl(d + w) in float32 ---------------

def sssp_valid_report(root, num_visited, max_distance, nedge, **kw) -> ValidationReport:
    return ValidationReport(
        valid=True, rule=None,
        message=(f"valid: root {root}, {num_visited} vertices reached, max distance "
                 f"{_real(max_distance)}, nedge {nedge}"),
        nedge=nedge, num_visited=num_visited, max_distance=max_distance, **kw)


def distance_length(entries, n) -> ValidationReport:
    return invalid("distance-length", f"distance has {entries} entries, the graph has {n} "
                   "vertices")


def root_distance(root, d, **kw) -> ValidationReport:
    return invalid("root-distance", f"root {root} has distance {_real(d)}, expected 0",
                   vertex=root, **kw)


def distance_range(v, d, **kw) -> ValidationReport:
    return invalid("distance-range", f"reached vertex {v} has distance {_real(d)}; a reached "
                   "vertex's distance must be a finite number >= 0", vertex=v, **kw)


def unreached_distance(v, d, **kw) -> ValidationReport:
    return invalid("unreached-distance", f"unreached vertex {v} (parent -1) has distance "
                   f"{_real(d)}; expected -1 or inf", vertex=v, **kw)


def tree_edge_distance(v, p, dv, dp, **kw) -> ValidationReport:
    return invalid("tree-edge-distance", f"vertex {v} has distance {_real(dv)} but no input "
                   f"edge from its parent {p} (distance {_real(dp)}) gives it: d(v) != "
                   "float32(d(parent) + w) for every such edge", vertex=v, edge=(v, p), **kw)


def edge_distances(i, u, v, w, du, dv, **kw) -> ValidationReport:
    return invalid("edge-distances", f"{_edge_name(i, u, v, w)} joins distances {_real(du)} "
                   f"and {_real(dv)}: one exceeds the other plus the weight (in float32)",
                   vertex=u, edge=(u, v), edge_index=i, **kw)


# ---- input that is not a BFS result at all: InputError, not a report ----------------------

def check_root(root, n) -> int:
    root = int(root)
    if not 0 <= root < n:
        raise InputError(f"root {root} is outside [0, {n})")
    return root


def check_parent_array(parent) -> np.ndarray:
    parent = np.asarray(parent)
    if parent.ndim != 1 or parent.dtype.kind not in "iu":
        raise InputError(f"parent: expected a 1-D integer array, got shape {parent.shape} dtype "
                         f"{parent.dtype}")
    return parent


def edge_outside(i, u, v, n) -> InputError:
    return InputError(f"input edge #{i} ({u}, {v}) has an endpoint outside [0, {n})")
