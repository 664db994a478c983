"""Output: the official Graph500 text block, level tables, progress on stderr."""
from .official import format_levels, format_official
from .progress import Progress

__all__ = ["format_official", "format_levels", "Progress"]
