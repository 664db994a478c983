"""Validation (Graph500 rules): ``rules`` names them and words every report, ``bfs_tree`` checks
an embedded BFS tree; ``distributed.validate`` checks one spread over ranks with the same
rules and messages."""
from .bfs_tree import check, count_component_edges, validate
from .rules import RULES, TEPS_COUNTING_RULE, ValidationReport

__all__ = ["validate", "check", "count_component_edges", "ValidationReport", "RULES",
           "TEPS_COUNTING_RULE"]
