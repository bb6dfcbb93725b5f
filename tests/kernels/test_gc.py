"""Full garbage collections held back while Numba compiles (kernels/_gc.py): the outermost compile holds them back,
nested compiles leave the setting alone, and the process's thresholds come back after a compile, failed or not."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from numba.core import dispatcher

from kernels import _gc
from kernels._jit import njit
from tests.kernels._built import fresh


def _one(a):
    s = 0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def test_numbas_compile_is_wrapped_once():
    _gc.install()
    _gc.install()
    wrapped = dispatcher.Dispatcher.compile
    assert wrapped._sim_gc
    assert not getattr(wrapped.__wrapped__, "_sim_gc", False)


def test_full_collections_held_back_in_the_outermost_compile_only_and_restored():
    seen = []
    before = gc.get_threshold()

    def inner(self, sig):
        seen.append(("inner", gc.get_threshold()))
        return "inner"

    held_inner = _gc._held_back(inner)

    def outer(self, sig):
        seen.append(("outer", gc.get_threshold()))
        gc.set_threshold(before[0], before[1], 7)  # a nested compile must not restore what the outer one set
        assert held_inner(self, sig) == "inner"
        seen.append(("after inner", gc.get_threshold()))
        return "outer"

    try:
        assert _gc._held_back(outer)(None, ()) == "outer"
        assert seen == [
            ("outer", (before[0], before[1], _gc._HELD_BACK)),
            ("inner", (before[0], before[1], 7)),
            ("after inner", (before[0], before[1], 7)),
        ]
        assert gc.get_threshold() == before
    finally:
        gc.set_threshold(*before)


def test_thresholds_restored_when_a_compile_fails():
    before = gc.get_threshold()

    def failing(self, sig):
        raise RuntimeError("typing failed")

    with pytest.raises(RuntimeError, match="typing failed"):
        _gc._held_back(failing)(None, ())
    assert gc.get_threshold() == before
    assert _gc._depth[0] == 0


def test_a_real_compile_gives_the_same_result_and_restores_the_thresholds():
    before = gc.get_threshold()
    f = njit(entry=True)(fresh(_one))
    a = np.arange(10, dtype=np.int64)
    assert f(a) == 45
    assert gc.get_threshold() == before
