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


@njit("int64(int8[::1], int64)", inline="always")
def nth_set(mask, j):
    """Index of the ``j``-th (0-based) nonzero entry of ``mask`` (int8[:], an action mask); -1 if it has fewer.

    The first 8 entries are read without a branch (a = how many of them have at most j nonzero entries up to and
    including them, which is the answer when it lies among them): the exit of a plain scan was mispredicted on
    most picks. Past them, one branch an entry."""
    a0 = 0
    if mask.shape[0] >= 8:
        c = 0
        a = 0
        for i in range(8):
            c += mask[i] != 0
            a += c <= j
        if a < 8:
            return a
        j -= c
        a0 = 8
    for a in range(a0, mask.shape[0]):
        j -= mask[a] != 0
        if j < 0:
            return a
    return -1


@njit("int64(int64)")
def nonneg(x):
    """``x`` (0 <= x < 2**32, e.g. a count or an index read from int32 state) as an int64 that LLVM knows is not
    negative (its upper 32 bits are zero): an array index computed from it compiles without Numba's negative-index
    wrap-around (a compare and a conditional move, or a shift and a mask, per access)."""
    return np.int64(np.uint32(x))


@njit("int64(int8[::1])")
def only_set(mask):
    """Index of the first nonzero entry of ``mask`` (int8[:], an action mask that has one): the forced action of
    a node with a single legal action. Every game loop takes it so."""
    a = 0
    while mask[a] == 0:
        a += 1
    return a


@njit("boolean(int64, int8[::1])")
def is_set(a, mask):
    """Whether ``a`` indexes a nonzero entry of ``mask`` (int8[:]): a strategy's answer is a legal action."""
    return 0 <= a < mask.shape[0] and mask[a] != 0
