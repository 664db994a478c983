"""Validation (Graph500 rules): ``rules`` names them and words every report, ``bfs_tree`` checks
an embedded BFS tree, ``shortest_paths`` an embedded kernel-3 (SSSP) result; ``distributed.validate`` checks one spread over ranks with the same
rules and messages."""
from .bfs_tree import check, count_component_edges, validate
from .rules import RULES, SSSP_RULES, TEPS_COUNTING_RULE, ValidationReport
from .shortest_paths import as_distances, check_sssp, validate_sssp

__all__ = ["validate", "check", "count_component_edges", "ValidationReport", "RULES",
           "TEPS_COUNTING_RULE", "SSSP_RULES", "validate_sssp", "check_sssp", "as_distances"]
