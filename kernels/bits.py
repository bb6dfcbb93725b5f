"""Bit tricks shared by the kernels (numba + numpy only)."""
from __future__ import annotations

import numpy as np

from kernels._jit import njit

_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
# _DEBRUIJN_INDEX[(2**i * _DEBRUIJN mod 2**64) >> 58] == i for i in 0..63
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i


@njit("int64(uint64)")
def lowest_bit(b):
    """Index (0..63) of the lowest set bit of ``b`` (uint64, b != 0), without a loop or a branch: the isolated
    bit times a De Bruijn constant puts a distinct 6-bit pattern in the top bits."""
    low = b & (~b + np.uint64(1))
    return _DEBRUIJN_INDEX[(low * _DEBRUIJN) >> np.uint64(58)]
