"""Numba's lowering of ``for i in range(n)`` and ``for i in range(a, b)``, made leaner (issue 41: the cold compile).

A ``for`` loop over a range is four Numba IR steps: the ``range(...)`` call makes a range (start, stop, step),
``getiter`` an iterator over it (a slot holding the next value, the stop, the step and a slot holding the count of
values left), and at the loop's head ``iternext`` yields a (value, valid) pair that ``pair_first`` and
``pair_second`` take apart. Numba builds each of these through a structure in a stack slot (made, zeroed, written
field by field and read back), and the iterator's count through the general step's division, remainder and its
zero-step check: about 107 LLVM instructions a loop, each made by llvmlite in Python, written out as IR text and
parsed again before LLVM's first pass folds them (Galleon's search compile has 118 such loops: 12,600 instructions).

Here:

- ``range(stop)`` and ``range(start, stop)`` make their range as a value (three ``insertvalue``), and the value
  carries a mark that its step is 1;
- ``getiter`` of a range so marked (the range made in the block that iterates it, the usual ``for``) computes the
  count as Numba does for a step of 1: ``stop - start`` when that is above 0 (a signed comparison, as Numba's, for
  every integer type), else 0; the division, remainder and zero-step check it would fold away are not built. Any
  other range (a step given, a range kept in a variable and iterated in another block) is Numba's own;
- ``iternext`` of a range iterator does Numba's loads, comparison and stores, and forms its pair as a value (the
  yielded value 0 when the iterator is exhausted, as Numba's zeroed pair has it);
- ``pair_first`` / ``pair_second`` of any pair take the field out of the value instead of through a stack slot.

The iterator has Numba's layout and contents, so anything else that reads it (``enumerate``, ``zip``, ``len``) is
unchanged. The same values are computed in the same order: tests/kernels/test_ranges.py compares loops with Python
(empty and negative ranges, int32 and uint64 bounds, break and continue, nesting, enumerate and zip).
"""

from __future__ import annotations

from llvmlite import ir as llir
from numba.core import base, cgutils, types


def _range(context, sig):
    """``range(stop)`` or ``range(start, stop)`` as a value (start, stop, 1), marked with its start and stop."""
    ty = context.get_value_type(sig.return_type)
    int_ty = context.get_value_type(sig.return_type.dtype)

    def impl(builder, args, loc=None):
        start, stop = (llir.Constant(int_ty, 0), args[0]) if len(args) == 1 else args
        val = llir.Constant(ty, None)
        for i, v in enumerate((start, stop, llir.Constant(int_ty, 1))):
            val = builder.insert_value(val, v, i)
        val._sim_unit_step = (start, stop)
        return val

    return impl


def _getiter(context, sig, numba_impl):
    """The iterator of a range of step 1 (Numba's layout: the next value's slot, stop, step, the count's slot)."""
    iter_ty = context.get_value_type(sig.return_type)

    def impl(builder, args, loc=None):
        marked = getattr(args[0], "_sim_unit_step", None)
        if marked is None:
            return numba_impl()(builder, args)
        start, stop = marked
        zero = llir.Constant(start.type, 0)
        startptr = cgutils.alloca_once(builder, start.type)
        builder.store(start, startptr)
        countptr = cgutils.alloca_once(builder, start.type)
        diff = builder.sub(stop, start)
        builder.store(builder.select(builder.icmp_signed(">", diff, zero), diff, zero), countptr)
        val = llir.Constant(iter_ty, None)
        for i, v in enumerate((startptr, stop, llir.Constant(start.type, 1), countptr)):
            val = builder.insert_value(val, v, i)
        return val

    return impl


def _iternext(context, sig):
    """Numba's step of a range iterator: (the next value, whether there was one), the count and value moved on."""
    pair_ty = context.get_value_type(sig.return_type)

    def impl(builder, args, loc=None):
        (it,) = args
        iterptr, step, countptr = (builder.extract_value(it, i) for i in (0, 2, 3))
        count = builder.load(countptr)
        zero = llir.Constant(count.type, 0)
        is_valid = builder.icmp_signed(">", count, zero)
        entry = builder.block
        with builder.if_then(is_valid):
            value = builder.load(iterptr)
            builder.store(builder.sub(count, llir.Constant(count.type, 1), flags=["nsw"]), countptr)
            builder.store(builder.add(value, step), iterptr)
            then = builder.block
        first = builder.phi(count.type)
        first.add_incoming(value, then)
        first.add_incoming(zero, entry)
        pair = builder.insert_value(llir.Constant(pair_ty, None), first, 0)
        return builder.insert_value(pair, is_valid, 1)

    return impl


def _lean(context, fn, sig, numba_impl):
    """The lean implementation of ``fn`` for ``sig``, or None where Numba's own stands."""
    if fn == "iternext":
        if isinstance(sig.args[0], types.RangeIteratorType):
            return _iternext(context, sig)
    elif fn == "getiter":
        if isinstance(sig.args[0], types.RangeType):
            return _getiter(context, sig, numba_impl)
    elif isinstance(fn, types.Function) and fn.typing_key is range:
        if len(sig.args) in (1, 2) and isinstance(sig.return_type, types.RangeType):
            return _range(context, sig)
    return None


def install() -> None:
    """Change Numba's lowering of ranges and pairs as the module docstring says; once."""
    Context = base.BaseContext
    if getattr(Context, "_sim_lean_ranges", False):
        return
    get_function = Context.get_function

    def lean_get_function(self, fn, sig, _firstcall=True):
        lean = _lean(self, fn, sig, lambda: get_function(self, fn, sig, _firstcall))
        return lean if lean is not None else get_function(self, fn, sig, _firstcall)

    def pair_first(self, builder, val, ty):
        return builder.extract_value(val, 0)

    def pair_second(self, builder, val, ty):
        return builder.extract_value(val, 1)

    lean_get_function.__wrapped__ = get_function  # type: ignore[attr-defined]
    Context.get_function = lean_get_function
    Context._sim_numba_pairs = (Context.pair_first, Context.pair_second)  # (the tests compare with them)
    Context.pair_first, Context.pair_second = pair_first, pair_second
    Context._sim_lean_ranges = True
