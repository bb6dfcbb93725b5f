"""Compiler passes skipped where the IR shows they would change nothing (kernels/_passes.py): a skipped pass, run
anyway, leaves the IR as it was (small functions here, and every function of a Moor game compiled afresh); functions
that need a pass still get it; the typed IR and the LLVM module are those of Numba's own pipeline. And the
variables of each statement listed as Numba lists them (kernels/_irvars.py)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import textwrap
from functools import reduce
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core import ir, ir_utils, typed_passes
from numba.core.typed_passes import NopythonRewrites
from numba.core.untyped_passes import InlineClosureLikes

from kernels import _passes
from kernels._jit import njit
from tests.kernels._built import fresh

REPO = Path(__file__).resolve().parents[2]


@njit(inline="always")
def _twice(x):
    return x * 2


def _plain(a, n):
    """Loops, branches, a tuple, element reads and writes, an inlined callee: what the kernels are made of."""
    s = 0
    t = (1, 2)
    for i in range(n):
        x = a[i % a.shape[0]]
        if x > 3:
            s += _twice(x)
        else:
            a[i % a.shape[0]] = x + 1
        t = (t[1], t[0] + s)
    return s + t[0]


def _closure(n):
    """A closure called in the function: inlined by ``inline_closure_likes``, or it cannot compile."""
    k = 3

    def add(x):
        return x + k + n

    return add(1) + add(2)


def _comprehension(n):
    """An array from a list comprehension (``build_list``)."""
    return np.array([i * 2 for i in range(n)]).sum()


def _reduced(a):
    """``reduce`` of a lambda (inlined as a loop)."""
    return reduce(lambda x, y: x + y, a)


def _array_expression(a, b):
    """An array expression (``nopython_rewrites`` fuses it into one loop)."""
    return (a * 2 + b).sum()


def _array_of_constants():
    """A 1-D array of a constant list (``nopython_rewrites`` fills it without the list)."""
    return np.array([3, 1, 2]).sum()


def _ir_text(state, typed, line=lambda x: x):
    """The IR dump, and with ``typed`` its typemap and call types, one line each, sorted as ``line`` writes them
    (`_normal`: sorted after the process's numbers are taken out, or names such as add99 and add100 sort by what
    compiled before in the process)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        state.func_ir.dump()
    text = buf.getvalue()
    if typed:
        text += "\n".join(sorted(line(f"{k}: {v}") for k, v in state.typemap.items()))
        text += "\n" + "\n".join(sorted(line(f"{k}: {v}") for k, v in state.calltypes.items()))
    return text


def _normal(text):
    """``text`` without addresses and the numbers that tell apart the functions and inlined sites of one process."""
    text = re.sub(r"0x[0-9a-f]+|\b\d{9,}\b|globals\.[0-9a-f]+|_v\d+|\$\d+|B\d+v\d+B", "N", text)
    return re.sub(r" +", " ", text)  # (the dump's columns are as wide as its names)


def _watch(m, log):
    """Within monkeypatch context ``m``: both passes run as Numba's; ``log`` receives (pass, function, whether the
    scan says the pass is needed, whether the pass changed the IR) for each run."""

    def watch(owner, scan, typed):
        run_pass = owner.run_pass.__wrapped__

        def run(self, state):
            needed = scan(state)
            before = _ir_text(state, typed)
            out = run_pass(self, state)
            log.append((owner._name, state.func_id.func_name, needed, _ir_text(state, typed) != before))
            return out

        m.setattr(owner, "run_pass", run)

    watch(InlineClosureLikes, lambda s: _passes.needs_closure_inlining(s.func_ir), False)
    watch(NopythonRewrites, lambda s: _passes.needs_typed_rewrites(s.func_ir, s.typemap), True)


