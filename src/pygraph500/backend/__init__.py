"""Array-module choice, device facts and memory planning."""
from .memory import available_memory, estimate_run_bytes, format_bytes, require_memory
from .info import system_info
from .threads import check_threads, set_threads

__all__ = ["available_memory", "estimate_run_bytes", "format_bytes", "require_memory",
           "check_threads", "set_threads", "system_info"]
