"""numba's cache of the package (primitives.numba_cache): package functions compile for types,
not literal values. (A read-only install's cache: ``test_wheel.py``, on the installed wheel,
whose one cold compile serves both.)"""
import numpy as np
from numba import njit, types

from pygraph500.primitives.direction import go_bottom_up


@njit
def _outside_callee(x, flag):  # not in the package: numba's own rule applies
    return x + 1 if flag else x


@njit
def _caller(nf):
    prev = 0  # a literal 0 on the first typing pass
    for _ in range(2):
        go_bottom_up(nf, prev, 100, 10, 15.0)
        _outside_callee(prev, True)
        prev += 1
    return prev


def test_package_functions_compile_for_types_not_literal_values():
    _caller(np.int64(5))
    assert go_bottom_up.signatures
    for sig in go_bottom_up.signatures:
        assert not any(isinstance(t, types.Literal) for t in sig), sig
    # the oracle: numba itself does compile the outside function for the literal values
    assert any(isinstance(t, types.Literal) for sig in _outside_callee.signatures for t in sig)