def _compile(f, args, monkeypatch, numba_own=False, nrt=False):
    """``f`` compiled afresh and run on ``args``: (result, its typed IR at lowering, its LLVM module), with the skips
    and the variable listing on or (``numba_own``) Numba's own."""
    seen: dict[str, str] = {}
    with monkeypatch.context() as m:
        if numba_own:
            m.setattr(InlineClosureLikes, "run_pass", InlineClosureLikes.run_pass.__wrapped__)
            m.setattr(NopythonRewrites, "run_pass", NopythonRewrites.run_pass.__wrapped__)
            m.setattr(ir.Inst, "_rec_list_vars", ir.Inst._rec_list_vars.__wrapped__)
        lower = typed_passes.BaseNativeLowering.run_pass

        def lowering(self, state):
            seen.setdefault(state.func_id.func_name, _ir_text(state, True, _normal))
            return lower(self, state)

        m.setattr(typed_passes.BaseNativeLowering, "run_pass", lowering)
        m.setattr(ir_utils._the_max_label, "_value", 0)  # (new blocks are numbered on from the process's last)
        g = numba.njit(cache=False, _nrt=nrt)(fresh(f))
        result = g(*args)
    (cres,) = g.overloads.values()

    return result, _normal(seen[f.__name__]), _normal(cres.library.get_llvm_str())


CASES = [
    (_plain, lambda: (np.array([5, 1, 4, 9, 2], dtype=np.int64), 17), False),
    (_closure, lambda: (4,), False),
    (_comprehension, lambda: (6,), True),
    (_reduced, lambda: (np.arange(5, dtype=np.int64),), False),
    (_array_expression, lambda: (np.arange(4.0), np.ones(4)), True),
    (_array_of_constants, lambda: (), True),
]


def test_the_same_typed_ir_and_llvm_module_as_numbas_own_passes(monkeypatch):
    for f, args, nrt in CASES:
        ours = _compile(f, args(), monkeypatch, nrt=nrt)
        own = _compile(f, args(), monkeypatch, numba_own=True, nrt=nrt)
        assert ours[0] == own[0] == f(*args()), f.__name__
        assert ours[1] == own[1], f.__name__
        if f is not _array_expression:  # (whose loop is a function made afresh, named after each compile)
            assert ours[2] == own[2], f.__name__


def test_the_results_are_pythons():
    for f, args, nrt in CASES:
        assert numba.njit(cache=False, _nrt=nrt)(fresh(f))(*args()) == f(*args()), f.__name__


def test_a_pass_is_skipped_only_where_it_would_change_nothing(monkeypatch):
    log: list = []
    with monkeypatch.context() as m:
        _watch(m, log)
        for f, args, nrt in CASES:
            numba.njit(cache=False, _nrt=nrt)(fresh(f))(*args())
    runs = {(p, fn): (needed, changed) for p, fn, needed, changed in log}
    assert not [k for k, (needed, changed) in runs.items() if changed and not needed]
    # the plain function needs neither pass: both skipped
    assert runs[("inline_closure_likes", "_plain")] == (False, False)
    assert runs[("nopython_rewrites", "_plain")] == (False, False)
    # each function that needs a pass gets it, and the pass changes its IR
    assert runs[("inline_closure_likes", "_closure")] == (True, True)
    assert runs[("inline_closure_likes", "_comprehension")] == (True, True)
    assert runs[("inline_closure_likes", "_reduced")] == (True, True)
    assert runs[("nopython_rewrites", "_array_expression")] == (True, True)
    assert runs[("nopython_rewrites", "_array_of_constants")] == (True, True)


def test_a_closure_compiles_only_with_its_pass(monkeypatch):
    """The scan is what lets the closure compile: with ``inline_closure_likes`` skipped for it, Numba refuses it."""
    from numba.core.errors import NumbaError

    assert numba.njit(cache=False)(fresh(_closure))(4) == _closure(4)
    monkeypatch.setattr(_passes, "needs_closure_inlining", lambda func_ir: False)
    with pytest.raises(NumbaError):
        numba.njit(cache=False)(fresh(_closure))(4)


