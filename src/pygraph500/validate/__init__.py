"""Validation (Graph500 rules): ``rules`` names them and words every report, ``bfs_tree`` checks
an embedded BFS tree, ``shortest_paths`` an embedded kernel-3 (SSSP) result, both against
the tuples; ``on_csr`` checks both against kernel 1's CSR instead (the run's default);
``distributed.validate`` checks one spread over ranks with the same rules and messages."""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from .bfs_tree import check, count_component_edges, validate
from .rules import RULES, SSSP_RULES, TEPS_COUNTING_RULE, ValidationReport
from .shortest_paths import as_distances, check_sssp, validate_sssp
from .on_csr import count_component_edges_csr, validate_csr, validate_sssp_csr

__all__ = ["validate", "check", "count_component_edges", "ValidationReport", "RULES",
           "TEPS_COUNTING_RULE", "SSSP_RULES", "validate_sssp", "check_sssp", "as_distances",
           "validate_csr", "validate_sssp_csr", "count_component_edges_csr"]
