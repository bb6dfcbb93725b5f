"""kernels.bits: the branch-free lowest set bit."""
import numpy as np

from kernels.bits import lowest_bit


def test_lowest_bit_of_every_single_bit_and_of_mixed_sets():
    for i in range(64):
        assert lowest_bit(np.uint64(1) << np.uint64(i)) == i
        above = np.uint64(0xFFFFFFFFFFFFFFFF) << np.uint64(i)       # bit i and everything above it
        assert lowest_bit(above) == i
    rng = np.random.default_rng(7)
    for b in rng.integers(1, 2**63, size=2000, dtype=np.int64):
        want = next(i for i in range(64) if (int(b) >> i) & 1)
        assert lowest_bit(np.uint64(b)) == want
