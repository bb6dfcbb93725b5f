"""Numba's lowering of an array element access (``a[i]``, ``a[i, j]``, read or written), made leaner (issue 41: the
cold compile).

Numba lowers each element access through its general indexing (`numba.np.arrayobj.basic_indexing`, which also
serves slices, ellipses and views): it reads the array's shape and strides to fix a negative index, reads them again
to compute the address, and forms the address as ``0 + i * 1``: about 30 LLVM instructions an access, each built by
llvmlite in Python, written out as IR text and parsed again, of which LLVM's first simplification keeps a handful.
Galleon's search scenario built 83,000 instructions, 15,500 fewer with the change below (docs/dev/performance.md,
"Array element accesses lowered leaner").

Here, for an access of a C-contiguous array by one integer per dimension with bounds checking off (every kernel
access but under ``NUMBA_BOUNDSCHECK=1``), the address is built directly, in Numba's order and with its operations:
each dimension's length read once (marked non-negative, as Numba marks it), a negative index wrapped as Numba wraps
it (`fix_integer_index`), the sum of each index times the product of the trailing lengths, one ``getelementptr`` of
the element type; only the multiplications by 1, the additions of 0 and the second reads are left out. Every other
access (slices, views, other layouts, bounds checked) is Numba's own. The optimized code is the same, instruction
for instruction (tests/kernels/test_indexing.py; the entry points of the search scenarios and Moor's compared whole).
"""

from __future__ import annotations

from numba.core import cgutils, types
from numba.np import arrayobj


def _element_pointer(context, builder, aryty, ary, index_types, indices):
    """The address of the element ``indices`` (one integer per dimension) of the C-contiguous array ``ary`` (a
    Numba array structure), built in Numba's order (the lengths, each index fixed, the trailing lengths' products,
    the sum) less the instructions LLVM folds away at once (``1 * x``, ``0 + x``) and the lengths read twice."""
    shape = ary._get_ptr_by_name("shape")
    dims = []
    for d in range(aryty.ndim):
        dims.append(builder.load(cgutils.gep_inbounds(builder, shape, 0, d)))
        arrayobj.mark_positive(builder, dims[-1])
    inds = [arrayobj.fix_integer_index(context, builder, t, i, n) for t, i, n in zip(index_types, indices, dims)]
    loc = None
    for d, ind in enumerate(inds):
        step = None
        for n in dims[d + 1 :]:
            step = n if step is None else builder.mul(step, n)
        term = ind if step is None else builder.mul(ind, step)
        loc = term if loc is None else builder.add(loc, term)
    return builder.gep(ary.data, [loc])


def install() -> None:
    """Replace `basic_indexing` in Numba's array lowering (its getitem and setitem call it by name); once."""
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
