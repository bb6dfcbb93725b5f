"""Calls between kernel functions with arrays, tuples and bools passed whole (kernels/_calls.py): the same values
read, written and returned as Python and as Numba's own convention (every argument flattened into scalars), with
fewer instructions built; entry points keep Numba's convention."""

from __future__ import annotations

import re
from collections import namedtuple

import numpy as np
import pytest
from numba.core import codegen

from kernels import _calls
from kernels._jit import njit
from tests.kernels._built import count_built

Pair = namedtuple("Pair", ["left", "right"])


def _chain():
    """A fresh call chain (no dispatcher or cache entry of its own yet): an entry point over kernel functions that
    take arrays of 1-3 dimensions and several dtypes, a read-only array, tuples and a named tuple of arrays, bools,
    an omitted argument, and a callee that writes through its array."""

    @njit(cache=False)
    def add_at(a, i, v, wide=False):  # a write through the caller's array; `wide` omitted by some callers
        a[i] = a[i] + (v if not wide else 2 * v)

    @njit(cache=False)
    def total(small, big, flags, cube):  # int8 1-D, uint64 2-D, bool 1-D, int64 3-D
        s = 0
        for i in range(small.shape[0]):
            s += small[i]
        for i in range(big.shape[0]):
            for j in range(big.shape[1]):
                s += np.int64(big[i, j] % np.uint64(1000))
        for i in range(flags.shape[0]):
            if flags[i]:
                s += 1
        s += cube[1, -1, 2] + cube[0, 0, 0]
        return s

    @njit(cache=False)
    def pick(pair, frozen, take_left, k):  # a named tuple of arrays, a read-only array, a bool, an int
        a = pair.left if take_left else pair.right
        return a[k] * 3 + frozen[-1]

    @njit(cache=False)
    def step(arrays, t, flag):  # a tuple of arrays, a tuple of scalars, a bool: calls on down the chain
        small, big, flags, cube = arrays
        add_at(small, 1, t[0])
        add_at(cube[0, 1], 1, t[1], flag)  # (element 5 of the whole)
        add_at(cube[1, 2], 0, 7)  # a C row view of a 3-D array
        return total(small, big, flags, cube) + (1 if flag else 0)

    @njit(cache=False, entry=True)
    def play(small, big, flags, cube, left, right, frozen):
        s = step((small, big, flags, cube), (np.int8(2), 5), True)
        s += step((small, big, flags, cube), (np.int8(-3), 1), False)
        s += pick(Pair(left, right), frozen, True, 1) + pick(Pair(left, right), frozen, False, 2)
        return s

    return play


def _arrays():
    frozen = np.arange(4, dtype=np.int64)
    frozen.flags.writeable = False
    return (
        np.arange(5, dtype=np.int8),
        np.arange(12, dtype=np.uint64).reshape(3, 4) * np.uint64(2**61),
        np.array([True, False, True, True]),
        np.arange(2 * 3 * 4, dtype=np.int64).reshape(2, 3, 4),
        np.arange(6, dtype=np.int64),
        np.arange(6, dtype=np.int64) * 10,
        frozen,
    )


def _python(small, big, flags, cube, left, right, frozen):
    """What the chain computes, in Python (the same writes, in the same order)."""

    def total():
        s = int(small.astype(np.int64).sum()) + int((big % np.uint64(1000)).astype(np.int64).sum())
        return s + int(flags.sum()) + int(cube[1, -1, 2]) + int(cube[0, 0, 0])

    s = 0
    for d_small, d_cube, flag in ((2, 5, True), (-3, 1, False)):
        small[1] += np.int8(d_small)
        cube.ravel()[5] += 2 * d_cube if flag else d_cube
        cube[1, 2, 0] += 7
        s += total() + (1 if flag else 0)
    return s + int(left[1]) * 3 + int(frozen[-1]) + int(right[2]) * 3 + int(frozen[-1])


def _run(whole: bool, monkeypatch):
    """The chain compiled afresh with calls passing arguments whole (or Numba's way), run on fresh arrays:
    (result, the arrays after, instructions Numba built, the entry's optimized IR)."""
    with monkeypatch.context() as m:
        built = count_built(m)
        if not whole:
            m.setattr(_calls, "_whole", lambda fndesc: False)
        play = _chain()
        arrays = _arrays()
        result = play(*arrays)
    (cres,) = play.overloads.values()
    return result, arrays, sum(built), cres.library.get_llvm_str()


