"""The variables an IR statement uses, listed by Numba's rule with less Python work (issue 41: the cold compile).

Numba's data-flow analyses (uses and definitions, liveness, `del` placement, SSA) ask each statement for its
variables (`ir.Inst.list_vars`) hundreds of thousands of times a compile. Numba answers by recursing over the
statement's attributes with one call and four `isinstance` tests a value, most of them on locations, names and
constants that hold no variable: the recursive helper (`Inst._rec_list_vars`) was the compile's busiest Python
function (docs/dev/performance.md, "Passes that would change nothing, skipped").

Here that helper sorts each value's type once into what Numba's tests would find (a variable, an instruction, a list
or tuple, a dict, anything else) and walks the values in Numba's order, in one list. An instruction whose class keeps
Numba's `Stmt.list_vars` / `Expr.list_vars` (its attributes, its expression's keywords) is walked in place; one that
defines its own `list_vars` or helper is asked, as Numba asks it. The lists are the same, variable for variable:
tests/kernels/test_passes.py compares them with Numba's for every statement of a Moor game's compile.
"""

from __future__ import annotations

from numba.core import ir

_VAR, _LEAF, _SEQ, _DICT, _STMT, _EXPR, _ASK = range(1, 8)  # (non-zero: looked up with `or`)
_kinds: dict[type, int] = {}
_numba_rec = ir.Inst._rec_list_vars
_stmt_list_vars = ir.Stmt.list_vars
_expr_list_vars = ir.Expr.list_vars


def _kind(t: type) -> int:
    """What Numba's `_rec_list_vars` does with a value of type ``t`` (its tests depend on the type alone)."""
    if issubclass(t, ir.Var):
        k = _VAR
    elif issubclass(t, ir.Inst):
        ours = t._rec_list_vars is ir.Inst._rec_list_vars  # (not its own helper)
        if ours and t.list_vars is _stmt_list_vars:
            k = _STMT
        elif ours and t.list_vars is _expr_list_vars:
            k = _EXPR
        else:
            k = _ASK
    elif issubclass(t, (list, tuple)):
        k = _SEQ
    elif issubclass(t, dict):
        k = _DICT
    else:
        k = _LEAF
    _kinds[t] = k
    return k


def _values(val, k: int):
    """The values Numba's rule walks in ``val`` of kind ``k`` (a container or a walked instruction)."""
    if k == _STMT:
        return val.__dict__.values()
    if k == _EXPR:
        return val._kws.values()
    if k == _DICT:
        return val.values()
    return val


def _collect(values, out: list) -> None:
    """Append the variables in ``values`` to ``out``, in order (leaves and variables handled here, without a call)."""
    kinds = _kinds
    for v in values:
        t = type(v)
        k = kinds.get(t) or _kind(t)
        if k == _LEAF:
            continue
        if k == _VAR:
            out.append(v)
        elif k == _ASK:
            out.extend(v.list_vars())
        else:
            _collect(_values(v, k), out)


def _rec_list_vars(self, val):
    """Numba's `Inst._rec_list_vars`: the variables in ``val`` (a variable, an instruction, a list, tuple or dict of
    them, nested), in order."""
    out: list = []
    _collect((val,), out)
    return out


_rec_list_vars.__wrapped__ = _numba_rec  # type: ignore[attr-defined]  (the tests compare the two)


def install() -> None:
    """List the variables as the module docstring says; once per process."""
    ir.Inst._rec_list_vars = _rec_list_vars
