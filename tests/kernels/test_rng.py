"""The RNG contract (kernels/rng.py, RNG_CONTRACT = 1): reference vectors, uniformity, permutations, and agreement
with the independent pure-Python implementation in sim/oracle/rng.py."""

from __future__ import annotations

import numpy as np
from scipy import stats

from kernels._jit import njit_alloc
from kernels.rng import bounded, mix, next_u64, seed_stream, shuffle
from sim.oracle.rng import Xoshiro256
from sim.oracle.rng import mix as py_mix


@njit_alloc
def _draws(state, n, k):
    out = np.empty(k, dtype=np.int64)
    for i in range(k):
        out[i] = bounded(state, 0, n)
    return out


@njit_alloc
def _raw(state, k):
    out = np.empty(k, dtype=np.uint64)
    for i in range(k):
        out[i] = next_u64(state, 0)
    return out


@njit_alloc
def _position_counts(state, n, reps):
    """counts[v, i]: how often value v ended at index i over ``reps`` shuffles of arange(n); also checks each result
    is a permutation (returns -1 in counts[0, 0] otherwise)."""
    counts = np.zeros((n, n), dtype=np.int64)
    a = np.empty(n, dtype=np.int32)
    seen = np.zeros(n, dtype=np.int32)
    for _ in range(reps):
        for i in range(n):
            a[i] = i
        shuffle(state, 0, a, n)
        seen[:] = 0
        for i in range(n):
            seen[a[i]] += 1
            counts[a[i], i] += 1
        for i in range(n):
            if seen[i] != 1:
                counts[0, 0] = -1
                return counts
    return counts


def _stream(seed, point=0, game=0, stream=0):
    st = np.zeros((1, 4), dtype=np.uint64)
    seed_stream(st, 0, np.uint64(seed), np.uint64(point), np.uint64(game), np.uint64(stream))
    return st


def test_xoshiro_reference_vector_kernel():
    st = np.array([[1, 2, 3, 4]], dtype=np.uint64)
    assert [int(next_u64(st, 0)) for _ in range(3)] == [11520, 0, 1509978240]


def test_xoshiro_reference_vector_oracle():
    g = Xoshiro256([1, 2, 3, 4])
    assert [g.next_u64() for _ in range(3)] == [11520, 0, 1509978240]


def test_splitmix_reference_vector():
    # SplitMix64 seeded with 0: first output 0xE220A8397B1DCDAF (the published test value)
    assert int(mix(np.uint64(0))) == 0xE220A8397B1DCDAF == py_mix(0)
    for x in (1, 12345, 2**63, 2**64 - 1):
        assert int(mix(np.uint64(x))) == py_mix(x)


def test_keyed_streams_agree_with_oracle():
    for seed, point, game, stream in ((0, 0, 0, 0), (42, 0, 7, 3), (2**64 - 1, 5, 10**9, 1), (20261129, 0, 123, 0)):
        st = _stream(seed, point, game, stream)
        py = Xoshiro256.stream(seed, point, game, stream)
        assert [int(x) for x in st[0]] == [py.s0, py.s1, py.s2, py.s3]
        assert [int(x) for x in _raw(st, 50)] == [py.next_u64() for _ in range(50)]


def test_streams_are_distinct():
    firsts = {int(_raw(_stream(1, 0, g, s), 1)[0]) for g in range(50) for s in range(8)}
    assert len(firsts) == 400


def test_bounded_agrees_with_oracle_including_rejections():
    for n in (1, 2, 3, 6, 33, 1000, 2**31 + 1, 2**32 - 1):
        st = _stream(9, 0, n % 1000, 0)
        py = Xoshiro256.stream(9, 0, n % 1000, 0)
        assert [int(x) for x in _draws(st, n, 300)] == [py.bounded(n) for _ in range(300)]


def test_bounded_in_range_and_uniform():
    for n in (2, 3, 6, 7, 33, 100):
        draws = _draws(_stream(2026, 0, n, 0), n, 60_000)
        assert draws.min() >= 0 and draws.max() < n
        counts = np.bincount(draws, minlength=n)
        p = stats.chisquare(counts).pvalue
        assert p > 1e-4, (n, p)
    # heavy rejection regime (n just above 2^31: about half the raw draws are rejected): still uniform by halves
    n = 2**31 + 1
    draws = _draws(_stream(7), n, 40_000)
    assert draws.min() >= 0 and draws.max() < n
    halves = np.bincount((draws >= n // 2).astype(np.int64), minlength=2)
    assert stats.chisquare(halves).pvalue > 1e-4


def test_bounded_one_is_always_zero():
    assert set(_draws(_stream(3), 1, 100).tolist()) == {0}


def test_shuffle_is_a_permutation_and_uniform():
    n, reps = 33, 33_000
    counts = _position_counts(_stream(5), n, reps)
    assert counts[0, 0] >= 0, "a shuffle result was not a permutation"
    assert (counts.sum(axis=0) == reps).all() and (counts.sum(axis=1) == reps).all()
    # every value lands in every position about reps / n times
    p = stats.chisquare(counts.ravel()).pvalue
    assert p > 1e-4
    # small cases: all 6 orders of 3 items appear about equally often
    st = _stream(11)
    seen = {}
    a = np.empty(3, dtype=np.int32)
    for _ in range(6000):
        a[:] = [0, 1, 2]
        shuffle(st, 0, a, 3)
        seen[tuple(a)] = seen.get(tuple(a), 0) + 1
    assert len(seen) == 6 and stats.chisquare(list(seen.values())).pvalue > 1e-4


def test_shuffle_agrees_with_oracle():
    for seed in range(20):
        st = _stream(seed, 0, seed, 0)
        py = Xoshiro256.stream(seed, 0, seed, 0)
        a = np.arange(33, dtype=np.int32)
        shuffle(st, 0, a, 33)
        b = list(range(33))
        py.shuffle(b)
        assert a.tolist() == b
    a = np.arange(1, dtype=np.int32)
    shuffle(_stream(1), 0, a, 1)
    assert a.tolist() == [0]


def test_pick_legal_is_uniform_over_the_set_entries_only():
    from kernels.rng import pick_legal

    state = np.zeros((1, 4), dtype=np.uint64)
    seed_stream(state, 0, 7, 0, 0, 0)
    mask = np.zeros(57, dtype=np.int8)
    legal = [3, 10, 11, 40]
    mask[legal] = 1
    counts = {a: 0 for a in legal}
    for _ in range(40_000):
        a = int(pick_legal(state, 0, mask, len(legal)))
        assert a in counts
        counts[a] += 1
    assert all(abs(c - 10_000) < 500 for c in counts.values()), counts  # about 6 standard deviations
    assert pick_legal(state, 0, np.zeros(57, dtype=np.int8), 1) == -1  # fewer set entries than claimed
