"""The RNG contract, kernel side (RNG_CONTRACT = 1).

Every random draw of game ``g`` comes from a stream keyed by ``(seed, point, g, stream)``:

    h = mix(seed); h = mix(h ^ point); h = mix(h ^ g); h = mix(h ^ stream)
    xoshiro256** state = the next four SplitMix64 outputs started from state h

where ``mix(x)`` is the SplitMix64 output for state ``x`` (add the golden gamma, then the two xor-shift-multiply
rounds). Stream 0 is game chance (shuffles, dice); stream ``1 + seat`` is that seat's strategy randomness, so a change
of strategy never moves the dice (common random numbers). ``point`` is a sweep-point id (0 for a plain run).

Bounded integers use Lemire's multiply-shift on the top 32 bits with rejection (exactly uniform); probabilities are
integer thresholds. A result therefore depends only on (seed, scenario, game index), never on threads or chunks.
Reference vector: xoshiro256** from state [1, 2, 3, 4] yields 11520, 0, 1509978240 (tests/kernels/test_rng.py).
"""

from __future__ import annotations

import numpy as np

from kernels._jit import njit
from kernels.bits import nth_set

RNG_CONTRACT = 1
N_STREAMS_MAX = 8  # chance + up to 7 seats

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)


@njit("uint64(uint64)")
def mix(x):
    """SplitMix64 output for state ``x`` (uint64 -> uint64)."""
    z = np.uint64(x) + _GAMMA
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit
def game_key(seed, point, game):
    """The part of a stream's key its game's streams share: mix(mix(mix(seed) ^ point) ^ game) (uint64)."""
    h = mix(np.uint64(seed))
    h = mix(h ^ np.uint64(point))
    return mix(h ^ np.uint64(game))


@njit
def seed_row(state, row, key, stream):
    """Fill ``state[row, 0:4]`` with the xoshiro256** state of stream ``stream`` of the game whose `game_key` is
    ``key``: the next four SplitMix64 outputs from state mix(key ^ stream)."""
    x = mix(np.uint64(key) ^ np.uint64(stream))
    for i in range(4):
        state[row, i] = mix(x)
        x = x + _GAMMA


@njit
def seed_stream(state, row, seed, point, game, stream):
    """Fill ``state[row, 0:4]`` (uint64[:, 4]) with the xoshiro256** state of stream (seed, point, game, stream)."""
    seed_row(state, row, game_key(seed, point, game), stream)


@njit("uint64(uint64, int64)")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit("uint64(uint64[:, ::1], int64)")
def next_u64(state, row):
    """Next xoshiro256** output of stream ``row`` (uint64)."""
    s0 = state[row, 0]
    s1 = state[row, 1]
    s2 = state[row, 2]
    s3 = state[row, 3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[row, 0] = s0
    state[row, 1] = s1
    state[row, 2] = s2
    state[row, 3] = s3
    return result


@njit("int64(uint64[:, ::1], int64, int64)")
def bounded(state, row, n):
    """Uniform integer in [0, n) (int64), 1 <= n < 2**32; Lemire's method on 32 bits with rejection."""
    un = np.uint64(n)
    m = (next_u64(state, row) >> np.uint64(32)) * un
    lo = m & _MASK32
    if lo < un:
        t = (np.uint64(4294967296) - un) % un
        while lo < t:
            m = (next_u64(state, row) >> np.uint64(32)) * un
            lo = m & _MASK32
    return np.int64(m >> np.uint64(32))


@njit("int64(uint64[:, ::1], int64, int8[::1], int64)", inline="always")
def pick_legal(state, row, mask, n_legal):
    """A uniformly random legal action: the j-th set entry of ``mask`` (int8[N_ACTIONS], ``n_legal`` entries set)
    for j = bounded(state, row, n_legal); -1 if the mask holds fewer. What every game's `random` strategy plays.
    Inlined at the Numba level: LLVM would not inline it, and a call costs about as much as the pick."""
    return nth_set(mask, bounded(state, row, n_legal))


@njit(per_constant=True)  # a constant count (Moor's 33 tiles) is worth a specialized copy
def shuffle(state, row, arr, n):
    """Fisher–Yates shuffle of ``arr[0:n]`` in place, as a sequence of single bounded draws (i = n-1 .. 1)."""
    for i in range(n - 1, 0, -1):
        j = bounded(state, row, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@njit("void(uint64[:, ::1], int64, int32[::1], int64, int64)")
def shuffle_range(state, row, arr, lo, m):
    """`shuffle`'s draws (i = m-1 .. 1, one bounded draw each) on ``arr[lo:lo + m]`` in place, without a slice: a
    deck dealt part by part (Galleon's chests, stickers and stack; Turnwall's garment cards by body part)."""
    for i in range(m - 1, 0, -1):
        j = bounded(state, row, i + 1)
        tmp = arr[lo + i]
        arr[lo + i] = arr[lo + j]
        arr[lo + j] = tmp


@njit
def seed_game(state, seed, point, game, n_seats):
    """Seed the streams of one game: row 0 chance, rows 1..n_seats each seat's strategy stream (`seed_stream`'s
    states; the key part they share computed once: 5 of a 4-player game's 40 mixes were repeats 15 times)."""
    key = game_key(seed, point, game)
    for r in range(1 + n_seats):
        seed_row(state, r, key, r)
