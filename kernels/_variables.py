"""Numba's lowering of a variable's store and deletion, without the reference-counting work a variable that holds no
reference never needs (issue 41: the cold compile).

Numba keeps each variable of a function in a stack slot. Storing into a slot first loads the value it held (to drop
its reference), and deleting a variable (Numba IR's ``del``, about 12,500 in a Galleon search compile) loads the
value (to drop it) and stores a zero over it (so a second drop finds nothing). Where the function is compiled
without reference counting (every kernel function but the entry points and `njit_alloc` ones), or the variable's
type holds no reference (an integer, a bool, a tuple of them...), the drop is nothing, and the load and the zero are
dead code: about 10,000 of Galleon's search's 68,000 built instructions, each made by llvmlite in Python, written
out as IR text and parsed again before LLVM's first pass removes it.

Here, for such a variable, the store is only the store and the deletion only its bookkeeping (the slot made if the
variable had none yet). A variable that holds a reference, an argument's first store and a debug build are lowered
as Numba lowers them. Nothing reads a deleted variable (Numba IR deletes a variable after its last use on every
path), so the optimized code is the same (tests/kernels/test_variables.py).
"""

from __future__ import annotations

from numba.core import lowering


def _counted(self, fetype) -> bool:
    """Whether a value of ``fetype`` holds a reference this function counts: then its store and deletion are
    Numba's own."""
    ctx = self.context
    if not ctx.enable_nrt:
        return False
    memo = self.__dict__.setdefault("_sim_counted", {})
    hit = memo.get(fetype)
    if hit is None:
        hit = memo[fetype] = ctx.data_model_manager[fetype].contains_nrt_meminfo()
    return hit


def install() -> None:
    """Replace `Lower.storevar` and `Lower.delvar` as the module docstring says; once."""
    Lower = lowering.Lower
    if getattr(Lower, "_sim_lean_vars", False):
        return
    base_store, base_del = Lower.storevar, Lower.delvar

    def storevar(self, value, name, argidx=None):
        fetype = self.typeof(name)
        if argidx is not None or self._disable_sroa_like_opt or _counted(self, fetype):
            return base_store(self, value, name, argidx=argidx)
        self._alloca_var(name, fetype)
        if name in self._singly_assigned_vars:
            self._blk_local_varmap[name] = value
            return None
        ptr = self.getvar(name)
        if value.type != ptr.type.pointee:
            return base_store(self, value, name)  # (which raises Numba's error)
        self.builder.store(value, ptr)
        return None

    def delvar(self, name):
        fetype = self.typeof(name)
        if self._disable_sroa_like_opt or _counted(self, fetype):
            return base_del(self, name)
        if name not in self._blk_local_varmap:
            self._singly_assigned_vars.discard(name)
        self._alloca_var(name, fetype)
        return None

    storevar.__wrapped__ = base_store  # type: ignore[attr-defined]
    delvar.__wrapped__ = base_del  # type: ignore[attr-defined]
    Lower.storevar, Lower.delvar = storevar, delvar
    Lower._sim_lean_vars = True
