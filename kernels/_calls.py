"""Calls between kernel functions with their arguments passed whole (issue 41: the cold compile).

Numba's calling convention (`numba.core.callconv.CPUCallConv`) flattens every argument into scalars: a caller takes
a 1-D array apart into its seven members (``extractvalue`` each, the shape and strides element by element), a tuple
into its elements, a bool widened to a byte, and the callee's prologue builds each value again (``insertvalue``s; a
bool through a stack slot and a branch). In a Galleon search compile that was about 21 instructions a call (222
calls) and 2,983 ``insertvalue``s in the prologues, each built by llvmlite in Python, written out as IR text and
parsed again, before LLVM's first simplification folds them back (docs/dev/performance.md, "Calls between kernel
functions pass arrays whole").

Here, a function compiled with neither a CPython nor a C wrapper (every kernel function but the entry points,
`numba.njit`'s internal subroutines: nothing calls it but compiled code) takes each argument that Numba would
flatten into more than one scalar, or change in type, as one LLVM value of the type Numba computes with (an
array's structure, a tuple's, an ``i1``): the caller passes the value it holds, the callee uses the argument as it
is. LLVM splits such an argument into registers as it split the scalars, and after inlining reads the members
straight from the caller's values, as before. An argument of one scalar or of none is passed as Numba passes it.
After the whole values the function takes unused byte arguments (``undef`` at each call: nothing built, no register
set) up to Numba's count: LLVM's inliner credits a call 5 per argument and charges a callee 5 per argument of each
call it makes, and without them it inlined less (Moor's `deal` and `discard_delta`, eleven Galleon calls); with them
it inlines what it inlined under Numba's convention.

The status of such a call is Numba's, but for the two tests its callers rarely read (an exception already set in
Python's state, a generator's end), built only where read; and a call's error path (any call's) no longer loads the
exception slot that Numba's `return_status_propagate` loaded and never used.

Entry points keep Numba's convention: Python calls them through Numba's wrapper, and their ``noalias`` promise
(kernels/_noalias.py) is an attribute on each flattened data pointer. Which convention a function has is read from
its compile flags, which Numba writes into its symbol's ABI tag (`FunctionDescriptor.abi_tags`): the same answer
for a function compiled now or loaded from the cache. A call reads the convention off the callee's declared type,
so every call is built for the function it calls.
"""

from __future__ import annotations

from llvmlite import ir as llir
from numba.core import base, callconv, cgutils
from numba.core.compiler import Flags
from numba.core.datamodel.packer import _flatten

_BYTE = llir.IntType(8)
_WHOLE: dict[str, bool] = {}  # an ABI tag -> whether its functions take arguments whole
_FORMS: dict = {}  # (data model manager, argument types) -> _Form


def _whole(fndesc) -> bool:
    """Whether ``fndesc``'s function takes its arguments whole: compiled without either wrapper (and not ``noalias``)."""
    if fndesc.noalias or len(fndesc.abi_tags) != 1:
        return False
    (tag,) = fndesc.abi_tags
    hit = _WHOLE.get(tag)
    if hit is None:
        try:
            summary = Flags.demangle(tag)
        except Exception:  # (a tag not made from flags: Numba's convention)
            summary = ""
        hit = _WHOLE[tag] = "no_cpython_wrapper=True" in summary and "no_cfunc_wrapper=True" in summary
    return hit


class _Form:
    """The LLVM argument types of a signature in both conventions, and which arguments differ."""

    def __init__(self, context, argtypes):
        self.packer = context.get_arg_packer(argtypes)
        self.flat = tuple(self.packer.argument_types)
        whole, self.passed = [], []
        self.models = [context.data_model_manager[ty] for ty in argtypes]
        for model in self.models:
            leaves = list(_flatten([model.get_argument_type()]))
            value = model.get_value_type()
            self.passed.append(bool(leaves))
            if leaves:
                whole.append(value)
        self.whole = tuple(whole)
        self.differ = self.whole != self.flat
        # one unused byte for each argument fewer than Numba's (module docstring: the inliner)
        self.padding = (_BYTE,) * (len(self.flat) - len(self.whole))
        self.signature = self.whole + self.padding

    def is_whole(self, fnty) -> bool:
        """Whether a function of LLVM type ``fnty`` takes these arguments whole (its types are the whole ones and
        not also Numba's)."""
        return self.differ and tuple(fnty.args[2:]) == self.signature


def _form(context, argtypes) -> _Form:
    key = (context.data_model_manager, argtypes)
    hit = _FORMS.get(key)
    if hit is None:
        hit = _FORMS[key] = _Form(context, argtypes)
    return hit


def _declare_function(numba_declare):
    def declare_function(self, module, fndesc):
        if not _whole(fndesc):
            return numba_declare(self, module, fndesc)
        form = _form(self, fndesc.argtypes)
        if not form.differ:
            return numba_declare(self, module, fndesc)
        conv = self.call_conv
        resptr = conv.get_return_type(fndesc.restype)
        fnty = llir.FunctionType(
            callconv.errcode_t, [resptr, llir.PointerType(callconv.excinfo_ptr_t), *form.signature]
        )
        fn = cgutils.get_or_insert_function(module, fnty, fndesc.mangled_name)
        self.apply_target_attributes(fn, fndesc.argtypes, fndesc.restype)
        conv.decorate_function(fn, fndesc.args, fndesc.argtypes, noalias=False)
        if fndesc.inline:
            fn.attributes.add("alwaysinline")
            fn.attributes.discard("noinline")
        return fn

    return declare_function


