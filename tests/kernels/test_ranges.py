"""Loops over ranges lowered leaner (kernels/_ranges.py): the same values visited, in the same order, as Python and
as Numba's own lowering, with fewer instructions built."""

from __future__ import annotations

import numba
import numpy as np
from numba.core import base

import kernels._jit  # noqa: F401  (installs the lean lowering)
from tests.kernels._built import count_built, fresh


def _visit(out, n, a, b):
    """Every value each loop visits, written to ``out`` in order (a -1 between loops); returns how many."""
    c = 0
    for i in range(n):
        out[c] = i
        c += 1
    out[c] = -1
    c += 1
    for i in range(a, b):  # empty, one, many; negative bounds
        out[c] = i
        c += 1
    out[c] = -1
    c += 1
    for i in range(b, a):  # empty when a < b
        out[c] = 1000 + i
        c += 1
    out[c] = -1
    c += 1
    for i in range(n):  # nested, with continue and break
        if i == 2:
            continue
        if i == 7:
            break
        for j in range(i, n):
            if j > i + 2:
                break
            out[c] = 100 * i + j
            c += 1
    out[c] = -1
    c += 1
    for i in range(b, a, -3):  # a step given: Numba's own iterator
        out[c] = i
        c += 1
    out[c] = -1
    c += 1
    r = range(a, b)  # one range iterated twice, from other blocks than its own: Numba's own iterator
    for i in r:
        out[c] = i
        c += 1
    for i in r:
        out[c] = 2 * (i - a)
        c += 1
    out[c] = -1
    c += 1
    for k, i in enumerate(range(a, b)):
        out[c] = 10 * k + (i - a)
        c += 1
    for i, j in zip(range(n), range(a, b)):
        out[c] = i + 100 * (j - a)
        c += 1
    out[c] = len(range(a, b))
    return c + 1


def _last(out, n):
    """The loop variable after the loop (the last value visited; the one before the loop when none is)."""
    i = -5
    for i in range(n):
        out[i] = i
    return i


# (n, a, b): empty and negative ranges, int32 and uint64 bounds, the int64 extremes
CASES = [
    (0, 0, 0),
    (1, -1, 0),
    (10, -3, 4),
    (12, 5, 2),
    (3, -9, -4),
    (np.int32(9), np.int32(-(2**31)), np.int32(-(2**31) + 3)),
    (np.int32(0), np.int32(2**31 - 3), np.int32(2**31 - 1)),
    (np.uint64(5), np.uint64(2), np.uint64(9)),
    (9, 2**63 - 4, 2**63 - 1),
    (9, -(2**63), -(2**63) + 2),
]


def _compile(f, lean, monkeypatch, cases=CASES):
    """``f`` compiled afresh (a new function object, no cache) with the lean lowering on or off, and a list that
    receives the count of instructions Numba builds for it."""
    g = numba.njit(cache=False)(fresh(f))
    with monkeypatch.context() as m:
        built = count_built(m)
        if not lean:
            m.setattr(base.BaseContext, "get_function", base.BaseContext.get_function.__wrapped__)
            m.setattr(base.BaseContext, "pair_first", base.BaseContext._sim_numba_pairs[0])
            m.setattr(base.BaseContext, "pair_second", base.BaseContext._sim_numba_pairs[1])
        for args in cases:
            g.compile(tuple(numba.typeof(x) for x in (np.zeros(1, np.int64), *args)))
    return g, built


def _run(f, args):
    out = np.full(400, -7, dtype=np.int64)
    return f(out, *args), out


def test_lean_loops_visit_what_python_does(monkeypatch):
    g, _ = _compile(_visit, True, monkeypatch)
    for args in CASES:
        py_args = tuple(int(x) for x in args)
        got, expect = _run(g, args), _run(_visit, py_args)
        assert got[0] == expect[0] and np.array_equal(got[1], expect[1]), args
    h, _ = _compile(_last, True, monkeypatch, [(0,)])
    for n in (0, 1, 6):
        assert h(np.zeros(8, np.int64), n) == _last(np.zeros(8, np.int64), n)


def test_lean_loops_agree_with_numba_beyond_python_and_build_fewer_instructions(monkeypatch):
    lean, n1 = _compile(_visit, True, monkeypatch)
    own, n0 = _compile(_visit, False, monkeypatch)
    # where Numba's range differs from Python's (a uint64 range longer than 2**63 counts as empty), as Numba's
    big = (np.uint64(2**63 + 5), np.uint64(2**63 + 1), np.uint64(2**63 + 3))
    for args in [*CASES, big]:
        a, b = _run(lean, args), _run(own, args)
        assert a[0] == b[0] and np.array_equal(a[1], b[1]), args
    assert _run(lean, big)[1][0] == -1  # (the loop over range(2**63 + 5) visited nothing)
    assert sum(n1) < 0.8 * sum(n0), (sum(n1), sum(n0))
