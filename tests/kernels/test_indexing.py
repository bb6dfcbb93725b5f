"""Array element accesses lowered leaner (kernels/_indexing.py): the same values read and written, fewer
instructions built, the same optimized code as Numba's own lowering (its address arithmetic and its getitem and
setitem, which copy the array into a stack slot first)."""

from __future__ import annotations

import re

import numba
import numpy as np
from numba.np import arrayobj

import kernels._jit  # noqa: F401  (installs the lean lowering)
from kernels import _indexing
from tests.kernels._built import count_built, fresh


def _accesses(a, b, u, i, j):
    """Reads and writes of every kind the lean path takes (1-D, 2-D, 3-D; negative, int32 and unsigned indices)."""
    s = a[i] + a[-1] + a[np.int32(j)]
    s += b[i, j] + b[-1, -2] + b[np.uint64(1), np.uint64(2)]
    s += u[1, -1, j]
    a[i] = s
    b[-1, j] = a[0] + 7
    u[0, 1, -3] = b[1, 2]
    return s + a[i] + b[-1, j] + u[0, 1, -3]


def _casts(f, r, i):
    """A write that converts its value (an integer and a bool into a float array) and reads of a read-only array."""
    f[i] = i
    f[-1] = True
    return f[i] + f[-1] + r[i] + r[-1]


def _others(a, b, i):
    """Accesses the lean path leaves to Numba: a row view, a slice, a column of a C array (a non-contiguous view)."""
    row = b[i]
    t = a[1:3]
    c = b[:, 1]
    return row[0] + t[1] + c[i] + c[-1]


def _arrays():
    a = np.arange(10, dtype=np.int64)
    b = np.arange(24, dtype=np.int32).reshape(4, 6)
    u = np.arange(2 * 3 * 5, dtype=np.int64).reshape(2, 3, 5)
    return a, b, u


def _compile_and_run(f, args, lean, monkeypatch):
    """``f`` compiled afresh (a new function object, no cache) with the lean path on or off and run on ``args``:
    (result, instructions Numba built, the optimized IR)."""
    with monkeypatch.context() as m:
        built = count_built(m)
        if not lean:
            m.setattr(arrayobj, "basic_indexing", arrayobj.basic_indexing.__wrapped__)
            m.setattr(_indexing, "_lean_access", lambda *args: None)
        g = numba.njit(cache=False)(fresh(f))
        result = g(*args)
    (cres,) = g.overloads.values()
    return result, sum(built), cres.library.get_llvm_str()


def _normal(ir: str) -> str:
    """Optimized IR with value and block names dropped (they follow the instructions built before the passes), and
    the function's version tag (each compile of a function object has its own)."""
    ir = re.sub(r"B\d+v\d+B", "BvB", ir)
    ir = re.sub(r'%"?[-\w.$]+"?', "%v", ir)
    return re.sub(r"(?m)^[^ ;][^:]*:( +;.*)?$", "L:", ir)


def test_lean_accesses_read_and_write_what_numpy_does(monkeypatch):
    expect_arrays = _arrays()
    expect = _accesses(*expect_arrays, 2, 3)
    got_arrays = _arrays()
    got, _n, _ir = _compile_and_run(_accesses, (*got_arrays, 2, 3), True, monkeypatch)
    assert got == expect
    assert all(np.array_equal(x, y) for x, y in zip(got_arrays, expect_arrays))
    a, b, _u = _arrays()
    assert _compile_and_run(_others, (a, b, 2), True, monkeypatch)[0] == _others(a, b, 2)
    f, g, r = np.zeros(4), np.zeros(4), np.arange(5)
    r.flags.writeable = False
    assert _compile_and_run(_casts, (f, r, 2), True, monkeypatch)[0] == _casts(g, r, 2)
    assert np.array_equal(f, g)


def test_lean_accesses_build_fewer_instructions_and_optimize_to_the_same_code(monkeypatch):
    lean_arrays, numba_arrays = _arrays(), _arrays()
    r1, n1, ir1 = _compile_and_run(_accesses, (*lean_arrays, 2, 3), True, monkeypatch)
    r0, n0, ir0 = _compile_and_run(_accesses, (*numba_arrays, 2, 3), False, monkeypatch)
    assert r1 == r0 and all(np.array_equal(x, y) for x, y in zip(lean_arrays, numba_arrays))
    assert n1 < 0.8 * n0, (n1, n0)
    assert _normal(ir1) == _normal(ir0)