def _decorate_function(numba_decorate):
    def decorate_function(self, fn, args, fe_argtypes, noalias=False):
        form = _form(self.context, fe_argtypes)
        if noalias or not form.is_whole(fn.function_type):
            return numba_decorate(self, fn, args, fe_argtypes, noalias=noalias)
        names = [a for a, passed in zip(args, form.passed) if passed]
        for value, name in zip(self.get_arguments(fn), names + ["pad"] * len(form.padding)):
            value.name = "arg." + name
        for value, name in ((self._get_return_argument(fn), "retptr"), (self._get_excinfo_argument(fn), "excinfo")):
            value.name = name
            value.add_attribute("captures(none)")
            value.add_attribute("noalias")
        return None

    return decorate_function


def _decode_arguments(numba_decode):
    def decode_arguments(self, builder, argtypes, func):
        form = _form(self.context, argtypes)
        if not form.is_whole(func.function_type):
            return numba_decode(self, builder, argtypes, func)
        got = iter(self.get_arguments(func))
        return [
            next(got) if passed else model.from_argument(builder, ()) for passed, model in zip(form.passed, form.models)
        ]

    return decode_arguments


def _call_function(numba_call):
    def call_function(self, builder, callee, resty, argtys, args, attrs=None):
        form = _form(self.context, tuple(argtys))
        if not form.is_whole(callee.function_type):
            return numba_call(self, builder, callee, resty, argtys, args, attrs=attrs)
        retty = self.get_return_type(resty).pointee
        if retty != self._get_return_argument(callee.function_type).pointee:
            return numba_call(self, builder, callee, resty, argtys, args, attrs=attrs)  # (which raises Numba's error)
        retvaltmp = cgutils.alloca_once(builder, retty)
        builder.store(cgutils.get_null_value(retty), retvaltmp)
        excinfoptr = cgutils.alloca_once(builder, llir.PointerType(callconv.excinfo_t), name="excinfo")
        passed = [a for a, p in zip(args, form.passed) if p] + [llir.Constant(_BYTE, llir.Undefined)] * len(
            form.padding
        )
        code = builder.call(callee, [retvaltmp, excinfoptr, *passed], attrs=tuple(attrs or ()))
        status = _status(builder, code, builder.load(excinfoptr))
        out = self.context.get_returned_value(builder, resty, builder.load(retvaltmp))
        return status, out

    return call_function


class _Status(callconv.Status):
    """Numba's status of a call (`CPUCallConv._get_return_status`) whose two tests its callers rarely read (an
    exception already set in Python's state, a generator's end) are built where they are read, each time: the
    return code they compare is defined wherever the status can be read (after the call)."""

    @property
    def is_python_exc(self):
        return self._builder.icmp_signed("==", self.code, callconv.RETCODE_EXC)

    @property
    def is_stop_iteration(self):
        return self._builder.icmp_signed("==", self.code, callconv.RETCODE_STOPIT)


def _status(builder, code, excinfo) -> _Status:
    """The status of a call that returned ``code``, with Numba's comparisons, but for the two `_Status` builds on
    demand, and in its order (the pointer to the exception's description kept only for a user exception)."""
    norm = builder.icmp_signed("==", code, callconv.RETCODE_OK)
    none = builder.icmp_signed("==", code, callconv.RETCODE_NONE)
    ok = builder.or_(norm, none)
    err = builder.not_(ok)
    is_user_exc = builder.icmp_signed(">=", code, callconv.RETCODE_USEREXC)
    excinfo = builder.select(is_user_exc, excinfo, llir.Constant(callconv.excinfo_ptr_t, llir.Undefined))
    status = _Status(code, ok, none, err, None, None, is_user_exc, excinfo)
    status._builder = builder
    return status


def _return_status_propagate(self, builder, status) -> None:
    """Numba's `CPUCallConv.return_status_propagate` without its load of this function's exception slot, which it
    never used (`check_try_status` reads it for its other callers)."""
    depth = builder.load(self._get_try_state(builder))
    in_try = builder.icmp_unsigned(">", depth, depth.type(0))
    builder.store(status.excinfoptr, self._get_excinfo_argument(builder.function))
    with builder.if_then(builder.not_(in_try)):
        self._return_errcode_raw(builder, status.code)


def install() -> None:
    """Change Numba's calls between compiled functions as the module docstring says; once per process."""
    Conv = callconv.CPUCallConv
    if getattr(Conv, "_sim_whole_args", False):
        return
    base.BaseContext.declare_function = _declare_function(base.BaseContext.declare_function)
    Conv.decorate_function = _decorate_function(Conv.decorate_function)
    Conv.decode_arguments = _decode_arguments(Conv.decode_arguments)
    Conv.call_function = _call_function(Conv.call_function)
    Conv.return_status_propagate = _return_status_propagate
    Conv._sim_whole_args = True
