"""The one place that owns every JIT flag, and why each is set.

- ``cache=True``: a warm `sim run` must start in well under 2 s; compiling the Moor kernel cold takes seconds.
  Numba keys its cache by the hash of the *decorated* file only, so an edit in a helper file (rng.py) would be
  missed. We therefore key the cache *folder* by a hash of all kernel sources (NUMBA-NOTES "Caching").
- ``nogil=True``: `sim.play.runner` plays a batch's blocks of games on several Python threads at once, each calling a
  game's serial `play_batch`. We do not use ``parallel=True``/``prange``: the parfor passes and the separately
  compiled gufunc cost Treasure Hunters 3.5 of its 16 CPU seconds of cold compile (measured 2026-12-01), and Python
  threads over blocks of games scale as well (1 -> 2 threads: see kernels/README.md).
- ``no_cfunc_wrapper=True``: no C-callable wrapper per function (it serves only first-class function values, which
  the kernels never use); it was about a tenth of each small function's compile time.
- ``fastmath`` stays off: kernels are integer code and we want bit-identical results everywhere.
- ``error_model='numpy'``: integer division by zero gives a value instead of raising (kernels return status codes,
  never raise).
- ``_nrt=False`` on every rule, strategy and RNG function (`njit`): they only read and write arrays their caller
  owns, so reference counting is pure overhead. With it on, each call between compiled functions paid an atomic
  incref/decref per array argument; turning it off took the Moor 4-player kernel from 43,000 to 61,000 games/s on
  one thread (measured 2026-11-29, `sim bench`). Numba itself enforces the contract: a function compiled this way
  cannot allocate an array (typing error) nor return an array that is not one of its arguments.
  Functions that allocate scratch use `njit_alloc`; batch entry points (`play_batch`) allocate once per call.
  Trap: when a function compiled without reference counting tries to allocate, Numba caches that failed typing of
  `np.zeros(...)` for the whole process, and later allocations with the same argument types fail too, even in
  `njit_alloc` functions. Fix the first error (mark the allocating function `njit_alloc`) and the rest go away.
- ``no_cpython_wrapper=True`` on every function but the entry point Python calls in a run (``entry=True``:
  `play_batch`; `trace_game` is plain Python over it). Numba builds, for each compiled function, a wrapper that unboxes Python arguments;
  compiled callers never use it, and it was about a tenth of Treasure Hunters' cold compile (its own lowering, a
  second LLVM module to parse, optimize and emit per function: 23.3 -> 21.0 s, measured 2026-12-02). Such a
  function cannot be called from Python (the call would jump to a null pointer), so its dispatcher is a
  `KernelDispatcher`: a call from Python (the tests, a replay) goes to a twin compiled with the wrapper, cached
  like the rest, and compiled only when Python calls it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pathlib
import types

_ROOT = pathlib.Path(__file__).resolve().parent


@functools.cache
def source_hash() -> str:
    """Hash of every ``*.py`` under kernels/ (16 hex chars); part of the cache folder name. Read once a process: the
    code this process runs is what was there when it started (a ladder keys each of its tables with it, hundreds of
    reads of 60 files otherwise)."""
    h = hashlib.sha256()
    for p in sorted(_ROOT.rglob("*.py")):
        h.update(p.relative_to(_ROOT).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _cache_dir() -> str:
    base = os.environ.get("SIM_CACHE_ROOT") or str(_ROOT.parent / ".numba_cache")
    tag = source_hash()
    if os.environ.get("NUMBA_BOUNDSCHECK", "0") not in ("", "0"):
        tag += "-boundscheck"  # a filled unchecked cache would otherwise be loaded (NUMBA-NOTES)
    return os.path.join(base, tag)


CACHE_DIR = _cache_dir()
os.environ["NUMBA_CACHE_DIR"] = CACHE_DIR

import numba  # noqa: E402  (must come after NUMBA_CACHE_DIR is set)

numba.core.config.reload_config()  # in case numba was imported before us

from numba.core import caching as _caching  # noqa: E402


def _locked(method, mode):
    """``method`` of Numba's `IndexDataCacheFile` run under an advisory lock on ``<function index>.lock``.

    Numba's cache keeps one index file per function (signature -> data file) and writes each file atomically, but a
    `save` is read index, pick a data file name, write index, write data: two processes adding *different*
    signatures of one function at the same moment both pick ``.1.nbc``, and the index of one can end up naming the
    machine code of the other (numba issue #10128: crashes). The processes that share a cache folder here (the
    parallel test workers, the `sim` processes they start, a machine's Dask workers, sim/play/distributed.py) take
    the lock: exclusive to save, shared to load. Where the lock file cannot be made (a read-only cache), Numba's
    own behaviour."""
    import fcntl

    def run(self, *args, **kwargs):
        try:
            fd = os.open(self._index_path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return method(self, *args, **kwargs)
        try:
            fcntl.flock(fd, mode)
            return method(self, *args, **kwargs)
        finally:
            os.close(fd)  # and with it the lock

    run.__wrapped__ = method
    return run


if os.name == "posix" and not hasattr(_caching.IndexDataCacheFile.save, "__wrapped__"):
    import fcntl

    _caching.IndexDataCacheFile.save = _locked(_caching.IndexDataCacheFile.save, fcntl.LOCK_EX)
    _caching.IndexDataCacheFile.load = _locked(_caching.IndexDataCacheFile.load, fcntl.LOCK_SH)


def _fast_flags_compare() -> None:
    """Numba's compile flags (`TargetConfig`) compared and hashed without building a dict through its 22 option properties
    each time: Numba keys its typing caches by the flags (`templates._OverloadMethodTemplate._get_impl`, every
    call of an overloaded function while typing), and `TargetConfig.__eq__` / `__hash__` called `values()`, a dict
    comprehension over every option's property, 150,000 times in a Turnwall search compile (about 1 s of CPU;
    docs/dev/performance.md, "Cold compile (issue 41)"). Same answers: ``values()`` reads what each property reads
    (the set value, else the option's default); the hash is, as Numba's, that of the sorted option names (every
    instance of a class hashes alike); equal when identical or when the values are."""
    from numba.core.targetconfig import TargetConfig

    if getattr(TargetConfig, "_fast_compare", False):
        return

    def values(self):
        vals = self._values
        return {k: vals[k] if k in vals else opt.default for k, opt in self.options.items()}

    def eq(self, other):
        if self is other:
            return True
        if isinstance(other, TargetConfig):
            return values(self) == values(other)
        return NotImplemented

    def hash_(self):
        cls = type(self)
        h = cls.__dict__.get("_options_hash")
        if h is None:
            h = hash(tuple(sorted(cls.options)))
            cls._options_hash = h
        return h

    TargetConfig.values = values
    TargetConfig.__eq__ = eq
    TargetConfig.__hash__ = hash_
    TargetConfig._fast_compare = True


_fast_flags_compare()


def _memo_call_types() -> None:
    """Numba's typing of a call to a global function or operator (`types.Function.get_call_type`: ``st[i]``,
    ``a + b``, ``bool(x)``, ...) remembered by its arguments: Numba tries the function's templates in order for every
    call site, and a Turnwall search compile typed 12,883 such calls with only 685 different argument types, every
    repeat with the same answer (docs/dev/performance.md, "Typing a call once"). The key holds all the answer can
    depend on: the function type (its templates), the typing context, the argument types (literal values
    included), and the compile flags in force (an overload's implementation is compiled with them: an allocation
    types without reference counting fails). A hit sets the implementation key the template gave, as a fresh
    resolution does; a failed resolution is never remembered; a key that cannot be hashed is resolved as before."""
    from numba.core import targetconfig
    from numba.core.types import functions

    from kernels._inline import flags_key

    if getattr(functions.Function, "_sim_memo", False):
        return
    resolve = functions.Function.get_call_type
    memo: dict = {}

    def get_call_type(self, context, args, kws):
        flags = targetconfig.ConfigStack.top_or_none()
        try:
            key = (self, context, tuple(args), tuple(kws.items()), flags and flags_key(flags))
            hit = memo.get(key)
        except TypeError:
            return resolve(self, context, args, kws)
        if hit is not None:
            self._impl_keys[hit[0].args] = hit[1]
            return hit[0]
        sig = resolve(self, context, args, kws)
        if sig is not None:
            memo[key] = (sig, self._impl_keys[sig.args])
        return sig

    get_call_type.memo = memo  # type: ignore[attr-defined]  (the tests read it)
    functions.Function.get_call_type = get_call_type
    functions.Function._sim_memo = True


_memo_call_types()

from kernels import _calls, _codegen, _gc, _indexing, _inline, _irvars, _passes, _ranges, _variables  # noqa: E402
from kernels._noalias import NoAliasDispatcher  # noqa: E402

_gc.install()  # Python's full garbage collections held back while Numba compiles (kernels/_gc.py)
_codegen.install()  # each entry point's call tree optimized and made into machine code once (kernels/_codegen.py)
_inline.install()  # an inline='always' function's untyped IR made once, and copied cheaply (kernels/_inline.py)
_indexing.install()  # an array element access lowered in a few instructions (kernels/_indexing.py)
_ranges.install()  # a loop over range(n) or range(a, b) lowered in a few instructions (kernels/_ranges.py)
_variables.install()  # a variable without references stored and deleted without a drop (kernels/_variables.py)
_irvars.install()  # the variables of an IR statement listed with less Python work (kernels/_irvars.py)
_passes.install()  # two compiler passes skipped where the function's IR shows they would change nothing (kernels/_passes.py)
_calls.install()  # a call between kernel functions passes arrays and tuples whole (kernels/_calls.py)


_FLAGS = dict(cache=True, nogil=True, error_model="numpy", no_cfunc_wrapper=True)

from numba.core import types as ntypes  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402


class KernelDispatcher(CPUDispatcher):
    """Dispatcher of a kernel function compiled without a CPython wrapper (module docstring).

    Compiled callers call it as any Numba function. A call from Python goes to `python_twin()`: the same Python
    function compiled with the wrapper (same signatures and options, its own cache entries under the name
    ``<qualname>__python``), compiled on the first such call.
    """

    def __call__(self, *args, **kws):
        return self.python_twin()(*args, **kws)

    def get_call_template(self, args, kws):
        """As Numba's, but compiled for the arguments' types, not their constant values: Numba compiles a function
        once more for each ``Literal[int](0)``, ``Literal[int](5)``, ... a compiled caller passes (Galleon's search
        compiled one helper of its re-deal 16 times, Treasure Hunters' search its step twice; kernels/README.md,
        "How the loop is shared"), unless the function was made with ``njit(per_constant=True)``."""
        if not getattr(self, "per_constant", False):
            args = tuple(ntypes.unliteral(a) for a in args)
            kws = {k: ntypes.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def python_twin(self):
        """The Python-callable twin (a `numba.core.registry.CPUDispatcher`), made on first use."""
        twin = self.__dict__.get("_python_twin")
        if twin is None:
            f = self.py_func
            g = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
            g.__qualname__ = f.__qualname__ + "__python"  # cache entries apart from the wrapper-less ones
            g.__module__, g.__doc__ = f.__module__, f.__doc__
            opts = {k: v for k, v in self.targetoptions.items() if k not in ("no_cpython_wrapper", "nopython")}
            opts["cache"] = True
            sigs = [] if self._can_compile else list(self.signatures)
            twin = numba.njit(sigs, **opts)(g) if sigs else numba.njit(**opts)(g)
            self.__dict__["_python_twin"] = twin
        return twin


_DEFERRED: list[bool] = []  # set by `defer_compiles` in this process


def defer_compiles() -> None:
    """From now on in this process, a kernel function declared with signatures is compiled for them when it is
    first called or typed by a compiled caller, not when its module is imported: a process that only reads the
    games' specs (the web server: its forms, validation and pages) then never starts LLVM, whose first compile or
    cache load costs about 64 MB of memory (measured 2026-12-06: `import numba` 90 MB, then one eager function
    154 MB). A deferred function compiles exactly its declared signatures and then nothing else, as an eager one."""
    _DEFERRED.append(True)


class _Deferred:
    """Mixin of a dispatcher whose declared signatures (``_sim_sigs``) compile on first use (`defer_compiles`)."""

    def _compile_declared(self) -> bool:
        sigs = self.__dict__.pop("_sim_sigs", None)
        if sigs is None:
            return False
        from numba.core import typeinfer

        with typeinfer.register_dispatcher(self):
            for sig in sigs:
                self.compile(sig)
        self.disable_compile()
        return True

    def get_call_template(self, args, kws):
        self._compile_declared()
        return super().get_call_template(args, kws)

    def _compile_for_args(self, *args, **kws):
        if self._compile_declared():
            return self  # Numba calls what this returns: now matched against the declared signatures only
        return super()._compile_for_args(*args, **kws)

    def python_twin(self):
        self._compile_declared()
        return super().python_twin()


class _DeferredKernelDispatcher(_Deferred, KernelDispatcher):
    pass


class _DeferredEntryDispatcher(_Deferred, CPUDispatcher):
    pass


def _decorate(args, opts, entry):
    """Apply `numba.njit` with ``opts``; a non-entry function loses its CPython wrapper (`KernelDispatcher`).
    Signatures given after `defer_compiles` are compiled on first use instead of now."""
    per_constant = opts.pop("per_constant", False)
    noalias = opts.pop("noalias", False)
    if not entry:
        opts = {**opts, "no_cpython_wrapper": True}
    sigs = None
    if _DEFERRED and args and not callable(args[0]):
        sigs = args[0] if isinstance(args[0], (list, tuple)) else [args[0]]
        args = args[1:]

    def wrap(f):
        d = numba.njit(*args, **opts)(f)
        if not entry:
            d.__class__ = _DeferredKernelDispatcher if sigs is not None else KernelDispatcher
            d.per_constant = per_constant
        elif noalias:
            if sigs is not None:
                raise TypeError("njit(noalias=True) takes no signature (its calls from Python are checked)")
            f._sim_noalias = True  # read as its lowering starts (kernels/_codegen.py)
            d.__class__ = NoAliasDispatcher
        elif sigs is not None:
            d.__class__ = _DeferredEntryDispatcher
        if sigs is not None:
            d._sim_sigs = list(sigs)
        return d

    return wrap


def njit(*args, entry=False, **kw):
    """`numba.njit` with the project's flags and no reference counting (see module docstring).

    For kernel functions that never allocate an array; use `njit_alloc` for those that do. ``entry=True`` for the
    function Python calls in a run (`play_batch`): it keeps Numba's CPython wrapper. ``per_constant=True``: compiled
    once more for each constant value a compiled caller passes (`KernelDispatcher.get_call_template`), where that
    pays: `kernels.rng.shuffle` of the Moor deal's 33 tiles on row 0 (1.2% of a Moor game's instructions).
    ``noalias=True`` (an entry point): LLVM takes its array arguments as never overlapping, and each call from Python
    is checked that they do not (kernels/_noalias.py).
    """
    opts = {**_FLAGS, "_nrt": False, **kw}
    if args and callable(args[0]):
        return _decorate((), opts, entry)(args[0])
    return _decorate(args, opts, entry)


def njit_alloc(*args, entry=False, **kw):
    """`numba.njit` with the project's flags and reference counting on: for functions that allocate arrays."""
    return njit(*args, entry=entry, **{"_nrt": True, **kw})