def test_calls_passing_whole_values_compute_what_python_and_numbas_convention_do(monkeypatch):
    expect_arrays = _arrays()
    expect = _python(*expect_arrays)
    got, got_arrays, _n, _ir = _run(True, monkeypatch)
    numba_got, numba_arrays, _n, _ir = _run(False, monkeypatch)
    assert got == expect == numba_got
    for a, b, c in zip(got_arrays, expect_arrays, numba_arrays):
        assert np.array_equal(a, b) and np.array_equal(a, c)


def test_kernel_functions_take_arrays_whole_and_entry_points_flattened(monkeypatch):
    _got, _arrays_after, _n, ir = _run(True, monkeypatch)
    entry = next(line for line in ir.splitlines() if line.startswith("define") and "4play" in line)
    assert "%arg.small.4" in entry  # the entry point: Numba's flattened members (its data pointer is member 4)
    _got, _arrays_after, _n, ir_numba = _run(False, monkeypatch)
    assert "%arg.small.4" in next(
        line for line in ir_numba.splitlines() if line.startswith("define") and "4play" in line
    )


def test_a_callee_declared_whole_has_one_argument_an_array_and_numbas_count_of_arguments(monkeypatch):
    """The callee's LLVM signature: one argument for each array (Numba's: one for each member), then unused bytes up
    to Numba's count (LLVM's inliner weighs a call by its argument count)."""
    seen: dict[bool, list[str]] = {}
    for whole in (True, False):
        with monkeypatch.context() as m:
            built_ir: list[str] = []
            add = codegen.CPUCodeLibrary.add_ir_module

            def keep(self, module, add=add, built_ir=built_ir):
                built_ir.append(str(module))
                return add(self, module)

            m.setattr(codegen.CPUCodeLibrary, "add_ir_module", keep)
            if not whole:
                m.setattr(_calls, "_whole", lambda fndesc: False)
            _chain()(*_arrays())
        seen[whole] = [
            line for text in built_ir for line in text.splitlines() if line.startswith("define") and "5total" in line
        ]
    (whole_def,) = seen[True]
    (numba_def,) = seen[False]
    members = 7 + 9 + 7 + 11  # small, big, flags, cube: 1-D 7 members, 2-D 9, 1-D 7, 3-D 11
    assert len(re.findall(r'%"?arg\.(?!pad)', whole_def)) == 4
    assert len(re.findall(r'%"?arg\.', whole_def)) == len(re.findall(r'%"?arg\.', numba_def)) == members


def test_calls_passing_whole_values_build_fewer_instructions(monkeypatch):
    _got, _a, whole_n, _ir = _run(True, monkeypatch)
    _got, _a, numba_n, _ir = _run(False, monkeypatch)
    assert whole_n < numba_n * 0.9


def test_an_exception_raised_down_the_chain_reaches_python_as_from_numbas_convention(monkeypatch):
    def chain():
        @njit(cache=False)
        def check(a, flag):
            if flag and a[0] > 0:
                raise ValueError("a[0] must not be positive")
            return a[0]

        @njit(cache=False)
        def middle(pair, flag):
            return check(pair[0], flag) + check(pair[1], False)

        @njit(cache=False, entry=True)
        def run(a, b, flag):
            return middle((a, b), flag)

        return run

    for whole in (True, False):
        with monkeypatch.context() as m:
            if not whole:
                m.setattr(_calls, "_whole", lambda fndesc: False)
            run = chain()
            a, b = np.array([1, 2]), np.array([3])
            assert run(a, b, False) == 4
            with pytest.raises(ValueError, match="must not be positive"):
                run(a, b, True)


def _normal(ir: str) -> str:
    """Optimized IR with value and block names dropped, and each compile's version tag."""
    ir = re.sub(r"B\d+v\d+B", "BvB", ir)
    ir = re.sub(r'%"?[-\w.$]+"?', "%v", ir)
    return re.sub(r"(?m)^[^ ;][^:]*:( +;.*)?$", "L:", ir)


def test_a_chain_inlined_whole_optimizes_to_the_same_code_as_numbas_convention(monkeypatch):
    _got, _a, _n, ir = _run(True, monkeypatch)
    _got, _a, _n, ir_numba = _run(False, monkeypatch)
    assert not re.search(r"call i32 @\"?_ZN\w*(6add_at|5total|4pick|4step)", ir)  # every kernel call inlined
    assert _normal(ir) == _normal(ir_numba)
