"""kernels.bits: the branch-free lowest set bit."""

import numpy as np

from kernels.bits import lowest_bit


def test_lowest_bit_of_every_single_bit_and_of_mixed_sets():
    for i in range(64):
        assert lowest_bit(np.uint64(1) << np.uint64(i)) == i
        above = np.uint64(0xFFFFFFFFFFFFFFFF) << np.uint64(i)  # bit i and everything above it
        assert lowest_bit(above) == i
    rng = np.random.default_rng(7)
    for b in rng.integers(1, 2**63, size=2000, dtype=np.int64):
        want = next(i for i in range(64) if (int(b) >> i) & 1)
        assert lowest_bit(np.uint64(b)) == want


def test_nonneg_keeps_every_value_in_range():
    from kernels.bits import nonneg

    for x in (0, 1, 5, 63, 2**31 - 1, 2**31, 2**32 - 1):
        assert nonneg(x) == x


def test_nth_set_finds_the_jth_entry_inside_and_past_the_first_block():
    from kernels.bits import nth_set

    rng = np.random.default_rng(3)
    for n in (3, 8, 9, 57):
        for _ in range(200):
            mask = (rng.random(n) < 0.3).astype(np.int8)
            idx = np.flatnonzero(mask)
            for j in range(len(idx) + 1):
                assert nth_set(mask, j) == (idx[j] if j < len(idx) else -1)
