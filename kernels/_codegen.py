"""Numba's code generation, changed so that each entry point's call tree is optimized and made into machine code
once (issue 41: the cold compile).

Numba compiles every function into its own LLVM library, and `finalize` links into it the libraries of the
functions it calls, optimizes the result at -O3 and emits its machine code. A kernel function other than an entry
point has no CPython wrapper (kernels/_jit.py): nothing ever runs its own machine code, because each compiled caller
links its LLVM IR and the entry point's module (`play_batch`, a Python twin) holds the whole call tree, which is the
code that runs. So in a cold compile of a game, a function deep in the tree was optimized once at each level above
it, and machine code was emitted for about a hundred libraries that nothing calls.

Here, for a library of a function without a CPython wrapper (a *linked-only* library, marked as its lowering
starts):

- ``finalize`` links none of its callees into its module and runs no module passes over it (its functions have had
  Numba's per-function -O3 passes as they were added). The callees' libraries are handed on to whoever links it
  (`add_linking_library` adds them too), so the entry point links every library of its tree once and runs the
  module passes (inlining, interprocedural) over the whole at -O3, as before.
- No machine code is emitted until something asks for the address of a function the library defines (it never
  happens for a linked-only library: it has no wrapper to call). The cache keeps it in Numba's 'bitcode' form with
  its callees linked in, which is what a caller compiled later links.

Entry points, their Python twins and Numba's own libraries are compiled as Numba compiles them. The entry point's
module passes now meet callees that were optimized one function at a time rather than already inlined into each
other; the batch digests are unchanged and games/s did not move (Moor, Turnwall, Galleon, Treasure Hunters, in turn
with the old code); measured in docs/dev/performance.md, "Cold compile".
"""

from __future__ import annotations

import weakref

import llvmlite.binding as ll
from numba.core import codegen as cg
from numba.core import typed_passes as tp

_Lib = cg.JITCodeLibrary


def _linked_only(lib) -> bool:
    return getattr(lib, "_sim_linked_only", False)


def _lowering(base):
    def run_pass(self, state):
        if (
            state.library is None
            and state.flags.no_cpython_wrapper
            and isinstance(state.targetctx.codegen(), cg.JITCPUCodegen)
        ):
            # made as Numba makes it, and marked: this function's machine code will never be called
            state.library = state.targetctx.codegen().create_library(state.func_id.func_qualname)
            state.library.enable_object_caching()
            state.library._sim_linked_only = True
        if getattr(state.func_id.func, "_sim_noalias", False):
            state.flags.noalias = True  # (its dispatcher refuses arguments that share memory: kernels/_noalias.py)
        return base(self, state)

    return run_pass


def _add_linking_library(base):
    def add_linking_library(self, library):
        base(self, library)
        for lib in getattr(library, "_sim_links", ()):  # its callees, not linked into its own module
            base(self, lib)

    return add_linking_library


def _closure(libs) -> list:
    """``libs`` and, through each linked-only library's handed-on callees (``_sim_links``), every library they
    reach, each once, in order of discovery. Taken as a library is finalized, when every library it links has
    been finalized itself: a callee linked while its own callees were still being compiled is then complete too."""
    out: dict = {}
    stack = list(reversed(list(libs)))
    while stack:
        lib = stack.pop()
        if lib in out:
            continue
        out[lib] = None
        stack.extend(reversed(getattr(lib, "_sim_links", ())))
    return list(out)


def _finalize(base):
    def finalize(self):
        if isinstance(self, _Lib):
            libs = _closure(self._linking_libraries)
            if _linked_only(self):
                self._sim_links, self._linking_libraries = libs, []
            else:
                self._linking_libraries = libs
        return base(self)

    return finalize


# every function a linked-only library defines, by symbol: where a module about to become machine code finds a
# function it calls but was not handed (`_link_missing`)
_DEFINED: dict[str, object] = {}


def _link_missing(self) -> None:
    """Link into this library's module every linked-only library that defines a function it declares but does not
    define, until none is left: the handing on of callees (`_closure`) is the rule, this the safety net (a
    Turnwall training kernel, compiled second in its process, called `rng.shuffle_range` without it)."""
    mod = self._final_module
    linked: set = set()
    while True:
        libs = [lib for lib in _closure(dict.fromkeys(_DEFINED[f.name] for f in mod.functions if f.is_declaration
                                                      and f.name in _DEFINED)) if lib not in linked]  # fmt: skip
        if not libs:
            return
        for lib in libs:
            mod.link_in(lib._get_module_for_linking(), preserve=True)
            linked.add(lib)


