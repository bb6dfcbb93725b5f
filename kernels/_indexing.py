"""Numba's lowering of an array element access (``a[i]``, ``a[i, j]``, read or written), made leaner (issue 41: the
cold compile).

Numba lowers each element access by copying the array's structure into a stack slot (its getitem and setitem make
a structure proxy of the value), then through its general indexing (`numba.np.arrayobj.basic_indexing`, which also
serves slices, ellipses and views): it reads the array's shape and strides to fix a negative index, reads them again
to compute the address, and forms the address as ``0 + i * 1``: about 30 LLVM instructions an access, each built by
llvmlite in Python, written out as IR text and parsed again, of which LLVM's first simplification keeps a handful
(docs/dev/performance.md, "Array element accesses lowered leaner" and "Fewer instructions built").

Here, for an access of a C-contiguous array by one integer per dimension with bounds checking off (every kernel
access but under ``NUMBA_BOUNDSCHECK=1``), the address is built directly, in Numba's order and with its operations:
each dimension's length read once, a negative index wrapped as Numba wraps it (`fix_integer_index`), the sum of
each index times the product of the trailing lengths, one ``getelementptr`` of the element type; only the
multiplications by 1, the additions of 0 and the second reads are left out. Where the access is an element read or
write (`_lean_access`, chosen where Numba looks up its getitem and setitem), the data pointer and the lengths are
taken out of the array's value, with no copy into a stack slot; where Numba's own indexing is called with an array
already in a slot (`basic_indexing`), they are read from the slot. Every other access (slices, views, other
layouts, bounds checked) is Numba's own. The optimized code is the same, instruction for instruction
(tests/kernels/test_indexing.py; the entry point of Galleon's search scenario compared whole).
"""

from __future__ import annotations

import operator

from numba.core import base as basecontext
from numba.core import cgutils, types
from numba.np import arrayobj


def _address(builder, data, dims, index_types, indices, context):
    """The address of the element ``indices`` of a C-contiguous array with data pointer ``data`` and lengths
    ``dims``, built in Numba's order (each index fixed, the trailing lengths' products, the sum) less the
    instructions LLVM folds away at once (``1 * x``, ``0 + x``)."""
    inds = [arrayobj.fix_integer_index(context, builder, t, i, n) for t, i, n in zip(index_types, indices, dims)]
    loc = None
    for d, ind in enumerate(inds):
        step = None
        for n in dims[d + 1 :]:
            step = n if step is None else builder.mul(step, n)
        term = ind if step is None else builder.mul(ind, step)
        loc = term if loc is None else builder.add(loc, term)
    return builder.gep(data, [loc])


def _element_pointer(context, builder, aryty, ary, index_types, indices):
    """The address of the element ``indices`` (one integer per dimension) of the C-contiguous array ``ary`` (a
    Numba array structure): each dimension's length read once (marked non-negative, as Numba marks it)."""
    shape = ary._get_ptr_by_name("shape")
    dims = []
    for d in range(aryty.ndim):
        dims.append(builder.load(cgutils.gep_inbounds(builder, shape, 0, d)))
        arrayobj.mark_positive(builder, dims[-1])
    return _address(builder, ary.data, dims, index_types, indices, context)


def _lean_access(context, sig, setting: bool):
    """The element read (``a[i]``, ``a[i, j]``) or write of signature ``sig``, taken from the array's value
    without Numba's copy of it into a stack slot; None where the access is not one the lean path takes."""
    aryty, idxty = sig.args[0], sig.args[1]
    if type(aryty) is not types.Array or aryty.layout != "C" or aryty.ndim == 0 or context.enable_boundscheck:
        return None
    index_types = idxty.types if isinstance(idxty, types.BaseTuple) else (idxty,)
    if len(index_types) != aryty.ndim or not all(isinstance(t, types.Integer) for t in index_types):
        return None
    if not setting and sig.return_type != aryty.dtype:
        return None
    model = context.data_model_manager[aryty]
    data_at, shape_at = model.get_field_position("data"), model.get_field_position("shape")

    def impl(builder, args, loc=None):
        ary, idx = args[0], args[1]
        indices = cgutils.unpack_tuple(builder, idx, len(idxty)) if isinstance(idxty, types.BaseTuple) else (idx,)
        dims = [builder.extract_value(ary, [shape_at, d]) for d in range(aryty.ndim)]
        ptr = _address(builder, builder.extract_value(ary, data_at), dims, index_types, indices, context)
        if not setting:
            return arrayobj.load_item(context, builder, aryty, ptr)
        val = context.cast(builder, args[2], sig.args[2], aryty.dtype)
        arrayobj.store_item(context, builder, aryty, val, ptr)
        return None

    return impl


def install() -> None:
    """Replace `basic_indexing` in Numba's array lowering (its getitem and setitem call it by name), and Numba's
    getitem and setitem of an element by the value-reading ones (`_lean_access`); once."""
    base = arrayobj.basic_indexing
    if getattr(base, "_sim_lean", False):
        return

    def basic_indexing(context, builder, aryty, ary, index_types, indices, boundscheck=None):
        if (
            boundscheck
            or aryty.layout != "C"
            or aryty.ndim == 0
            or len(indices) != aryty.ndim
            or not all(isinstance(t, types.Integer) for t in index_types)
        ):
            return base(context, builder, aryty, ary, index_types, indices, boundscheck=boundscheck)
        return _element_pointer(context, builder, aryty, ary, index_types, indices), [], []

    basic_indexing._sim_lean = True  # type: ignore[attr-defined]
    basic_indexing.__wrapped__ = base  # type: ignore[attr-defined]
    arrayobj.basic_indexing = basic_indexing

    Context = basecontext.BaseContext
    get_function = Context.get_function

    def lean_get_function(self, fn, sig, _firstcall=True):
        if isinstance(fn, types.Function) and fn.typing_key in _ACCESSES and sig.args:
            lean = _lean_access(self, sig, fn.typing_key is operator.setitem)
            if lean is not None:
                return lean
        return get_function(self, fn, sig, _firstcall)

    lean_get_function.__wrapped__ = get_function  # type: ignore[attr-defined]
    Context.get_function = lean_get_function


_ACCESSES = (operator.getitem, operator.setitem)
