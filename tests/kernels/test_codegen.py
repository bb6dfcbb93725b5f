"""Code generation once per entry point (kernels/_codegen.py) and the entry points' noalias promise
(kernels/_noalias.py)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels._jit import njit
from kernels._noalias import check_distinct


# compiled afresh in every process (a cached entry point loads without compiling its callees)
@njit(cache=False)
def _leaf(a, i):
    return a[i] * 2


@njit(cache=False)
def _middle(a, i):
    return _leaf(a, i) + 1


@njit(entry=True, cache=False)
def _entry(a):
    s = 0
    for i in range(a.shape[0]):
        s += _middle(a, i)
    return s


def test_a_function_without_a_wrapper_is_linked_not_made_into_machine_code():
    a = np.arange(5, dtype=np.int64)
    assert _entry(a) == sum(2 * x + 1 for x in range(5))
    for f in (_leaf, _middle):
        (cres,) = f.overloads.values()
        assert cres.library._sim_linked_only and not cres.library._sim_emitted
        name, kind, _data = cres.library.serialize_using_object_code()
        assert kind == "bitcode"  # what the cache keeps of it: its IR, its callees linked in
    (cres,) = _entry.overloads.values()
    assert not getattr(cres.library, "_sim_linked_only", False)
    assert cres.library.serialize_using_object_code()[1] == "object"


def test_a_linked_library_keeps_its_callees_for_whoever_links_it():
    _entry(np.arange(3, dtype=np.int64))
    (mid,) = _middle.overloads.values()
    (leaf,) = _leaf.overloads.values()
    assert leaf.library in mid.library._sim_links  # not linked into _middle's own module, handed on
    names = [f.name for f in mid.library._final_module.functions if not f.is_declaration]
    assert not any("_leaf" in n for n in names)


def test_arrays_that_share_memory_are_refused_by_name():
    a = np.zeros(10, np.int32)
    b = np.zeros(4, np.int32)
    check_distinct((a, b, (np.zeros(3), b.copy())), {}, ("st", "out"))
    with pytest.raises(ValueError, match=r"kernel arguments st and argument 2\[1\] share memory"):
        check_distinct((a, b, (np.zeros(3), a[4:6])), {}, ("st", "out"))
    with pytest.raises(ValueError, match="out and arc share memory"):
        check_distinct((a, b), {"arc": b[1:]}, ("st", "out"))
    with pytest.raises(ValueError, match="share memory"):  # one long array over two later ones: not only neighbours
        big = np.zeros(100, np.int8)
        check_distinct((big[0:90], big[10:12], big[50:52]), {}, ())


def test_a_batch_refuses_outputs_that_share_memory():
    from kernels.batch import play_games
    from sim.model.scenario import load

    sc = load("scenarios/moor/4p.toml")
    spec, p, prm = sc.spec, sc.players, sc.prm()
    k = spec.kernel()
    scratch = k.batch_scratch(p, prm)
    shape = (len(spec.curves), spec.curve_len)
    play_games(k.play_batch, scratch, 1, 0, 0, 4, p, prm, sc.sids(), sc.sparams(), len(spec.extra_columns), shape)
    out = np.zeros((4, p), np.int32)
    row = np.zeros(4, np.int32)
    with pytest.raises(ValueError, match="share memory"):
        k.play_batch(
            np.uint64(1), np.uint64(0), np.int64(0), np.int64(4), np.int64(p), prm, sc.sids(), sc.sparams(),
            out, row, row, np.zeros(4, np.int32), np.zeros(4, np.int32), np.zeros((4, len(spec.extra_columns)),
            np.int32), np.zeros((4, *shape), np.int32), scratch, None, None, None,
        )  # fmt: skip


def _add_type():
    import operator

    from numba.core.registry import cpu_target

    ctx = cpu_target.typing_context
    ctx.refresh()
    return ctx, ctx.resolve_value_type(operator.add)


def test_a_call_typed_again_is_answered_from_the_memo_with_the_templates_implementation():
    from numba.core import types

    ctx, add = _add_type()
    args = (types.int64, types.int64)
    first = add.get_call_type(ctx, args, {})
    impl = add._impl_keys[first.args]
    add._impl_keys[first.args] = "overwritten by another resolution"
    again = add.get_call_type(ctx, args, {})
    assert again is first and again.return_type == types.int64
    assert add._impl_keys[first.args] == impl  # the lowering finds what the template gave, as after a fresh resolution


def test_a_call_that_types_under_other_flags_is_resolved_afresh():
    from numba.core import types
    from numba.core.compiler import Flags
    from numba.core.targetconfig import ConfigStack

    ctx, add = _add_type()
    memo = type(add).get_call_type.memo
    args = (types.int32, types.int32)
    first = add.get_call_type(ctx, args, {})
    entries = len(memo)
    assert add.get_call_type(ctx, args, {}) is first and len(memo) == entries  # a hit
    flags = Flags()
    flags.nrt = not bool(ConfigStack.top_or_none() and ConfigStack.top_or_none().nrt)
    with ConfigStack().enter(flags):
        other = add.get_call_type(ctx, args, {})
    assert other == first and len(memo) == entries + 1  # the same answer, resolved and kept for these flags apart


def test_a_call_that_does_not_type_is_not_remembered():
    from numba.core import errors, types

    ctx, add = _add_type()
    memo = type(add).get_call_type.memo
    entries = len(memo)
    for _ in range(2):
        with pytest.raises(errors.TypingError):
            add.get_call_type(ctx, (types.none, types.int64), {})
    assert len(memo) == entries


def test_a_call_typed_under_fastmath_or_inline_options_is_kept_too():
    """Numba's option records (fastmath, inline) have no hash of their own: the key takes their contents."""
    from numba.core import types
    from numba.core.compiler import Flags
    from numba.core.targetconfig import ConfigStack

    ctx, add = _add_type()
    memo = type(add).get_call_type.memo
    flags = Flags()
    flags.fastmath = {"nnan", "ninf"}
    flags.inline = "always"
    with ConfigStack().enter(flags):
        entries = len(memo)
        first = add.get_call_type(ctx, (types.int16, types.int16), {})
        assert len(memo) == entries + 1
        assert add.get_call_type(ctx, (types.int16, types.int16), {}) is first and len(memo) == entries + 1


@njit(inline="always", cache=False)
def _halve_odd(x):
    y = x * 3
    if y % 2 == 1:
        y = y // 2
    return y


@njit(cache=False)
def _two_sites(a, b):
    return _halve_odd(a) + 100 * _halve_odd(b)


@njit(cache=False)
def _one_more_site(a):
    return _halve_odd(a) - 1


@njit(entry=True, cache=False)
def _sites_entry(a, b):
    return _two_sites(a, b), _one_more_site(a + b)


def test_an_inlined_function_is_made_once_and_each_site_keeps_its_own_variables():
    from numba.core.inline_closurecall import InlineWorker

    memo = InlineWorker.inline_function.memo
    # (each site's y its own: 3 -> 1 at the first, 6 at the second)
    assert _sites_entry(1, 2) == (1 + 100 * 6, 4 - 1)
    made = [ir for (f, _ctx), ir in memo.items() if f is _halve_odd.py_func]
    assert len(made) == 1  # its untyped IR, made at the first site and copied at the other two
    (cres,) = _two_sites.overloads.values()
    sites = {v[: -len("_y")] for v in cres.type_annotation.typemap if "_halve_odd" in v and v.endswith("_y")}
    assert len(sites) == 2  # each site's variables named apart ('_halve_odd_v3_y', '_halve_odd_v4_y')