def test_each_statement_lists_numbas_variables_in_numbas_order():
    """kernels/_irvars.py against Numba's own listing, for every statement and expression of the cases' IR, and for
    instructions of classes that list their variables their own way."""
    from numba.core.compiler import run_frontend

    numba_own = ir.Inst._rec_list_vars.__wrapped__

    def same(inst):
        ours, own = inst.list_vars(), numba_own(inst, inst.__dict__ if isinstance(inst, ir.Stmt) else inst._kws)
        if type(inst).list_vars in (ir.Stmt.list_vars, ir.Expr.list_vars):
            assert [id(v) for v in ours] == [id(v) for v in own], inst

    checked = 0
    for f, _args, _nrt in CASES:
        for block in run_frontend(fresh(f)).blocks.values():
            for stmt in block.body:
                same(stmt)
                checked += 1
                if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr):
                    same(stmt.value)
    assert checked > 100

    class Own(ir.Stmt):  # a statement with its own helper: asked, not walked
        def __init__(self, var, loc):
            self.var, self.loc = var, loc

        def _rec_list_vars(self, val):
            return [self.var, self.var]

    scope = ir.Scope(None, ir.Loc("f", 1))
    x, y = scope.define("x", scope.loc), scope.define("y", scope.loc)
    nested = ir.Assign(ir.Expr.build_tuple([x, y], scope.loc), y, scope.loc)
    assert ir.Assign(Own(x, scope.loc), y, scope.loc).list_vars() == [x, x, y]  # (value, then target)
    assert nested.list_vars() == [x, y, y] == numba_own(nested, nested.__dict__)


def test_an_unknown_rewrite_runs_the_pass(monkeypatch):
    """A rewrite registered for after type inference that the scan does not know of: the pass runs."""
    from types import SimpleNamespace

    from numba.core.rewrites import Rewrite, rewrite_registry

    class Other(Rewrite):
        def match(self, func_ir, block, typemap, calltypes):
            return False

    empty = SimpleNamespace(blocks={})
    assert not _passes.needs_typed_rewrites(empty, {})
    monkeypatch.setitem(
        rewrite_registry.rewrites, "after-inference", [*rewrite_registry.rewrites["after-inference"], Other]
    )
    assert _passes.needs_typed_rewrites(empty, {})


PROBE = textwrap.dedent("""
    import collections

    import pytest

    from sim.model.scenario import load
    from sim.play import runner
    from tests.kernels.test_passes import _watch

    log = []
    _watch(pytest.MonkeyPatch(), log)  # (the process ends: nothing to undo)

    from numba.core import ir
    ours = ir.Inst._rec_list_vars
    listed = [0, 0]
    def both(self, val):  # kernels/_irvars.py against Numba's own, variable for variable
        a, b = ours(self, val), ours.__wrapped__(self, val)
        listed[0] += 1
        listed[1] += len(a) != len(b) or any(x is not y for x, y in zip(a, b))
        return a
    ir.Inst._rec_list_vars = both

    runner.play_chunk(load("scenarios/moor/4p.toml"), 0, 1)
    counts = collections.Counter((name, needed, changed) for name, _function, needed, changed in log)
    for key in sorted(counts):
        print(*key, counts[key])
    print("list_vars", *listed, "-")
""")


def test_every_pass_skipped_in_a_moor_game_would_have_changed_nothing(tmp_path):
    """Moor's whole call tree compiled afresh (an empty cache; LLVM's optimization off, which runs after these
    passes): every run of the two passes that the scan would skip leaves the IR as it was, and every statement's
    variables are listed as Numba lists them (kernels/_irvars.py)."""
    env = dict(os.environ, SIM_CACHE_ROOT=str(tmp_path), PYTHONPATH=str(REPO), NUMBA_OPT="0")
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines()]
    counts = {tuple(row[:3]): int(row[3]) for row in rows if row[0] != "list_vars"}
    assert counts.get(("inline_closure_likes", "False", "False"), 0) > 50  # skipped, for every function
    assert counts.get(("nopython_rewrites", "False", "False"), 0) > 40
    assert not [k for k in counts if k[1] == "False" and k[2] == "True"], counts
    (listed,) = [row for row in rows if row[0] == "list_vars"]
    assert int(listed[1]) > 100_000 and listed[2] == "0", listed