def _finalize_final_module(base):
    def finalize_final_module(self):
        if not _linked_only(self):
            _link_missing(self)
            return base(self)  # (an entry point, a Python twin, Numba's runtime and helpers: made ready as ever)
        for f in self._final_module.functions:
            if not f.is_declaration:
                _DEFINED.setdefault(f.name, self)
        self._finalize_dynamic_globals()
        if not hasattr(self, "_sim_links"):
            self._verify_declare_only_symbols()
        self._sim_emitted = False
        self._finalized = True

    return finalize_final_module


def _emit(self) -> None:
    """Machine code for a library finalized without it: its callees linked in first, so it stands alone."""
    for lib in getattr(self, "_sim_links", ()):
        self._final_module.link_in(lib._get_module_for_linking(), preserve=True)
    self._verify_declare_only_symbols()
    self._final_module._CPUCodeLibrary__library = weakref.proxy(self)  # where Numba's object cache hooks look
    cleanup = self._codegen._add_module(self._final_module)
    if cleanup:
        weakref.finalize(self, cleanup)
    self._finalize_specific()
    self._sim_emitted = True


def _get_pointer_to_function(base):
    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        if not getattr(self, "_sim_emitted", True):
            try:
                self._final_module.get_function(name)
            except NameError:
                return 0  # (as Numba answers for a name the library does not define)
            _emit(self)
        return base(self, name)

    return get_pointer_to_function


def _serialize(base):
    def serialize_using_object_code(self):
        self._ensure_finalized()
        if getattr(self, "_sim_emitted", True):
            return base(self)
        mod = self._get_module_for_linking().clone()
        for lib in getattr(self, "_sim_links", ()):
            mod.link_in(lib._get_module_for_linking(), preserve=True)
        return (self.name, "bitcode", mod.as_bitcode())

    return serialize_using_object_code


def _unserialize(base):
    def unserialize(cls, codegen, state):
        name, kind, data = state
        if kind != "bitcode":
            return base(cls, codegen, state)
        self = codegen.create_library(name)  # a linked-only library from the cache: again no machine code
        self._sim_linked_only = True
        self._final_module = ll.parse_bitcode(data)
        self._finalize_final_module()
        return self

    return classmethod(unserialize)


def _set_env(base):
    def set_env(self, env_name, env):
        if self._engine.is_symbol_defined(env_name):  # (no machine code, no environment to point at)
            base(self, env_name, env)

    return set_env


def _optimize_final_module(base):
    def optimize_final_module(self):
        if not _linked_only(self):  # (a linked-only module is optimized as part of its entry point's, once)
            base(self)

    return optimize_final_module


def _optimize_functions(self, ll_module):
    """Numba's per-function passes over ``ll_module``, with one pass manager for the module instead of one built
    for each function (the same passes at the same level; building them was about a quarter of their cost)."""
    ll_module.data_layout = self._codegen._data_layout
    fpm, pb = self._codegen._function_pass_manager()
    for func in ll_module.functions:
        if not func.is_declaration:
            fpm.run(func, pb)


def install() -> None:
    """Change Numba's code generation as the module docstring says; once per process."""
    if getattr(_Lib, "_sim_once_per_entry", False):
        return
    tp.BaseNativeLowering.run_pass = _lowering(tp.BaseNativeLowering.run_pass)
    cg.CPUCodeLibrary.add_linking_library = _add_linking_library(cg.CPUCodeLibrary.add_linking_library)
    cg.CPUCodeLibrary.finalize = _finalize(cg.CPUCodeLibrary.finalize)
    cg.CPUCodeLibrary._finalize_final_module = _finalize_final_module(cg.CPUCodeLibrary._finalize_final_module)
    cg.CPUCodeLibrary.serialize_using_object_code = _serialize(cg.CPUCodeLibrary.serialize_using_object_code)
    cg.CPUCodeLibrary._unserialize = _unserialize(cg.CPUCodeLibrary.__dict__["_unserialize"].__func__)
    _Lib.get_pointer_to_function = _get_pointer_to_function(_Lib.get_pointer_to_function)
    cg.JITCPUCodegen.set_env = _set_env(cg.JITCPUCodegen.set_env)
    _Lib._sim_once_per_entry = True
    cg.CPUCodeLibrary._optimize_functions = _optimize_functions
    cg.CPUCodeLibrary._optimize_final_module = _optimize_final_module(cg.CPUCodeLibrary._optimize_final_module)
