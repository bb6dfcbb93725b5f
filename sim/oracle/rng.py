"""The RNG contract (RNG_CONTRACT = 1) in plain Python, written from the contract text in kernels/rng.py.

* ``mix(x)``: the SplitMix64 output for state ``x`` (add the golden gamma, then two xor-shift-multiply rounds).
* Stream ``(seed, point, game, stream)``: ``h = mix(seed); h = mix(h ^ point); h = mix(h ^ game);
  h = mix(h ^ stream)``; the xoshiro256** state is ``mix(h), mix(h + gamma), mix(h + 2 gamma), mix(h + 3 gamma)``
  (the next four SplitMix64 outputs started from state ``h``).
* ``bounded(n)``: Lemire's multiply-shift on the top 32 bits of one output, with rejection (exactly uniform).
* ``shuffle(a)``: Fisher–Yates, ``for i = n-1 .. 1: j = bounded(i + 1); swap a[i], a[j]``.

Reference vector: xoshiro256** from state [1, 2, 3, 4] yields 11520, 0, 1509978240.
"""

from __future__ import annotations

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix(x: int) -> int:
    """SplitMix64 output for state ``x``."""
    z = (x + GAMMA) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class Xoshiro256:
    """xoshiro256** generator with the contract's bounded draws and shuffle."""

    __slots__ = ("s0", "s1", "s2", "s3")

    def __init__(self, state):
        self.s0, self.s1, self.s2, self.s3 = (int(v) & M64 for v in state)

    @classmethod
    def stream(cls, seed: int, point: int, game: int, stream: int) -> Xoshiro256:
        """The generator of stream ``(seed, point, game, stream)``."""
        h = mix(seed & M64)
        h = mix(h ^ (point & M64))
        h = mix(h ^ (game & M64))
        h = mix(h ^ (stream & M64))
        return cls([mix((h + i * GAMMA) & M64) for i in range(4)])

    def next_u64(self) -> int:
        s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
        x = (s1 * 5) & M64
        result = ((((x << 7) | (x >> 57)) & M64) * 9) & M64
        t = (s1 << 17) & M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & M64
        self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3
        return result

    def bounded(self, n: int) -> int:
        """Uniform integer in [0, n), 1 <= n < 2**32 (Lemire, 32-bit, with rejection)."""
        m = (self.next_u64() >> 32) * n
        lo = m & M32
        if lo < n:
            t = ((1 << 32) - n) % n
            while lo < t:
                m = (self.next_u64() >> 32) * n
                lo = m & M32
        return m >> 32

    def shuffle(self, a: list) -> None:
        """Fisher–Yates shuffle of list ``a`` in place, i = len-1 .. 1."""
        for i in range(len(a) - 1, 0, -1):
            j = self.bounded(i + 1)
            a[i], a[j] = a[j], a[i]
