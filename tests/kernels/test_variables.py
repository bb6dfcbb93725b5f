"""Variables stored and deleted without reference-count work where none is counted (kernels/_variables.py): the same
values as Python, references still counted where there are some, fewer instructions built."""

from __future__ import annotations

import numba
import numpy as np
from numba.core import lowering
from numba.core.runtime import _nrt_python, rtsys

import kernels._jit  # noqa: F401  (installs the lean lowering)
from tests.kernels._built import count_built, fresh


def _scalars(a, n):
    """Variables reassigned in loops and branches, deleted and defined again each round, a tuple among them."""
    s = 0
    t = (0, 1)
    for i in range(n):
        x = a[i % a.shape[0]]
        if x > 3:
            y = x * 2
            s += y
        else:
            y = -x
            s -= y
        t = (t[1], t[0] + y)
        if s > 1000:
            break
    return s + t[0] * 7 + t[1]


def _arrays(n, m):
    """Arrays made and dropped in a loop (counted references: Numba's own store and deletion), ints beside them."""
    total = 0
    keep = np.zeros(m, np.int64)
    for i in range(n):
        b = np.arange(m) + i
        if i % 2:
            keep = b
        c = b * 2
        total += c[-1] + keep[0]
    return total + keep.sum()


def _compile(f, args, lean, nrt, monkeypatch):
    """``f`` compiled afresh (no cache) with the lean stores on or off, run on ``args``: (result, instructions
    built)."""
    with monkeypatch.context() as m:
        built = count_built(m)
        if not lean:
            m.setattr(lowering.Lower, "storevar", lowering.Lower.storevar.__wrapped__)
            m.setattr(lowering.Lower, "delvar", lowering.Lower.delvar.__wrapped__)
        g = numba.njit(cache=False, _nrt=nrt)(fresh(f))
        result = g(*args)
    return result, sum(built)


def test_lean_variables_hold_what_python_does_without_reference_counting(monkeypatch):
    a = np.array([5, 1, 4, 9, 2, 7], dtype=np.int64)
    for n in (0, 1, 5, 40, 400):
        assert _compile(_scalars, (a, n), True, False, monkeypatch)[0] == _scalars(a, n)


def test_lean_variables_build_fewer_instructions(monkeypatch):
    a = np.array([5, 1, 4, 9, 2, 7], dtype=np.int64)
    r1, n1 = _compile(_scalars, (a, 40), True, False, monkeypatch)
    r0, n0 = _compile(_scalars, (a, 40), False, False, monkeypatch)
    assert r1 == r0
    assert n1 < 0.9 * n0, (n1, n0)


def test_counted_references_are_still_dropped(monkeypatch):
    rtsys.initialize(numba.core.registry.cpu_target.target_context)
    _nrt_python.memsys_enable_stats()  # (stays on for the process: counting costs nothing that matters here)
    for n, m in ((0, 3), (1, 4), (9, 5)):
        before = rtsys.get_allocation_stats()
        got = _compile(_arrays, (n, m), True, True, monkeypatch)[0]
        after = rtsys.get_allocation_stats()
        assert got == _arrays(n, m)
        assert after.alloc - before.alloc == after.free - before.free > 0  # every array made was freed
