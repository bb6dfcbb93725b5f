"""Numba's inlining of ``inline='always'`` functions, made cheaper (issue 41: the cold compile).

At every call site of an ``inline='always'`` function, Numba's `InlineInlinables` pass runs the callee's whole
untyped pipeline again (bytecode to IR, rewrites, its own inlining) and then deep-copies the resulting IR twice,
block by block; each block's copy also copied the function's whole variable scope, so a copy cost the blocks times
the variables. The kernels have about 130 such functions (docs/dev/performance.md, "Where a search scenario's
compile goes now, and inlining made cheaper").

Here, for that pass only (`InlineWorker.inline_function`):

- the callee's untyped IR is made once per function and compile context (the typing context, the code generator, the
  caller's declared locals and its compile flags but for ``enable_ssa``, which the pipeline sets itself) and kept;
  Numba copies it before changing anything, as it did the fresh one;
- while a site is inlined, the blocks of one copy share one copy of the scope they shared in the original (Numba's
  block-by-block copy gave each block its own equal copy, of which it renames the first and then points every
  block at the caller's scope).

The inlined code is the same: every batch digest and golden trace is unchanged with the kernels compiled under it.
"""

from __future__ import annotations

import copy

from numba.core import ir
from numba.core.cpu_options import FastMathOptions, InlineOptions
from numba.core.inline_closurecall import InlineWorker

_sharing: list[dict] = []  # one dict a site being inlined: id(original scope) -> (original, its one copy)


def _scope_deepcopy(self, memo):
    shared = _sharing[-1] if _sharing else None
    if shared is not None:
        hit = shared.get(id(self))
        if hit is not None:
            memo[id(self)] = hit[1]
            return hit[1]
    out = copy._reconstruct(self, memo, *self.__reduce_ex__(4))  # type: ignore[attr-defined]  (copy's own way)
    if shared is not None:
        shared[id(self)] = (self, out)  # (the original kept alive, so its id is not reused meanwhile)
    return out


def flags_key(flags, skip: tuple[str, ...] = ()) -> frozenset | None:
    """The compile flags set in ``flags`` (a Numba `Flags`, or None) as a hashable value, but for the names in
    ``skip``; the two option records Numba keeps in flags define ``__eq__`` but no hash: their contents stand in."""
    if flags is None:
        return None

    def option(v):
        if isinstance(v, FastMathOptions):
            return ("fastmath", frozenset(v.flags))
        if isinstance(v, InlineOptions):
            return ("inline", v._inline)
        return v

    return frozenset((k, option(v)) for k, v in flags._values.items() if k not in skip)


def _context_key(worker: InlineWorker):
    # (a compile works in its own copy of the target context, made from the flags: its code generator and the
    # flags name it)
    locals_ = frozenset((worker.locals or {}).items())
    target = worker.targetctx.codegen()
    return (worker.typingctx, target, flags_key(worker.flags, ("enable_ssa",)), locals_)


def install() -> None:
    """Change Numba's inlining as the module docstring says; once per process."""
    if getattr(InlineWorker, "_sim_memo", False):
        return
    untyped: dict = {}

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        try:
            key = (function, _context_key(self))
            callee_ir = untyped.get(key)
        except TypeError:  # (something in the key cannot be hashed: made afresh, as Numba does)
            key, callee_ir = None, None
        if callee_ir is None:
            callee_ir = self.run_untyped_passes(function)
            if key is not None:
                untyped[key] = callee_ir
        else:
            self.flags.enable_ssa = False  # (as the pipeline run leaves the caller's flags)
            callee_ir = copy.copy(callee_ir)
            callee_ir.func_id = callee_ir.func_id.derive()  # (its unique name prefixes the inlined variables')
        _sharing.append({})
        try:
            return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)
        finally:
            _sharing.pop()

    inline_function.memo = untyped  # type: ignore[attr-defined]  (the tests read it)
    ir.Scope.__deepcopy__ = _scope_deepcopy
    InlineWorker.inline_function = inline_function
    InlineWorker._sim_memo = True
