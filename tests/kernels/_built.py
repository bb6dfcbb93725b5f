"""What the lean-lowering tests (test_indexing, test_ranges, test_variables) share: a function compiled afresh, and
the count of LLVM instructions Numba builds for it."""

from __future__ import annotations

import types

from numba.core import codegen


def fresh(f):
    """A new function object of ``f``'s code: Numba compiles it again (no dispatcher or cache entry of its own yet)."""
    return types.FunctionType(f.__code__, f.__globals__, f.__name__)


def count_built(m) -> list[int]:
    """Within monkeypatch context ``m``: a list that receives the instructions of each LLVM module Numba builds from
    now on (one entry a module; the lines of its function bodies)."""
    built: list[int] = []
    add = codegen.CPUCodeLibrary.add_ir_module

    def counting(self, module):
        built.append(str(module).count("\n  "))
        return add(self, module)

    m.setattr(codegen.CPUCodeLibrary, "add_ir_module", counting)
    return built
