"""Output: the official Graph500 block and the JSON document of a run (``result``), their text
(``official``: the block, level tables), progress on stderr, plots, comparisons, and what a
list submission asks for (``submission``)."""
from .compare import compare_results
from .official import (format_dist_levels, format_levels, format_network, format_official,
                       format_phases)
from .plots import plot_result
from .progress import Progress
from .result import official_block, result_json
from .submission import submission_report

__all__ = ["official_block", "result_json", "format_official", "format_levels",
           "format_dist_levels", "format_phases", "format_network", "Progress", "plot_result", "compare_results",
           "submission_report"]
