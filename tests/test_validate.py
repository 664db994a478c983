"""validate(): valid trees from an independent BFS (scipy) pass with the right nedge and depths;
each kind of broken tree is rejected under the right rule; a hypothesis property compares the
verdict, rule and offender with brute-force oracles."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from scipy.sparse.csgraph import breadth_first_order, shortest_path

from pygraph500.errors import InputError, ValidationError
from pygraph500.graph import EdgeList
from pygraph500.validate import (RULES, TEPS_COUNTING_RULE, ValidationReport, check,
                                 count_component_edges, validate)
from pygraph500.validate import tree_kernels
from pygraph500.validate.bfs_tree import compute_depth


# ------------------------------------------------------------------------------------ oracles

def edge_list(src, dst, n) -> EdgeList:
    return EdgeList(np.asarray(src, np.int64), np.asarray(dst, np.int64), n)


def adjacency(e: EdgeList):
    n = e.num_vertices
    return sp.csr_matrix((np.ones(e.num_edges), (e.src, e.dst)), shape=(n, n))


def scipy_parent(e: EdgeList, root: int) -> np.ndarray:
    _, pred = breadth_first_order(adjacency(e), root, directed=False, return_predecessors=True)
    parent = pred.astype(np.int64)
    parent[parent == -9999] = -1
    parent[root] = root
    return parent


def scipy_depth(e: EdgeList, root: int) -> np.ndarray:
    d = shortest_path(adjacency(e), directed=False, unweighted=True, indices=root)
    return np.where(np.isinf(d), -1, d).astype(np.int64)


def brute_nedge(e: EdgeList, parent) -> int:
    src, dst = e.src, e.dst
    return int(np.sum((src != dst) & (parent[src] >= 0) & (parent[dst] >= 0)))


def is_bfs_tree(e: EdgeList, parent, root) -> bool:
    """Independent characterisation: exactly the root's component is reached and every
    reached v != root has as parent an input neighbour one BFS level (scipy) closer."""
    n = e.num_vertices
    parent = np.asarray(parent)
    if len(parent) != n or parent[root] != root:
        return False
    dist = scipy_depth(e, root)
    pairs = {(int(a), int(b)) for a, b in zip(e.src, e.dst) if a != b}
    pairs |= {(b, a) for a, b in pairs}
    for v in range(n):
        p = int(parent[v])
        if (p != -1) != (dist[v] >= 0):
            return False
        if v == root or p == -1:
            continue
        if not 0 <= p < n or (v, p) not in pairs or dist[p] != dist[v] - 1:
            return False
    return True


def brute_rules(e: EdgeList, parent, root):
    """The rules in report order, by brute force: (rule, offender) or (None, None)."""
    n = e.num_vertices
    parent = [int(x) for x in parent]
    if len(parent) != n:
        return "parent-length", None
    for v, p in enumerate(parent):
        if p != -1 and not 0 <= p < n:
            return "parent-range", v
    if parent[root] != root:
        return "root-self-parent", root
    for v, p in enumerate(parent):
        if p != -1 and parent[p] == -1:
            return "parent-visited", v
    depth = [-1] * n
    for v in range(n):
        if parent[v] == -1:
            continue
        x, d = v, 0
        while x != root and d <= n:
            x, d = parent[x], d + 1
        if x != root:  # walked > n steps: x is on a cycle; report its smallest vertex
            cyc, y = [x], parent[x]
            while y != x:
                cyc.append(y)
                y = parent[y]
            return "no-cycles", min(cyc)
        depth[v] = d
    pairs = {(int(a), int(b)) for a, b in zip(e.src, e.dst) if a != b}
    pairs |= {(b, a) for a, b in pairs}
    for v in range(n):
        if v != root and parent[v] != -1 and (v, parent[v]) not in pairs:
            return "tree-edge-in-graph", v
    for i, (a, b) in enumerate(zip(e.src, e.dst)):
        if a != b and depth[a] >= 0 and depth[b] >= 0 and abs(depth[a] - depth[b]) > 1:
            return "edge-levels", i
    for i, (a, b) in enumerate(zip(e.src, e.dst)):
        if (depth[a] >= 0) != (depth[b] >= 0):
            return "component", i
    return None, None


def assert_valid(e, parent, root):
    r = validate(e, parent, root)
    assert r.valid, r.message
    assert r.rule is None
    assert r.nedge == brute_nedge(e, parent) == count_component_edges(e, parent)
    reached = parent >= 0
    assert r.num_visited == int(reached.sum())
    assert r.num_self_loops == int(np.sum((e.src == e.dst) & reached[e.src]))
    np.testing.assert_array_equal(r.depth, scipy_depth(e, root))
    assert r.max_depth == int(r.depth.max())
    return r


def assert_invalid(e, parent, root, rule, **kw):
    r = validate(e, parent, root, **kw)
    assert not r.valid
    assert r.rule == rule, r.message
    assert r.message.startswith(rule + ":") and "\n" not in r.message
    assert r.nedge == 0
    return r


# ------------------------------------------------------------------------- a hand-made graph

# component A {0..4} with a same-level edge 1-2, duplicates (0-1 twice, 3-4 both ways) and a
# self-loop at 1; component B {5, 6, 7} a triangle with a self-loop at 7; 8 isolated; 9 has
# only a self-loop.
HAND = edge_list(
    [0, 0, 1, 2, 3, 1, 0, 4, 1, 5, 6, 7, 7, 9],
    [1, 2, 3, 3, 4, 1, 1, 3, 2, 6, 7, 5, 7, 9],
    10,
)
HAND_PARENT = np.array([0, 0, 0, 1, 3, -1, -1, -1, -1, -1])  # a valid BFS tree from 0


def hand_parent(**changes):
    p = HAND_PARENT.copy()
    for v, x in changes.items():
        p[int(v[1:])] = x
    return p


def test_hand_graph_valid_and_nedge_counts_duplicates_not_self_loops():
    r = assert_valid(HAND, HAND_PARENT, 0)
    # tuples inside {0..4}: 0-1, 0-2, 1-3, 2-3, 3-4, 0-1 (dup), 4-3 (dup), 1-2; not 1-1
    assert r.nedge == 8
    assert r.num_self_loops == 1
    assert r.num_visited == 5 and r.max_depth == 3
    assert r.message.startswith("valid")
    # the alternative tree (3 under 2) is just as valid
    assert validate(HAND, hand_parent(v3=2), 0).valid


@pytest.mark.parametrize("root, nedge", [(5, 3), (6, 3), (8, 0), (9, 0), (3, 8)])
def test_hand_graph_other_roots(root, nedge):
    parent = scipy_parent(HAND, root)
    assert assert_valid(HAND, parent, root).nedge == nedge


def test_self_loop_only_root():
    r = assert_valid(HAND, scipy_parent(HAND, 9), 9)
    assert (r.nedge, r.num_self_loops, r.num_visited, r.max_depth) == (0, 1, 1, 0)


def test_count_component_edges_without_validation():
    # counts on any parent array, valid or not
    assert count_component_edges(HAND, HAND_PARENT) == 8
    assert count_component_edges(HAND, hand_parent(v4=0, v8=0, v9=1)) == 8
    assert count_component_edges(HAND, hand_parent(v5=6, v6=7, v7=5)) == 11
    assert count_component_edges(HAND, np.full(10, -1)) == 0
    with pytest.raises(InputError):
        count_component_edges(edge_list([0, 1], [1, 10], 10), HAND_PARENT)
    with pytest.raises(InputError):
        count_component_edges(HAND, HAND_PARENT[:5])


def test_teps_rule_constant():
    assert isinstance(TEPS_COUNTING_RULE, str) and "\n" not in TEPS_COUNTING_RULE
    assert "self-loop" in TEPS_COUNTING_RULE


# ---------------------------------------------------------------------------- random graphs

def random_edges(rng, n, m, loops=5):
    src = (rng.random(m) ** 2 * n).astype(np.int64)  # skewed degrees
    dst = rng.integers(0, n, m)
    k = rng.integers(0, m, loops)
    dst[k] = src[k]  # some self-loops
    dup = rng.integers(0, m, m // 10)
    src = np.concatenate([src, dst[dup]])  # some duplicates, reversed
    dst = np.concatenate([dst, src[dup]])
    return edge_list(src, dst, n)


@pytest.mark.parametrize("seed", range(6))
def test_random_graph_scipy_parents_valid(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 3000))
    e = random_edges(rng, n, int(rng.integers(n // 2, 8 * n)))
    for root in rng.integers(0, n, 3):
        assert_valid(e, scipy_parent(e, int(root)), int(root))


def test_large_graph_parallel_path_first_offenders():
    # big enough for the multi-threaded kernels; offenders sit in many different chunks
    rng = np.random.default_rng(7)
    n = 1 << 14
    e = random_edges(rng, n, 1 << 17)
    root = int(e.src[0])
    parent = scipy_parent(e, root)
    assert_valid(e, parent, root)
    reached = np.flatnonzero(parent >= 0)
    leaves = np.setdiff1d(reached, np.append(parent[parent >= 0], root))
    picked = rng.choice(leaves, 40, replace=False)

    p = parent.copy()
    p[picked] = -1
    r = assert_invalid(e, p, root, "component")
    inside = p >= 0
    assert r.edge_index == int(np.argmax(inside[e.src] != inside[e.dst]))

    p = parent.copy()
    p[picked] = root
    adjacent = set(e.dst[e.src == root].tolist()) | set(e.src[e.dst == root].tolist())
    expect = min(int(v) for v in picked if int(v) not in adjacent)
    assert assert_invalid(e, p, root, "tree-edge-in-graph").vertex == expect


def test_long_path_needs_wide_levels():
    # depth up to 299 > int8: exercises the narrowed level dtype and many pointer-jump rounds
    n = 300
    rng = np.random.default_rng(3)
    lab = rng.permutation(n)
    e = edge_list(lab[:-1], lab[1:], n)
    root = int(lab[0])
    r = assert_valid(e, scipy_parent(e, root), root)
    assert r.max_depth == n - 1


def test_parent_any_integer_dtype():
    for dt in (np.int32, np.int16, np.uint32, np.int8):
        p = np.where(HAND_PARENT < 0, 255 if np.dtype(dt).kind == "u" else -1, HAND_PARENT)
        r = validate(HAND, p.astype(dt), 0)
        if np.dtype(dt).kind == "u":  # no -1 in an unsigned dtype: out of range
            assert r.rule == "parent-range" and r.vertex == 5
        else:
            assert r.valid, r.message
    assert validate(HAND, list(HAND_PARENT), 0).valid
    with pytest.raises(InputError):
        validate(HAND, HAND_PARENT.astype(float), 0)


# ------------------------------------------------------------------------- broken trees

def test_cycle_through_tree_edges():
    # 3 <-> 4: both are input edges, the pointers never reach the root
    r = assert_invalid(HAND, hand_parent(v3=4), 0, "no-cycles")
    assert r.vertex == 3 and "length 2" in r.message


def test_cycle_outside_component():
    # the triangle 5 -> 6 -> 7 -> 5 given parents although 0 cannot reach it
    r = assert_invalid(HAND, hand_parent(v5=6, v6=7, v7=5), 0, "no-cycles")
    assert r.vertex == 5 and "length 3" in r.message


def test_self_parent_not_root_is_a_cycle():
    r = assert_invalid(HAND, hand_parent(v4=4), 0, "no-cycles")
    assert r.vertex == 4 and "length 1" in r.message


def test_wrong_level_parent_same_level_neighbour():
    # 2's parent becomes 1: {1, 2} IS an input edge, but 1 sits at 2's level, so 2 drops to
    # level 2 and input edge 0-2 now spans levels 0..2
    r = assert_invalid(HAND, hand_parent(v2=1), 0, "edge-levels")
    assert r.edge_index == 1 and r.edge == (0, 2)
    # the same tree with the BFS's (old) level claim breaks the tree-edge rule directly
    claim = np.array([0, 1, 1, 2, 3, -1, -1, -1, -1, -1])
    r = assert_invalid(HAND, hand_parent(v2=1), 0, "tree-edge-levels", depth=claim)
    assert r.vertex == 2 and r.edge == (2, 1)


def test_wrong_level_parent_deeper_neighbour():
    # 1's parent becomes its level-2 neighbour 3 (an input edge; 3 now hangs on 2, so no
    # cycle): 1 drops to level 3 and input edge 0-1 spans levels 0..3
    r = assert_invalid(HAND, hand_parent(v1=3, v3=2), 0, "edge-levels")
    assert r.edge == (0, 1) and r.edge_index == 0


def test_parent_not_a_neighbour():
    r = assert_invalid(HAND, hand_parent(v4=0), 0, "tree-edge-in-graph")
    assert r.vertex == 4 and r.edge == (4, 0)


def test_component_vertex_left_out():
    r = assert_invalid(HAND, hand_parent(v4=-1), 0, "component")
    assert r.vertex == 4 and r.edge_index == 4 and r.edge == (3, 4)


@pytest.mark.parametrize("changes, rule, vertex", [
    (dict(v8=0), "tree-edge-in-graph", 8),         # isolated vertex hung on the root
    (dict(v5=0), "tree-edge-in-graph", 5),         # other component's vertex hung on the root
    (dict(v5=0, v6=5, v7=6), "tree-edge-in-graph", 5),
    (dict(v5=6), "parent-visited", 5),             # parent left unreached
    (dict(v9=9), "no-cycles", 9),                  # own parent through its self-loop
])
def test_vertex_outside_component_given_a_parent(changes, rule, vertex):
    r = assert_invalid(HAND, hand_parent(**changes), 0, rule)
    assert r.vertex == vertex


@pytest.mark.parametrize("bad", [10, 11, -2, 2**40])
def test_parent_out_of_range(bad):
    r = assert_invalid(HAND, hand_parent(v3=bad), 0, "parent-range")
    assert r.vertex == 3 and str(bad) in r.message


def test_parent_out_of_range_uint64():
    p = HAND_PARENT.astype(np.uint64)
    p[5:] = np.iinfo(np.uint64).max  # would wrap to -1 as int64
    r = assert_invalid(HAND, p, 0, "parent-range")
    assert r.vertex == 5


@pytest.mark.parametrize("p0", [1, -1])
def test_root_not_its_own_parent(p0):
    r = assert_invalid(HAND, hand_parent(v0=p0), 0, "root-self-parent")
    assert r.vertex == 0


@pytest.mark.parametrize("length", [0, 9, 11])
def test_wrong_length(length):
    p = np.resize(HAND_PARENT, length)
    assert_invalid(HAND, p, 0, "parent-length")


def test_depth_claim_rules():
    good = scipy_depth(HAND, 0)
    assert validate(HAND, HAND_PARENT, 0, depth=good).valid
    bad = good.copy()
    bad[0] = 1
    assert_invalid(HAND, HAND_PARENT, 0, "root-depth", depth=bad)
    bad = good.copy()
    bad[4] = 7
    assert assert_invalid(HAND, HAND_PARENT, 0, "tree-edge-levels", depth=bad).vertex == 4
    bad = good.copy()
    bad[3] = -1
    assert assert_invalid(HAND, HAND_PARENT, 0, "tree-edge-levels", depth=bad).vertex == 3
    # unreached entries of the claim are ignored
    assert validate(HAND, HAND_PARENT, 0, depth=np.where(good < 0, 99, good)).valid


def test_first_offender_is_reported():
    # several vertices hung on non-neighbours: the smallest is named
    r = assert_invalid(HAND, hand_parent(v4=0, v8=0, v9=1), 0, "tree-edge-in-graph")
    assert r.vertex == 4
    r = assert_invalid(HAND, hand_parent(v3=-5, v4=99), 0, "parent-range")
    assert r.vertex == 3


def test_bad_input_raises():
    with pytest.raises(InputError):
        validate(HAND, HAND_PARENT, 10)
    with pytest.raises(InputError):
        validate(HAND, HAND_PARENT, -1)
    with pytest.raises(InputError):
        validate(edge_list([0, 1], [1, 10], 10), HAND_PARENT, 0)
    with pytest.raises(InputError):
        validate(HAND, HAND_PARENT.reshape(2, 5), 0)


def test_check_raises_validation_error():
    assert isinstance(check(HAND, HAND_PARENT, 0), ValidationReport)
    with pytest.raises(ValidationError, match="tree-edge-in-graph") as info:
        check(HAND, hand_parent(v4=0), 0)
    assert info.value.report.rule == "tree-edge-in-graph"


# ------------------------------------------------------------------------ property test

@st.composite
def graphs_and_roots(draw):
    n = draw(st.integers(1, 24))
    m = draw(st.integers(0, 3 * n))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    root = draw(st.integers(0, n - 1))
    return edge_list(src, dst, n), root


@settings(max_examples=150, deadline=None)
@given(graphs_and_roots(), st.data())
def test_property_scipy_trees_valid_and_mutations_judged_right(g, data):
    e, root = g
    parent = scipy_parent(e, root)
    assert_valid(e, parent, root)
    movable = [v for v in range(e.num_vertices) if parent[v] >= 0 and v != root]
    if not movable:
        return
    v = data.draw(st.sampled_from(movable))
    new = data.draw(st.integers(-1, e.num_vertices - 1).filter(lambda x: x != parent[v]))
    mutated = parent.copy()
    mutated[v] = new
    r = validate(e, mutated, root)
    assert r.valid == is_bfs_tree(e, mutated, root), r.message
    rule, offender = brute_rules(e, mutated, root)
    assert r.rule == rule, (r.message, rule, offender)
    if rule in ("edge-levels", "component"):
        assert r.edge_index == offender
    elif rule is not None:
        assert r.vertex == offender
    if r.valid:
        assert r.nedge == brute_nedge(e, mutated)
    else:
        assert r.rule in RULES


@pytest.mark.parametrize("cap", [1, 3, 1 << 14])
def test_depth_walks_equal_pointer_jumping_or_give_way(cap, threads):
    rng = np.random.default_rng(cap)
    n = 5000
    order = rng.permutation(n)  # a random tree: each vertex hangs under an earlier one
    parent = np.full(n, -1, np.int64)
    root = int(order[0])
    parent[root] = root
    for i in range(1, n - 100):  # the last 100 stay unreached
        parent[order[i]] = order[int(rng.integers(max(0, i - 3), i))]  # deep: about n/2 levels
    brute = brute_depth(parent, root)
    top = np.iinfo(np.int64).max
    depth = np.empty(n, np.int64)
    assert tree_kernels.start_depths(parent, depth) == (n, n - 100)  # parents in range, # reached
    depth[root] = 0
    end, bad_visit = tree_kernels.walk_depths(parent, root, depth, cap, top)
    assert end == tree_kernels.DONE or cap < brute.max()  # no walk is longer than the tree is deep
    if end == tree_kernels.DONE:
        np.testing.assert_array_equal(depth, brute)
        assert bad_visit == n
    np.testing.assert_array_equal(validate_depth(parent, root), brute)  # falls back when needed
    shallow = parent.copy()  # each vertex under any earlier one: about ln(n) levels
    for i in range(1, n - 100):
        shallow[order[i]] = order[int(rng.integers(0, i))]
    got = validate_depth(shallow, root)
    assert got.dtype == np.int8
    np.testing.assert_array_equal(got, brute_depth(shallow, root))
    narrow = np.empty(n, np.int8)  # too narrow for this tree: DEEP, unless a walk is LONG first
    tree_kernels.start_depths(parent, narrow)
    narrow[root] = 0
    assert tree_kernels.walk_depths(parent, root, narrow, cap, 127)[0] != tree_kernels.DONE
    cyc = parent.copy()
    a, b = int(order[10]), int(order[11])
    cyc[a], cyc[b] = b, a  # a two-cycle: never done, whatever the cap
    tree_kernels.start_depths(cyc, depth)
    depth[root] = 0
    assert tree_kernels.walk_depths(cyc, root, depth, cap, top)[0] == tree_kernels.LONG
    # an unreached parent: found by the walk of the vertex under it, or after a stopped walk
    cut = parent.copy()
    below = [v for v in order[200:] if cut[v] >= 0 and cut[v] != root]
    for v in sorted(below[:3]):
        cut[cut[v]] = -1  # v's parent now unreached
    first = min(v for v in range(n) if cut[v] >= 0 and cut[cut[v]] == -1)
    tree_kernels.start_depths(cut, depth)
    depth[root] = 0
    end, bad_visit = tree_kernels.walk_depths(cut, root, depth, cap, top)
    assert bad_visit == first if end == tree_kernels.DONE else end == tree_kernels.LONG
    for dtype in (np.int8, np.int64):  # int8: DEEP, then int64
        depth = np.empty(n, dtype)
        tree_kernels.start_depths(cut, depth)
        assert compute_depth(cut, root, depth)[:2] == (None, first)


def test_depth_walks_held_back_give_the_same_depths_and_offenders(threads):
    """Walks whose parent has no depth yet wait in a ring of ``tree_kernels.WAITING``: with a
    hundred vertices a chunk under random parents, the ring fills and turns over."""
    rng = np.random.default_rng(7)
    n = 100 * tree_kernels.NCHUNKS
    order = rng.permutation(n)
    parent = np.full(n, -1, np.int64)
    root = int(order[0])
    parent[root] = root
    for i in range(1, n - 100):  # under any earlier vertex: about ln(n) levels
        parent[order[i]] = order[int(rng.integers(0, i))]
    held = sum(parent[v] > v for v in range(n) if parent[v] >= 0) / tree_kernels.NCHUNKS
    assert held > 2 * tree_kernels.WAITING  # walks a chunk whose parent comes later
    top = np.iinfo(np.int64).max
    depth = np.empty(n, np.int64)
    tree_kernels.start_depths(parent, depth)
    depth[root] = 0
    assert tree_kernels.walk_depths(parent, root, depth, 1 << 14, top) == (tree_kernels.DONE, n)
    np.testing.assert_array_equal(depth, brute_depth(parent, root))
    cut = parent.copy()
    for v in rng.choice(order[1000:n - 100], 50, replace=False):
        if cut[v] >= 0 and cut[v] != root:
            cut[cut[v]] = -1  # v's parent now unreached
    first = min(v for v in range(n) if cut[v] >= 0 and cut[cut[v]] == -1)
    tree_kernels.start_depths(cut, depth)
    depth[root] = 0
    assert tree_kernels.walk_depths(cut, root, depth, 1 << 14, top) == (tree_kernels.DONE, first)
    cyc = parent.copy()
    a, b = int(order[5000]), int(order[5001])
    cyc[a], cyc[b] = b, a  # a two-cycle
    tree_kernels.start_depths(cyc, depth)
    depth[root] = 0
    assert tree_kernels.walk_depths(cyc, root, depth, 1 << 14, top)[0] == tree_kernels.LONG


def brute_depth(parent, root):
    brute = np.full(parent.shape[0], -1, np.int64)
    for v in range(parent.shape[0]):
        if parent[v] >= 0:
            x, d = v, 0
            while x != root:
                x, d = parent[x], d + 1
            brute[v] = d
    return brute


def validate_depth(parent, root):
    depth = np.empty(parent.shape[0], np.int8)  # as pointer_rules: int64 when too deep
    tree_kernels.start_depths(parent, depth)
    depth, bad_visit, start, _ = compute_depth(parent, root, depth)
    assert bad_visit == parent.shape[0] and start == -1
    return depth
