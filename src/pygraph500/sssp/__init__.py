"""SSSP algorithms (Graph500 kernel 3): one registry, name -> function obeying the SSSPResult
contract (``sssp.types``). Filled in by the algorithm modules beside this one."""
from .types import SSSPResult, UNREACHED_PARENT

__all__ = ["SSSPResult", "UNREACHED_PARENT"]
