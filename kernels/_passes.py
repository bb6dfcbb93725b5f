"""Two of Numba's compiler passes skipped where a scan of the function's IR shows they would change nothing (issue 41:
the cold compile; docs/dev/performance.md, "Passes that would change nothing, skipped").

Most of what these passes cost is not their search but the data-flow analysis around it: each runs Numba's
`PostProcessor` twice (the CFG, every variable's uses and definitions, liveness, dead maps; inserting `del`s only to
strip them again), for every function and every inlined callee. For the kernels they find nothing to do.

- ``inline_closure_likes`` (untyped): inlines calls of closures made in the function (``make_function``), of
  ``functools.reduce`` and of ``numba.stencil``, and array comprehensions built by appending to an empty list
  (``build_list``). Run as Numba's when the IR holds any ``make_function`` or ``build_list`` expression, or names
  ``reduce`` or ``stencil`` (a global, a free variable or an attribute): nothing else can match. Skipped, it still
  does what it does last, `fixup_var_define_in_scope`.
- ``nopython_rewrites`` (typed): applies the rewrites registered for after type inference. Run as Numba's when the
  registry holds any rewrite but the four known here, or the IR holds what one of them looks for: a ``build_list``
  (an array of constants), a ``unary``, ``binop`` or ``call`` expression typed as an array (an array expression), a
  variable typed as a string literal (a string-literal item access).

Each scan is wider than the matches it stands for (it may run a pass that then finds nothing, never skip one that
would have found something). What the skip leaves out besides is the passes' bookkeeping: both end by recomputing the
variables' lifetimes and canonicalizing the CFG, which the next pass that runs the post-processor does again over the
same blocks (`ir_processing` runs before the first, `strip_phis` before the second, `generic_rewrites` and
`ir_legalization` after them). tests/kernels/test_passes.py checks that the typed IR and the LLVM module of
functions compiled with and without the skips are the same, that functions that need the passes still get them, and
that each skipped pass would have left the IR as it was.
"""

from __future__ import annotations

from numba.core import ir, types
from numba.core.ir_utils import fixup_var_define_in_scope
from numba.core.typed_passes import NopythonRewrites
from numba.core.untyped_passes import InlineClosureLikes

# the rewrites registered for after type inference (numba 0.68) whose matches the scan below stands for
_KNOWN_AFTER_INFERENCE = frozenset(
    (
        "numba.core.rewrites.static_getitem.RewriteStringLiteralGetitems",
        "numba.core.rewrites.static_getitem.RewriteStringLiteralSetitems",
        "numba.np.ufunc.array_exprs.RewriteArrayExprs",
        "numba.core.inline_closurecall.RewriteArrayOfConsts",
    )
)
_NAMES_INLINED = frozenset(("reduce", "stencil"))


def _names_inlined(value) -> bool:
    """Whether a global's or free variable's value could be what `InlineClosureCallPass` inlines a call of."""
    name = getattr(value, "__name__", None)
    if name in _NAMES_INLINED:
        return True
    return type(value).__name__ == "StencilFunc"


def needs_closure_inlining(func_ir: ir.FunctionIR) -> bool:
    """Whether ``inline_closure_likes`` could change ``func_ir`` (module docstring): False only when it holds no
    ``make_function`` or ``build_list`` expression and names no ``reduce`` or ``stencil``."""
    for block in func_ir.blocks.values():
        for stmt in block.body:
            if not isinstance(stmt, ir.Assign):
                continue
            value = stmt.value
            if isinstance(value, ir.Expr):
                op = value.op
                if op == "make_function" or op == "build_list":
                    return True
                if op == "getattr" and value.attr in _NAMES_INLINED:
                    return True
            elif isinstance(value, (ir.Global, ir.FreeVar)):
                if value.name in _NAMES_INLINED or _names_inlined(value.value):
                    return True
    return False


_ARRAY_EXPR_OPS = frozenset(("unary", "binop", "call"))


def needs_typed_rewrites(func_ir: ir.FunctionIR, typemap: dict) -> bool:
    """Whether ``nopython_rewrites`` could change ``func_ir`` typed by ``typemap`` (module docstring)."""
    from numba.core.rewrites import rewrite_registry

    registered = {f"{c.__module__}.{c.__qualname__}" for c in rewrite_registry.rewrites["after-inference"]}
    if not registered <= _KNOWN_AFTER_INFERENCE:
        return True
    for ty in typemap.values():
        if isinstance(ty, types.StringLiteral):
            return True
    for block in func_ir.blocks.values():
        for stmt in block.body:
            if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr):
                op = stmt.value.op
                if op == "build_list":
                    return True
                if op in _ARRAY_EXPR_OPS and isinstance(typemap.get(stmt.target.name), types.Array):
                    return True
    return False


def _closure_likes(run_pass):
    def run(self, state):
        if needs_closure_inlining(state.func_ir):
            return run_pass(self, state)
        fixup_var_define_in_scope(state.func_ir.blocks)
        return True

    run.__wrapped__ = run_pass
    return run


def _typed_rewrites(run_pass):
    def run(self, state):
        if needs_typed_rewrites(state.func_ir, state.typemap):
            return run_pass(self, state)
        return True

    run.__wrapped__ = run_pass
    return run


def install() -> None:
    """Skip the two passes where their scans say so (module docstring); once per process."""
    if hasattr(InlineClosureLikes.run_pass, "__wrapped__"):
        return
    InlineClosureLikes.run_pass = _closure_likes(InlineClosureLikes.run_pass)
    NopythonRewrites.run_pass = _typed_rewrites(NopythonRewrites.run_pass)
