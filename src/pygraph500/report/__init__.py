"""Output: the official Graph500 text block, level tables, progress on stderr, plots, comparisons."""
from .compare import compare_results
from .official import format_dist_levels, format_levels, format_official
from .plots import plot_result
from .progress import Progress

__all__ = ["format_official", "format_levels", "format_dist_levels", "Progress", "plot_result", "compare_results"]
